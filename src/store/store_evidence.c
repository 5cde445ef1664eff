#include "store/store_evidence.h"

#include "common/timeutil.h"
#include "store/store.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* "LLM01".."LLM10" -> 0..9, else -1. */
static int owasp_index(const char *s)
{
    if (!s || strncmp(s, "LLM", 3) != 0 || s[3] < '0' || s[3] > '9' || s[4] < '0' || s[4] > '9' || s[5])
        return -1;
    int n = (s[3] - '0') * 10 + (s[4] - '0');
    return n >= 1 && n <= BW_EVIDENCE_OWASP ? n - 1 : -1;
}

static int severity_index(const char *s)
{
    static const char *const names[BW_EV_SEVERITIES] = {"CRITICAL", "HIGH", "MEDIUM", "LOW"};
    for (int i = 0; s && i < BW_EV_SEVERITIES; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* Keeps the distinct ids ascending, so the result does not depend on row order once full. */
static void add_finding_id(char ids[BW_EVIDENCE_FINDING_IDS][40], const char *id)
{
    if (!id || !*id || strlen(id) >= 40)
        return;
    int n = 0, at = 0;
    while (n < BW_EVIDENCE_FINDING_IDS && ids[n][0])
        n++;
    while (at < n && strcmp(ids[at], id) < 0)
        at++;
    if (at < n && strcmp(ids[at], id) == 0)
        return;
    if (at == BW_EVIDENCE_FINDING_IDS)
        return; /* larger than every kept id and no room */
    int last = n < BW_EVIDENCE_FINDING_IDS ? n : BW_EVIDENCE_FINDING_IDS - 1;
    for (int k = last; k > at; k--)
        memcpy(ids[k], ids[k - 1], 40);
    snprintf(ids[at], 40, "%s", id);
}

bool store_evidence_add_scan(struct store_evidence *ev, const char *body, size_t len, bool recent)
{
    json_t *doc = json_loadb(body, len, 0, NULL);
    json_t *findings = json_object_get(doc, "findings");
    if (!json_is_array(findings)) {
        json_decref(doc);
        return false;
    }
    bool hit[BW_EVIDENCE_OWASP] = {false}, tested[BW_EVIDENCE_OWASP] = {false};
    size_t i;
    json_t *f;
    json_array_foreach(findings, i, f) {
        int s = severity_index(json_string_value(json_object_get(f, "severity")));
        if (s >= 0)
            ev->open_findings[s]++;
        int k = owasp_index(json_string_value(json_object_get(f, "owasp_llm")));
        if (k >= 0) {
            hit[k] = tested[k] = true;
            add_finding_id(ev->owasp_findings[k], json_string_value(json_object_get(f, "id")));
        }
    }
    /* Which risks the scan probed: a document may say so itself (owasp_llm_tested); otherwise the
     * scanner's contract (src/engine/assetscan.h, step 6) applies: when its chat probes ran
     * (llm_api "openai" or "prompt") and the scan was not cut short, it probed LLM01, LLM02,
     * LLM07 and LLM10. A cut-short scan proves only what it found. */
    json_t *declared = json_object_get(doc, "owasp_llm_tested");
    if (json_is_array(declared)) {
        json_t *t;
        json_array_foreach(declared, i, t) {
            int k = owasp_index(json_string_value(t));
            if (k >= 0)
                tested[k] = true;
        }
    } else {
        const char *api = json_string_value(json_object_get(doc, "llm_api"));
        bool probed = api && (strcmp(api, "openai") == 0 || strcmp(api, "prompt") == 0);
        if (probed && !json_is_true(json_object_get(doc, "incomplete"))) {
            static const int probes[] = {0, 1, 6, 9}; /* LLM01, LLM02, LLM07, LLM10 */
            for (size_t p = 0; p < sizeof probes / sizeof probes[0]; p++)
                tested[probes[p]] = true;
        }
    }
    for (int k = 0; k < BW_EVIDENCE_OWASP; k++) {
        ev->owasp_hit[k] += hit[k];
        if (recent)
            ev->owasp_tested[k] += tested[k];
    }
    json_decref(doc);
    return true;
}

int store_evidence_gather(struct db *db, const char *user_id, int64_t now_s, struct store_evidence *out)
{
    memset(out, 0, sizeof *out);
    out->oldest_active_key_days = -1;
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    char cutoff[21];
    bw_iso8601(now_s - (int64_t)BW_EVIDENCE_WINDOW_DAYS * 86400, cutoff);
    struct db_param pu[] = {DBP_TEXT(user_id)};
    struct db_param pc[] = {DBP_TEXT(cutoff), DBP_TEXT(user_id)};
    struct db_param pl[] = {DBP_TEXT(user_id), DBP_INT(BW_EVIDENCE_MAX_SCANS)};
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
    out->assets_scanned_90d = db_rows_int(r, 2);
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

    /* each asset's latest scan, newest assets first, bounded */
    if (db_query(c,
                 "SELECT s.body, s.created_at FROM assets a JOIN asset_scans s"
                 " ON s.id = a.last_scan_id AND s.user_id = a.user_id"
                 " WHERE a.user_id = ? ORDER BY a.created_us DESC, a.id DESC LIMIT ?",
                 pl, 2, &r) != DB_OK)
        goto out;
    while (db_rows_next(r)) {
        const char *body = db_rows_text(r, 0), *at = db_rows_text(r, 1);
        size_t len = body ? strlen(body) : 0;
        if (len == 0 || len > BW_EVIDENCE_MAX_SCAN_BYTES)
            continue;
        if (store_evidence_add_scan(out, body, len, at && strcmp(at, cutoff) >= 0))
            out->scans_read++;
    }
    out->scans_truncated = out->assets_scanned > BW_EVIDENCE_MAX_SCANS;
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
    int64_t oldest;
    if (out->keys_active > 0 && bw_parse_iso8601(db_rows_text(r, 2), &oldest) == 0)
        out->oldest_active_key_days = now_s > oldest ? (now_s - oldest) / 86400 : 0;
    db_rows_free(r);
    r = NULL;

    struct db_param pr[] = {DBP_TEXT(user_id), DBP_TEXT(cutoff)};
    if (db_query(c,
                 "SELECT COUNT(DISTINCT e.id),"
                 " SUM(CASE WHEN a.succeeded = 1 AND a.severity IN ('HIGH', 'CRITICAL') THEN 1 ELSE 0 END)"
                 " FROM engagements e LEFT JOIN engagement_attacks a ON a.engagement_id = e.id"
                 " WHERE e.user_id = ? AND e.status = 'completed' AND e.finished_at >= ?",
                 pr, 2, &r) != DB_OK ||
        !db_rows_next(r))
        goto out;
    out->redteam_completed_90d = db_rows_int(r, 0);
    out->redteam_high_successes_90d = db_rows_int(r, 1);
    rc = ST_OK;
out:
    db_rows_free(r);
    db_release(c);
    return rc;
}
