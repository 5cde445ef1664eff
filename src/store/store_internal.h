/* Helpers shared by the store's files; nothing outside src/store includes this.
 *
 * Most store functions are one statement on a connection of their own: acquire, run, read,
 * release, map the outcome to ST_*. The helpers below are those shapes, so a store function says
 * only its SQL, its parameters and how a row is read:
 *   store_exec / store_exec_changed   one statement (INSERT, UPDATE, DELETE)
 *   store_query_one                   the first row, to a row reader (ST_NOTFOUND when none)
 *   store_query_each                  every row, to a row reader
 *   store_query_int                   the one row's first column (COUNT, SUM)
 *   store_query_list                  every row into a malloc'ed array
 *   store_tx                          a write transaction around a body (committed on ST_OK)
 * store_conn_* do the same on a connection the caller holds (inside a transaction, or several
 * statements on one connection). sql is passed through unchanged: pass string literals (or
 * pointers to them), which is what the backends key their prepared statements by. Failures are
 * logged and counted by the db layer (ST_ERROR: "already logged"). */
#ifndef BW_STORE_STORE_INTERNAL_H
#define BW_STORE_STORE_INTERNAL_H
#include "store/db.h"
#include "store/store.h"

#include <stddef.h>
#include <stdint.h>

/* Copies src (NULL = "") into dst of cap bytes, cut to fit, always NUL-terminated. */
void store_copy(char *dst, size_t cap, const char *src);
#define COPY(dst, src) store_copy((dst), sizeof(dst), (src))

/* A row reader: called with the cursor on a row, fills what arg points to. ST_OK, or ST_ERROR
 * (out of memory), which stops the read and is what the helper answers. */
typedef int (*store_row_fn)(struct db_rows *r, void *arg);
/* Readers of column 0: into an int64_t, and as malloc'ed text into a char * (SQL NULL or out of
 * memory: ST_ERROR). */
int store_row_int(struct db_rows *r, void *out);
int store_row_text(struct db_rows *r, void *out);

/* Runs one statement: ST_OK, ST_CONFLICT (a unique or foreign key violation) or ST_ERROR;
 * *changes (optional) gets the number of rows changed. */
int store_exec(struct db *db, const char *sql, const struct db_param *p, int np, int64_t *changes);
/* Runs one statement: ST_OK when it changed a row, `none` when it changed nothing, ST_ERROR when
 * it failed (a constraint violation included). */
int store_exec_changed(struct db *db, const char *sql, const struct db_param *p, int np, int none);

/* Hands the query's first row to read(r, arg): ST_OK, ST_NOTFOUND (no row) or ST_ERROR. */
int store_query_one(struct db *db, const char *sql, const struct db_param *p, int np, store_row_fn read, void *arg);
/* Hands every row to fn(r, arg) until it answers ST_ERROR: ST_OK or ST_ERROR. A reader that keeps
 * only some rows still sees them all (SQLite runs a RETURNING statement as it steps). */
int store_query_each(struct db *db, const char *sql, const struct db_param *p, int np, store_row_fn fn, void *arg);
/* The first column of the one row of an aggregate into *out: ST_OK or ST_ERROR (no row too). */
int store_query_int(struct db *db, const char *sql, const struct db_param *p, int np, int64_t *out);
/* Reads every row into a malloc'ed array of elem-byte items (each zeroed, then filled by read).
 * ST_OK with *out (free it; NULL when no rows) and *n, or ST_ERROR with nothing to free. */
int store_query_list(struct db *db, const char *sql, const struct db_param *p, int np, size_t elem,
                     store_row_fn read, void **out, size_t *n);

/* The same on the caller's connection c. */
int store_conn_exec(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *changes);
int store_conn_one(struct db_conn *c, const char *sql, const struct db_param *p, int np, store_row_fn read, void *arg);
int store_conn_each(struct db_conn *c, const char *sql, const struct db_param *p, int np, store_row_fn fn, void *arg);
int store_conn_int(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *out);
int store_conn_list(struct db_conn *c, const char *sql, const struct db_param *p, int np, size_t elem,
                    store_row_fn read, void **out, size_t *n);
/* Items that own memory (read mallocs into them): on ST_ERROR, clear(item) releases what each item
 * read so far holds before the array is freed, so a failure midway leaks nothing. */
typedef void (*store_item_clear_fn)(void *item);
int store_query_list_owned(struct db *db, const char *sql, const struct db_param *p, int np, size_t elem,
                           store_row_fn read, store_item_clear_fn clear, void **out, size_t *n);
int store_conn_list_owned(struct db_conn *c, const char *sql, const struct db_param *p, int np, size_t elem,
                          store_row_fn read, store_item_clear_fn clear, void **out, size_t *n);

/* ---- pages (struct store_page, store.h) ----
 * A list has two statements per filter combination, both string literals: offset paging
 *   "... WHERE <filters> ORDER BY k DESC, id DESC LIMIT ? OFFSET ?"
 * and keyset paging, the same with the row-value predicate STORE_AFTER(k, id) among the filters
 *   "... WHERE <filters> AND (k, id) < (?, ?) ORDER BY k DESC, id DESC LIMIT ?"
 * which both backends answer as one range of an index ending in (k, id) (SQLite since 3.15, and
 * PostgreSQL's row comparison), read backwards: no sort step and nothing skipped. */
#define STORE_AFTER(k, id) "(" k ", " id ") < (?, ?)"
/* Appends the page's parameters after the filters' (p[0..np)): the key and id then limit + 1 when
 * keyset paging, else limit + 1 and offset. text_key: the list's key is text. Returns the count. */
int store_page_params(const struct store_page *pg, bool text_key, struct db_param *p, int np);
/* Where a page's statement has each row's sort key (text or integer) and id, and the list's total
 * (a scalar subquery in every row, so the page is one round trip; -1 when it has none). */
struct store_page_cols {
    int key, id, total;
    bool text_key;
};
/* Runs a page's statement (its parameters from store_page_params) on c: hands read(r, arg) the
 * first limit rows, and fills pg->more (a row past limit came back), pg->last_* from the last row
 * handed over and *total (optional) from the first row. ST_OK or ST_ERROR. */
int store_conn_page(struct db_conn *c, const char *sql, const struct db_param *p, int np, struct store_page *pg,
                    const struct store_page_cols *cols, int64_t *total, store_row_fn read, void *arg);
/* The same on a connection of its own. */
int store_query_page(struct db *db, const char *sql, const struct db_param *p, int np, struct store_page *pg,
                     const struct store_page_cols *cols, int64_t *total, store_row_fn read, void *arg);
/* store_query_page into a malloc'ed array of at most limit elem-byte items (each zeroed, then
 * filled by read): ST_OK with *out (free it) and *n, or ST_ERROR with nothing to free. When the
 * page comes back empty, the total is counted with count_sql (its parameters: the first ncount
 * of p), since no row carried it. */
int store_query_page_list(struct db *db, const char *sql, const struct db_param *p, int np, struct store_page *pg,
                          const struct store_page_cols *cols, const char *count_sql, int ncount, int64_t *total,
                          size_t elem, store_row_fn read, void **out, size_t *n);
/* The same for items that own memory (store_conn_list_owned). */
int store_query_page_owned(struct db *db, const char *sql, const struct db_param *p, int np, struct store_page *pg,
                           const struct store_page_cols *cols, const char *count_sql, int ncount, int64_t *total,
                           size_t elem, store_row_fn read, store_item_clear_fn clear, void **out, size_t *n);

/* The backend's plan of a statement (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL: the
 * caller's sql says which), one line per plan row into out, for the tests' plan checks. */
int store_plan(struct db *db, const char *sql, const struct db_param *p, int np, char *out, size_t cap);

/* A transaction's body: its statements on c. ST_OK commits; any other answer rolls back and is
 * what store_tx answers. */
typedef int (*store_tx_fn)(struct db_conn *c, void *arg);
/* Acquires a connection, opens a write transaction (db_begin: the backend's begin_write, so a
 * read-then-write body cannot fail half-way on SQLite), runs body(c, arg), commits on ST_OK and
 * rolls back otherwise (a failed COMMIT too), releases. body's answer, or ST_ERROR when no
 * connection could be had or BEGIN or COMMIT failed (body then did not run, or its work is gone). */
int store_tx(struct db *db, store_tx_fn body, void *arg);
/* The same on the caller's connection c (several transactions on one connection). */
int store_conn_tx(struct db_conn *c, store_tx_fn body, void *arg);

/* Takes the per-user write lock inside an open write transaction: the UPDATE locks the user's row
 * on PostgreSQL and the database on SQLite, so per-account limits are counted one request after
 * the other. ST_OK, ST_NOTFOUND (no such user) or ST_ERROR. */
int store_lock_user(struct db_conn *c, const char *user_id);

/* Inside a write transaction (a store_tx body): takes the user's lock and counts with count_sql
 * (one parameter: the user id) into *count. ST_OK when the count is below max, so the body may
 * insert; ST_LIMIT (the count reached max), ST_NOTFOUND (no such user) or ST_ERROR. */
int store_capped(struct db_conn *c, const char *user_id, const char *count_sql, long max, int64_t *count);

#endif
