/* POST /api/auth/login: argon2id on the password-hashing pool, the same answer and the same work
 * for an unknown email and a wrong password, failed attempts throttled per email and per IP.
 *
 * An attempt is reserved before its password is hashed: it is counted as a failure up front in
 * both throttles (strict: a refused attempt extends the lockout) and held in flight per email and
 * per address, so parallel requests cannot outrun the budget nor one source fill the pool. A
 * success gives the reservation back (the email's failures are forgotten, the address's
 * reservation refunded); an attempt that was never checked (pool full, storage down) refunds both. */
#include "api/api.h"
#include "api/api_util.h"
#include "auth/inflight.h"
#include "auth/password.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "store/store.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void lower_email(const char *in, char out[BW_EMAIL_MAX + 1])
{
    size_t i = 0;
    for (; in[i] && i < BW_EMAIL_MAX; i++)
        out[i] = (char)tolower((unsigned char)in[i]);
    out[i] = '\0';
}

/* The throttle and in-flight keys of one attempt: the lowercased email and the client address. */
struct attempt {
    char ek[BW_EMAIL_MAX + 3];
    char ik[80];
};

static void attempt_keys(const struct bw_req *r, const char *email, struct attempt *a)
{
    char lower[BW_EMAIL_MAX + 1];
    lower_email(email, lower);
    snprintf(a->ek, sizeof a->ek, "e:%s", lower);
    snprintf(a->ik, sizeof a->ik, "i:%s", r->ip);
}

static void too_many(struct bw_req *r, long retry, const char *msg)
{
    bw_req_header(r, "Retry-After", "%ld", retry);
    bw_reply_error(r, BW_E_RATE_LIMITED, msg, json_pack("{s:i}", "retry_after", (json_int_t)retry));
}

/* As bw_req_defer_on answers when a pool is full. */
static void busy(struct bw_req *r)
{
    bw_reply_error(r, BW_E_UNAVAILABLE, "server busy, try again", NULL);
    bw_req_header(r, "Retry-After", "1");
}

/* Reserves one password check for a: in flight under the per-email and per-address caps, and one
 * failure counted up front in both throttles. false after answering 429 (nothing held then). */
static bool attempt_begin(struct bw_req *r, const struct attempt *a)
{
    struct api_ctx *app = api_ctx(r);
    enum bw_inflight_rc e = bw_inflight_enter(app->logins, a->ek, BW_LOGIN_INFLIGHT_EMAIL), i = BW_INFLIGHT_OK;
    if (e == BW_INFLIGHT_OK) {
        i = bw_inflight_enter(app->logins, a->ik, BW_LOGIN_INFLIGHT_IP);
        if (i != BW_INFLIGHT_OK)
            bw_inflight_leave(app->logins, a->ek);
    }
    if (e == BW_INFLIGHT_FULL || i == BW_INFLIGHT_FULL) { /* as many checks in flight as the pool can hold */
        busy(r);
        return false;
    }
    if (e != BW_INFLIGHT_OK || i != BW_INFLIGHT_OK) {
        too_many(r, 1, e != BW_INFLIGHT_OK ? "a password check for this account is in progress; retry after Retry-After seconds"
                                           : "too many password checks in progress from this address; retry after Retry-After seconds");
        return false;
    }
    long limit = app->cfg->login_max_failures;
    struct bw_limit_result le, li;
    int64_t now = bw_mono_us();
    bw_limiter_take_strict(app->login_email, a->ek, limit, now, &le);
    bw_limiter_take_strict(app->login_ip, a->ik, limit * 5, now, &li);
    if (le.allowed && li.allowed)
        return true;
    /* the limiter that refused counted the refusal (the lockout grows); the other gives its
     * reservation back, since no password is checked */
    if (le.allowed)
        bw_limiter_refund(app->login_email, a->ek, limit);
    if (li.allowed)
        bw_limiter_refund(app->login_ip, a->ik, limit * 5);
    bw_inflight_leave(app->logins, a->ek);
    bw_inflight_leave(app->logins, a->ik);
    long retry = le.retry_after_s > li.retry_after_s ? le.retry_after_s : li.retry_after_s;
    too_many(r, retry, "too many failed logins; retry after the number of seconds in Retry-After");
    return false;
}

enum attempt_outcome {
    ATTEMPT_FAILED,    /* a wrong password: the reservation stays counted */
    ATTEMPT_PASSED,    /* the right password: the email's failures are forgotten, the address's refunded */
    ATTEMPT_UNCHECKED, /* never decided (pool full, storage down): both refunded */
};

/* Ends what attempt_begin reserved. Takes the context, not the request: it may run after the
 * request was handed back. */
static void attempt_end(struct api_ctx *app, const struct attempt *a, enum attempt_outcome o)
{
    long limit = app->cfg->login_max_failures;
    if (o == ATTEMPT_PASSED)
        bw_limiter_reset(app->login_email, a->ek);
    else if (o == ATTEMPT_UNCHECKED)
        bw_limiter_refund(app->login_email, a->ek, limit);
    if (o != ATTEMPT_FAILED)
        bw_limiter_refund(app->login_ip, a->ik, limit * 5);
    bw_inflight_leave(app->logins, a->ek);
    bw_inflight_leave(app->logins, a->ik);
}

/* Reserves the attempt and hands fn to the hashing pool; on a full pool (503 answered) the
 * reservation is given back. */
static void attempt_defer(struct bw_req *r, const struct attempt *a, bw_handler_fn fn)
{
    struct api_ctx *app = api_ctx(r);
    if (!attempt_begin(r, a))
        return;
    if (!bw_req_defer_on(r, app->hashing, fn))
        attempt_end(app, a, ATTEMPT_UNCHECKED);
}

static void login_work(struct bw_req *r)
{
    struct api_ctx *app = api_ctx(r);
    const char *email_in = json_string_value(json_object_get(r->json, "email"));
    const char *pw = json_string_value(json_object_get(r->json, "password"));
    struct attempt a;
    attempt_keys(r, email_in, &a);
    char email[BW_EMAIL_MAX + 1];
    lower_email(email_in, email);

    struct store_user u;
    int rc = store_user_by_email(app->db, email, &u);
    if (rc == ST_ERROR) {
        attempt_end(app, &a, ATTEMPT_UNCHECKED);
        api_reply_storage(r);
        return;
    }
    /* an unknown email still costs one argon2id verification, against a throwaway hash */
    bool ok = bw_password_verify(rc == ST_OK ? u.password_hash : app->dummy_hash, pw) && rc == ST_OK;
    if (!ok) {
        attempt_end(app, &a, ATTEMPT_FAILED);
        bw_log_json(BW_LOG_INFO, r->request_id, "login failed", json_pack("{s:s}", "ip", r->ip));
        bw_reply_error(r, BW_E_INVALID_CREDENTIALS, "invalid email or password", NULL);
        return;
    }
    attempt_end(app, &a, ATTEMPT_PASSED);
    char *token = NULL;
    long expires_in = 0;
    if (bw_auth_issue_token(app->auth, u.id, u.tier, u.role, &token, &expires_in) != 0) {
        bw_reply_internal(r, "token signing failed");
        return;
    }
    snprintf(r->principal.user_id, sizeof r->principal.user_id, "%s", u.id);
    r->principal.kind = BW_AUTH_JWT;
    bw_reply_json(r, 200,
                  json_pack("{s:s,s:s,s:i,s:{s:s,s:s,s:s,s:s}}", "token", token, "token_type", "Bearer",
                            "expires_in", (json_int_t)expires_in, "user", "id", u.id, "email", u.email,
                            "tier", bw_tier_name(u.tier), "role", bw_role_name(u.role)));
    free(token);
}

void api_auth_login(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *email, *pw;
    if (!r->json)
        bw_verr_add(&v, "body", "a JSON object with email and password is required");
    else {
        bw_body_string(r, &v, "email", true, BW_EMAIL_MAX, &email);
        bw_body_string(r, &v, "password", true, BW_PASSWORD_MAX, &pw);
    }
    if (bw_verr_reply(r, &v))
        return;
    struct attempt a;
    attempt_keys(r, email, &a);
    attempt_defer(r, &a, login_work);
}
