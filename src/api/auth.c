/* POST /api/auth/login: argon2id on the blocking pool, the same answer and the same work for an
 * unknown email and a wrong password, failed attempts throttled per email and per IP. */
#include "api/api.h"
#include "api/api_util.h"
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

static void throttle_keys(struct bw_req *r, const char *email, char ek[300], char ik[80])
{
    snprintf(ek, 300, "e:%s", email);
    snprintf(ik, 80, "i:%s", r->ip);
}

static void too_many(struct bw_req *r, long retry)
{
    bw_req_header(r, "Retry-After", "%ld", retry);
    bw_reply_error(r, BW_E_RATE_LIMITED, "too many failed logins; retry after the number of seconds in Retry-After",
                   json_pack("{s:i}", "retry_after", (json_int_t)retry));
}

static void login_work(struct bw_req *r)
{
    struct api_ctx *app = api_ctx(r);
    char email[BW_EMAIL_MAX + 1], ek[300], ik[80];
    lower_email(json_string_value(json_object_get(r->json, "email")), email);
    const char *pw = json_string_value(json_object_get(r->json, "password"));
    throttle_keys(r, email, ek, ik);

    struct store_user u;
    int rc = store_user_by_email(app->db, email, &u);
    if (rc == ST_ERROR) {
        api_reply_storage(r);
        return;
    }
    /* an unknown email still costs one argon2id verification, against a throwaway hash */
    bool ok = bw_password_verify(rc == ST_OK ? u.password_hash : app->dummy_hash, pw) && rc == ST_OK;
    if (!ok) {
        struct bw_limit_result lr;
        int64_t now = bw_mono_us();
        bw_limiter_take(app->login_email, ek, app->cfg->login_max_failures, now, &lr);
        bw_limiter_take(app->login_ip, ik, app->cfg->login_max_failures * 5, now, &lr);
        bw_log_json(BW_LOG_INFO, r->request_id, "login failed", json_pack("{s:s}", "ip", r->ip));
        bw_reply_error(r, BW_E_INVALID_CREDENTIALS, "invalid email or password", NULL);
        return;
    }
    bw_limiter_reset(app->login_email, ek);
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
    char lower[BW_EMAIL_MAX + 1], ek[300], ik[80];
    lower_email(email, lower);
    throttle_keys(r, lower, ek, ik);
    long retry = 0;
    int64_t now = bw_mono_us();
    if (bw_limiter_exhausted(api_ctx(r)->login_email, ek, api_ctx(r)->cfg->login_max_failures, now, &retry) ||
        bw_limiter_exhausted(api_ctx(r)->login_ip, ik, api_ctx(r)->cfg->login_max_failures * 5, now, &retry)) {
        too_many(r, retry);
        return;
    }
    bw_req_defer(r, login_work);
}
