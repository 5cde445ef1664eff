/* Platform evidence for governance assessments: what the database holds about one account's AI
 * security work (assets registered and scanned, findings open in the latest live scans, API key
 * hygiene), gathered with portable SQL on either backend. The engine decides what it means
 * (src/engine/governance.c); this file only counts.
 *
 * Bounded work: one query per table and at most BW_EVIDENCE_MAX_SCANS latest scan documents
 * parsed (those of the most recently registered assets). Only each asset's latest scan counts:
 * its findings are the open ones, since a rescan replaces them.
 *
 * Red-team engagements count when completed inside the window: how many, and how many of their
 * HIGH or CRITICAL attacks succeeded.
 *
 * Ownership: the struct is filled by value; nothing to free. */
#ifndef BW_STORE_STORE_EVIDENCE_H
#define BW_STORE_STORE_EVIDENCE_H
#include "common/limits.h"
#include "store/db.h"

#include <stdbool.h>
#include <stdint.h>

enum { BW_EV_CRITICAL, BW_EV_HIGH, BW_EV_MEDIUM, BW_EV_LOW, BW_EV_SEVERITIES };

struct store_evidence {
    int64_t assets_registered;
    struct {
        char type[16];
        int64_t n;
    } by_type[BW_EVIDENCE_MAX_TYPES]; /* by type name, ascending */
    int ntypes;
    int64_t assets_scanned;     /* assets with at least one live scan */
    int64_t assets_scanned_90d; /* ... whose latest scan is at most BW_EVIDENCE_WINDOW_DAYS old */
    int64_t scans_read;         /* latest scan documents parsed */
    bool scans_truncated;       /* more scanned assets than BW_EVIDENCE_MAX_SCANS */
    int64_t open_findings[BW_EV_SEVERITIES]; /* findings in the latest scans, by severity */
    /* per OWASP risk (index 0 = LLM01): assets whose latest scan found it, assets whose latest
     * scan from the window probed for it (found or not), and up to BW_EVIDENCE_FINDING_IDS
     * distinct finding ids that reported it, ascending */
    int64_t owasp_hit[BW_EVIDENCE_OWASP];
    int64_t owasp_tested[BW_EVIDENCE_OWASP];
    char owasp_findings[BW_EVIDENCE_OWASP][BW_EVIDENCE_FINDING_IDS][40];
    int64_t keys_active;
    int64_t keys_rotated;           /* keys created by rotating another (rotated_from set) */
    int64_t oldest_active_key_days; /* -1 when no key is active */
    int64_t redteam_completed_90d;      /* engagements completed inside the window */
    int64_t redteam_high_successes_90d; /* their HIGH/CRITICAL attacks that succeeded */
};

/* Fills *out for user_id as of now_s (Unix seconds). ST_OK (store.h) or ST_ERROR when the
 * database failed (logged by the db layer); *out is zeroed first either way. */
int store_evidence_gather(struct db *db, const char *user_id, int64_t now_s, struct store_evidence *out);

/* Counts one latest-scan document (the JSON text stored in asset_scans.body) into *ev; recent:
 * whether the scan is inside the window. Exposed for tests; false when it is not a scan document. */
bool store_evidence_add_scan(struct store_evidence *ev, const char *body, size_t len, bool recent);

#endif
