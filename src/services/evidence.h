/* Platform evidence for governance assessments: what the account's AI security work shows (assets
 * registered and scanned, findings open in the latest live scans, OWASP LLM risks hit or tested,
 * API key hygiene, red-team engagements), gathered from the rows the store returns
 * (src/store/store_evidence.h). The engine decides what it means (src/engine/governance.c).
 *
 * Only each asset's latest scan counts (its findings are the open ones, since a rescan replaces
 * them), at most BW_EVIDENCE_MAX_SCANS of them (those of the most recently registered assets).
 * What one scan is evidence of is computed by src/engine/assetscan.c when the scan is saved
 * (bw_evidence_scan_save) and stored with it; for a scan stored before that (its evidence columns
 * NULL) it is derived here from the stored document by the same engine function, so old and new
 * rows count the same. Red-team engagements count when completed inside the window: how many,
 * and how many of their HIGH or CRITICAL attacks succeeded.
 *
 * Ownership: struct bw_evidence is filled by value; nothing to free. */
#ifndef BW_SERVICES_EVIDENCE_H
#define BW_SERVICES_EVIDENCE_H
#include "common/limits.h"
#include "engine/assetscan.h"
#include "store/db.h"
#include "store/store.h"
#include "store/store_evidence.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


struct bw_evidence {
    int64_t assets_registered;
    struct store_type_count by_type[BW_EVIDENCE_MAX_TYPES]; /* by type name, ascending */
    int ntypes;
    int64_t assets_scanned;     /* assets with at least one live scan */
    int64_t assets_scanned_90d; /* ... whose latest scan is at most BW_EVIDENCE_WINDOW_DAYS old */
    int64_t scans_read;         /* latest scans counted */
    bool scans_truncated;       /* more scanned assets than BW_EVIDENCE_MAX_SCANS */
    int64_t open_findings[BW_EV_SEVERITIES]; /* findings in the latest scans, by severity */
    /* per OWASP risk (index 0 = LLM01): assets whose latest scan found it, assets whose latest
     * scan from the window probed for it (found or not), and up to BW_EVIDENCE_FINDING_IDS
     * distinct finding ids that reported it, ascending */
    int64_t owasp_hit[BW_EVIDENCE_OWASP];
    int64_t owasp_tested[BW_EVIDENCE_OWASP];
    char owasp_findings[BW_EVIDENCE_OWASP][BW_EVIDENCE_FINDING_IDS][BW_EVIDENCE_ID_MAX];
    int64_t keys_active;
    int64_t keys_rotated;           /* keys created by rotating another (rotated_from set) */
    int64_t oldest_active_key_days; /* -1 when no key is active */
    int64_t redteam_completed_90d;      /* engagements completed inside the window */
    int64_t redteam_high_successes_90d; /* their HIGH/CRITICAL attacks that succeeded */
};

/* Fills *out for user_id as of now_s (Unix seconds). ST_OK (store.h) or ST_ERROR when the
 * database failed; *out is zeroed first either way. */
int bw_evidence_gather(struct db *db, const char *user_id, int64_t now_s, struct bw_evidence *out);

/* Counts one latest scan into *ev; recent: whether the scan is inside the window (only then do
 * its tested risks count). */
void bw_evidence_add_scan(struct bw_evidence *ev, const struct bw_scan_evidence *scan, bool recent);

/* Counts one stored scan document (the JSON text of asset_scans.body) into *ev, as
 * bw_evidence_add_scan; false, counting nothing, when it is not a scan document. */
bool bw_evidence_add_document(struct bw_evidence *ev, const char *body, size_t len, bool recent);

/* Saves a finished live scan (store_asset_scan_save) with the evidence columns computed from its
 * result document (the one stored as s->body). Returns what the store returns. */
int bw_evidence_scan_save(struct db *db, struct store_asset_scan *s, const json_t *result);

#endif
