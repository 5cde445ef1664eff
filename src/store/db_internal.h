/* Backend vtable behind db.h; only src/store includes this. */
#ifndef BW_STORE_DB_INTERNAL_H
#define BW_STORE_DB_INTERNAL_H
#include "store/db.h"

struct db_backend {
    const char *name;
    int (*open)(struct db *db, const char *url, const char *data_dir, int pool, char *err, size_t n);
    void (*close)(struct db *db);
    struct db_conn *(*acquire)(struct db *db);
    void (*release)(struct db_conn *c);
    int (*exec)(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *ch);
    int (*query)(struct db_conn *c, const char *sql, const struct db_param *p, int np,
                 struct db_rows **out);
    bool (*next)(struct db_rows *r);
    const char *(*text)(struct db_rows *r, int col);
    bool (*isnull)(struct db_rows *r, int col);
    int64_t (*integer)(struct db_rows *r, int col);
    void (*rows_free)(struct db_rows *r);
    int (*script)(struct db_conn *c, const char *sql);
    /* NULL: the backend has no cross-instance signals (db_notify/db_listen do nothing) */
    struct db_listener *(*listen)(struct db *db, const char *channel, db_notify_fn fn, void *arg);
    void (*listen_stop)(struct db_listener *l);
    /* NULL: no file watch (db_watch returns NULL) */
    struct db_watch *(*watch)(struct db *db);
    bool (*watch_poll)(struct db_watch *w);
    bool (*watch_alive)(const struct db_watch *w);
    void (*watch_free)(struct db_watch *w);
    /* NULL: no bulk COPY (db_has_copy false) */
    int (*copy)(struct db_conn *c, const char *copy, const struct db_param *p, int ncols, int nrows);
    const char *begin_write; /* SQL that starts a write transaction */
    /* NULL: db_write acquires a connection and runs BEGIN, the body, COMMIT on it; else the
     * backend's own write path (SQLite: the writer thread) */
    int (*write)(struct db *db, db_tx_fn body, void *arg, int fail);
};

/* The operations every backend has, as functions named <prefix>_<operation> in its file: a
 * backend's table is DB_BACKEND_OPS(prefix) plus its name, its begin_write and, when it has them,
 * listen/listen_stop and watch/watch_poll/watch_free. One list, so a backend cannot forget an operation the others have. */
#define DB_BACKEND_OPS(p)                                                                          \
    .open = p##_open, .close = p##_close, .acquire = p##_acquire, .release = p##_release,         \
    .exec = p##_exec, .query = p##_query, .next = p##_next, .text = p##_text, .isnull = p##_isnull, \
    .integer = p##_int, .rows_free = p##_rows_free, .script = p##_script

/* A listener: which backend made it, and that backend's own state. */
struct db_listener {
    const struct db_backend *be;
    void *impl;
};

/* A watch: the same. */
struct db_watch {
    const struct db_backend *be;
    void *impl;
};

struct db {
    const struct db_backend *be;
    void *impl;
    unsigned flags; /* DB_OPEN_*, read by the backend's open */
    _Atomic unsigned long errors[DB_ERR__COUNT]; /* for /metrics (db_error_count) */
};

/* Every connection struct starts with this header. */
struct db_conn_hdr {
    struct db *db;
};

/* Counts a failure the db.c wrappers cannot see (a SQLite statement failing while its rows are
 * stepped through: db_rows_next only says "no more rows"). */
void db_count_error(struct db *db, enum db_err_kind k);

extern const struct db_backend db_sqlite_backend;
extern const struct db_backend db_pg_backend;

#endif
