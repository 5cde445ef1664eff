/* Prometheus text exposition (format 0.0.4) helpers, and the fixed label sets that counters are
 * indexed by on hot paths: the status codes the server answers and the latency buckets.
 *
 * Pure: no state, no allocation. Writers append to a caller's FILE (an open_memstream in
 * /metrics); the counters themselves live with what they count (src/http/metrics.c, db.c, jobs.c,
 * the scanner, egress) and are summed at scrape time.
 *
 * The exposition rules these helpers keep: a family's # HELP and # TYPE lines come before its
 * samples, label values escape backslash, double quote and line feed, HELP text escapes backslash
 * and line feed. */
#ifndef BW_COMMON_METRICS_H
#define BW_COMMON_METRICS_H
#include "common/limits.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- status codes: a small fixed set, index 0 = any other status ---- */

#define BW_METRICS_NSTATUS 19
/* The index of an HTTP status in the fixed set (0 "other" for a status not in it, including 0
 * for a request that ended before an answer). A switch: no loop, no lookup table to search. */
unsigned bw_metrics_status_index(unsigned status);
/* The label text of an index: "200", ..., or "other" (index 0 or out of range). */
const char *bw_metrics_status_label(unsigned idx);

/* ---- request latency buckets (upper bounds, inclusive, as Prometheus `le`) ---- */

#define BW_METRICS_NBUCKETS 14 /* finite buckets; index BW_METRICS_NBUCKETS is +Inf */
/* Upper bound of bucket i in microseconds (i < BW_METRICS_NBUCKETS). */
uint64_t bw_metrics_bucket_us(unsigned i);
/* The `le` label text of bucket i: "0.0005" ... "10", and "+Inf" for i == BW_METRICS_NBUCKETS. */
const char *bw_metrics_bucket_le(unsigned i);
/* The first bucket whose bound is >= us (BW_METRICS_NBUCKETS when none: +Inf only). */
unsigned bw_metrics_bucket_index(uint64_t us);

/* ---- writing the text format ---- */

/* "# HELP name help\n# TYPE name type\n"; type is counter, gauge or histogram. */
void bw_prom_family(FILE *f, const char *name, const char *type, const char *help);
/* Writes s as a label value (without the quotes): \ -> \\, " -> \", line feed -> \n. */
void bw_prom_label_value(FILE *f, const char *s);

/* A label set: up to BW_PROM_MAX_LABELS name/value pairs (names are literals, values escaped). */
struct bw_prom_labels {
    const char *name[BW_PROM_MAX_LABELS];
    const char *value[BW_PROM_MAX_LABELS];
    unsigned n;
};
/* One sample line: name{labels} value. labels may be NULL (no braces then). */
void bw_prom_sample_u(FILE *f, const char *name, const struct bw_prom_labels *labels, unsigned long long v);
/* The same with a floating-point value (six decimals: microsecond sums read as seconds). */
void bw_prom_sample_d(FILE *f, const char *name, const struct bw_prom_labels *labels, double v);

/* Builds a label set inline: BW_PROM_L2("route", r, "status", s). */
#define BW_PROM_L1(a, av) (&(struct bw_prom_labels){{(a)}, {(av)}, 1})
#define BW_PROM_L2(a, av, b, bv) (&(struct bw_prom_labels){{(a), (b)}, {(av), (bv)}, 2})
#define BW_PROM_L3(a, av, b, bv, c, cv) (&(struct bw_prom_labels){{(a), (b), (c)}, {(av), (bv), (cv)}, 3})

#endif
