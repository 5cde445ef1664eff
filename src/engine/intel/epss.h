/* FIRST's Exploit Prediction Scoring System (EPSS): the daily CSV of every scored CVE, and the
 * EPSS members of intel records (src/engine/intel/intel.h).
 *
 * The file (https://epss.cyentia.com/epss_scores-current.csv.gz, decompressed by the caller):
 *
 *   #model_version:v2025.03.14,score_date:2026-11-26T00:00:00+0000
 *   cve,epss,percentile
 *   CVE-1999-0001,0.0046,0.7385
 *   ...
 *
 * One comment line of comma-separated key:value pairs, of which score_date is required (a score
 * is only meaningful with its day: it is the key of a record's history) and model_version kept
 * when given; then the header, exactly cve,epss,percentile; then one row per CVE. A leading UTF-8
 * byte-order mark and CRLF line ends are accepted; a final newline is optional. Scores and
 * percentiles are decimals from 0 to 1 ("0.00043", "1.0", "4.3e-04"), kept exactly as parts per
 * billion (nine decimals: the published files have five). Anything else rejects the whole file
 * with its line and column: a CVE id of another shape, a value outside 0..1, a missing or extra
 * column, a CVE given twice, more than BW_INTEL_EPSS_MAX_ROWS rows.
 *
 * Record members (not facts: a new score neither changes a record's version nor marks its
 * playbooks stale; bw_intel_same_facts ignores them):
 *   "epss":         {"score": 0.00043, "percentile": 0.12, "date": "2026-11-26"} | null (absent
 *                   in records stored before EPSS: read as null)
 *   "epss_history": [{"date","score","percentile"}, ...] newest first, one per score date, at
 *                   most BW_INTEL_EPSS_HISTORY_MAX; "epss" is its first entry.
 *
 * Pure: no database, no clock, no I/O. */
#ifndef BW_ENGINE_INTEL_EPSS_H
#define BW_ENGINE_INTEL_EPSS_H
#include "engine/intel/sources.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BW_EPSS_ONE 1000000000LL /* a score or percentile of 1, in parts per billion */

struct bw_epss_row {
    char cve[32]; /* "CVE-YYYY-" + up to BW_INTEL_CVE_SEQ_IMPORT digits */
    int64_t score, percentile; /* parts per billion, 0..BW_EPSS_ONE */
    int line;                  /* in the file, for messages */
};

struct bw_epss_file {
    char model_version[64]; /* "" when the comment line has none */
    char date[11];          /* "YYYY-MM-DD" of score_date */
    struct bw_epss_row *rows; /* sorted by cve (strcmp), no duplicates */
    size_t n;
};

/* Parses the decompressed CSV. 0 with *out filled (free with bw_epss_free), or -1 with *rej set
 * (line and column 1-based; out then holds nothing). */
int bw_epss_parse(const char *buf, size_t len, struct bw_epss_file *out, struct bw_intel_reject *rej);
void bw_epss_free(struct bw_epss_file *f);

/* A decimal from 0 to 1 (the CSV's and the feed's epss_min spelling) in parts per billion,
 * rounded half up past nine decimals; -1 when s is not one. s need not be NUL-terminated: len
 * bytes are read. */
int64_t bw_epss_decimal(const char *s, size_t len);

/* The record's current score in parts per billion, -1 when it has none. */
int64_t bw_epss_of(const json_t *record);

/* Puts the score of date (YYYY-MM-DD) into record's epss_history and epss (see above): a date
 * already held is replaced, a new one inserted in date order, the oldest dropped past
 * BW_INTEL_EPSS_HISTORY_MAX. Returns 1 when the record changed, 0 when it already held this
 * score (or the date is older than a full history keeps), -1 when out of memory. */
int bw_epss_apply(json_t *record, const char *date, int64_t score, int64_t percentile);

#endif
