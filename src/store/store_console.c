#include "store/store_console.h"

#include "store/store_internal.h"

struct create_args {
    const char *id_hash, *user_id;
    int64_t gen, now_s, idle_s, max_age_s;
    int max;
};

static int create_body(struct db_conn *c, void *arg)
{
    const struct create_args *a = arg;
    struct db_param dp[] = {DBP_TEXT(a->user_id), DBP_INT(a->gen), DBP_INT(a->now_s - a->max_age_s),
                            DBP_INT(a->now_s - a->idle_s)};
    if (store_conn_exec(c,
                        "DELETE FROM console_sessions WHERE user_id = ? AND (gen <> ? OR created_s <= ? OR seen_s <= ?)",
                        dp, 4, NULL) != ST_OK)
        return ST_ERROR;
    struct db_param kp[] = {DBP_TEXT(a->user_id), DBP_TEXT(a->user_id), DBP_INT(a->max > 1 ? a->max - 1 : 0)};
    if (store_conn_exec(c,
                        "DELETE FROM console_sessions WHERE user_id = ? AND id_hash NOT IN (SELECT id_hash FROM"
                        " console_sessions WHERE user_id = ? ORDER BY created_s DESC, id_hash LIMIT ?)",
                        kp, 3, NULL) != ST_OK)
        return ST_ERROR;
    struct db_param ip[] = {DBP_TEXT(a->id_hash), DBP_TEXT(a->user_id), DBP_INT(a->gen), DBP_INT(a->now_s),
                            DBP_INT(a->now_s)};
    return store_conn_exec(c,
                           "INSERT INTO console_sessions (id_hash, user_id, gen, created_s, seen_s) VALUES (?, ?, ?, ?, ?)",
                           ip, 5, NULL);
}

int store_console_create(struct db *db, const char *id_hash, const char *user_id, int64_t gen, int64_t now_s,
                         int64_t idle_s, int64_t max_age_s, int max)
{
    struct create_args a = {id_hash, user_id, gen, now_s, idle_s, max_age_s, max};
    return store_tx(db, create_body, &a);
}

static int read_session(struct db_rows *r, void *item)
{
    struct store_console_session *s = item;
    COPY(s->user_id, db_rows_text(r, 0));
    s->gen = db_rows_int(r, 1);
    s->created_s = db_rows_int(r, 2);
    s->seen_s = db_rows_int(r, 3);
    int t = bw_tier_parse(db_rows_text(r, 4));
    s->tier = t < 0 ? BW_TIER_FREE : (enum bw_tier)t;
    int ro = bw_role_parse(db_rows_text(r, 5));
    s->role = ro < 0 ? BW_ROLE_USER : (enum bw_role)ro;
    s->user_gen = db_rows_int(r, 6);
    s->disabled = db_rows_int(r, 7) != 0;
    return ST_OK;
}

int store_console_get(struct db *db, const char *id_hash, struct store_console_session *out)
{
    struct db_param p[] = {DBP_TEXT(id_hash)};
    return store_query_one(db,
                           "SELECT s.user_id, s.gen, s.created_s, s.seen_s, u.tier, u.role, u.token_gen, u.disabled"
                           " FROM console_sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash = ?",
                           p, 1, read_session, out);
}

int store_console_touch(struct db *db, const char *id_hash, int64_t now_s)
{
    struct db_param p[] = {DBP_INT(now_s), DBP_TEXT(id_hash)};
    return store_exec(db, "UPDATE console_sessions SET seen_s = ? WHERE id_hash = ?", p, 2, NULL);
}

int store_console_delete(struct db *db, const char *id_hash)
{
    struct db_param p[] = {DBP_TEXT(id_hash)};
    return store_exec(db, "DELETE FROM console_sessions WHERE id_hash = ?", p, 1, NULL);
}

int store_console_count(struct db *db, const char *user_id, int64_t *n)
{
    struct db_param p[] = {DBP_TEXT(user_id)};
    return store_query_int(db, "SELECT COUNT(*) FROM console_sessions WHERE user_id = ?", p, 1, n);
}
