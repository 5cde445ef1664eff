/* The EPSS importer's reader (src/services/intel_ingest.c bw_intel_epss_load): gzip detection and
 * decompression (src/common/gzip.c) and the CSV parser (src/engine/intel/epss.c), no database.
 * What it accepts must be sorted, unique, in range and survive being written back and parsed
 * again unchanged; what it refuses must say why; every score must apply to a record and keep its
 * history bounded. */
#include "common/limits.h"
#include "engine/intel/epss.h"
#include "engine/intel/intel.h"
#include "services/intel_ingest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(const struct bw_epss_file *f)
{
    if (strlen(f->date) != 10)
        abort();
    for (size_t i = 0; i < f->n; i++) {
        const struct bw_epss_row *r = &f->rows[i];
        if (r->score < 0 || r->score > BW_EPSS_ONE || r->percentile < 0 || r->percentile > BW_EPSS_ONE)
            abort();
        if (i && strcmp(f->rows[i - 1].cve, r->cve) >= 0)
            abort();
    }
    /* written back with nine decimals, the same rows */
    size_t cap = 64 + f->n * 64;
    char *text = malloc(cap);
    if (!text)
        return;
    size_t len = (size_t)snprintf(text, cap, "#score_date:%s\ncve,epss,percentile\n", f->date);
    for (size_t i = 0; i < f->n; i++)
        len += (size_t)snprintf(text + len, cap - len, "%s,%lld.%09lld,0.%09lld\n", f->rows[i].cve,
                                (long long)(f->rows[i].score / BW_EPSS_ONE), (long long)(f->rows[i].score % BW_EPSS_ONE),
                                (long long)f->rows[i].percentile % BW_EPSS_ONE);
    struct bw_epss_file g;
    struct bw_intel_reject rej;
    memset(&rej, 0, sizeof rej);
    if (bw_epss_parse(text, len, &g, &rej) != 0 || g.n != f->n || strcmp(g.date, f->date) != 0)
        abort();
    for (size_t i = 0; i < g.n; i++)
        if (strcmp(g.rows[i].cve, f->rows[i].cve) != 0 || g.rows[i].score != f->rows[i].score ||
            g.rows[i].percentile != f->rows[i].percentile % BW_EPSS_ONE)
            abort();
    bw_epss_free(&g);
    free(text);
    /* the first few scores onto one record: history bounded, epss its newest, risk computable */
    json_t *rec = json_object();
    for (size_t i = 0; rec && i < f->n && i < 4; i++) {
        if (bw_epss_apply(rec, f->date, f->rows[i].score, f->rows[i].percentile) < 0)
            break;
        if (bw_epss_of(rec) != f->rows[i].score ||
            json_array_size(json_object_get(rec, "epss_history")) > BW_INTEL_EPSS_HISTORY_MAX)
            abort();
    }
    json_decref(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct bw_epss_file f;
    struct bw_intel_reject rej;
    memset(&rej, 0, sizeof rej);
    if (bw_intel_epss_load((const char *)data, size, &f, &rej) != 0) {
        if (!rej.msg[0] || f.rows)
            abort();
        return 0;
    }
    check(&f);
    bw_epss_free(&f);
    return 0;
}
