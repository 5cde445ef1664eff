/* The rows behind governance evidence for one account: counts over assets, API keys and red-team
 * engagements, and each asset's latest scan with the evidence columns written with it (migration
 * 0010). Portable SQL on either backend; no document is parsed here: what a scan means is decided
 * by src/engine/assetscan.c, gathered by src/services/evidence.c.
 *
 * Bounded work: one query per table, at most max_scans scan rows (those of the most recently
 * registered assets).
 *
 * Ownership: the counts are filled by value; the strings of a scan row are borrowed for the
 * duration of the callback. */
#ifndef BW_STORE_STORE_EVIDENCE_H
#define BW_STORE_STORE_EVIDENCE_H
#include "common/limits.h"
#include "store/db.h"

#include <stdbool.h>
#include <stdint.h>

struct store_type_count {
    char type[16];
    int64_t n;
};

struct store_evidence_counts {
    int64_t assets_registered;
    struct store_type_count by_type[BW_EVIDENCE_MAX_TYPES]; /* by type name, ascending */
    int ntypes;
    int64_t assets_scanned;       /* assets with at least one live scan */
    int64_t assets_scanned_since; /* ... whose latest scan is at or after `since` */
    int64_t keys_active;
    int64_t keys_rotated;             /* keys created by rotating another (rotated_from set) */
    char oldest_active_key_at[24];    /* created_at of the oldest active key; "" when none */
    int64_t redteam_completed;        /* engagements completed at or after `since` */
    int64_t redteam_high_successes;   /* their HIGH/CRITICAL attacks that succeeded */
};

/* One asset's latest scan. */
struct store_evidence_scan {
    const char *created_at;
    bool has_evidence; /* the evidence columns are set; false for scans stored before 0010 */
    int64_t open_critical, open_high, open_medium, open_low, owasp_hit, owasp_tested;
    const char *owasp_findings; /* "" when NULL */
    const char *body;           /* without evidence columns only: the stored document; else NULL */
};
typedef void (*store_evidence_scan_fn)(void *arg, const struct store_evidence_scan *s);

/* Fills *out for user_id and calls fn for each asset's latest scan, newest assets first, at most
 * max_scans; since: ISO 8601 UTC text, the start of the window. ST_OK (store.h) or ST_ERROR when
 * the database failed (logged by the db layer); *out is zeroed first either way. */
int store_evidence_read(struct db *db, const char *user_id, const char *since, long max_scans,
                        store_evidence_scan_fn fn, void *arg, struct store_evidence_counts *out);

#endif
