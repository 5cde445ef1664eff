/* /api/accounts: managed accounts, for the session (bearer token, or the console's cookie with its
 * CSRF token) of an mssp or admin account (access level `manager`; API keys and the admin key are
 * refused: minting and stopping accounts is not for a credential that may sit in a script).
 *
 * Scope: an admin sees and acts on every account; an mssp on the accounts it manages (managed_by =
 * itself), and any other account is 404 to it, exactly like a missing one. An mssp creates only
 * `user` accounts, managed by itself, at its own tier or below (403 FORBIDDEN otherwise); an admin
 * creates any role and may name a manager (`managed_by`, an account id).
 *
 * Creation checks the fields as `bulwark user add` does and stores the account the same way
 * (services/accounts.h), hashing on the hashing pool. Disable and enable are the CLI's
 * (store_user_disable / store_user_enable: a disable ends every session of the account, tokens and
 * console sessions alike, and revokes its API keys), after which every instance forgets what it
 * cached of the account (bw_auth_forget_user). Nobody disables their own account here (409: the
 * console would lock its own user out); the store refuses to disable the last enabled admin (409).
 * Each change is an audit event (account_change) and a log line. */
#include "api/api.h"
#include "api/api_util.h"
#include "audit/audit.h"
#include "common/ids.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "services/accounts.h"
#include "store/store.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_admin(const struct bw_req *r) { return r->principal.role == BW_ROLE_ADMIN; }

/* The change as an audit event and a log line: what (create, disable, enable) on which account. */
static void record(struct bw_req *r, const char *what, const struct store_user *u)
{
    char detail[BW_AUDIT_PRINCIPAL_MAX];
    snprintf(detail, sizeof detail, "%s %s", what, u->id);
    bw_audit_record_event(api_ctx(r)->audit, BW_AUDIT_ACCOUNT_CHANGE, r->principal.user_id, BW_AUDIT_P_ACCOUNT,
                          r->principal.user_id, detail, bw_now_us() / 1000);
    bw_log_json(BW_LOG_INFO, r->request_id, "account changed",
                json_pack("{s:s,s:s,s:s,s:s}", "action", what, "user_id", u->id, "by", r->principal.user_id,
                          "role", bw_role_name(u->role)));
}

void api_accounts_list(struct bw_req *r)
{
    /* the scope is part of the cursor's filters: a cursor of one scope is refused in another */
    char scope[BW_ID_MAX + 8];
    snprintf(scope, sizeof scope, "scope=%s", is_admin(r) ? "*" : r->principal.user_id);
    struct bw_verr v = {0};
    struct api_page pg;
    api_page_query(r, &v, &pg, BW_CURSOR_ACCOUNTS, 0, scope, true);
    if (bw_verr_reply(r, &v))
        return;
    struct store_user *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    if (store_user_page(api_ctx(r)->db, is_admin(r) ? NULL : r->principal.user_id, &pg.page, &list, &n, &total) !=
        ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, bw_account_json(&list[i]));
    if (list)
        sodium_memzero(list, n * sizeof *list);
    free(list);
    api_reply_page(r, "accounts", arr, total, &pg);
}

/* The account `id` if the caller may act on it, into *u; else answered (404 for an id that is not
 * an account's, a missing account or one outside the caller's scope alike; 503) and false. */
static bool account_or_reply(struct bw_req *r, const char *id, struct store_user *u)
{
    int rc = bw_id_valid(id, "usr_") ? store_user_by_id(api_ctx(r)->db, id, u) : ST_NOTFOUND;
    if (rc == ST_OK && !is_admin(r) && strcmp(u->managed_by, r->principal.user_id) != 0)
        rc = ST_NOTFOUND;
    if (rc == ST_OK)
        return true;
    if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such account", NULL);
    else
        api_reply_storage(r);
    return false;
}

static void change(struct bw_req *r, bool disable)
{
    if (disable && strcmp(r->params[0], r->principal.user_id) == 0) {
        bw_reply_error(r, BW_E_CONFLICT,
                       "you cannot disable your own account: another admin can (or, on the host, bulwark user "
                       "disable)",
                       NULL);
        return;
    }
    struct store_user u, after;
    if (!account_or_reply(r, r->params[0], &u))
        return;
    struct db *db = api_ctx(r)->db;
    int rc = disable ? store_user_disable(db, u.email, &after) : store_user_enable(db, u.email, &after);
    if (rc == ST_NOTFOUND) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such account", NULL); /* deleted meanwhile */
        return;
    }
    if (rc == ST_CONFLICT) {
        bw_reply_error(r, BW_E_CONFLICT, "the last enabled admin account cannot be disabled", NULL);
        return;
    }
    if (rc != ST_OK) {
        api_reply_storage(r);
        return;
    }
    /* its sessions and keys are judged again here at once, and on the other instances when notified */
    bw_auth_forget_user(api_ctx(r)->auth, u.id);
    if (u.disabled != after.disabled)
        record(r, disable ? "disable" : "enable", &after);
    sodium_memzero(&u, sizeof u);
    json_t *body = bw_account_json(&after);
    sodium_memzero(&after, sizeof after);
    bw_reply_json(r, 200, body);
}

void api_accounts_disable(struct bw_req *r) { change(r, true); }
void api_accounts_enable(struct bw_req *r) { change(r, false); }

/* The body's fields, checked in api_accounts_create (the work reads them again). */
struct create_fields {
    const char *email, *password, *managed_by;
    enum bw_tier tier;
    enum bw_role role;
};

static void read_fields(const json_t *b, struct create_fields *f)
{
    const char *role = json_string_value(json_object_get(b, "role"));
    f->email = json_string_value(json_object_get(b, "email"));
    f->password = json_string_value(json_object_get(b, "password"));
    f->managed_by = json_string_value(json_object_get(b, "managed_by"));
    f->tier = (enum bw_tier)bw_tier_parse(json_string_value(json_object_get(b, "tier")));
    f->role = role ? (enum bw_role)bw_role_parse(role) : BW_ROLE_USER;
    if (f->managed_by && !f->managed_by[0])
        f->managed_by = NULL;
}

/* On the hashing pool: the manager named by an admin must exist; then the account. */
static void create_work(struct bw_req *r)
{
    struct create_fields f;
    read_fields(r->json, &f);
    struct db *db = api_ctx(r)->db;
    const char *manager = is_admin(r) ? f.managed_by : r->principal.user_id;
    if (manager && is_admin(r)) {
        struct store_user m;
        int rc = bw_id_valid(manager, "usr_") ? store_user_by_id(db, manager, &m) : ST_NOTFOUND;
        sodium_memzero(&m, sizeof m);
        if (rc == ST_ERROR) {
            api_reply_storage(r);
            return;
        }
        if (rc != ST_OK) {
            struct bw_verr v = {0};
            bw_verr_add(&v, "managed_by", "is not an account id");
            bw_verr_reply(r, &v);
            return;
        }
    }
    struct store_user u;
    bool hash_failed;
    int rc = bw_account_create(db, f.email, f.password, f.tier, f.role, manager, &u, &hash_failed);
    if (hash_failed)
        bw_reply_internal(r, "password hashing failed");
    else if (rc == ST_CONFLICT)
        bw_reply_error(r, BW_E_CONFLICT, "an account with this email exists", NULL);
    else if (rc != ST_OK)
        api_reply_storage(r);
    else {
        record(r, "create", &u);
        bw_reply_json(r, 201, bw_account_json(&u));
    }
    sodium_memzero(&u, sizeof u);
}

void api_accounts_create(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *email = NULL, *password = NULL, *tier = NULL, *role = NULL, *managed_by = NULL;
    if (!r->json) {
        bw_verr_add(&v, "email", "is required");
        bw_verr_add(&v, "password", "is required");
        bw_verr_add(&v, "tier", "is required");
    } else {
        if (bw_body_string(r, &v, "email", true, BW_EMAIL_MAX, &email) && email && !bw_account_email_ok(email))
            bw_verr_add(&v, "email", BW_ACCOUNT_EMAIL_WORDS);
        if (bw_body_string(r, &v, "password", true, BW_PASSWORD_MAX, &password) && password &&
            !bw_account_password_ok(password))
            bw_verr_add(&v, "password", BW_ACCOUNT_PASSWORD_WORDS);
        if (bw_body_string(r, &v, "tier", true, BW_ACCOUNT_WORD_MAX, &tier) && tier && bw_tier_parse(tier) < 0)
            bw_verr_add(&v, "tier", BW_ACCOUNT_TIER_WORDS);
        if (bw_body_string(r, &v, "role", false, BW_ACCOUNT_WORD_MAX, &role) && role && bw_role_parse(role) < 0)
            bw_verr_add(&v, "role", BW_ACCOUNT_ROLE_WORDS);
        if (bw_body_string(r, &v, "managed_by", false, BW_ID_MAX - 1, &managed_by) && managed_by && managed_by[0] &&
            !bw_id_valid(managed_by, "usr_"))
            bw_verr_add(&v, "managed_by", "is not an account id");
    }
    if (bw_verr_reply(r, &v))
        return;
    struct create_fields f;
    read_fields(r->json, &f);
    if (!is_admin(r)) {
        /* an mssp makes customers of its own: role user, managed by itself, within its own plan */
        if (f.role != BW_ROLE_USER) {
            bw_reply_error(r, BW_E_FORBIDDEN, "an mssp account creates only accounts of role user", NULL);
            return;
        }
        if (f.managed_by && strcmp(f.managed_by, r->principal.user_id) != 0) {
            bw_reply_error(r, BW_E_FORBIDDEN, "an mssp account creates only accounts it manages itself", NULL);
            return;
        }
        if (f.tier > r->principal.tier) {
            char m[128];
            snprintf(m, sizeof m, "an mssp account creates accounts at its own tier (%s) or below",
                     bw_tier_name(r->principal.tier));
            bw_reply_error(r, BW_E_FORBIDDEN, m, NULL);
            return;
        }
    }
    bw_req_defer_on(r, api_ctx(r)->hashing, create_work); /* argon2id: never on an event thread */
}
