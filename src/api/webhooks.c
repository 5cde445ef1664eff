/* /api/webhooks (PRO+): register an endpoint for events, list, delete, the delivery log, a test
 * ping. The signing secret is shown once, at creation, and sealed at rest (common/seal.h) like an
 * asset's connection secret; GET never shows it. Another account's webhook is 404 everywhere.
 * What is sent, signed and retried: src/engine/webhook.h, src/jobs/webhook_job.h. */
#include "api/api.h"
#include "api/api_util.h"
#include "common/ids.h"
#include "common/limits.h"
#include "common/seal.h"
#include "common/timeutil.h"
#include "engine/webhook.h"
#include "services/webhooks.h"
#include "store/store.h"
#include "store/store_webhooks.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char WARNING[] =
    "Store this secret now: it is shown only once. It signs every delivery (X-Bulwark-Signature).";

static json_t *webhook_json(const struct store_webhook *w)
{
    return json_pack("{s:s,s:s,s:o,s:s}", "id", w->id, "url", w->url, "events",
                     bw_webhook_events_json(bw_webhook_events_from_text(w->events)), "created_at", w->created_at);
}

void api_webhooks_create(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *url = NULL;
    unsigned mask = 0;
    char why[256];
    if (!r->json) {
        bw_verr_add(&v, "url", "is required");
        bw_verr_add(&v, "events", "is required");
    } else {
        if (bw_body_string(r, &v, "url", true, BW_WEBHOOK_URL_MAX, &url) && url &&
            !bw_webhook_url_ok(url, api_ctx(r)->egress_allow, why, sizeof why))
            bw_verr_add(&v, "url", why);
        if (bw_webhook_events_read(json_object_get(r->json, "events"), &mask, why, sizeof why) != 0)
            bw_verr_add(&v, "events", why);
        const char *k;
        json_t *val;
        json_object_foreach(r->json, k, val) {
            if (strcmp(k, "url") != 0 && strcmp(k, "events") != 0)
                bw_verr_add(&v, k, "is not a member of a webhook (url, events)");
        }
    }
    if (bw_verr_reply(r, &v))
        return;
    struct store_webhook w = {0};
    char secret[BW_WEBHOOK_SECRET_LEN + 1];
    bw_webhook_secret_new(secret);
    bw_id_new("whk_", w.id);
    snprintf(w.user_id, sizeof w.user_id, "%s", r->principal.user_id);
    snprintf(w.url, sizeof w.url, "%s", url);
    bw_webhook_events_text(mask, w.events);
    w.created_us = bw_now_us();
    bw_iso8601(w.created_us / 1000000, w.created_at);
    w.secret_sealed = bw_seal_text(api_ctx(r)->seal, secret, strlen(secret));
    int rc = w.secret_sealed ? store_webhook_insert(api_ctx(r)->db, &w, BW_WEBHOOKS_MAX) : ST_ERROR;
    if (!w.secret_sealed) {
        bw_reply_internal(r, "the secret could not be sealed");
    } else if (rc == ST_LIMIT) {
        char msg[96];
        snprintf(msg, sizeof msg, "an account has at most %d webhooks; delete one first", BW_WEBHOOKS_MAX);
        bw_reply_error(r, BW_E_CONFLICT, msg, json_pack("{s:i}", "max_webhooks", BW_WEBHOOKS_MAX));
    } else if (rc == ST_NOTFOUND) {
        bw_reply_error(r, BW_E_AUTH_REQUIRED, "the credential's account does not exist", NULL);
    } else if (rc != ST_OK) {
        api_reply_storage(r);
    } else {
        json_t *o = webhook_json(&w);
        json_object_set_new(o, "secret", json_string(secret));
        json_object_set_new(o, "warning", json_string(WARNING));
        bw_reply_json(r, 201, o);
    }
    sodium_memzero(secret, sizeof secret);
    store_webhook_clear(&w);
}

void api_webhooks_list(struct bw_req *r)
{
    struct store_webhook *list = NULL;
    size_t n = 0;
    if (store_webhook_list(api_ctx(r)->db, r->principal.user_id, &list, &n) != ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, webhook_json(&list[i]));
    store_webhook_list_free(list, n);
    bw_reply_json(r, 200, json_pack("{s:o,s:i,s:i}", "webhooks", arr, "count", (int)n, "max_webhooks", BW_WEBHOOKS_MAX));
}

/* The caller's webhook {id} into *w, or false after answering 404 (not an id of ours, not the
 * caller's) or 503. */
static bool webhook_or_reply(struct bw_req *r, struct store_webhook *w)
{
    int rc = bw_id_valid(r->params[0], "whk_") ? store_webhook_get(api_ctx(r)->db, r->principal.user_id, r->params[0], w)
                                                : ST_NOTFOUND;
    if (rc == ST_OK)
        return true;
    if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such webhook", NULL);
    else
        api_reply_storage(r);
    return false;
}

void api_webhooks_delete(struct bw_req *r)
{
    int rc = bw_id_valid(r->params[0], "whk_")
                 ? store_webhook_delete(api_ctx(r)->db, r->principal.user_id, r->params[0])
                 : ST_NOTFOUND;
    if (rc == ST_OK)
        bw_reply_json(r, 200, json_pack("{s:b,s:s,s:b}", "success", 1, "id", r->params[0], "deleted", 1));
    else if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such webhook", NULL);
    else
        api_reply_storage(r);
}

void api_webhooks_ping(struct bw_req *r)
{
    struct store_webhook w = {0};
    if (!webhook_or_reply(r, &w))
        return;
    char delivery[BW_ID_MAX] = "";
    int rc = bw_webhooks_ping(api_ctx(r)->db, &w, delivery);
    store_webhook_clear(&w);
    if (rc != ST_OK) {
        api_reply_storage(r);
        return;
    }
    bw_reply_json(r, 202, json_pack("{s:b,s:s,s:s,s:s}", "success", 1, "webhook_id", r->params[0], "delivery_id",
                                    delivery, "event", BW_WH_PING_EVENT));
}

static json_t *delivery_json(const struct store_webhook_delivery *d)
{
#define OPT(s) ((s)[0] ? (s) : NULL)
    return json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:o,s:s?,s:s,s:s,s:s?,s:s?}", "id", d->id, "webhook_id", d->webhook_id,
                     "event", d->event, "event_id", d->event_id, "status", store_delivery_status_name(d->status),
                     "tries", d->tries, "last_status", d->last_status ? json_integer(d->last_status) : json_null(),
                     "error", OPT(d->error), "created_at", d->created_at, "updated_at", d->updated_at, "next_try_at",
                     OPT(d->next_try_at), "delivered_at", OPT(d->delivered_at));
#undef OPT
}

void api_webhooks_deliveries(struct bw_req *r)
{
    struct bw_verr v = {0};
    struct api_page pg;
    char filters[80];
    snprintf(filters, sizeof filters, "webhook=%.60s", r->params[0]);
    api_page_query(r, &v, &pg, BW_CURSOR_WEBHOOK_DELIVERIES, 0, filters, false);
    if (bw_verr_reply(r, &v))
        return;
    struct store_webhook w = {0};
    if (!webhook_or_reply(r, &w)) /* another account's webhook is 404, not an empty log */
        return;
    store_webhook_clear(&w);
    struct store_webhook_delivery *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    if (store_webhook_delivery_list(api_ctx(r)->db, r->principal.user_id, r->params[0], &pg.page, &list, &n, &total) !=
        ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, delivery_json(&list[i]));
    store_webhook_delivery_list_free(list, n);
    api_reply_page(r, "deliveries", arr, total, &pg);
}
