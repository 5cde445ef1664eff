/* Webhook events: queues a delivery of an event to every webhook of the account that takes it
 * (src/store/store_webhooks.h), each with its job of kind BW_WEBHOOK_JOB_KIND, which sends it
 * (src/jobs/webhook_job.h). Called where the event happens: an engagement's or an orchestrator
 * run's end (src/jobs/), an asset scan saved (src/services/evidence.c), a KEV import that brings a
 * record naming an asset's provider or model (src/services/intel_ingest.c).
 *
 * Queuing never fails the work that raised the event: a failure is logged and counted as dropped.
 * The event document is built once and stored with each delivery, so every try (and every
 * webhook) sends the same bytes: {"id": "evt_...", "type", "created_at", "data": {...}}.
 *
 * Ownership: data is borrowed. */
#ifndef BW_SERVICES_WEBHOOKS_H
#define BW_SERVICES_WEBHOOKS_H
#include "engine/webhook.h"
#include "store/db.h"
#include "store/store_webhooks.h"

#include <jansson.h>

#define BW_WEBHOOK_JOB_KIND "webhook"
/* The tier an account needs for events to be queued and sent to its webhooks: the tier of the
 * webhook routes' access level (BW_ACCESS_PRO in src/api/routes.c; tests/unit/api checks they
 * agree). Below it, or disabled, its webhooks are kept and sent nothing. */
#define BW_WEBHOOK_TIER BW_TIER_PRO

/* Queues event with data (borrowed) for user_id's webhooks that take it. Returns how many
 * deliveries were queued (0: no webhook takes it), or -1 (logged). */
int bw_webhooks_emit(struct db *db, const char *user_id, enum bw_webhook_event event, const json_t *data);

/* Queues a "ping" event to webhook w alone (subscribed or not); its delivery id into
 * delivery_id. ST_OK or ST_ERROR. */
int bw_webhooks_ping(struct db *db, const struct store_webhook *w, char delivery_id[BW_ID_MAX]);

/* intel.kev_match: for each record of kev (the KEV entries an import brought that the store did
 * not hold as KEV before: new records, or records that became KEV), every asset of an account with
 * a webhook taking the event whose provider, model (its connection's `model`) or one of whose
 * components the record names (bw_bom_asset_match, the rule of the BOM's vulnerabilities: exact
 * names, no keyword guessing) raises one event for that account. At
 * most BW_WEBHOOK_KEV_ASSETS_MAX assets are compared and BW_WEBHOOK_KEV_EVENTS_MAX events raised
 * per import (logged when reached). Returns the events raised, or -1 when storage failed. */
long bw_webhooks_kev_matches(struct db *db, const json_t *kev);

#endif
