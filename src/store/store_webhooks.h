/* Webhooks and their deliveries (migration 0031): an account's endpoints with the events they
 * take and their sealed signing secret, and one row per delivery of an event to one endpoint,
 * queued with its job (kind "webhook", ref = the delivery id) in one transaction. What the rows
 * mean is decided elsewhere: src/services/webhooks.h queues, src/jobs/webhook_job.h sends.
 *
 * Another account's webhook is ST_NOTFOUND everywhere a user_id is given.
 *
 * Ownership: readers malloc secret_sealed and body (store_webhook_clear,
 * store_webhook_delivery_clear, or the _list_free functions); writers only read them. */
#ifndef BW_STORE_STORE_WEBHOOKS_H
#define BW_STORE_STORE_WEBHOOKS_H
#include "common/ids.h"
#include "common/limits.h"
#include "store/db.h"
#include "store/store.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store_webhook {
    char id[BW_ID_MAX], user_id[BW_ID_MAX];
    char url[BW_WEBHOOK_URL_MAX + 1];
    char events[128]; /* ",a,b," (src/engine/webhook.h) */
    char created_at[24];
    int64_t created_us;
    char *secret_sealed; /* common/seal.h */
};
void store_webhook_clear(struct store_webhook *w);
void store_webhook_list_free(struct store_webhook *list, size_t n);

/* Inserts w unless its account has max webhooks already (ST_LIMIT); ST_NOTFOUND: no such account. */
int store_webhook_insert(struct db *db, const struct store_webhook *w, long max);
/* The account's webhooks, oldest first (at most BW_WEBHOOKS_MAX: no paging); *out malloc'ed. */
int store_webhook_list(struct db *db, const char *user_id, struct store_webhook **out, size_t *n);
/* One webhook: the caller's (user_id), or any account's when user_id is NULL (the sending job). */
int store_webhook_get(struct db *db, const char *user_id, const char *id, struct store_webhook *out);
/* Deletes the caller's webhook, its delivery log and the deliveries' jobs not yet done. */
int store_webhook_delete(struct db *db, const char *user_id, const char *id);
/* The ids of the account's webhooks subscribed to event (its name), up to cap into ids; *n of them.
 * None while the account is disabled or below tier min (its webhooks are kept). */
int store_webhook_subscribers(struct db *db, const char *user_id, const char *event, enum bw_tier min,
                              char (*ids)[BW_ID_MAX], size_t cap, size_t *n);
/* *yes: the account exists, is enabled and at tier min or above (its queued deliveries may go). */
int store_webhook_owner_subscribed(struct db *db, const char *user_id, enum bw_tier min, bool *yes);

/* The assets of the accounts that have a webhook taking event (its name), at most cap, each
 * handed to fn (its strings borrowed for the call; connection NULL when none). ST_OK or ST_ERROR. */
struct store_event_asset {
    const char *id, *user_id, *name, *provider, *connection, *components; /* the JSON texts as stored */
};
int store_webhook_event_assets(struct db *db, const char *event, enum bw_tier min, long cap,
                               void (*fn)(void *arg, const struct store_event_asset *a), void *arg);

enum store_delivery_status { STORE_DELIVERY_PENDING, STORE_DELIVERY_DELIVERED, STORE_DELIVERY_FAILED };
const char *store_delivery_status_name(enum store_delivery_status s); /* "pending", "delivered", "failed" */

struct store_webhook_delivery {
    char id[BW_ID_MAX], webhook_id[BW_ID_MAX], user_id[BW_ID_MAX];
    char event[48], event_id[BW_ID_MAX];
    enum store_delivery_status status;
    int tries;
    long last_status;
    char error[BW_WEBHOOK_ERROR_MAX];
    char created_at[24], updated_at[24], next_try_at[24], delivered_at[24]; /* "" when none */
    int64_t created_us;
    char *body; /* the event document sent (JSON text) */
};
void store_webhook_delivery_clear(struct store_webhook_delivery *d);
void store_webhook_delivery_list_free(struct store_webhook_delivery *list, size_t n);

/* Inserts n pending deliveries (id, webhook_id, user_id, event, event_id, body, created_*) and a
 * job of kind for each (its id job_ids[i], max_attempts tries), in one transaction. A webhook
 * deleted meanwhile just gets a delivery its job will find orphaned (and end). */
int store_webhook_deliveries_enqueue(struct db *db, const struct store_webhook_delivery *d, char (*job_ids)[BW_ID_MAX],
                                     size_t n, const char *kind, int max_attempts, int64_t now_ms);
/* One delivery by id (any account: the job's). */
int store_webhook_delivery_get(struct db *db, const char *id, struct store_webhook_delivery *out);
/* Records a try's outcome: status, tries, last_status, error, updated_at, next_try_at and
 * delivered_at as given in d. ST_NOTFOUND when the delivery is gone. */
int store_webhook_delivery_update(struct db *db, const struct store_webhook_delivery *d);
/* Marks a delivery failed with error (the job's failure hook: its worker died on the last try). */
int store_webhook_delivery_fail(struct db *db, const char *id, const char *error, const char *updated_at);
/* The caller's webhook's deliveries, newest first (created_us, id), one page, without bodies;
 * *out: store_webhook_delivery_list_free. */
int store_webhook_delivery_list(struct db *db, const char *user_id, const char *webhook_id, struct store_page *pg,
                                struct store_webhook_delivery **out, size_t *n, int64_t *total);

#endif
