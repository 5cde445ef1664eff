#include "jobs/webhook_job.h"

#include "common/errors.h"
#include "common/log.h"
#include "common/seal.h"
#include "common/timeutil.h"
#include "engine/webhook.h"
#include "net/egress.h"
#include "net/url.h"
#include "services/webhooks.h"
#include "store/store.h"
#include "store/store_webhooks.h"

#include <stdio.h>
#include <string.h>

/* Why a response that came is a failed try, into why; "" when it delivered (2xx). */
static void judge(const struct bw_egress_resp *r, const struct store_webhook *w, const char *delivery, char *why,
                  size_t cap)
{
    why[0] = '\0';
    if (r->status >= 200 && r->status <= 299)
        return;
    if (r->status >= 300 && r->status <= 399) {
        char loc[512] = "", host[256] = "";
        struct bw_url u, t;
        (void)bw_egress_header(r, "location", loc, sizeof loc);
        bool other = false;
        if (bw_url_read(&u, w->url)) {
            /* a relative Location stays on the host; an absolute one is read */
            if (bw_url_read(&t, loc)) {
                snprintf(host, sizeof host, "%s", t.host.name);
                other = strcmp(t.host.name, u.host.name) != 0 || t.port != u.port || strcmp(t.scheme, u.scheme) != 0;
            }
        }
        snprintf(why, cap, "HTTP %ld: redirects are not followed%s%s", r->status, other ? " (to another host: " : "",
                 other ? host : "");
        if (other) {
            size_t n = strlen(why);
            snprintf(why + n, cap - n, ")");
            bw_log_json(BW_LOG_WARN, NULL, "webhook redirect to another host refused",
                        json_pack("{s:s,s:s,s:I,s:s}", "webhook_id", w->id, "delivery_id", delivery, "status",
                                  (json_int_t)r->status, "location_host", host));
        }
        return;
    }
    snprintf(why, cap, "HTTP %ld", r->status);
}

static void now_iso(char out[21]) { bw_iso8601(bw_now_s(), out); }

static enum bw_job_result webhook_run(struct bw_job_ctx *ctx)
{
    struct store_webhook_delivery d;
    struct store_webhook w = {0};
    int rc = store_webhook_delivery_get(ctx->db, ctx->job->ref, &d);
    if (rc == ST_NOTFOUND)
        return BW_JOB_DONE; /* its webhook was deleted */
    if (rc != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        return BW_JOB_RETRY;
    }
    enum bw_job_result res = BW_JOB_DONE;
    if (d.status != STORE_DELIVERY_PENDING)
        goto out; /* ended before this claim (a crash between recording the try and ending the job) */
    rc = store_webhook_get(ctx->db, NULL, d.webhook_id, &w);
    if (rc == ST_NOTFOUND)
        goto out;
    if (rc != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        res = BW_JOB_RETRY;
        goto out;
    }
    /* queued while the account could hold events; it may since have been downgraded or disabled,
     * and then nothing more is sent for it (the ping too: it is a webhook route's action) */
    bool subscribed = false;
    if (store_webhook_owner_subscribed(ctx->db, w.user_id, BW_WEBHOOK_TIER, &subscribed) != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        res = BW_JOB_RETRY;
        goto out;
    }
    if (!subscribed) {
        snprintf(ctx->error, sizeof ctx->error,
                 "not sent: the account is disabled or below the %s plan that webhooks need",
                 bw_tier_name(BW_WEBHOOK_TIER));
        snprintf(d.error, sizeof d.error, "%s", ctx->error);
        d.status = STORE_DELIVERY_FAILED;
        d.tries = ctx->job->attempts - 1; /* nothing was sent this time */
        now_iso(d.updated_at);
        d.next_try_at[0] = '\0';
        (void)store_webhook_delivery_update(ctx->db, &d);
        res = BW_JOB_FAILED;
        goto out;
    }
    size_t slen = 0;
    char *secret = ctx->seal && w.secret_sealed ? bw_unseal_text(ctx->seal, w.secret_sealed, &slen) : NULL;
    if (!secret) {
        snprintf(ctx->error, sizeof ctx->error, "the webhook's sealed secret cannot be opened with this server's key");
        snprintf(d.error, sizeof d.error, "%s", ctx->error);
        d.status = STORE_DELIVERY_FAILED;
        d.tries = ctx->job->attempts;
        now_iso(d.updated_at);
        d.next_try_at[0] = '\0';
        (void)store_webhook_delivery_update(ctx->db, &d);
        res = BW_JOB_FAILED;
        goto out;
    }
    int64_t ts = bw_now_s();
    char sig[BW_WEBHOOK_SIG_MAX], h_sig[BW_WEBHOOK_SIG_MAX + 32], h_ts[64], h_event[96], h_id[96], h_delivery[96];
    size_t blen = strlen(d.body);
    bw_webhook_sign(secret, slen, ts, d.body, blen, sig);
    bw_unsealed_free(secret);
    snprintf(h_sig, sizeof h_sig, "X-Bulwark-Signature: %s", sig);
    snprintf(h_ts, sizeof h_ts, "X-Bulwark-Timestamp: %lld", (long long)ts);
    snprintf(h_event, sizeof h_event, "X-Bulwark-Event: %s", d.event);
    snprintf(h_id, sizeof h_id, "X-Bulwark-Event-Id: %s", d.event_id);
    snprintf(h_delivery, sizeof h_delivery, "X-Bulwark-Delivery: %s", d.id);
    const char *headers[] = {"Content-Type: application/json", "User-Agent: bulwark-webhooks/1", h_sig, h_ts,
                             h_event, h_id, h_delivery, NULL};
    /* a try ends well within the lease, so no other worker reclaims the job (and sends it again)
     * while it is in flight */
    long timeout = BW_WEBHOOK_TIMEOUT_MS;
    if (ctx->lease_ms / 2 < timeout)
        timeout = (long)(ctx->lease_ms / 2);
    struct bw_egress_req rq = {.method = "POST",
                               .url = w.url,
                               .headers = headers,
                               .body = d.body,
                               .body_len = blen,
                               .connect_timeout_ms = BW_WEBHOOK_CONNECT_MS < timeout ? BW_WEBHOOK_CONNECT_MS : timeout,
                               .timeout_ms = timeout,
                               .max_response = BW_WEBHOOK_MAX_RESPONSE,
                               .max_redirects = 0, /* a 3xx is answered back, never followed */
                               .verify_tls = true};
    struct bw_egress_resp resp;
    bw_egress_request(ctx->egress_allow, &rq, &resp);
    char why[BW_WEBHOOK_ERROR_MAX];
    if (resp.outcome == BW_EG_OK)
        judge(&resp, &w, d.id, why, sizeof why);
    else
        snprintf(why, sizeof why, "%s: %.200s", bw_egress_outcome_name(resp.outcome), resp.error);
    d.tries = ctx->job->attempts;
    d.last_status = resp.status;
    bw_egress_resp_free(&resp);
    now_iso(d.updated_at);
    d.next_try_at[0] = '\0';
    snprintf(d.error, sizeof d.error, "%s", why);
    if (!why[0]) {
        d.status = STORE_DELIVERY_DELIVERED;
        snprintf(d.delivered_at, sizeof d.delivered_at, "%s", d.updated_at);
    } else {
        int64_t wait = bw_webhook_backoff_ms(d.tries, ctx->webhook_backoff_scale);
        snprintf(ctx->error, sizeof ctx->error, "%s", why);
        if (wait < 0 || d.tries >= ctx->job->max_attempts) {
            d.status = STORE_DELIVERY_FAILED;
            res = BW_JOB_FAILED;
        } else {
            bw_iso8601(bw_now_s() + (wait + 999) / 1000, d.next_try_at);
            ctx->retry_ms = wait;
            res = BW_JOB_RETRY;
        }
    }
    /* a try that reached the receiver is not repeated because its record failed: the receiver
     * already has it (receivers deduplicate by the event id anyway) */
    if (store_webhook_delivery_update(ctx->db, &d) == ST_ERROR)
        bw_logf(BW_LOG_WARN, NULL, "webhook delivery %s: its try could not be recorded", d.id);
    bw_log_json(res == BW_JOB_DONE ? BW_LOG_INFO : BW_LOG_WARN, NULL, "webhook try",
                json_pack("{s:s,s:s,s:s,s:i,s:I,s:s,s:s?}", "delivery_id", d.id, "webhook_id", w.id, "event", d.event,
                          "try", d.tries, "status", (json_int_t)d.last_status, "result",
                          store_delivery_status_name(d.status), "error", why[0] ? why : NULL));
out:
    store_webhook_clear(&w);
    store_webhook_delivery_clear(&d);
    return res;
}

/* The worker died on the last try: the delivery ends failed. */
static void webhook_failed(struct db *db, const struct store_job *job, const char *error)
{
    char ts[21];
    now_iso(ts);
    (void)store_webhook_delivery_fail(db, job->ref, error && *error ? error : "the delivery failed", ts);
}

const struct bw_job_kind bw_webhook_job_kind = {.kind = BW_WEBHOOK_JOB_KIND, .run = webhook_run,
                                                .failed = webhook_failed};
