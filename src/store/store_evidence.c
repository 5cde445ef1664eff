#include "store/store_evidence.h"

#include "store/store.h"

#include <stdio.h>
#include <string.h>

int store_evidence_read(struct db *db, const char *user_id, const char *since, long max_scans,
                        store_evidence_scan_fn fn, void *arg, struct store_evidence_counts *out)
{
    memset(out, 0, sizeof *out);
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_param pu[] = {DBP_TEXT(user_id)};
    struct db_param pc[] = {DBP_TEXT(since), DBP_TEXT(user_id)};
    struct db_param pl[] = {DBP_TEXT(user_id), DBP_INT(max_scans)};
    struct db_rows *r = NULL;
    int rc = ST_ERROR;

    /* times are ISO 8601 UTC text of one width, so text order is time order */
    if (db_query(c,
                 "SELECT COUNT(*), SUM(CASE WHEN last_scan_id IS NOT NULL THEN 1 ELSE 0 END),"
                 " SUM(CASE WHEN last_scanned_at >= ? THEN 1 ELSE 0 END) FROM assets WHERE user_id = ?",
                 pc, 2, &r) != DB_OK ||
        !db_rows_next(r))
        goto out;
    out->assets_registered = db_rows_int(r, 0);
    out->assets_scanned = db_rows_int(r, 1);
    out->assets_scanned_since = db_rows_int(r, 2);
    db_rows_free(r);
    r = NULL;

    if (db_query(c, "SELECT type, COUNT(*) FROM assets WHERE user_id = ? GROUP BY type ORDER BY type", pu, 1, &r) !=
        DB_OK)
        goto out;
    while (db_rows_next(r))
        if (out->ntypes < BW_EVIDENCE_MAX_TYPES) {
            const char *t = db_rows_text(r, 0);
            snprintf(out->by_type[out->ntypes].type, sizeof out->by_type[0].type, "%s", t ? t : "");
            out->by_type[out->ntypes++].n = db_rows_int(r, 1);
        }
    db_rows_free(r);
    r = NULL;

    /* each asset's latest scan, newest assets first, bounded; the document only where the
     * evidence columns are missing (owasp_hit is NULL exactly when they all are) */
    if (db_query(c,
                 "SELECT s.created_at, s.open_critical, s.open_high, s.open_medium, s.open_low, s.owasp_hit,"
                 " s.owasp_tested, s.owasp_findings,"
                 " CASE WHEN s.owasp_hit IS NULL THEN s.body END FROM assets a JOIN asset_scans s"
                 " ON s.id = a.last_scan_id AND s.user_id = a.user_id"
                 " WHERE a.user_id = ? ORDER BY a.created_us DESC, a.id DESC LIMIT ?",
                 pl, 2, &r) != DB_OK)
        goto out;
    while (db_rows_next(r)) {
        const char *ids = db_rows_text(r, 7);
        struct store_evidence_scan s = {
            .created_at = db_rows_text(r, 0),
            .has_evidence = !db_rows_null(r, 5),
            .open_critical = db_rows_int(r, 1),
            .open_high = db_rows_int(r, 2),
            .open_medium = db_rows_int(r, 3),
            .open_low = db_rows_int(r, 4),
            .owasp_hit = db_rows_int(r, 5),
            .owasp_tested = db_rows_int(r, 6),
            .owasp_findings = ids ? ids : "",
            .body = db_rows_text(r, 8),
        };
        fn(arg, &s);
    }
    db_rows_free(r);
    r = NULL;

    if (db_query(c,
                 "SELECT SUM(CASE WHEN active = 1 THEN 1 ELSE 0 END),"
                 " SUM(CASE WHEN rotated_from IS NOT NULL THEN 1 ELSE 0 END),"
                 " MIN(CASE WHEN active = 1 THEN created_at END) FROM api_keys WHERE user_id = ?",
                 pu, 1, &r) != DB_OK ||
        !db_rows_next(r))
        goto out;
    out->keys_active = db_rows_int(r, 0);
    out->keys_rotated = db_rows_int(r, 1);
    const char *oldest = db_rows_text(r, 2);
    snprintf(out->oldest_active_key_at, sizeof out->oldest_active_key_at, "%s", oldest ? oldest : "");
    db_rows_free(r);
    r = NULL;

    struct db_param pr[] = {DBP_TEXT(user_id), DBP_TEXT(since)};
    if (db_query(c,
                 "SELECT COUNT(DISTINCT e.id),"
                 " SUM(CASE WHEN a.succeeded = 1 AND a.severity IN ('HIGH', 'CRITICAL') THEN 1 ELSE 0 END)"
                 " FROM engagements e LEFT JOIN engagement_attacks a ON a.engagement_id = e.id"
                 " WHERE e.user_id = ? AND e.status = 'completed' AND e.finished_at >= ?",
                 pr, 2, &r) != DB_OK ||
        !db_rows_next(r))
        goto out;
    out->redteam_completed = db_rows_int(r, 0);
    out->redteam_high_successes = db_rows_int(r, 1);
    rc = ST_OK;
out:
    db_rows_free(r);
    db_release(c);
    return rc;
}
