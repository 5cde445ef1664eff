/* Sending one webhook delivery, as a job of kind "webhook" (ref: the delivery id,
 * src/store/store_webhooks.h). Each attempt is one try: the stored event document POSTed to the
 * webhook's URL through the egress guard, signed afresh (src/engine/webhook.h) with the
 * timestamp of the try, the secret opened from its seal only for the signing.
 *
 * A 2xx answer delivers it. Anything else fails the try: another status, a redirect (never
 * followed: a 3xx is a failure, and a Location on another host is logged), a refusal by the
 * guard, a timeout (BW_WEBHOOK_TIMEOUT_MS, or half the job lease when that is shorter), a
 * transport error. The try is recorded (tries, last
 * HTTP status, error, times) and the next one queued on the schedule of bw_webhook_backoff_ms,
 * until BW_WEBHOOK_TRIES; then the delivery is failed. A response body is read up to
 * BW_WEBHOOK_MAX_RESPONSE bytes and dropped. A delivery whose webhook was deleted ends quietly. */
#ifndef BW_JOBS_WEBHOOK_JOB_H
#define BW_JOBS_WEBHOOK_JOB_H
#include "jobs/jobs.h"

extern const struct bw_job_kind bw_webhook_job_kind;

#endif
