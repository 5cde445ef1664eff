/* Webhooks, the pure part: which events there are, which endpoint URLs are accepted, the
 * signature, the retry schedule and the event envelope. The service that queues deliveries is
 * src/services/webhooks.h; the job that sends them src/jobs/webhook_job.h.
 *
 * Signature (as Stripe signs): HMAC-SHA256 keyed with the secret's bytes exactly as they were
 * returned at creation ("whsec_..."), over the decimal Unix timestamp, ".", and the body's bytes;
 * sent as `X-Bulwark-Signature: v1=<64 lower-case hex digits>` beside `X-Bulwark-Timestamp: <that
 * timestamp>`. A receiver recomputes it and refuses an old timestamp (replay).
 *
 * Retries: a delivery is tried BW_WEBHOOK_TRIES times; after the n-th failed try the next comes
 * 1, 5, 15 and 40 minutes later (about an hour from the first try to the last), each times
 * scale/1000 (BULWARK_WEBHOOK_BACKOFF_SCALE, 1..1000: shorter only, for tests).
 *
 * Pure: no I/O (the URL check reads no DNS), thread-safe. Ownership: bw_webhook_envelope steals
 * data. */
#ifndef BW_ENGINE_WEBHOOK_H
#define BW_ENGINE_WEBHOOK_H
#include "common/limits.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bw_webhook_event {
    BW_WH_ENGAGEMENT_COMPLETED,
    BW_WH_ASSET_SCAN_COMPLETED,
    BW_WH_INTEL_KEV_MATCH,
    BW_WH_ORCH_RUN_COMPLETED,
    BW_WH__EVENTS
};
#define BW_WH_PING_EVENT "ping" /* the test ping's type: not subscribable, sent to one webhook */
#define BW_WH_EVENTS_TEXT_MAX 128 /* bytes of every event name as ",a,b," with its NUL */

/* "engagement.completed", ...; NULL out of range. */
const char *bw_webhook_event_name(enum bw_webhook_event e);
/* The event of a name; -1 when it is none. */
int bw_webhook_event_parse(const char *name);

/* Reads a JSON array of event names into a set (bit e for event e). 0 with *mask, or -1 with the
 * reason in why (not an array, empty, not a string, unknown name, repeated name). */
int bw_webhook_events_read(const json_t *arr, unsigned *mask, char *why, size_t cap);
/* The set as stored: ",a,b," in event order, into out (BW_WH_EVENTS_TEXT_MAX bytes). */
void bw_webhook_events_text(unsigned mask, char out[BW_WH_EVENTS_TEXT_MAX]);
/* The set of a stored text (names it does not know are left out). */
unsigned bw_webhook_events_from_text(const char *text);
/* The set as a JSON array of names, in event order (new reference). */
json_t *bw_webhook_events_json(unsigned mask);

/* Whether url may be a webhook endpoint under the egress policy allow (BW_EGRESS_ALLOW_*):
 * https, or plain http to a host the policy opens by its class (loopback or private: a local
 * receiver); no user:password@, no fragment, at most BW_WEBHOOK_URL_MAX bytes, and a host the
 * egress guard does not refuse outright (an address literal is judged now; a name when it is
 * resolved, at each try). true, or false with the reason in why. */
bool bw_webhook_url_ok(const char *url, unsigned allow, char *why, size_t cap);

/* The signature header's value "v1=<hex>" of body at timestamp ts with the secret's bytes, into
 * out (68 bytes with its NUL). */
#define BW_WEBHOOK_SIG_MAX 68
void bw_webhook_sign(const char *secret, size_t secret_len, int64_t ts, const char *body, size_t len,
                     char out[BW_WEBHOOK_SIG_MAX]);

/* The wait in ms before the try after `tries` failed ones (1..BW_WEBHOOK_TRIES-1), at scale per
 * mille (clamped to 1..1000); -1 when no try is left (tries >= BW_WEBHOOK_TRIES) or tries < 1. */
int64_t bw_webhook_backoff_ms(int tries, long scale);

/* A fresh signing secret: "whsec_" + 32 base62 characters from the CSPRNG. */
void bw_webhook_secret_new(char out[BW_WEBHOOK_SECRET_LEN + 1]);

/* The event document every delivery sends: {"id", "type", "created_at", "data"}; NULL when out of
 * memory. Steals data. */
json_t *bw_webhook_envelope(const char *event_id, const char *type, const char *created_at, json_t *data);

#endif
