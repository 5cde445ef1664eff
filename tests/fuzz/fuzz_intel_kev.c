/* The CISA KEV importer: JSON with positions (src/engine/intel/yaml.c) and the KEV normaliser
 * (src/engine/intel/kev.c), parse only, no database. */
#include "intel_check.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct bw_tree t;
    struct bw_parse_error e;
    if (bw_tree_json((const char *)data, size, &t, &e) != 0) {
        if (!e.msg[0])
            abort();
        return 0;
    }
    check_normaliser(bw_intel_kev, &t);
    bw_tree_free(&t);
    return 0;
}
