#include "store/store_webhooks.h"

#include "store/store_internal.h"
#include "store/store_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void store_webhook_clear(struct store_webhook *w)
{
    free(w->secret_sealed);
    w->secret_sealed = NULL;
}

void store_webhook_list_free(struct store_webhook *list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        store_webhook_clear(&list[i]);
    free(list);
}

#define WH_COLS "id, user_id, url, events, created_at, created_us, secret_sealed"

static int webhook_row(struct db_rows *r, void *item)
{
    struct store_webhook *w = item;
    COPY(w->id, db_rows_text(r, 0));
    COPY(w->user_id, db_rows_text(r, 1));
    COPY(w->url, db_rows_text(r, 2));
    COPY(w->events, db_rows_text(r, 3));
    COPY(w->created_at, db_rows_text(r, 4));
    w->created_us = db_rows_int(r, 5);
    const char *s = db_rows_text(r, 6);
    free(w->secret_sealed);
    w->secret_sealed = s ? strdup(s) : NULL;
    return !s || w->secret_sealed ? ST_OK : ST_ERROR;
}

static void webhook_item_clear(void *item) { store_webhook_clear(item); }

struct wh_insert {
    const struct store_webhook *w;
    long max;
};

static int insert_tx(struct db_conn *c, void *arg)
{
    const struct wh_insert *a = arg;
    const struct store_webhook *w = a->w;
    int64_t count = 0;
    /* the account's lock first, so two creations at once cannot both take the last place */
    int rc = store_capped(c, w->user_id, "SELECT COUNT(*) FROM webhooks WHERE user_id = ?", a->max, &count);
    if (rc != ST_OK)
        return rc;
    struct db_param p[] = {DBP_TEXT(w->id),         DBP_TEXT(w->user_id),    DBP_TEXT(w->url), DBP_TEXT(w->events),
                           DBP_TEXT(w->secret_sealed), DBP_TEXT(w->created_at), DBP_INT(w->created_us)};
    return store_conn_exec(c,
                           "INSERT INTO webhooks (id, user_id, url, events, secret_sealed, created_at, created_us)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)",
                           p, 7, NULL);
}

int store_webhook_insert(struct db *db, const struct store_webhook *w, long max)
{
    return store_tx(db, insert_tx, &(struct wh_insert){w, max});
}

int store_webhook_list(struct db *db, const char *user_id, struct store_webhook **out, size_t *n)
{
    struct db_param p[] = {DBP_TEXT(user_id)};
    void *items = NULL;
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    int rc = store_conn_list_owned(c, "SELECT " WH_COLS " FROM webhooks WHERE user_id = ? ORDER BY created_us, id", p,
                                   1, sizeof **out, webhook_row, webhook_item_clear, &items, n);
    db_release(c);
    *out = items;
    return rc;
}

int store_webhook_get(struct db *db, const char *user_id, const char *id, struct store_webhook *out)
{
    memset(out, 0, sizeof *out);
    if (user_id) {
        struct db_param p[] = {DBP_TEXT(id), DBP_TEXT(user_id)};
        return store_query_one(db, "SELECT " WH_COLS " FROM webhooks WHERE id = ? AND user_id = ?", p, 2, webhook_row,
                               out);
    }
    struct db_param p[] = {DBP_TEXT(id)};
    return store_query_one(db, "SELECT " WH_COLS " FROM webhooks WHERE id = ?", p, 1, webhook_row, out);
}

struct wh_delete {
    const char *user_id, *id;
    int64_t changes;
};

static int delete_tx(struct db_conn *c, void *arg)
{
    struct wh_delete *a = arg;
    struct db_param p[] = {DBP_TEXT(a->id), DBP_TEXT(a->user_id)};
    /* the deliveries' jobs not yet done go with them: a job of a deleted webhook would only find
     * its delivery gone */
    if (store_conn_exec(c,
                        "DELETE FROM jobs WHERE state IN ('queued', 'running') AND ref IN (SELECT id FROM"
                        " webhook_deliveries WHERE webhook_id = ? AND user_id = ?)",
                        p, 2, NULL) != ST_OK ||
        store_conn_exec(c, "DELETE FROM webhook_deliveries WHERE webhook_id = ? AND user_id = ?", p, 2, NULL) != ST_OK ||
        store_conn_exec(c, "DELETE FROM webhooks WHERE id = ? AND user_id = ?", p, 2, &a->changes) != ST_OK)
        return ST_ERROR;
    return a->changes ? ST_OK : ST_NOTFOUND;
}

int store_webhook_delete(struct db *db, const char *user_id, const char *id)
{
    return store_tx(db, delete_tx, &(struct wh_delete){user_id, id, 0});
}

struct subs {
    char (*ids)[BW_ID_MAX];
    size_t cap, n;
};

static int sub_row(struct db_rows *r, void *arg)
{
    struct subs *s = arg;
    if (s->n < s->cap)
        store_copy(s->ids[s->n++], BW_ID_MAX, db_rows_text(r, 0));
    return ST_OK;
}

/* Events go only to webhooks whose owner may hold them now: enabled and at the tier the webhook
 * routes need or above (the caller says which: the store knows tier names, not the policy). A
 * downgraded or disabled account's webhooks are kept, untouched, but nothing is queued or sent
 * for them until it is back at that tier (and enabled). The tiers are bound one per parameter;
 * those below min bind NULL, which IN never matches. */
#define SUBSCRIBED_OWNER "u.disabled = 0 AND u.tier IN (?, ?, ?, ?)"
_Static_assert(BW_TIER__COUNT == 4, "SUBSCRIBED_OWNER binds one parameter per tier");

static void bind_tiers(struct db_param *p, enum bw_tier min)
{
    for (int t = 0; t < BW_TIER__COUNT; t++)
        p[t] = t >= (int)min ? DBP_TEXT(bw_tier_name((enum bw_tier)t)) : DBP_NULL;
}

int store_webhook_subscribers(struct db *db, const char *user_id, const char *event, enum bw_tier min,
                              char (*ids)[BW_ID_MAX], size_t cap, size_t *n)
{
    char needle[80];
    /* the names are fixed (src/engine/webhook.c); the '_' in one is a LIKE wildcard for one
     * character, and no other name differs from it in that character only */
    snprintf(needle, sizeof needle, "%%,%s,%%", event);
    struct db_param p[2 + BW_TIER__COUNT + 1] = {DBP_TEXT(user_id), DBP_TEXT(needle)};
    bind_tiers(p + 2, min);
    p[2 + BW_TIER__COUNT] = DBP_INT((int64_t)cap);
    struct subs s = {ids, cap, 0};
    int rc = store_query_each(db,
                              "SELECT w.id FROM webhooks w JOIN users u ON u.id = w.user_id WHERE w.user_id = ? AND"
                              " w.events LIKE ? AND " SUBSCRIBED_OWNER " ORDER BY w.created_us, w.id LIMIT ?",
                              p, 2 + BW_TIER__COUNT + 1, sub_row, &s);
    *n = s.n;
    return rc;
}

struct event_assets {
    void (*fn)(void *arg, const struct store_event_asset *a);
    void *arg;
};

static int event_asset_row(struct db_rows *r, void *arg)
{
    struct event_assets *e = arg;
    struct store_event_asset a = {db_rows_text(r, 0), db_rows_text(r, 1), db_rows_text(r, 2), db_rows_text(r, 3),
                                  db_rows_text(r, 4), db_rows_text(r, 5)};
    e->fn(e->arg, &a);
    return ST_OK;
}

int store_webhook_event_assets(struct db *db, const char *event, enum bw_tier min, long cap,
                               void (*fn)(void *arg, const struct store_event_asset *a), void *arg)
{
    char needle[80];
    snprintf(needle, sizeof needle, "%%,%s,%%", event);
    struct db_param p[1 + BW_TIER__COUNT + 1] = {DBP_TEXT(needle)};
    bind_tiers(p + 1, min);
    p[1 + BW_TIER__COUNT] = DBP_INT(cap);
    struct event_assets e = {fn, arg};
    return store_query_each(db,
                            "SELECT id, user_id, name, provider, connection, components FROM assets WHERE user_id IN (SELECT"
                            " w.user_id FROM webhooks w JOIN users u ON u.id = w.user_id WHERE w.events LIKE ? AND "
                            SUBSCRIBED_OWNER ") ORDER BY created_us, id LIMIT ?",
                            p, 1 + BW_TIER__COUNT + 1, event_asset_row, &e);
}

static int count_row(struct db_rows *r, void *arg)
{
    *(int64_t *)arg = db_rows_int(r, 0);
    return ST_OK;
}

int store_webhook_owner_subscribed(struct db *db, const char *user_id, enum bw_tier min, bool *yes)
{
    struct db_param p[1 + BW_TIER__COUNT] = {DBP_TEXT(user_id)};
    bind_tiers(p + 1, min);
    int64_t n = 0;
    int rc = store_query_one(db, "SELECT COUNT(*) FROM users u WHERE u.id = ? AND " SUBSCRIBED_OWNER, p,
                             1 + BW_TIER__COUNT, count_row, &n);
    *yes = rc == ST_OK && n > 0;
    return rc == ST_NOTFOUND ? ST_OK : rc;
}

static const char *const DELIVERY_STATUS[] = {"pending", "delivered", "failed"};

const char *store_delivery_status_name(enum store_delivery_status s)
{
    return (unsigned)s <= STORE_DELIVERY_FAILED ? DELIVERY_STATUS[s] : "failed";
}

static enum store_delivery_status delivery_status(const char *s)
{
    for (int i = 0; s && i <= STORE_DELIVERY_FAILED; i++)
        if (strcmp(s, DELIVERY_STATUS[i]) == 0)
            return (enum store_delivery_status)i;
    return STORE_DELIVERY_FAILED;
}

void store_webhook_delivery_clear(struct store_webhook_delivery *d)
{
    free(d->body);
    d->body = NULL;
}

void store_webhook_delivery_list_free(struct store_webhook_delivery *list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        store_webhook_delivery_clear(&list[i]);
    free(list);
}

#define DL_COLS                                                                                    \
    "id, webhook_id, user_id, event, event_id, status, tries, last_status, error, created_at, created_us," \
    " updated_at, next_try_at, delivered_at"

/* A delivery row (DL_COLS, then the body when with_body). */
static int delivery_fill(struct db_rows *r, struct store_webhook_delivery *d, bool with_body)
{
    COPY(d->id, db_rows_text(r, 0));
    COPY(d->webhook_id, db_rows_text(r, 1));
    COPY(d->user_id, db_rows_text(r, 2));
    COPY(d->event, db_rows_text(r, 3));
    COPY(d->event_id, db_rows_text(r, 4));
    d->status = delivery_status(db_rows_text(r, 5));
    d->tries = (int)db_rows_int(r, 6);
    d->last_status = (long)db_rows_int(r, 7);
    COPY(d->error, db_rows_text(r, 8));
    COPY(d->created_at, db_rows_text(r, 9));
    d->created_us = db_rows_int(r, 10);
    COPY(d->updated_at, db_rows_text(r, 11));
    COPY(d->next_try_at, db_rows_text(r, 12));
    COPY(d->delivered_at, db_rows_text(r, 13));
    if (!with_body)
        return ST_OK;
    const char *b = db_rows_text(r, 14);
    free(d->body);
    d->body = strdup(b ? b : "");
    return d->body ? ST_OK : ST_ERROR;
}

static int delivery_row(struct db_rows *r, void *item) { return delivery_fill(r, item, false); }
static int delivery_row_body(struct db_rows *r, void *item) { return delivery_fill(r, item, true); }
static void delivery_item_clear(void *item) { store_webhook_delivery_clear(item); }

struct enqueue {
    const struct store_webhook_delivery *d;
    char (*job_ids)[BW_ID_MAX];
    size_t n;
    const char *kind;
    int max_attempts;
    int64_t now_ms;
};

static int enqueue_tx(struct db_conn *c, void *arg)
{
    const struct enqueue *a = arg;
    for (size_t i = 0; i < a->n; i++) {
        const struct store_webhook_delivery *d = &a->d[i];
        struct db_param p[] = {DBP_TEXT(d->id),       DBP_TEXT(d->webhook_id), DBP_TEXT(d->user_id),
                               DBP_TEXT(d->event),    DBP_TEXT(d->event_id),   DBP_TEXT(d->body),
                               DBP_TEXT(d->created_at), DBP_INT(d->created_us), DBP_TEXT(d->created_at)};
        int rc = store_conn_exec(c,
                                 "INSERT INTO webhook_deliveries (id, webhook_id, user_id, event, event_id, body, status,"
                                 " tries, last_status, error, created_at, created_us, updated_at, next_try_at,"
                                 " delivered_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, 0, '', ?, ?, ?, '', '')",
                                 p, 9, NULL);
        if (rc == ST_OK)
            rc = store_job_enqueue_conn(c, a->job_ids[i], a->kind, d->id, a->max_attempts, a->now_ms);
        if (rc != ST_OK)
            return ST_ERROR;
    }
    return ST_OK;
}

int store_webhook_deliveries_enqueue(struct db *db, const struct store_webhook_delivery *d, char (*job_ids)[BW_ID_MAX],
                                     size_t n, const char *kind, int max_attempts, int64_t now_ms)
{
    if (n == 0)
        return ST_OK;
    return store_tx(db, enqueue_tx, &(struct enqueue){d, job_ids, n, kind, max_attempts, now_ms});
}

int store_webhook_delivery_get(struct db *db, const char *id, struct store_webhook_delivery *out)
{
    memset(out, 0, sizeof *out);
    struct db_param p[] = {DBP_TEXT(id)};
    int rc = store_query_one(db, "SELECT " DL_COLS ", body FROM webhook_deliveries WHERE id = ?", p, 1,
                             delivery_row_body, out);
    if (rc != ST_OK)
        store_webhook_delivery_clear(out);
    return rc;
}

int store_webhook_delivery_update(struct db *db, const struct store_webhook_delivery *d)
{
    struct db_param p[] = {DBP_TEXT(store_delivery_status_name(d->status)),
                           DBP_INT(d->tries),
                           DBP_INT(d->last_status),
                           DBP_TEXT(d->error),
                           DBP_TEXT(d->updated_at),
                           DBP_TEXT(d->next_try_at),
                           DBP_TEXT(d->delivered_at),
                           DBP_TEXT(d->id)};
    return store_exec_changed(db,
                              "UPDATE webhook_deliveries SET status = ?, tries = ?, last_status = ?, error = ?,"
                              " updated_at = ?, next_try_at = ?, delivered_at = ? WHERE id = ?",
                              p, 8, ST_NOTFOUND);
}

int store_webhook_delivery_fail(struct db *db, const char *id, const char *error, const char *updated_at)
{
    struct db_param p[] = {DBP_TEXT(error), DBP_TEXT(updated_at), DBP_TEXT(id)};
    return store_exec_changed(db,
                              "UPDATE webhook_deliveries SET status = 'failed', error = ?, updated_at = ?,"
                              " next_try_at = '' WHERE id = ? AND status = 'pending'",
                              p, 3, ST_NOTFOUND);
}

/* The delivery log of one webhook: a range of webhook_deliveries_hook (webhook_id, created_us,
 * id); user_id is checked on the rows too, so another account's webhook id lists nothing. */
#define DL_COUNT "SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = ? AND user_id = ?"
#define DL_SELECT                                                                                  \
    "SELECT " DL_COLS ", (" DL_COUNT ") FROM webhook_deliveries WHERE webhook_id = ? AND user_id = ?"
#define DL_ORDER " ORDER BY created_us DESC, id DESC"

int store_webhook_delivery_list(struct db *db, const char *user_id, const char *webhook_id, struct store_page *pg,
                                struct store_webhook_delivery **out, size_t *n, int64_t *total)
{
    static const struct store_page_cols cols = {.key = 10, .id = 0, .total = 14};
    static const char *const sql[2] = {DL_SELECT DL_ORDER " LIMIT ? OFFSET ?",
                                       DL_SELECT " AND " STORE_AFTER("created_us", "id") DL_ORDER " LIMIT ?"};
    struct db_param p[8] = {DBP_TEXT(webhook_id), DBP_TEXT(user_id), DBP_TEXT(webhook_id), DBP_TEXT(user_id)};
    int np = store_page_params(pg, false, p, 4);
    void *items = NULL;
    int rc = store_query_page_owned(db, sql[pg->after_id ? 1 : 0], p, np, pg, &cols, DL_COUNT, 2, total, sizeof **out,
                                    delivery_row, delivery_item_clear, &items, n);
    *out = items;
    return rc;
}
