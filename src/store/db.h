/* The database layer under store.h: one SQL text for both backends (`?` placeholders, rewritten
 * to $n for PostgreSQL), typed parameters, row cursors.
 *
 * SQLite: one connection per thread (WAL, busy_timeout), prepared statements cached per
 * connection by SQL text address, so pass string literals as `sql`.
 * PostgreSQL: a pool of libpq connections; db_acquire blocks while all are in use.
 *
 * Ownership: a db_conn is borrowed from db_acquire and given back with db_release; db_rows
 * belongs to the caller until db_rows_free; text returned by db_rows_text lives until the next
 * db_rows_next or db_rows_free. Only one db_rows may be open per connection. */
#ifndef BW_STORE_DB_H
#define BW_STORE_DB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum db_rc { DB_OK = 0, DB_ERROR = -1, DB_CONSTRAINT = -2 /* unique/foreign key violation */ };

enum db_ptype { DB_P_NULL, DB_P_TEXT, DB_P_INT };
struct db_param {
    enum db_ptype t;
    const char *s;
    int64_t i;
};
#define DBP_TEXT(x) ((struct db_param){DB_P_TEXT, (x), 0})
#define DBP_INT(x) ((struct db_param){DB_P_INT, NULL, (int64_t)(x)})
#define DBP_NULL ((struct db_param){DB_P_NULL, NULL, 0})
/* text or NULL */
#define DBP_OPT(x) ((x) ? DBP_TEXT(x) : DBP_NULL)

struct db;
struct db_conn;
struct db_rows;

/* db_open flags */
#define DB_OPEN_SYNC_FULL 2u            /* SQLite: synchronous=FULL (fsync at every commit) instead of
                                           NORMAL (see db_sqlite.c) */
#define DB_OPEN_ALLOW_INSECURE_MODES 1u /* SQLite: a data directory or database file that group or
                                           others may read or write is a warning, not a refusal */

/* Opens the database: a postgres:// or postgresql:// URL selects PostgreSQL, anything else
 * (NULL) SQLite at data_dir/bulwark.db. Applies the embedded migrations. On failure returns -1
 * with a message in err.
 *
 * SQLite keeps the JWT signing secret and the accounts in that file, so the directory must be
 * the owner's alone (no read or write for group or others) and so must the database and its
 * -wal and -shm files: otherwise -1 with the path and the chmod that fixes it, unless flags has
 * DB_OPEN_ALLOW_INSECURE_MODES (then a warning is logged). A directory it creates is 0700, a
 * database 0600 whatever the umask (SQLite gives -wal and -shm the database's mode). */
int db_open(const char *url, const char *data_dir, unsigned flags, int pool_size, struct db **out, char *err,
            size_t errlen);
void db_close(struct db *db);
const char *db_backend(const struct db *db); /* "sqlite" or "postgres" */

struct db_conn *db_acquire(struct db *db); /* NULL when the database cannot be reached */
void db_release(struct db_conn *c);

/* Runs one statement; *changes (optional) gets the number of rows changed. */
int db_exec(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *changes);
/* Runs a query; on DB_OK *out is a cursor positioned before the first row. */
int db_query(struct db_conn *c, const char *sql, const struct db_param *p, int np,
             struct db_rows **out);
bool db_rows_next(struct db_rows *r);
const char *db_rows_text(struct db_rows *r, int col); /* NULL for SQL NULL */
int64_t db_rows_int(struct db_rows *r, int col);      /* 0 for NULL */
bool db_rows_null(struct db_rows *r, int col);
void db_rows_free(struct db_rows *r);

/* Bulk insert: nrows rows of ncols values each (p row after row) by `copy`, a "COPY table (cols)
 * FROM STDIN" statement, on PostgreSQL one COPY in text format (the rows streamed with
 * PQputCopyData, no statement parsed or planned per row). Inside a transaction it is part of it:
 * a failure (DB_CONSTRAINT for a duplicate key) aborts the transaction like any statement.
 * db_has_copy: whether the backend has it (SQLite does not: there a prepared multi-row INSERT is
 * already an in-process call per row); db_copy answers DB_ERROR without it. */
bool db_has_copy(const struct db *db);
int db_copy(struct db_conn *c, const char *copy, const struct db_param *p, int ncols, int nrows);

/* Transactions. `write` takes the write lock up front (SQLite BEGIN IMMEDIATE) so a
 * read-then-write transaction cannot fail half-way with SQLITE_BUSY. */
int db_begin(struct db_conn *c, bool write);
int db_commit(struct db_conn *c);
void db_rollback(struct db_conn *c);

/* The write path. db_write runs body(c, arg) in a write transaction and answers what body did, or
 * fail when the transaction could not be had or committed (body's work is then gone). A body that
 * answers 0 keeps its writes; anything else undoes them.
 *
 * SQLite: every write of the process goes through one writer thread with a connection of its own
 * (so no request ever waits in SQLite's busy handler for another of our connections): callers
 * queue their bodies, and the writer takes whatever is queued (at most BW_DB_GROUP_MAX), opens one
 * BEGIN IMMEDIATE, runs each body in a SAVEPOINT of its own (a body that fails rolls back only its
 * savepoint), COMMITs once, and only then wakes the callers: group commit, with each caller
 * answered after the COMMIT that made its writes durable returned. A body must not wait for
 * another write (called from inside a body, db_write runs the nested body at once, in the
 * transaction already open).
 * PostgreSQL: a connection of the pool, BEGIN, body, COMMIT (concurrent writers are the server's
 * business).
 * db_single_writer: whether writes go through that queue (SQLite), so that single statements
 * should too (store_exec does). */
typedef int (*db_tx_fn)(struct db_conn *c, void *arg);
int db_write(struct db *db, db_tx_fn body, void *arg, int fail);
bool db_single_writer(const struct db *db);
/* The database a connection belongs to. */
struct db *db_of(struct db_conn *c);

/* Runs a script of several statements without parameters (migrations). */
int db_exec_script(struct db_conn *c, const char *sql);

/* Whether the database answers (readyz). */
bool db_ping(struct db *db);

/* Signals between the instances sharing one database: PostgreSQL NOTIFY/LISTEN. On SQLite,
 * whose file one instance owns, there is nobody to tell: db_notify does nothing and db_listen
 * returns NULL.
 * db_notify sends payload (at most BW_DB_NOTIFY_MAX bytes) on channel; DB_OK or DB_ERROR.
 * db_listen starts a thread with a connection of its own that calls fn(arg, payload) for every
 * notification on channel, from that thread; fn(arg, NULL) means notifications may have been
 * missed (the first connection, and every reconnection after the connection was lost, which is
 * retried each second). NULL on SQLite or when the thread cannot start. db_listen_stop joins the
 * thread (within a fraction of a second) and frees the listener; NULL is a no-op.
 * db_conn_notify sends it on a connection: inside a transaction, at its commit and not at all if it
 * rolls back. */
typedef void (*db_notify_fn)(void *arg, const char *payload);
struct db_listener;
int db_notify(struct db *db, const char *channel, const char *payload);
int db_conn_notify(struct db_conn *c, const char *channel, const char *payload);
struct db_listener *db_listen(struct db *db, const char *channel, db_notify_fn fn, void *arg);
void db_listen_stop(struct db_listener *l);

/* Writes to an SQLite database by other processes (the CLI), told without a read: db_watch
 * watches the database's files (inotify on the file, its -wal and their directory) and
 * db_watch_poll says, without blocking, whether one of them was closed after being opened for
 * writing, created, removed or renamed since the previous poll (or events were lost, or the watch failed: true whenever it
 * cannot tell). A process's writes show when it closes the files (the CLI closes the database
 * right after its work, and at its exit in any case); the kernel queues the event in close(2), so
 * a poll that starts after that sees it. Single writes are not events (their cost would fall on
 * this process's own writer). Polls must be serialised by the caller. NULL on PostgreSQL
 * (db_listen is its signal) or when inotify is unavailable: read instead. */
struct db_watch;
struct db_watch *db_watch(struct db *db);
bool db_watch_poll(struct db_watch *w);
/* False once the watch ended (the database file or its directory was moved or removed, or
 * reading the events failed): every poll then says "changed" (logged once, at warn). */
bool db_watch_alive(const struct db_watch *w);
void db_watch_free(struct db_watch *w);

/* Failures counted since db_open, for /metrics: a connection that could not be had (db_acquire
 * gave NULL), or a statement, query, transaction step or script that failed (DB_ERROR; a
 * constraint violation is an answer, not a failure). Each is logged where it happens. */
enum db_err_kind { DB_ERR_CONNECT, DB_ERR_STATEMENT, DB_ERR__COUNT };
unsigned long db_error_count(const struct db *db, enum db_err_kind k);
const char *db_err_kind_name(enum db_err_kind k); /* "connect", "statement" */

#endif
