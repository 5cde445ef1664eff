#include "store/store.h"
#include "store/store_internal.h"

#include "common/log.h"
#include "common/states.h"
#include "common/timeutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- users ------------------------------------------------------------------------------------- */

#define USER_COLS "id, email, password_hash, tier, role, managed_by, created_at, token_gen, disabled"
#define USER_INSERT_COLS "id, email, password_hash, tier, role, managed_by, created_at"

static int read_user(struct db_rows *r, void *item)
{
    struct store_user *u = item;
    COPY(u->id, db_rows_text(r, 0));
    COPY(u->email, db_rows_text(r, 1));
    COPY(u->password_hash, db_rows_text(r, 2));
    int t = bw_tier_parse(db_rows_text(r, 3));
    u->tier = t < 0 ? BW_TIER_FREE : (enum bw_tier)t;
    int ro = bw_role_parse(db_rows_text(r, 4));
    u->role = ro < 0 ? BW_ROLE_USER : (enum bw_role)ro;
    COPY(u->managed_by, db_rows_text(r, 5));
    COPY(u->created_at, db_rows_text(r, 6));
    u->token_gen = db_rows_int(r, 7);
    u->disabled = db_rows_int(r, 8) != 0;
    return ST_OK;
}

int store_user_insert(struct db *db, const struct store_user *u)
{
    struct db_param p[] = {DBP_TEXT(u->id),
                           DBP_TEXT(u->email),
                           DBP_TEXT(u->password_hash),
                           DBP_TEXT(bw_tier_name(u->tier)),
                           DBP_TEXT(bw_role_name(u->role)),
                           DBP_OPT(u->managed_by[0] ? u->managed_by : NULL),
                           DBP_TEXT(u->created_at)};
    return store_exec(db, "INSERT INTO users (" USER_INSERT_COLS ") VALUES (?, ?, ?, ?, ?, ?, ?)", p, 7, NULL);
}

static int user_one(struct db *db, const char *sql, const char *arg, struct store_user *out)
{
    struct db_param p[] = {DBP_TEXT(arg)};
    return store_query_one(db, sql, p, 1, read_user, out);
}

int store_user_by_email(struct db *db, const char *email, struct store_user *out)
{
    return user_one(db, "SELECT " USER_COLS " FROM users WHERE email = ?", email, out);
}

int store_user_by_id(struct db *db, const char *id, struct store_user *out)
{
    return user_one(db, "SELECT " USER_COLS " FROM users WHERE id = ?", id, out);
}

int store_user_count(struct db *db, int64_t *n)
{
    return store_query_int(db, "SELECT COUNT(*) FROM users", NULL, 0, n);
}

int store_user_list(struct db *db, struct store_user **out, size_t *n)
{
    void *items = NULL;
    int rc = store_query_list(db, "SELECT " USER_COLS " FROM users ORDER BY created_at, email", NULL, 0, sizeof **out,
                              read_user, &items, n);
    *out = items;
    return rc;
}

/* The accounts' pages: ranges of users_page (created_at, id) or users_managed_page (managed_by,
 * created_at, id), read backwards, the count as a scalar subquery in every row. */
#define U_ORDER " ORDER BY created_at DESC, id DESC"
#define U_COUNT_ALL "SELECT COUNT(*) FROM users"
#define U_COUNT_M "SELECT COUNT(*) FROM users WHERE managed_by = ?"
#define U_SELECT(count) "SELECT " USER_COLS ", (" count ") FROM users"

int store_user_page(struct db *db, const char *managed_by, struct store_page *pg, struct store_user **out, size_t *n,
                    int64_t *total)
{
    static const struct store_page_cols cols = {.key = 6, .id = 0, .total = 9, .text_key = true};
    static const char *const sql[2][2] = {
        {U_SELECT(U_COUNT_ALL) U_ORDER " LIMIT ? OFFSET ?",
         U_SELECT(U_COUNT_ALL) " WHERE " STORE_AFTER("created_at", "id") U_ORDER " LIMIT ?"},
        {U_SELECT(U_COUNT_M) " WHERE managed_by = ?" U_ORDER " LIMIT ? OFFSET ?",
         U_SELECT(U_COUNT_M) " WHERE managed_by = ? AND " STORE_AFTER("created_at", "id") U_ORDER " LIMIT ?"}};
    struct db_param p[6];
    int nf = 0;
    if (managed_by) {
        p[0] = DBP_TEXT(managed_by);
        p[1] = DBP_TEXT(managed_by);
        nf = 1;
    }
    int np = store_page_params(pg, true, p, 2 * nf);
    void *items = NULL;
    int rc = store_query_page_list(db, sql[managed_by ? 1 : 0][pg->after_id ? 1 : 0], p, np, pg, &cols,
                                   managed_by ? U_COUNT_M : U_COUNT_ALL, nf, total, sizeof **out, read_user, &items, n);
    *out = items;
    return rc;
}

int store_user_set_tier(struct db *db, const char *email, enum bw_tier tier)
{
    struct db_param p[] = {DBP_TEXT(bw_tier_name(tier)), DBP_TEXT(email)};
    return store_exec_changed(db, "UPDATE users SET tier = ? WHERE email = ?", p, 2, ST_NOTFOUND);
}

int store_user_set_password(struct db *db, const char *id, const char *hash, int64_t expect_gen, int64_t *gen)
{
    struct db_param p[] = {DBP_TEXT(hash), DBP_TEXT(id), DBP_INT(expect_gen), DBP_INT(expect_gen)};
    *gen = -1;
    return store_query_one(db,
                           "UPDATE users SET password_hash = ?, token_gen = token_gen + 1"
                           " WHERE id = ? AND (CAST(? AS BIGINT) < 0 OR token_gen = ?) RETURNING token_gen",
                           p, 4, store_row_int, gen);
}

enum account_op { ACCOUNT_DISABLE, ACCOUNT_ENABLE, ACCOUNT_SET_ROLE, ACCOUNT_DELETE };

/* Everything an account owns, deleted children first (the foreign keys hold on PostgreSQL, and on
 * SQLite with foreign_keys on). A table gaining a user_id column belongs here. Parameters: the
 * account id (?) or its orchestrator scope key (the second group). */
static const char *const delete_by_id[] = {
    "UPDATE users SET managed_by = NULL WHERE managed_by = ?",
    "DELETE FROM jobs WHERE ref IN (SELECT id FROM engagements WHERE user_id = ?)",
    "DELETE FROM engagement_attacks WHERE engagement_id IN (SELECT id FROM engagements WHERE user_id = ?)",
    "DELETE FROM engagement_turns WHERE engagement_id IN (SELECT id FROM engagements WHERE user_id = ?)",
    "DELETE FROM engagements WHERE user_id = ?",
    "DELETE FROM asset_scans WHERE user_id = ?",
    "DELETE FROM assets WHERE user_id = ?",
    "DELETE FROM assessments WHERE user_id = ?",
    "DELETE FROM playbooks WHERE user_id = ?",
    "DELETE FROM api_keys WHERE user_id = ?",
    "DELETE FROM console_sessions WHERE user_id = ?",
    "DELETE FROM jobs WHERE ref IN (SELECT id FROM webhook_deliveries WHERE user_id = ?)",
    "DELETE FROM webhook_deliveries WHERE user_id = ?",
    "DELETE FROM webhooks WHERE user_id = ?",
};
static const char *const delete_by_scope[] = {
    "DELETE FROM jobs WHERE id IN (SELECT job_id FROM orch_runs WHERE scope_key = ?)",
    "DELETE FROM orch_snapshots WHERE scope_key = ?",
    "DELETE FROM orch_runs WHERE scope_key = ?",
};

static int delete_account(struct db_conn *c, const char *id)
{
    char scope[BW_ID_MAX + 8];
    snprintf(scope, sizeof scope, "acct:%s", id);
    struct db_param p[] = {DBP_TEXT(id)}, ps[] = {DBP_TEXT(scope)};
    for (size_t i = 0; i < sizeof delete_by_id / sizeof delete_by_id[0]; i++)
        if (db_exec(c, delete_by_id[i], p, 1, NULL) != DB_OK)
            return ST_ERROR;
    for (size_t i = 0; i < sizeof delete_by_scope / sizeof delete_by_scope[0]; i++)
        if (db_exec(c, delete_by_scope[i], ps, 1, NULL) != DB_OK)
            return ST_ERROR;
    return db_exec(c, "DELETE FROM users WHERE id = ?", p, 1, NULL) == DB_OK ? ST_OK : ST_ERROR;
}

/* The change itself, on the account u as it was. */
static int account_apply(struct db_conn *c, const struct store_user *u, enum account_op op, enum bw_role role)
{
    struct db_param p[] = {DBP_TEXT(u->id)};
    char ts[21];
    bw_iso8601(bw_now_s(), ts);
    struct db_param kp[] = {DBP_TEXT(ts), DBP_TEXT(u->id)};
    struct db_param rp[] = {DBP_TEXT(bw_role_name(role)), DBP_TEXT(u->id)};
    switch (op) {
    case ACCOUNT_DISABLE:
        if (u->disabled)
            return ST_OK;
        if (db_exec(c, "UPDATE users SET disabled = 1, token_gen = token_gen + 1 WHERE id = ?", p, 1, NULL) != DB_OK ||
            db_exec(c, "UPDATE api_keys SET active = 0, revoked_at = ? WHERE user_id = ? AND active = 1", kp, 2,
                    NULL) != DB_OK ||
            db_exec(c, "UPDATE users SET active_keys = 0 WHERE id = ?", p, 1, NULL) != DB_OK)
            return ST_ERROR;
        return ST_OK;
    case ACCOUNT_ENABLE:
        return db_exec(c, "UPDATE users SET disabled = 0 WHERE id = ?", p, 1, NULL) == DB_OK ? ST_OK : ST_ERROR;
    case ACCOUNT_SET_ROLE:
        if (u->role == role)
            return ST_OK;
        return db_exec(c, "UPDATE users SET role = ?, token_gen = token_gen + 1 WHERE id = ?", rp, 2, NULL) == DB_OK
                   ? ST_OK
                   : ST_ERROR;
    case ACCOUNT_DELETE:
        return delete_account(c, u->id);
    }
    return ST_ERROR;
}

/* One account change: a write transaction that first takes the accounts' lock (a settings row
 * every such change writes: PostgreSQL serialises them on it, SQLite on its write lock), then
 * refuses a change that would leave no enabled admin. */
static int account_change(struct db *db, const char *email, enum account_op op, enum bw_role role,
                          struct store_user *out)
{
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    int rc = ST_ERROR;
    struct db_param ep[] = {DBP_TEXT(email)};
    if (db_begin(c, true) != DB_OK)
        goto out;
    if (db_exec(c,
                "INSERT INTO settings (name, value) VALUES ('account_lock', '')"
                " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                NULL, 0, NULL) != DB_OK)
        goto fail;
    struct store_user u;
    rc = store_conn_one(c, "SELECT " USER_COLS " FROM users WHERE email = ?", ep, 1, read_user, &u);
    if (rc != ST_OK)
        goto fail;
    bool admin_before = u.role == BW_ROLE_ADMIN && !u.disabled;
    bool admin_after = op == ACCOUNT_ENABLE     ? u.role == BW_ROLE_ADMIN
                       : op == ACCOUNT_SET_ROLE ? role == BW_ROLE_ADMIN && !u.disabled
                                                : false;
    if (admin_before && !admin_after) {
        int64_t others = 0;
        struct db_param ip[] = {DBP_TEXT(u.id)};
        rc = store_conn_int(c, "SELECT COUNT(*) FROM users WHERE role = 'admin' AND disabled = 0 AND id <> ?", ip, 1,
                            &others);
        if (rc == ST_OK && others == 0)
            rc = ST_CONFLICT;
        if (rc != ST_OK)
            goto fail;
    }
    rc = account_apply(c, &u, op, role);
    if (rc != ST_OK)
        goto fail;
    *out = u;
    if (op != ACCOUNT_DELETE)
        rc = store_conn_one(c, "SELECT " USER_COLS " FROM users WHERE email = ?", ep, 1, read_user, out);
    if (rc != ST_OK)
        goto fail;
    rc = db_commit(c) == DB_OK ? ST_OK : ST_ERROR;
    if (rc != ST_OK)
        db_rollback(c);
    goto out;
fail:
    db_rollback(c);
out:
    db_release(c);
    return rc;
}

int store_user_disable(struct db *db, const char *email, struct store_user *out)
{
    return account_change(db, email, ACCOUNT_DISABLE, BW_ROLE_USER, out);
}

int store_user_enable(struct db *db, const char *email, struct store_user *out)
{
    return account_change(db, email, ACCOUNT_ENABLE, BW_ROLE_USER, out);
}

int store_user_set_role(struct db *db, const char *email, enum bw_role role, struct store_user *out)
{
    return account_change(db, email, ACCOUNT_SET_ROLE, role, out);
}

int store_user_delete(struct db *db, const char *email, struct store_user *out)
{
    return account_change(db, email, ACCOUNT_DELETE, BW_ROLE_USER, out);
}

/* ---- API keys ---------------------------------------------------------------------------------- */

#define KEY_COLS                                                                                   \
    "k.id, k.user_id, k.key_prefix, k.label, k.active, k.created_at, k.last_used_at, "             \
    "k.rotated_from, u.tier, u.role, u.disabled"

static int read_key(struct db_rows *r, void *item)
{
    struct store_key *k = item;
    COPY(k->id, db_rows_text(r, 0));
    COPY(k->user_id, db_rows_text(r, 1));
    COPY(k->prefix, db_rows_text(r, 2));
    COPY(k->label, db_rows_text(r, 3));
    k->active = db_rows_int(r, 4) != 0;
    COPY(k->created_at, db_rows_text(r, 5));
    COPY(k->last_used_at, db_rows_text(r, 6));
    COPY(k->rotated_from, db_rows_text(r, 7));
    int t = bw_tier_parse(db_rows_text(r, 8));
    k->tier = t < 0 ? BW_TIER_FREE : (enum bw_tier)t;
    int ro = bw_role_parse(db_rows_text(r, 9));
    k->role = ro < 0 ? BW_ROLE_USER : (enum bw_role)ro;
    k->owner_disabled = db_rows_int(r, 10) != 0;
    return ST_OK;
}

/* ST_OK, ST_CONFLICT (the id or hash exists) or ST_ERROR. */
static int insert_key(struct db_conn *c, const struct store_key *k)
{
    struct db_param p[] = {DBP_TEXT(k->id),
                           DBP_TEXT(k->user_id),
                           DBP_TEXT(k->hash),
                           DBP_TEXT(k->prefix),
                           DBP_TEXT(k->label),
                           DBP_TEXT(k->created_at),
                           DBP_OPT(k->rotated_from[0] ? k->rotated_from : NULL)};
    return store_conn_exec(c,
                           "INSERT INTO api_keys (id, user_id, key_hash, key_prefix, label, active, "
                           "created_at, rotated_from) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                           p, 7, NULL);
}

/* Takes the per-user write lock: the UPDATE locks the user's row on PostgreSQL and the database
 * on SQLite, so concurrent creations for one user are counted one after the other. */
int store_lock_user(struct db_conn *c, const char *user_id)
{
    int64_t ch = 0;
    struct db_param p[] = {DBP_TEXT(user_id)};
    int rc = db_exec(c, "UPDATE users SET key_seq = key_seq + 1 WHERE id = ?", p, 1, &ch);
    if (rc != DB_OK)
        return ST_ERROR;
    return ch ? ST_OK : ST_NOTFOUND;
}

int store_capped(struct db_conn *c, const char *user_id, const char *count_sql, long max, int64_t *count)
{
    *count = 0;
    int rc = store_lock_user(c, user_id);
    if (rc == ST_OK) {
        struct db_param p[] = {DBP_TEXT(user_id)};
        rc = store_conn_int(c, count_sql, p, 1, count);
        if (rc == ST_OK && *count >= max)
            rc = ST_LIMIT;
    }
    return rc;
}

struct key_create {
    const struct store_key *k;
    long max_active;
};

/* The account's active-key count (users.active_keys, migration 0035) against the cap, raised in
 * the same statement that takes the per-account lock: a creation is this UPDATE and the INSERT.
 * No row changed: the account is at its cap, or gone. */
static const char KEY_RESERVE[] =
    "UPDATE users SET key_seq = key_seq + 1, active_keys = active_keys + 1 WHERE id = ? AND active_keys < ?";
static const char KEY_RELEASE[] = "UPDATE users SET active_keys = active_keys - 1 WHERE id = ? AND active_keys > 0";

static int key_create_tx(struct db_conn *c, void *arg)
{
    const struct key_create *a = arg;
    int64_t ch = 0;
    struct db_param p[] = {DBP_TEXT(a->k->user_id), DBP_INT(a->max_active)};
    if (db_exec(c, KEY_RESERVE, p, 2, &ch) != DB_OK)
        return ST_ERROR;
    if (ch == 0) {
        int rc = store_lock_user(c, a->k->user_id);
        return rc == ST_OK ? ST_LIMIT : rc; /* the row is there: at the cap */
    }
    return insert_key(c, a->k);
}


int store_key_create(struct db *db, const struct store_key *k, long max_active)
{
    return store_tx(db, key_create_tx, &(struct key_create){k, max_active});
}

/* One array each, so the lookup and the revocation are prepared once wherever they run (statements
 * are cached by the text's address). */
static const char KEY_FIND_SQL[] = "SELECT " KEY_COLS " FROM api_keys k JOIN users u ON u.id = k.user_id "
                                   "WHERE k.user_id = ? AND (k.id = ? OR k.key_prefix = ?) "
                                   "ORDER BY k.created_at DESC LIMIT 1";
/* "AND active = 1": a revocation that found the key active changes one row, and only then is the
 * account's count lowered */
static const char KEY_REVOKE_SQL[] = "UPDATE api_keys SET active = 0, revoked_at = ? WHERE id = ? AND active = 1";

static int key_find(struct db_conn *c, const char *user_id, const char *idp, struct store_key *out)
{
    struct db_param p[] = {DBP_TEXT(user_id), DBP_TEXT(idp), DBP_TEXT(idp)};
    return store_conn_one(c, KEY_FIND_SQL, p, 3, read_key, out);
}

int store_key_get(struct db *db, const char *user_id, const char *idp, struct store_key *out)
{
    struct db_param p[] = {DBP_TEXT(user_id), DBP_TEXT(idp), DBP_TEXT(idp)};
    return store_query_one(db, KEY_FIND_SQL, p, 3, read_key, out);
}

/* A key named by id or prefix among user_id's, and the key the operation fills. */
struct key_op {
    const char *user_id, *idp;
    struct store_key *key;
};

static int key_revoke_tx(struct db_conn *c, void *arg)
{
    struct key_op *a = arg;
    int rc = key_find(c, a->user_id, a->idp, a->key);
    if (rc != ST_OK || !a->key->active)
        return rc;
    char ts[21];
    bw_iso8601(bw_now_s(), ts);
    struct db_param p[] = {DBP_TEXT(ts), DBP_TEXT(a->key->id)}, u[] = {DBP_TEXT(a->user_id)};
    int64_t ch = 0;
    if (db_exec(c, KEY_REVOKE_SQL, p, 2, &ch) != DB_OK || (ch && store_conn_exec(c, KEY_RELEASE, u, 1, NULL) != ST_OK))
        return ST_ERROR;
    a->key->active = false;
    return ST_OK;
}

int store_key_revoke(struct db *db, const char *user_id, const char *idp, struct store_key *out)
{
    return store_tx(db, key_revoke_tx, &(struct key_op){user_id, idp, out});
}

static int key_rotate_tx(struct db_conn *c, void *arg)
{
    struct key_op *a = arg;
    struct store_key *nk = a->key, old;
    int rc = store_lock_user(c, a->user_id);
    if (rc == ST_OK)
        rc = key_find(c, a->user_id, a->idp, &old);
    if (rc != ST_OK)
        return rc;
    if (!old.active)
        return ST_CONFLICT;
    struct db_param p[] = {DBP_TEXT(nk->created_at), DBP_TEXT(old.id)};
    if (store_conn_exec(c, KEY_REVOKE_SQL, p, 2, NULL) != ST_OK)
        return ST_ERROR;
    COPY(nk->user_id, a->user_id);
    COPY(nk->label, old.label);
    COPY(nk->rotated_from, old.prefix);
    nk->tier = old.tier;
    nk->role = old.role;
    nk->active = true;
    return insert_key(c, nk) == ST_OK ? ST_OK : ST_ERROR;
}

int store_key_rotate(struct db *db, const char *user_id, const char *idp, struct store_key *nk)
{
    return store_tx(db, key_rotate_tx, &(struct key_op){user_id, idp, nk});
}

int store_key_list(struct db *db, const char *user_id, struct store_key **out, size_t *n)
{
    struct db_param p[] = {DBP_TEXT(user_id)};
    void *items = NULL;
    int rc = store_query_list(db,
                              "SELECT " KEY_COLS " FROM api_keys k JOIN users u ON u.id = k.user_id "
                              "WHERE k.user_id = ? ORDER BY k.created_at DESC, k.id",
                              p, 1, sizeof **out, read_key, &items, n);
    *out = items;
    return rc;
}

int store_key_by_hash(struct db *db, const char *hash, struct store_key *out)
{
    int rc = store_key_by_hash_any(db, hash, out);
    return rc == ST_OK && !out->active ? ST_NOTFOUND : rc;
}

int store_key_by_hash_any(struct db *db, const char *hash, struct store_key *out)
{
    struct db_param p[] = {DBP_TEXT(hash)};
    return store_query_one(db,
                           "SELECT " KEY_COLS " FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?",
                           p, 1, read_key, out);
}

int store_key_touch(struct db *db, const char *key_id, const char *ts)
{
    struct db_param p[] = {DBP_TEXT(ts), DBP_TEXT(key_id)};
    return store_exec(db, "UPDATE api_keys SET last_used_at = ? WHERE id = ?", p, 2, NULL);
}

/* ---- settings ---------------------------------------------------------------------------------- */

struct text_out {
    char *s;
    size_t cap;
};

static int read_setting(struct db_rows *r, void *arg)
{
    struct text_out *o = arg;
    store_copy(o->s, o->cap, db_rows_text(r, 0));
    return ST_OK;
}

int store_setting_get(struct db *db, const char *name, char *out, size_t cap)
{
    struct db_param p[] = {DBP_TEXT(name)};
    return store_query_one(db, "SELECT value FROM settings WHERE name = ?", p, 1, read_setting,
                           &(struct text_out){out, cap});
}

int store_setting_put_if_absent(struct db *db, const char *name, const char *value)
{
    struct db_param p[] = {DBP_TEXT(name), DBP_TEXT(value)};
    return store_exec(db, "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", p, 2,
                      NULL);
}

int store_setting_put(struct db *db, const char *name, const char *value)
{
    struct db_param p[] = {DBP_TEXT(name), DBP_TEXT(value)};
    return store_exec(db,
                      "INSERT INTO settings (name, value) VALUES (?, ?)"
                      " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                      p, 2, NULL);
}

int store_assessment_insert(struct db *db, const char *id, const char *user_id, const char *framework_id,
                            const char *body, const char *created_at)
{
    struct db_param p[] = {DBP_TEXT(id), DBP_TEXT(user_id), DBP_TEXT(framework_id), DBP_TEXT(body),
                           DBP_TEXT(created_at)};
    return store_exec(db,
                      "INSERT INTO assessments (id, user_id, framework_id, body, created_at) VALUES (?, ?, ?, ?, ?)",
                      p, 5, NULL);
}

int store_assessment_get(struct db *db, const char *user_id, const char *id, char **body)
{
    *body = NULL;
    struct db_param p[] = {DBP_TEXT(id), DBP_TEXT(user_id)};
    return store_query_one(db, "SELECT body FROM assessments WHERE id = ? AND user_id = ?", p, 2, store_row_text,
                           body);
}

void store_asset_clear(struct store_asset *a)
{
    free(a->connection);
    free(a->auth_sealed);
    free(a->components);
    a->connection = a->auth_sealed = a->components = NULL;
}

static void asset_item_clear(void *item) { store_asset_clear(item); }

void store_asset_list_free(struct store_asset *list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        store_asset_clear(&list[i]);
    free(list);
}

int store_asset_insert(struct db *db, const struct store_asset *a)
{
    struct db_param p[] = {DBP_TEXT(a->id),         DBP_TEXT(a->user_id),     DBP_TEXT(a->name),
                           DBP_TEXT(a->type),       DBP_OPT(a->provider[0] ? a->provider : NULL),
                           DBP_TEXT(a->endpoint),   DBP_TEXT(a->env),         DBP_INT(a->security_score),
                           DBP_TEXT(a->risk_level), DBP_TEXT(a->created_at), DBP_INT(a->created_us),
                           DBP_OPT(a->connection),  DBP_OPT(a->auth_sealed),  DBP_TEXT(a->score_basis),
                           DBP_OPT(a->components)};
    return store_exec(db,
                      "INSERT INTO assets (id, user_id, name, type, provider, endpoint, env, security_score, "
                      "risk_level, created_at, created_us, connection, auth_sealed, score_basis, components)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      p, 15, NULL);
}

int store_asset_update(struct db *db, const struct store_asset *a)
{
    struct db_param p[] = {DBP_TEXT(a->name),        DBP_OPT(a->provider[0] ? a->provider : NULL),
                           DBP_TEXT(a->endpoint),    DBP_TEXT(a->env),
                           DBP_OPT(a->connection),   DBP_OPT(a->auth_sealed),
                           DBP_INT(a->security_score), DBP_TEXT(a->risk_level),
                           DBP_TEXT(a->score_basis), DBP_OPT(a->components),
                           DBP_TEXT(a->id),          DBP_TEXT(a->user_id)};
    return store_exec_changed(db,
                              "UPDATE assets SET name = ?, provider = ?, endpoint = ?, env = ?, connection = ?,"
                              " auth_sealed = ?, security_score = ?, risk_level = ?, score_basis = ?, components = ?"
                              " WHERE id = ? AND user_id = ?",
                              p, 12, ST_NOTFOUND);
}

/* Columns: id, name, type, provider, endpoint, env, security_score, risk_level, created_at,
 * created_us, last_scan_id, last_scanned_at, score_basis, connection, auth_sealed, components. The caller fills
 * user_id: its queries are per user. */
static int asset_row(struct db_rows *r, void *item)
{
    struct store_asset *a = item;
    memset(a, 0, sizeof *a);
    store_copy(a->score_basis, sizeof a->score_basis, db_rows_text(r, 12));
    const char *conn = db_rows_text(r, 13), *sealed = db_rows_text(r, 14), *comps = db_rows_text(r, 15);
    if ((conn && !(a->connection = strdup(conn))) || (sealed && !(a->auth_sealed = strdup(sealed))) ||
        (comps && !(a->components = strdup(comps)))) {
        store_asset_clear(a);
        return ST_ERROR;
    }
    store_copy(a->id, sizeof a->id, db_rows_text(r, 0));
    store_copy(a->name, sizeof a->name, db_rows_text(r, 1));
    store_copy(a->type, sizeof a->type, db_rows_text(r, 2));
    store_copy(a->provider, sizeof a->provider, db_rows_text(r, 3));
    store_copy(a->endpoint, sizeof a->endpoint, db_rows_text(r, 4));
    store_copy(a->env, sizeof a->env, db_rows_text(r, 5));
    a->security_score = (int)db_rows_int(r, 6);
    store_copy(a->risk_level, sizeof a->risk_level, db_rows_text(r, 7));
    store_copy(a->created_at, sizeof a->created_at, db_rows_text(r, 8));
    a->created_us = db_rows_int(r, 9);
    store_copy(a->last_scan_id, sizeof a->last_scan_id, db_rows_text(r, 10));
    store_copy(a->last_scanned_at, sizeof a->last_scanned_at, db_rows_text(r, 11));
    return ST_OK;
}

/* The asset list: one statement per filter combination and paging, each a range of its index
 * (migration 0013: user_id, then type and/or risk_level, then created_us, id) read backwards,
 * with the count of every match as a scalar subquery on the same index (one round trip). */
#define A_COLS                                                                                                 \
    "id, name, type, provider, endpoint, env, security_score, risk_level, created_at, created_us, last_scan_id," \
    " last_scanned_at, score_basis, connection, auth_sealed, components"
#define A_W ""
#define A_WT " AND type = ?"
#define A_WR " AND risk_level = ?"
#define A_WB " AND type = ? AND risk_level = ?"
#define A_COUNT(w) "SELECT COUNT(*) FROM assets WHERE user_id = ?" w
#define A_ORDER " ORDER BY created_us DESC, id DESC"
#define A_PAGE(w) "SELECT " A_COLS ", (" A_COUNT(w) ") FROM assets WHERE user_id = ?" w A_ORDER " LIMIT ? OFFSET ?"
#define A_AFTER(w)                                                                                             \
    "SELECT " A_COLS ", (" A_COUNT(w) ") FROM assets WHERE user_id = ?" w " AND " STORE_AFTER("created_us", "id") \
        A_ORDER " LIMIT ?"
static const char *const asset_sql[2][4] = {{A_PAGE(A_W), A_PAGE(A_WT), A_PAGE(A_WR), A_PAGE(A_WB)},
                                            {A_AFTER(A_W), A_AFTER(A_WT), A_AFTER(A_WR), A_AFTER(A_WB)}};
static const char *const asset_count_sql[4] = {A_COUNT(A_W), A_COUNT(A_WT), A_COUNT(A_WR), A_COUNT(A_WB)};
static const char *const asset_plan_sql[2][2][4] = {
    {{"EXPLAIN QUERY PLAN " A_PAGE(A_W), "EXPLAIN QUERY PLAN " A_PAGE(A_WT), "EXPLAIN QUERY PLAN " A_PAGE(A_WR),
      "EXPLAIN QUERY PLAN " A_PAGE(A_WB)},
     {"EXPLAIN QUERY PLAN " A_AFTER(A_W), "EXPLAIN QUERY PLAN " A_AFTER(A_WT), "EXPLAIN QUERY PLAN " A_AFTER(A_WR),
      "EXPLAIN QUERY PLAN " A_AFTER(A_WB)}},
    {{"EXPLAIN " A_PAGE(A_W), "EXPLAIN " A_PAGE(A_WT), "EXPLAIN " A_PAGE(A_WR), "EXPLAIN " A_PAGE(A_WB)},
     {"EXPLAIN " A_AFTER(A_W), "EXPLAIN " A_AFTER(A_WT), "EXPLAIN " A_AFTER(A_WR), "EXPLAIN " A_AFTER(A_WB)}}};

/* (user, filters) for the count, the same for the rows, then the page's; *which: 1 type, 2 risk. */
static int asset_params(const char *user_id, const char *type, const char *risk, const struct store_page *pg,
                        struct db_param *p, int *which, int *ncount)
{
    int n = 0;
    *which = (type ? 1 : 0) | (risk ? 2 : 0);
    for (int twice = 0; twice < 2; twice++) {
        p[n++] = DBP_TEXT(user_id);
        if (type)
            p[n++] = DBP_TEXT(type);
        if (risk)
            p[n++] = DBP_TEXT(risk);
    }
    *ncount = n / 2;
    return store_page_params(pg, false, p, n);
}

int store_asset_list(struct db *db, const char *user_id, const char *type, const char *risk, struct store_page *pg,
                     struct store_asset **out, size_t *n, int64_t *total)
{
    static const struct store_page_cols cols = {.key = 9, .id = 0, .total = 16};
    struct db_param p[10];
    int which, nc, np = asset_params(user_id, type, risk, pg, p, &which, &nc);
    void *items = NULL;
    int rc = store_query_page_owned(db, asset_sql[pg->after_id ? 1 : 0][which], p, np, pg, &cols,
                                    asset_count_sql[which], nc, total, sizeof **out, asset_row, asset_item_clear,
                                    &items, n);
    *out = items;
    for (size_t i = 0; i < *n; i++)
        COPY((*out)[i].user_id, user_id);
    return rc;
}

int store_asset_list_plan(struct db *db, bool by_type, bool by_risk, bool keyset, char *out, size_t cap)
{
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    struct store_page page = {.limit = 20, .after_id = keyset ? "ast_x" : NULL, .after_int = 1};
    struct db_param p[10];
    int which, nc, np = asset_params("usr_x", by_type ? "model" : NULL, by_risk ? "HIGH" : NULL, &page, p, &which, &nc);
    return store_plan(db, asset_plan_sql[pg][keyset][which], p, np, out, cap);
}

int store_asset_get(struct db *db, const char *user_id, const char *id, struct store_asset *out)
{
    struct db_param p[] = {DBP_TEXT(id), DBP_TEXT(user_id)};
    int rc = store_query_one(db,
                             "SELECT id, name, type, provider, endpoint, env, security_score, risk_level, created_at,"
                             " created_us, last_scan_id, last_scanned_at, score_basis, connection, auth_sealed,"
                             " components FROM assets WHERE id = ? AND user_id = ?",
                             p, 2, asset_row, out);
    if (rc == ST_OK)
        COPY(out->user_id, user_id);
    return rc;
}

struct asset_delete {
    const char *user_id, *id;
    int64_t now_s;
    int64_t *cancelled;
    int64_t changes; /* assets deleted: 0 or 1 */
};

static int asset_delete_tx(struct db_conn *c, void *arg)
{
    struct asset_delete *a = arg;
    char ts[21];
    bw_iso8601(a->now_s, ts);
    struct db_param p[] = {DBP_TEXT(a->id), DBP_TEXT(a->user_id)};
    struct db_param jp[] = {DBP_INT(a->now_s * 1000), DBP_TEXT(a->id), DBP_TEXT(a->user_id)};
    struct db_param ep[] = {DBP_TEXT(ts), DBP_TEXT(a->id), DBP_TEXT(a->user_id)};
    /* scans first: the cascade is declared, but SQLite only honours it with foreign_keys on and
     * being explicit keeps both backends identical. Engagements against the asset stop with it
     * (their reports stay): nothing attacks an endpoint its owner has taken off the register. */
    if (store_conn_exec(c, "DELETE FROM asset_scans WHERE asset_id = ? AND user_id = ?", p, 2, NULL) != ST_OK ||
        store_conn_exec(c, "DELETE FROM assets WHERE id = ? AND user_id = ?", p, 2, &a->changes) != ST_OK ||
        (a->changes &&
         (store_conn_exec(c,
                          "UPDATE jobs SET state = 'cancelled', updated_ms = ? WHERE state = 'queued' AND ref IN"
                          " (SELECT id FROM engagements WHERE asset_id = ? AND user_id = ? AND status IN ('queued',"
                          " 'running'))",
                          jp, 3, NULL) != ST_OK ||
          store_conn_exec(c,
                          "UPDATE engagements SET status = 'cancelled', finished_at = ?"
                          " WHERE asset_id = ? AND user_id = ? AND status IN ('queued', 'running')",
                          ep, 3, a->cancelled) != ST_OK)))
        return ST_ERROR;
    return ST_OK;
}

int store_asset_delete(struct db *db, const char *user_id, const char *id, int64_t *cancelled)
{
    *cancelled = 0;
    struct asset_delete a = {user_id, id, bw_now_s(), cancelled, 0};
    int rc = store_tx(db, asset_delete_tx, &a);
    return rc == ST_OK && !a.changes ? ST_NOTFOUND : rc;
}

static int scan_save_tx(struct db_conn *c, void *arg)
{
    const struct store_asset_scan *s = arg;
    int64_t changes = 0;
    struct db_param up[] = {DBP_INT(s->score), DBP_TEXT(s->risk_level), DBP_TEXT(s->id), DBP_TEXT(s->created_at),
                            DBP_TEXT(s->asset_id), DBP_TEXT(s->user_id)};
    struct db_param ins[16] = {DBP_TEXT(s->id),         DBP_TEXT(s->asset_id),   DBP_TEXT(s->user_id),
                               DBP_INT(s->score),       DBP_TEXT(s->risk_level), DBP_TEXT(s->body),
                               DBP_TEXT(s->created_at), DBP_INT(s->created_us)};
    const int64_t ev[] = {s->open_critical, s->open_high, s->open_medium, s->open_low, s->owasp_hit, s->owasp_tested};
    for (int i = 0; i < 6; i++)
        ins[8 + i] = s->has_evidence ? DBP_INT(ev[i]) : DBP_NULL;
    ins[14] = s->has_evidence ? DBP_OPT(s->owasp_findings) : DBP_NULL;
    ins[15] = DBP_TEXT(s->status ? s->status : bw_scan_status_name(BW_SCAN_COMPLETED));
    int rc = !s->keeps_score ? store_conn_exec(c,
                                              "UPDATE assets SET security_score = ?, risk_level = ?, last_scan_id = ?,"
                                              " last_scanned_at = ?, score_basis = 'live' WHERE id = ? AND user_id = ?",
                                              up, 6, &changes)
                            : store_conn_int(c, "SELECT COUNT(*) FROM assets WHERE id = ? AND user_id = ?", up + 4, 2,
                                             &changes);
    if (rc != ST_OK)
        return ST_ERROR;
    if (changes == 0)
        return ST_NOTFOUND;
    return store_conn_exec(c,
                           "INSERT INTO asset_scans (id, asset_id, user_id, score, risk_level, body, created_at,"
                           " created_us, open_critical, open_high, open_medium, open_low, owasp_hit, owasp_tested,"
                           " owasp_findings, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           ins, 16, NULL) == ST_OK
               ? ST_OK
               : ST_ERROR;
}

int store_asset_scan_save(struct db *db, const struct store_asset_scan *s)
{
    return store_tx(db, scan_save_tx, (void *)s);
}

struct sealed_row {
    char id[48];
    char *sealed;
};

static int sealed_row(struct db_rows *r, void *item)
{
    struct sealed_row *s = item;
    store_copy(s->id, sizeof s->id, db_rows_text(r, 0));
    const char *t = db_rows_text(r, 1);
    s->sealed = t ? strdup(t) : NULL;
    return s->sealed ? ST_OK : ST_ERROR;
}

static void sealed_row_clear(void *item) { free(((struct sealed_row *)item)->sealed); }

struct reseal {
    const char *check_setting;
    char *(*fn)(void *arg, const char *sealed);
    void *arg;
    int64_t *n;
};

/* Re-seals one table's sealed column: select gives (id, sealed) rows, update takes (sealed, id).
 * *n gets how many rows. */
static int reseal_table(struct db_conn *c, struct reseal *rs, const char *select, const char *update, size_t *n)
{
    void *items = NULL;
    *n = 0;
    int rc = store_conn_list_owned(c, select, NULL, 0, sizeof(struct sealed_row), sealed_row, sealed_row_clear,
                                   &items, n);
    struct sealed_row *rows = items;
    for (size_t i = 0; rc == ST_OK && i < *n; i++) {
        char *fresh = rs->fn(rs->arg, rows[i].sealed);
        struct db_param p[] = {DBP_TEXT(fresh), DBP_TEXT(rows[i].id)};
        rc = fresh ? store_conn_exec(c, update, p, 2, NULL) : ST_ERROR;
        free(fresh);
    }
    for (size_t i = 0; i < *n; i++)
        sealed_row_clear(&rows[i]);
    free(rows);
    return rc;
}

static int reseal_tx(struct db_conn *c, void *arg)
{
    struct reseal *rs = arg;
    size_t n = 0, nw = 0;
    /* assets' connection secrets and webhooks' signing secrets */
    int rc = reseal_table(c, rs, "SELECT id, auth_sealed FROM assets WHERE auth_sealed IS NOT NULL",
                          "UPDATE assets SET auth_sealed = ? WHERE id = ?", &n);
    if (rc == ST_OK)
        rc = reseal_table(c, rs, "SELECT id, secret_sealed FROM webhooks",
                          "UPDATE webhooks SET secret_sealed = ? WHERE id = ?", &nw);
    n += nw;
    if (rc == ST_OK) {
        char old[512] = "";
        struct db_param q[] = {DBP_TEXT(rs->check_setting)};
        rc = store_conn_one(c, "SELECT value FROM settings WHERE name = ?", q, 1, read_setting,
                            &(struct text_out){old, sizeof old});
        char *fresh = rc == ST_OK ? rs->fn(rs->arg, old) : NULL;
        struct db_param p[] = {DBP_TEXT(fresh), DBP_TEXT(rs->check_setting)};
        rc = fresh ? store_conn_exec(c, "UPDATE settings SET value = ? WHERE name = ?", p, 2, NULL) : ST_ERROR;
        free(fresh);
    }
    *rs->n = rc == ST_OK ? (int64_t)n : 0;
    return rc;
}

int store_secrets_reseal(struct db *db, const char *check_setting, char *(*reseal)(void *arg, const char *sealed),
                         void *arg, int64_t *n)
{
    *n = 0;
    struct reseal rs = {check_setting, reseal, arg, n};
    return store_tx(db, reseal_tx, &rs);
}

void store_doc_list_free(struct store_doc *list, size_t n)
{
    for (size_t i = 0; list && i < n; i++)
        free(list[i].body);
    free(list);
}

/* Columns: id, created_at, created_us (or NULL), body. */
static int doc_row(struct db_rows *r, void *item)
{
    struct store_doc *d = item;
    store_copy(d->id, sizeof d->id, db_rows_text(r, 0));
    store_copy(d->created_at, sizeof d->created_at, db_rows_text(r, 1));
    d->created_us = db_rows_int(r, 2);
    const char *b = db_rows_text(r, 3);
    d->body = strdup(b ? b : "null");
    return d->body ? ST_OK : ST_ERROR;
}

static void doc_item_clear(void *item) { free(((struct store_doc *)item)->body); }

/* The scans of one asset: a range of asset_scans_page (migration 0013: asset_id, created_us, id);
 * user_id is checked on the rows too, so another account's asset id lists nothing. */
#define SC_COUNT "SELECT COUNT(*) FROM asset_scans WHERE asset_id = ? AND user_id = ?"
#define SC_SELECT "SELECT id, created_at, created_us, body, (" SC_COUNT ") FROM asset_scans WHERE asset_id = ? AND user_id = ?"
#define SC_ORDER " ORDER BY created_us DESC, id DESC"

/* A page of documents: sql[0] offset paging, sql[1] keyset; p holds the count's then the rows'
 * filter parameters (nf each), room for the page's. */
static int doc_page(struct db *db, const char *const sql[2], struct db_param *p, int nf, struct store_page *pg,
                    const struct store_page_cols *cols, const char *count_sql, struct store_doc **out, size_t *n,
                    int64_t *total)
{
    int np = store_page_params(pg, cols->text_key, p, 2 * nf);
    void *items = NULL;
    int rc = store_query_page_owned(db, sql[pg->after_id ? 1 : 0], p, np, pg, cols, count_sql, nf, total,
                                    sizeof **out, doc_row, doc_item_clear, &items, n);
    *out = items;
    return rc;
}

int store_asset_scan_list(struct db *db, const char *user_id, const char *asset_id, struct store_page *pg,
                          struct store_doc **out, size_t *n, int64_t *total)
{
    static const struct store_page_cols cols = {.key = 2, .id = 0, .total = 4};
    static const char *const sql[2] = {SC_SELECT SC_ORDER " LIMIT ? OFFSET ?",
                                       SC_SELECT " AND " STORE_AFTER("created_us", "id") SC_ORDER " LIMIT ?"};
    struct db_param p[8] = {DBP_TEXT(asset_id), DBP_TEXT(user_id), DBP_TEXT(asset_id), DBP_TEXT(user_id)};
    return doc_page(db, sql, p, 2, pg, &cols, SC_COUNT, out, n, total);
}

int store_asset_scan_get(struct db *db, const char *user_id, const char *asset_id, const char *scan_id, char **body)
{
    *body = NULL;
    struct db_param p[] = {DBP_TEXT(scan_id), DBP_TEXT(asset_id), DBP_TEXT(user_id)};
    return store_query_one(db, "SELECT body FROM asset_scans WHERE id = ? AND asset_id = ? AND user_id = ?", p, 3,
                           store_row_text, body);
}

/* Assessments: a range of assessments_page (migration 0020: user_id, created_at, id); the key is
 * the ISO time text, which sorts as time. */
#define AS_COUNT "SELECT COUNT(*) FROM assessments WHERE user_id = ?"
#define AS_SELECT "SELECT id, created_at, NULL, body, (" AS_COUNT ") FROM assessments WHERE user_id = ?"
#define AS_ORDER " ORDER BY created_at DESC, id DESC"

int store_assessment_list(struct db *db, const char *user_id, struct store_page *pg, struct store_doc **out,
                          size_t *n, int64_t *total)
{
    static const struct store_page_cols cols = {.key = 1, .id = 0, .total = 4, .text_key = true};
    static const char *const sql[2] = {AS_SELECT AS_ORDER " LIMIT ? OFFSET ?",
                                       AS_SELECT " AND " STORE_AFTER("created_at", "id") AS_ORDER " LIMIT ?"};
    struct db_param p[6] = {DBP_TEXT(user_id), DBP_TEXT(user_id)};
    return doc_page(db, sql, p, 1, pg, &cols, AS_COUNT, out, n, total);
}
