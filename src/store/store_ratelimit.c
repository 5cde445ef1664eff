#include "store/store_ratelimit.h"

#include "store/store.h"
#include "store/store_internal.h"

#include <stdlib.h>

/* Both sides of SET and the CASE read the row as it was before the statement (both backends), so
 * `refused` says what this statement decided. The casts give PostgreSQL the parameter types that
 * `?` alone leaves unknown. Parameters: key, now + T, now, tau, now, now, T, now, tau. */
#define TAKE_SQL                                                                                       \
    "INSERT INTO rate_limits (k, tat, refused) VALUES (?, CAST(? AS BIGINT), 0)"                       \
    " ON CONFLICT (k) DO UPDATE SET"                                                                   \
    " tat = CASE WHEN rate_limits.tat - CAST(? AS BIGINT) > CAST(? AS BIGINT) THEN rate_limits.tat"   \
    " ELSE (CASE WHEN rate_limits.tat > CAST(? AS BIGINT) THEN rate_limits.tat"                       \
    " ELSE CAST(? AS BIGINT) END) + CAST(? AS BIGINT) END,"                                            \
    " refused = CASE WHEN rate_limits.tat - CAST(? AS BIGINT) > CAST(? AS BIGINT) THEN 1 ELSE 0 END" \
    " RETURNING tat, refused"

struct take {
    bool *allowed;
    int64_t *tat;
};

static int read_take(struct db_rows *r, void *arg)
{
    struct take *t = arg;
    *t->tat = db_rows_int(r, 0);
    *t->allowed = db_rows_int(r, 1) == 0;
    return ST_OK;
}

int store_rl_take(struct db *db, const char *key, int64_t now, int64_t T, int64_t tau, bool *allowed,
                  int64_t *tat)
{
    struct db_param p[] = {DBP_TEXT(key), DBP_INT(now + T), DBP_INT(now), DBP_INT(tau), DBP_INT(now),
                           DBP_INT(now),  DBP_INT(T),       DBP_INT(now), DBP_INT(tau)};
    int rc = store_query_one(db, TAKE_SQL, p, 9, read_take, &(struct take){allowed, tat});
    return rc == ST_NOTFOUND ? ST_ERROR : rc; /* the upsert returns its row, or it failed */
}

/* TAKE_SQL with the refused branch moving tat on by T, capped at now + tau + T. Parameters: key,
 * now + T, now, tau, T, cap, T, cap, now, now, T, now, tau. */
#define TAKE_STRICT_SQL                                                                                \
    "INSERT INTO rate_limits (k, tat, refused) VALUES (?, CAST(? AS BIGINT), 0)"                       \
    " ON CONFLICT (k) DO UPDATE SET"                                                                   \
    " tat = CASE WHEN rate_limits.tat - CAST(? AS BIGINT) > CAST(? AS BIGINT)"                         \
    " THEN (CASE WHEN rate_limits.tat + CAST(? AS BIGINT) < CAST(? AS BIGINT)"                         \
    " THEN rate_limits.tat + CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END)"                            \
    " ELSE (CASE WHEN rate_limits.tat > CAST(? AS BIGINT) THEN rate_limits.tat"                       \
    " ELSE CAST(? AS BIGINT) END) + CAST(? AS BIGINT) END,"                                            \
    " refused = CASE WHEN rate_limits.tat - CAST(? AS BIGINT) > CAST(? AS BIGINT) THEN 1 ELSE 0 END" \
    " RETURNING tat, refused"

int store_rl_take_strict(struct db *db, const char *key, int64_t now, int64_t T, int64_t tau, bool *allowed,
                         int64_t *tat)
{
    int64_t cap = now + tau + T;
    struct db_param p[] = {DBP_TEXT(key), DBP_INT(now + T), DBP_INT(now), DBP_INT(tau), DBP_INT(T),
                           DBP_INT(cap),  DBP_INT(T),       DBP_INT(cap), DBP_INT(now), DBP_INT(now),
                           DBP_INT(T),    DBP_INT(now),     DBP_INT(tau)};
    int rc = store_query_one(db, TAKE_STRICT_SQL, p, 13, read_take, &(struct take){allowed, tat});
    return rc == ST_NOTFOUND ? ST_ERROR : rc;
}

int store_rl_refund(struct db *db, const char *key, int64_t T)
{
    struct db_param p[] = {DBP_INT(T), DBP_TEXT(key)};
    return store_exec(db, "UPDATE rate_limits SET tat = tat - CAST(? AS BIGINT) WHERE k = ?", p, 2, NULL);
}

int store_rl_get(struct db *db, const char *key, int64_t *tat)
{
    struct db_param p[] = {DBP_TEXT(key)};
    *tat = 0; /* no row: nothing taken */
    int rc = store_query_one(db, "SELECT tat FROM rate_limits WHERE k = ?", p, 1, store_row_int, tat);
    return rc == ST_NOTFOUND ? ST_OK : rc;
}

int store_rl_delete(struct db *db, const char *key)
{
    struct db_param p[] = {DBP_TEXT(key)};
    return store_exec_changed(db, "DELETE FROM rate_limits WHERE k = ?", p, 1, ST_OK);
}

int store_rl_sweep(struct db *db, int64_t now, int64_t *deleted)
{
    if (deleted)
        *deleted = 0;
    struct db_param p[] = {DBP_INT(now)};
    return store_exec(db, "DELETE FROM rate_limits WHERE tat < CAST(? AS BIGINT)", p, 1, deleted);
}

int store_rl_count(struct db *db, int64_t *n)
{
    return store_query_int(db, "SELECT COUNT(*) FROM rate_limits", NULL, 0, n);
}
