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

int store_rl_take(struct db *db, const char *key, int64_t now, int64_t T, int64_t tau, bool *allowed,
                  int64_t *tat)
{
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_param p[] = {DBP_TEXT(key), DBP_INT(now + T), DBP_INT(now), DBP_INT(tau), DBP_INT(now),
                           DBP_INT(now),  DBP_INT(T),       DBP_INT(now), DBP_INT(tau)};
    struct db_rows *r = NULL;
    int st = ST_ERROR;
    if (db_query(c, TAKE_SQL, p, 9, &r) == DB_OK && db_rows_next(r)) {
        *tat = db_rows_int(r, 0);
        *allowed = db_rows_int(r, 1) == 0;
        st = ST_OK;
    }
    db_rows_free(r);
    db_release(c);
    return st;
}

int store_rl_get(struct db *db, const char *key, int64_t *tat)
{
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_param p[] = {DBP_TEXT(key)};
    struct db_rows *r = NULL;
    int st = ST_ERROR;
    if (db_query(c, "SELECT tat FROM rate_limits WHERE k = ?", p, 1, &r) == DB_OK) {
        *tat = db_rows_next(r) ? db_rows_int(r, 0) : 0;
        st = ST_OK;
    }
    db_rows_free(r);
    db_release(c);
    return st;
}

int store_rl_delete(struct db *db, const char *key)
{
    struct db_param p[] = {DBP_TEXT(key)};
    return store_exec_changed(db, "DELETE FROM rate_limits WHERE k = ?", p, 1, ST_OK);
}

int store_rl_sweep(struct db *db, int64_t now, int64_t *deleted)
{
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_param p[] = {DBP_INT(now)};
    int64_t n = 0;
    int rc = db_exec(c, "DELETE FROM rate_limits WHERE tat < CAST(? AS BIGINT)", p, 1, &n);
    db_release(c);
    if (deleted)
        *deleted = n;
    return rc == DB_OK ? ST_OK : ST_ERROR;
}

int store_rl_count(struct db *db, int64_t *n)
{
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_rows *r = NULL;
    int st = ST_ERROR;
    if (db_query(c, "SELECT COUNT(*) FROM rate_limits", NULL, 0, &r) == DB_OK && db_rows_next(r)) {
        *n = db_rows_int(r, 0);
        st = ST_OK;
    }
    db_rows_free(r);
    db_release(c);
    return st;
}
