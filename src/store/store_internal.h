/* Helpers shared by the store's files (store.c, store_jobs.c, store_redteam.c); nothing outside
 * src/store includes this. */
#ifndef BW_STORE_STORE_INTERNAL_H
#define BW_STORE_STORE_INTERNAL_H
#include "store/db.h"

#include <stddef.h>

/* Copies src (NULL = "") into dst of cap bytes, cut to fit, always NUL-terminated. */
void store_copy(char *dst, size_t cap, const char *src);
#define COPY(dst, src) store_copy((dst), sizeof(dst), (src))

/* Runs one statement on its own connection: ST_OK when it changed a row, `none` when it changed
 * nothing, ST_ERROR when the database failed. */
int store_exec_changed(struct db *db, const char *sql, const struct db_param *p, int np, int none);

/* Runs a query on its own connection and reads every row into a malloc'ed array of elem-byte
 * items (each zeroed, then filled by read). ST_OK with *out (free it; NULL when no rows) and *n,
 * or ST_ERROR with nothing to free. */
int store_query_list(struct db *db, const char *sql, const struct db_param *p, int np, size_t elem,
                     void (*read)(struct db_rows *r, void *item), void **out, size_t *n);

/* Takes the per-user write lock inside an open write transaction: the UPDATE locks the user's row
 * on PostgreSQL and the database on SQLite, so per-account limits are counted one request after
 * the other. ST_OK, ST_NOTFOUND (no such user) or ST_ERROR. */
int store_lock_user(struct db_conn *c, const char *user_id);

/* Opens a write transaction, takes the user's lock and counts with count_sql (one parameter: the
 * user id) into *count. ST_OK leaves the transaction open for the caller's insert; ST_LIMIT (the
 * count reached max), ST_NOTFOUND (no such user) and ST_ERROR roll it back. */
int store_begin_capped(struct db_conn *c, const char *user_id, const char *count_sql, long max, int64_t *count);

#endif
