#include "services/evidence.h"

#include "common/log.h"
#include "common/timeutil.h"
#include "services/webhooks.h"

#include <stdio.h>
#include <string.h>

void bw_evidence_add_scan(struct bw_evidence *ev, const struct bw_scan_evidence *scan, bool recent)
{
    for (int s = 0; s < BW_EV_SEVERITIES; s++)
        ev->open_findings[s] += scan->open_findings[s];
    for (int k = 0; k < BW_EVIDENCE_OWASP; k++) {
        ev->owasp_hit[k] += (scan->owasp_hit >> k) & 1u;
        if (recent)
            ev->owasp_tested[k] += (scan->owasp_tested >> k) & 1u;
        /* the smallest ids of every scan's smallest ids are the smallest of all */
        for (int j = 0; j < BW_EVIDENCE_FINDING_IDS && scan->owasp_findings[k][j][0]; j++)
            bw_assetscan_evidence_add_id(ev->owasp_findings[k], scan->owasp_findings[k][j]);
    }
    ev->scans_read++;
}

bool bw_evidence_add_document(struct bw_evidence *ev, const char *body, size_t len, bool recent)
{
    struct bw_scan_evidence scan;
    json_t *doc = json_loadb(body, len, 0, NULL);
    bool ok = bw_assetscan_evidence(doc, &scan);
    json_decref(doc);
    if (ok)
        bw_evidence_add_scan(ev, &scan, recent);
    return ok;
}

struct gathering {
    struct bw_evidence *ev;
    const char *since;
};

static void add_row(void *arg, const struct store_evidence_scan *s)
{
    struct gathering *g = arg;
    bool recent = s->created_at && strcmp(s->created_at, g->since) >= 0;
    if (!s->has_evidence) { /* stored before the evidence columns: read the document */
        size_t len = s->body ? strlen(s->body) : 0;
        if (len > 0 && len <= BW_EVIDENCE_MAX_SCAN_BYTES)
            (void)bw_evidence_add_document(g->ev, s->body, len, recent);
        return;
    }
    struct bw_scan_evidence scan = {
        .open_findings = {s->open_critical, s->open_high, s->open_medium, s->open_low},
        .owasp_hit = (unsigned)s->owasp_hit,
        .owasp_tested = (unsigned)s->owasp_tested,
    };
    if (!bw_assetscan_evidence_ids_parse(s->owasp_findings, &scan))
        bw_logf(BW_LOG_WARN, NULL, "asset scan evidence: unreadable finding ids \"%.80s\"", s->owasp_findings);
    bw_evidence_add_scan(g->ev, &scan, recent);
}

int bw_evidence_gather(struct db *db, const char *user_id, int64_t now_s, struct bw_evidence *out)
{
    memset(out, 0, sizeof *out);
    out->oldest_active_key_days = -1;
    char since[21];
    bw_iso8601(now_s - (int64_t)BW_EVIDENCE_WINDOW_DAYS * 86400, since);
    struct store_evidence_counts c;
    struct gathering g = {out, since};
    if (store_evidence_read(db, user_id, since, BW_EVIDENCE_MAX_SCANS, add_row, &g, &c) != ST_OK)
        return ST_ERROR;
    out->assets_registered = c.assets_registered;
    memcpy(out->by_type, c.by_type, sizeof out->by_type);
    out->ntypes = c.ntypes;
    out->assets_scanned = c.assets_scanned;
    out->assets_scanned_90d = c.assets_scanned_since;
    out->scans_truncated = out->assets_scanned > BW_EVIDENCE_MAX_SCANS;
    out->keys_active = c.keys_active;
    out->keys_rotated = c.keys_rotated;
    int64_t oldest;
    if (out->keys_active > 0 && bw_parse_iso8601(c.oldest_active_key_at, &oldest) == 0)
        out->oldest_active_key_days = now_s > oldest ? (now_s - oldest) / 86400 : 0;
    out->redteam_completed_90d = c.redteam_completed;
    out->redteam_high_successes_90d = c.redteam_high_successes;
    return ST_OK;
}

int bw_evidence_scan_save(struct db *db, struct store_asset_scan *s, const json_t *result)
{
    struct bw_scan_evidence scan;
    char ids[BW_EVIDENCE_IDS_TEXT];
    s->has_evidence = bw_assetscan_evidence(result, &scan);
    if (s->has_evidence) {
        bw_assetscan_evidence_ids(&scan, ids);
        s->open_critical = scan.open_findings[BW_EV_CRITICAL];
        s->open_high = scan.open_findings[BW_EV_HIGH];
        s->open_medium = scan.open_findings[BW_EV_MEDIUM];
        s->open_low = scan.open_findings[BW_EV_LOW];
        s->owasp_hit = scan.owasp_hit;
        s->owasp_tested = scan.owasp_tested;
        s->owasp_findings = ids;
    }
    int rc = store_asset_scan_save(db, s);
    s->owasp_findings = NULL; /* ids is gone */
    if (rc == ST_OK) { /* asset_scan.completed for the account's webhooks */
        const json_t *f = json_object_get(result, "findings");
        json_t *data = json_pack("{s:s,s:s,s:i,s:s,s:s,s:i,s:s}", "asset_id", s->asset_id, "scan_id", s->id, "score",
                                 s->score, "risk_level", s->risk_level, "status", s->status ? s->status : "completed",
                                 "findings", (int)json_array_size(f), "scanned_at", s->created_at);
        if (data)
            (void)bw_webhooks_emit(db, s->user_id, BW_WH_ASSET_SCAN_COMPLETED, data);
        json_decref(data);
    }
    return rc;
}
