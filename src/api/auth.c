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
#include <sodium.h>
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
        too_many(r, 1,
                 e != BW_INFLIGHT_OK ? "a password check for this account is in progress; retry after Retry-After seconds"
                                     : "too many password checks in progress from this address; retry after Retry-After "
                                       "seconds");
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

/* 200 with a new session token of generation gen for u: the login result. */
static void reply_session(struct bw_req *r, const struct store_user *u, int64_t gen)
{
    char *token = NULL;
    long expires_in = 0;
    if (bw_auth_issue_token(api_ctx(r)->auth, u->id, u->tier, u->role, gen, &token, &expires_in) != 0) {
        bw_reply_internal(r, "token signing failed");
        return;
    }
    snprintf(r->principal.user_id, sizeof r->principal.user_id, "%s", u->id);
    r->principal.kind = BW_AUTH_JWT;
    bw_reply_json(r, 200,
                  json_pack("{s:s,s:s,s:i,s:{s:s,s:s,s:s,s:s}}", "token", token, "token_type", "Bearer",
                            "expires_in", (json_int_t)expires_in, "user", "id", u->id, "email", u->email,
                            "tier", bw_tier_name(u->tier), "role", bw_role_name(u->role)));
    free(token);
}

/* The password check of a login request (on the hashing pool): true with *u when it passed, the
 * reservation then given back; false after answering (a wrong password, a disabled account). */
static bool login_check(struct bw_req *r, struct store_user *u)
{
    struct api_ctx *app = api_ctx(r);
    const char *email_in = json_string_value(json_object_get(r->json, "email"));
    const char *pw = json_string_value(json_object_get(r->json, "password"));
    struct attempt a;
    attempt_keys(r, email_in, &a);
    char email[BW_EMAIL_MAX + 1];
    lower_email(email_in, email);

    int rc = store_user_by_email(app->db, email, u);
    if (rc == ST_ERROR) {
        attempt_end(app, &a, ATTEMPT_UNCHECKED);
        api_reply_storage(r);
        return false;
    }
    /* an unknown email still costs one argon2id verification, against a throwaway hash */
    bool ok = bw_password_verify(rc == ST_OK ? u->password_hash : app->dummy_hash, pw) && rc == ST_OK;
    if (!ok) {
        attempt_end(app, &a, ATTEMPT_FAILED);
        bw_log_json(BW_LOG_INFO, r->request_id, "login failed", json_pack("{s:s}", "ip", r->ip));
        bw_reply_error(r, BW_E_INVALID_CREDENTIALS, "invalid email or password", NULL);
        return false;
    }
    if (u->disabled) { /* only a caller who knows the password learns it; the attempt stays counted */
        attempt_end(app, &a, ATTEMPT_FAILED);
        bw_reply_error(r, BW_E_FORBIDDEN, "this account is disabled; an administrator can enable it", NULL);
        return false;
    }
    attempt_end(app, &a, ATTEMPT_PASSED);
    bw_auth_refresh_user(app->auth, u->id);
    return true;
}

static void login_work(struct bw_req *r)
{
    struct store_user u;
    if (login_check(r, &u))
        reply_session(r, &u, u.token_gen);
}

/* Validates a login body and hands fn (login_check, then the answer) to the hashing pool. */
static void login_begin(struct bw_req *r, bw_handler_fn fn)
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
    attempt_defer(r, &a, fn);
}

void api_auth_login(struct bw_req *r) { login_begin(r, login_work); }

/* POST /api/auth/password: the session's own account changes its password. The current password
 * is checked like a login (the same throttle and in-flight caps, keyed by the account's email), on
 * the hashing pool; the change adds one to the account's token generation, so every session token
 * issued before it ends (on other instances at once when notified, else within
 * BULWARK_AUTH_CACHE_MS), and the caller gets a new one. API keys are not sessions: they go on. */
static void password_work(struct bw_req *r)
{
    struct api_ctx *app = api_ctx(r);
    const char *cur = json_string_value(json_object_get(r->json, "current_password"));
    const char *next = json_string_value(json_object_get(r->json, "new_password"));
    struct attempt a; /* the keys reserved: the email api_auth_password put in the body */
    attempt_keys(r, json_string_value(json_object_get(r->json, "email")), &a);
    struct store_user u;
    int rc = store_user_by_id(app->db, r->principal.user_id, &u);
    if (rc != ST_OK || u.disabled) { /* gone or disabled since the request was authenticated */
        attempt_end(app, &a, ATTEMPT_UNCHECKED);
        if (rc == ST_ERROR)
            api_reply_storage(r);
        else
            bw_reply_error(r, BW_E_AUTH_REQUIRED, "this session has ended; log in again", NULL);
        return;
    }
    if (!bw_password_verify(u.password_hash, cur)) {
        attempt_end(app, &a, ATTEMPT_FAILED);
        bw_log_json(BW_LOG_INFO, r->request_id, "password change refused",
                    json_pack("{s:s,s:s}", "ip", r->ip, "user_id", u.id));
        bw_reply_error(r, BW_E_INVALID_CREDENTIALS, "the current password is wrong", NULL);
        return;
    }
    attempt_end(app, &a, ATTEMPT_PASSED);
    char hash[BW_PWHASH_MAX];
    if (bw_password_hash(next, hash) != 0) {
        bw_reply_internal(r, "password hashing failed");
        return;
    }
    /* only if this session is still current: a change made meanwhile (another password change,
     * a disable, a role change) has ended it */
    int64_t gen = -1;
    rc = store_user_set_password(app->db, u.id, hash, r->principal.token_gen, &gen);
    sodium_memzero(hash, sizeof hash);
    if (rc == ST_ERROR) {
        api_reply_storage(r);
        return;
    }
    if (rc != ST_OK) {
        bw_reply_error(r, BW_E_AUTH_REQUIRED, "this session has ended (the account changed meanwhile); log in again",
                       NULL);
        return;
    }
    bw_auth_forget_user(app->auth, u.id);
    bw_log_json(BW_LOG_INFO, r->request_id, "password changed", json_pack("{s:s}", "user_id", u.id));
    reply_session(r, &u, gen);
}

void api_auth_password(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *cur = NULL, *next = NULL;
    if (!r->json)
        bw_verr_add(&v, "body", "a JSON object with current_password and new_password is required");
    else {
        bw_body_string(r, &v, "current_password", true, BW_PASSWORD_MAX, &cur);
        if (bw_body_string(r, &v, "new_password", true, BW_PASSWORD_MAX, &next) && next) {
            size_t n = strlen(next);
            if (n < BW_PASSWORD_MIN || n > BW_PASSWORD_MAX) {
                char m[48];
                snprintf(m, sizeof m, "must be %d to %d bytes", BW_PASSWORD_MIN, BW_PASSWORD_MAX);
                bw_verr_add(&v, "new_password", m);
            }
            else if (cur && strcmp(cur, next) == 0)
                bw_verr_add(&v, "new_password", "must differ from the current password");
        }
    }
    if (bw_verr_reply(r, &v))
        return;
    /* the throttle is the login's, keyed by the account's email: guessing the current password
     * through a stolen session is no cheaper than guessing it at the login */
    struct store_user u;
    int rc = store_user_by_id(api_ctx(r)->db, r->principal.user_id, &u);
    if (rc == ST_ERROR) {
        api_reply_storage(r);
        return;
    }
    if (rc != ST_OK) {
        bw_reply_error(r, BW_E_AUTH_REQUIRED, "this session has ended; log in again", NULL);
        return;
    }
    /* the work reads the email from the body (whatever the client sent under that name is
     * replaced: the handler takes no such field) */
    json_object_set_new(r->json, "email", json_string(u.email));
    struct attempt a;
    attempt_keys(r, u.email, &a);
    attempt_defer(r, &a, password_work);
}

/* ---- the web console's sessions (POST, GET and DELETE /api/console/session) ---------------------
 * The sign-in is the login above (the same throttle, reservations and hashing pool); instead of a
 * token it sets the session cookie and answers the CSRF token every later request must carry. */

/* Secure under native TLS, or when told the clients speak TLS to a proxy (BULWARK_COOKIE_SECURE). */
static bool cookie_secure(const struct bw_req *r)
{
    const struct bw_config *cfg = api_ctx(r)->cfg;
    return cfg->cookie_secure || (cfg->tls_cert && cfg->tls_cert[0] && cfg->tls_key && cfg->tls_key[0]);
}

static void set_cookie(struct bw_req *r, const char *value, long max_age)
{
    bw_req_header(r, "Set-Cookie", "%s=%s; Path=/; Max-Age=%ld; HttpOnly; SameSite=Strict%s", BW_CONSOLE_COOKIE, value,
                  max_age, cookie_secure(r) ? "; Secure" : "");
}

/* 200 with the console session's CSRF token, when it ends at the latest, and its account. */
static void reply_console(struct bw_req *r, const char *csrf, int64_t ends_s, const struct bw_principal *p,
                          const char *email)
{
    char ends[21];
    bw_iso8601(ends_s, ends);
    json_t *user = json_pack("{s:s,s:s,s:s}", "id", p->user_id, "tier", bw_tier_name(p->tier), "role",
                             bw_role_name(p->role));
    if (email)
        json_object_set_new(user, "email", json_string(email));
    bw_reply_json(r, 200,
                  json_pack("{s:s,s:s,s:i,s:o}", "csrf_token", csrf, "expires_at", ends, "idle_timeout",
                            (json_int_t)BW_CONSOLE_IDLE_S, "user", user));
}

static void console_login_work(struct bw_req *r)
{
    struct store_user u;
    if (!login_check(r, &u))
        return;
    char id[BW_CONSOLE_ID_LEN + 1], csrf[BW_CONSOLE_CSRF_LEN + 1];
    if (bw_auth_console_begin(api_ctx(r)->auth, u.id, u.token_gen, id, csrf) != BW_OK) {
        api_reply_storage(r);
        return;
    }
    set_cookie(r, id, BW_CONSOLE_MAX_AGE_S);
    sodium_memzero(id, sizeof id);
    struct bw_principal p = {.kind = BW_AUTH_JWT, .tier = u.tier, .role = u.role, .token_gen = u.token_gen};
    snprintf(p.user_id, sizeof p.user_id, "%s", u.id);
    r->principal = p;
    int64_t now = bw_now_s();
    reply_console(r, csrf, now + (BW_CONSOLE_IDLE_S < BW_CONSOLE_MAX_AGE_S ? BW_CONSOLE_IDLE_S : BW_CONSOLE_MAX_AGE_S), &p,
                  u.email);
}

void api_console_login(struct bw_req *r) { login_begin(r, console_login_work); }

void api_console_session(struct bw_req *r)
{
    struct bw_principal p;
    char csrf[BW_CONSOLE_CSRF_LEN + 1];
    int64_t ends = 0;
    const char *why = NULL;
    enum bw_err e = bw_auth_console_current(api_ctx(r)->auth, bw_req_header_in(r, "Cookie"), &p, csrf, &ends, &why);
    if (e == BW_E_UNAVAILABLE) {
        api_reply_storage(r);
        return;
    }
    if (e != BW_OK) {
        bw_reply_error(r, e, why, NULL);
        return;
    }
    struct store_user u;
    int rc = store_user_by_id(api_ctx(r)->db, p.user_id, &u);
    if (rc == ST_ERROR) {
        api_reply_storage(r);
        return;
    }
    reply_console(r, csrf, ends, &p, rc == ST_OK ? u.email : NULL);
}

void api_console_logout(struct bw_req *r)
{
    if (bw_auth_console_end(api_ctx(r)->auth, bw_req_header_in(r, "Cookie")) != BW_OK) {
        api_reply_storage(r);
        return;
    }
    set_cookie(r, "", 0);
    bw_reply_static(r, 204, "", 0);
}
