#include "services/webhooks.h"

#include "common/ids.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "engine/bom.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Queues body (the event document of type, event_id) to the webhooks in ids, one delivery and
 * job each; the first delivery's id into first (may be NULL). ST_OK or ST_ERROR. */
static int queue(struct db *db, const char *user_id, const char *type, const char *event_id, const char *body,
                 const char (*ids)[BW_ID_MAX], size_t n, char *first)
{
    struct store_webhook_delivery d[BW_WEBHOOKS_MAX];
    char jobs[BW_WEBHOOKS_MAX][BW_ID_MAX];
    int64_t now_us = bw_now_us();
    if (n > BW_WEBHOOKS_MAX)
        n = BW_WEBHOOKS_MAX;
    for (size_t i = 0; i < n; i++) {
        memset(&d[i], 0, sizeof d[i]);
        bw_id_new("whd_", d[i].id);
        bw_id_new("job_", jobs[i]);
        snprintf(d[i].webhook_id, sizeof d[i].webhook_id, "%s", ids[i]);
        snprintf(d[i].user_id, sizeof d[i].user_id, "%s", user_id);
        snprintf(d[i].event, sizeof d[i].event, "%s", type);
        snprintf(d[i].event_id, sizeof d[i].event_id, "%s", event_id);
        d[i].body = (char *)body; /* borrowed: the store only reads it */
        d[i].created_us = now_us;
        bw_iso8601(now_us / 1000000, d[i].created_at);
    }
    int rc = store_webhook_deliveries_enqueue(db, d, jobs, n, BW_WEBHOOK_JOB_KIND, BW_WEBHOOK_TRIES, now_us / 1000);
    if (rc == ST_OK && first && n)
        snprintf(first, BW_ID_MAX, "%s", d[0].id);
    return rc;
}

/* The event document's text for type with data (borrowed), and its id into event_id; NULL when
 * out of memory or too large (logged). */
static char *document(const char *type, const json_t *data, char event_id[BW_ID_MAX])
{
    char at[21];
    bw_id_new("evt_", event_id);
    bw_iso8601(bw_now_s(), at);
    json_t *doc = bw_webhook_envelope(event_id, type, at, json_deep_copy(data));
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    if (text && strlen(text) > BW_WEBHOOK_BODY_MAX) {
        bw_logf(BW_LOG_WARN, NULL, "webhook event %s is larger than %d bytes: not sent", type, BW_WEBHOOK_BODY_MAX);
        free(text);
        text = NULL;
    }
    return text;
}

int bw_webhooks_emit(struct db *db, const char *user_id, enum bw_webhook_event event, const json_t *data)
{
    const char *type = bw_webhook_event_name(event);
    char ids[BW_WEBHOOKS_MAX][BW_ID_MAX];
    size_t n = 0;
    if (!type || !user_id || !*user_id)
        return -1;
    if (store_webhook_subscribers(db, user_id, type, BW_WEBHOOK_TIER, ids, BW_WEBHOOKS_MAX, &n) != ST_OK) {
        bw_logf(BW_LOG_WARN, NULL, "webhook event %s for %s dropped: storage unavailable", type, user_id);
        return -1;
    }
    if (n == 0)
        return 0; /* the common case: one indexed query, nothing built */
    char event_id[BW_ID_MAX];
    char *body = document(type, data, event_id);
    int rc = body ? queue(db, user_id, type, event_id, body, (const char (*)[BW_ID_MAX])ids, n, NULL) : ST_ERROR;
    free(body);
    if (rc != ST_OK) {
        bw_logf(BW_LOG_WARN, NULL, "webhook event %s for %s dropped: it could not be queued", type, user_id);
        return -1;
    }
    bw_log_json(BW_LOG_INFO, NULL, "webhook event queued",
                json_pack("{s:s,s:s,s:s,s:i}", "event", type, "event_id", event_id, "user_id", user_id, "deliveries",
                          (int)n));
    return (int)n;
}

int bw_webhooks_ping(struct db *db, const struct store_webhook *w, char delivery_id[BW_ID_MAX])
{
    char event_id[BW_ID_MAX];
    json_t *data = json_pack("{s:s,s:s}", "webhook_id", w->id, "message", "a test ping from bulwark");
    char *body = data ? document(BW_WH_PING_EVENT, data, event_id) : NULL;
    json_decref(data);
    char ids[1][BW_ID_MAX];
    snprintf(ids[0], sizeof ids[0], "%s", w->id);
    int rc = body ? queue(db, w->user_id, BW_WH_PING_EVENT, event_id, body, (const char (*)[BW_ID_MAX])ids, 1,
                          delivery_id)
                  : ST_ERROR;
    free(body);
    return rc;
}

struct kev_scan {
    struct db *db;
    const json_t *kev;
    long events;
    bool capped;
};

/* One asset against every new KEV entry. */
static void kev_asset(void *arg, const struct store_event_asset *a)
{
    struct kev_scan *k = arg;
    /* the asset as bw_bom_asset_match reads it: provider, connection {model}, components */
    json_t *asset = json_pack("{s:s?,s:o*,s:o*}", "provider", a->provider, "connection",
                              a->connection ? json_loads(a->connection, 0, NULL) : NULL, "components",
                              a->components ? json_loads(a->components, 0, NULL) : NULL);
    if (!asset)
        return;
    size_t i;
    const json_t *rec;
    json_array_foreach(k->kev, i, rec) {
        const char *matched = NULL, *value = NULL;
        if (!bw_bom_asset_match(rec, asset, &matched, &value))
            continue;
        if (k->events >= BW_WEBHOOK_KEV_EVENTS_MAX) {
            k->capped = true;
            break;
        }
        const json_t *kd = json_object_get(rec, "kev_details");
        json_t *data = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s?,s:s?,s:s?}", "record_id", json_string_value(json_object_get(rec, "id")),
                                 "asset_id", a->id, "asset_name", a->name ? a->name : "", "matched", matched, "value",
                                 value, "vendor", json_string_value(json_object_get(kd, "vendor")), "product",
                                 json_string_value(json_object_get(kd, "product")), "title",
                                 json_string_value(json_object_get(rec, "title")));
        if (data && bw_webhooks_emit(k->db, a->user_id, BW_WH_INTEL_KEV_MATCH, data) > 0)
            k->events++;
        json_decref(data);
    }
    json_decref(asset);
}

long bw_webhooks_kev_matches(struct db *db, const json_t *kev)
{
    if (json_array_size(kev) == 0)
        return 0;
    struct kev_scan k = {db, kev, 0, false};
    if (store_webhook_event_assets(db, bw_webhook_event_name(BW_WH_INTEL_KEV_MATCH), BW_WEBHOOK_TIER,
                                   BW_WEBHOOK_KEV_ASSETS_MAX, kev_asset, &k) != ST_OK) {
        bw_logf(BW_LOG_WARN, NULL, "intel.kev_match: the assets could not be read; no event raised");
        return -1;
    }
    if (k.capped)
        bw_logf(BW_LOG_WARN, NULL, "intel.kev_match: %d events raised by one import; the rest are not sent",
                BW_WEBHOOK_KEV_EVENTS_MAX);
    return k.events;
}
