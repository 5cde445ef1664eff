/* OSV sources as the sync fetches them (src/engine/intel/osvlist.c): arbitrary bytes as a zip
 * (libzip, from memory) or a JSON list of advisories, each document handed on checked against a
 * package filter, as the sync does; no database. */
#include "engine/intel/osvlist.h"

#include <stdint.h>
#include <string.h>

static int doc(const char *name, const char *json, size_t len, void *arg)
{
    (void)name;
    (void)arg;
    json_t *a = json_loadb(json, len, JSON_REJECT_DUPLICATES, NULL);
    if (a) {
        (void)bw_osv_wanted(a, "torch, PyPI:transformers,npm:@scope/x");
        json_decref(a);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char msg[300];
    (void)bw_osv_list((const char *)data, size, doc, NULL, msg, sizeof msg);
    /* the filter parser on the same bytes, as a configuration value */
    char filter[512];
    size_t n = size < sizeof filter - 1 ? size : sizeof filter - 1;
    memcpy(filter, data, n);
    filter[n] = '\0';
    (void)bw_osv_filter_valid(filter);
    return 0;
}
