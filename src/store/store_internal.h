/* Helpers shared by the store's files (store.c, store_jobs.c, store_redteam.c); nothing outside
 * src/store includes this. */
#ifndef BW_STORE_STORE_INTERNAL_H
#define BW_STORE_STORE_INTERNAL_H
#include "store/db.h"

#include <stddef.h>

/* Copies src (NULL = "") into dst of cap bytes, cut to fit, always NUL-terminated. */
void store_copy(char *dst, size_t cap, const char *src);
#define COPY(dst, src) store_copy((dst), sizeof(dst), (src))

/* Takes the per-user write lock inside an open write transaction: the UPDATE locks the user's row
 * on PostgreSQL and the database on SQLite, so per-account limits are counted one request after
 * the other. ST_OK, ST_NOTFOUND (no such user) or ST_ERROR. */
int store_lock_user(struct db_conn *c, const char *user_id);

#endif
