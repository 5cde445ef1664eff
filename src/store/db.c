#include "store/db_internal.h"

#include "common/embedded.h"
#include "common/log.h"
#include "common/timeutil.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int migrate(struct db *db, char *err, size_t n);

int db_open(const char *url, const char *data_dir, unsigned flags, int pool, struct db **out, char *err, size_t n)
{
    struct db *db = calloc(1, sizeof *db);
    if (!db) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    bool pg = url && (strncmp(url, "postgres://", 11) == 0 || strncmp(url, "postgresql://", 13) == 0);
    if (url && *url && !pg) {
        snprintf(err, n, "BULWARK_DATABASE_URL must start with postgres:// (unset it for SQLite)");
        free(db);
        return -1;
    }
    db->be = pg ? &db_pg_backend : &db_sqlite_backend;
    db->flags = flags;
    if (db->be->open(db, url, data_dir, pool, err, n) != 0) {
        free(db);
        return -1;
    }
    if (migrate(db, err, n) != 0) {
        db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

void db_close(struct db *db)
{
    if (!db)
        return;
    db->be->close(db);
    free(db);
}

const char *db_backend(const struct db *db) { return db->be->name; }

void db_count_error(struct db *db, enum db_err_kind k)
{
    atomic_fetch_add_explicit(&db->errors[k], 1, memory_order_relaxed);
}

unsigned long db_error_count(const struct db *db, enum db_err_kind k)
{
    return (unsigned)k < DB_ERR__COUNT ? atomic_load_explicit(&db->errors[k], memory_order_relaxed) : 0;
}

const char *db_err_kind_name(enum db_err_kind k) { return k == DB_ERR_CONNECT ? "connect" : "statement"; }

struct db_conn *db_acquire(struct db *db)
{
    struct db_conn *c = db->be->acquire(db);
    if (!c)
        db_count_error(db, DB_ERR_CONNECT);
    return c;
}

void db_release(struct db_conn *c)
{
    if (c)
        ((struct db_conn_hdr *)c)->db->be->release(c);
}

#define DB(c) (((struct db_conn_hdr *)(c))->db)
#define BE(c) (DB(c)->be)

/* rc as it is, a failure counted */
static int counted(struct db_conn *c, int rc)
{
    if (rc == DB_ERROR)
        db_count_error(DB(c), DB_ERR_STATEMENT);
    return rc;
}

int db_exec(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *ch)
{
    return counted(c, BE(c)->exec(c, sql, p, np, ch));
}

bool db_has_copy(const struct db *db) { return db->be->copy != NULL; }

int db_copy(struct db_conn *c, const char *copy, const struct db_param *p, int ncols, int nrows)
{
    if (!BE(c)->copy)
        return DB_ERROR;
    return counted(c, BE(c)->copy(c, copy, p, ncols, nrows));
}

int db_query(struct db_conn *c, const char *sql, const struct db_param *p, int np, struct db_rows **out)
{
    return counted(c, BE(c)->query(c, sql, p, np, out));
}

/* Rows do not know their backend, so the cursor functions go through the one open database. A
 * process opens one database; this pointer is set by db_open's migration step. */
static const struct db_backend *g_be;

bool db_rows_next(struct db_rows *r) { return g_be->next(r); }
const char *db_rows_text(struct db_rows *r, int col) { return g_be->text(r, col); }
int64_t db_rows_int(struct db_rows *r, int col) { return g_be->integer(r, col); }
bool db_rows_null(struct db_rows *r, int col) { return g_be->isnull(r, col); }

void db_rows_free(struct db_rows *r)
{
    if (r)
        g_be->rows_free(r);
}

int db_begin(struct db_conn *c, bool write)
{
    return counted(c, BE(c)->script(c, write ? BE(c)->begin_write : "BEGIN"));
}

int db_commit(struct db_conn *c) { return counted(c, BE(c)->script(c, "COMMIT")); }
void db_rollback(struct db_conn *c) { (void)BE(c)->script(c, "ROLLBACK"); }
struct db *db_of(struct db_conn *c) { return DB(c); }
bool db_single_writer(const struct db *db) { return db->be->write != NULL; }

int db_write(struct db *db, db_tx_fn body, void *arg, int fail)
{
    if (db->be->write)
        return db->be->write(db, body, arg, fail);
    struct db_conn *c = db_acquire(db);
    if (!c)
        return fail;
    int rc = fail;
    if (db_begin(c, true) == DB_OK) {
        rc = body(c, arg);
        if (rc == 0 && db_commit(c) != DB_OK)
            rc = fail;
        /* a COMMIT that failed can leave the transaction open on this connection */
        if (rc != 0)
            db_rollback(c);
    }
    db_release(c);
    return rc;
}

int db_exec_script(struct db_conn *c, const char *sql) { return counted(c, BE(c)->script(c, sql)); }

int db_conn_notify(struct db_conn *c, const char *channel, const char *payload)
{
    if (!db_of(c)->be->listen)
        return DB_OK;
    struct db_param p[] = {DBP_TEXT(channel), DBP_TEXT(payload)};
    struct db_rows *r = NULL;
    int rc = db_query(c, "SELECT pg_notify(?, ?)", p, 2, &r);
    db_rows_free(r);
    return rc;
}

int db_notify(struct db *db, const char *channel, const char *payload)
{
    if (!db->be->listen)
        return DB_OK;
    struct db_conn *c = db_acquire(db);
    if (!c)
        return DB_ERROR;
    int rc = db_conn_notify(c, channel, payload);
    db_release(c);
    return rc;
}

struct db_listener *db_listen(struct db *db, const char *channel, db_notify_fn fn, void *arg)
{
    return db->be->listen ? db->be->listen(db, channel, fn, arg) : NULL;
}

void db_listen_stop(struct db_listener *l)
{
    if (l)
        l->be->listen_stop(l);
}

struct db_watch *db_watch(struct db *db) { return db->be->watch ? db->be->watch(db) : NULL; }

bool db_watch_poll(struct db_watch *w) { return w->be->watch_poll(w); }

bool db_watch_alive(const struct db_watch *w) { return w->be->watch_alive(w); }

void db_watch_free(struct db_watch *w)
{
    if (w)
        w->be->watch_free(w);
}

bool db_ping(struct db *db)
{
    struct db_conn *c = db_acquire(db);
    if (!c)
        return false;
    struct db_rows *r = NULL;
    bool ok = db_query(c, "SELECT 1", NULL, 0, &r) == DB_OK && db_rows_next(r);
    db_rows_free(r);
    db_release(c);
    return ok;
}

/* Applies src/store/migrations/NNNN_*.sql in order, each in its own transaction with its
 * version row, so concurrent instances starting on one PostgreSQL converge: the loser of a race
 * fails on the version's primary key (or the DDL), rolls back and re-checks. */
static int migrate(struct db *db, char *err, size_t n)
{
    g_be = db->be;
    struct db_conn *c = db_acquire(db);
    if (!c) {
        snprintf(err, n, "cannot connect to the database");
        return -1;
    }
    int rc = -1;
    for (int attempt = 0; attempt < 5; attempt++) {
        (void)db_exec_script(c, "CREATE TABLE IF NOT EXISTS schema_migrations ("
                                "version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)");
        bool failed = false;
        for (size_t i = 0; i < bw_embedded_count && !failed; i++) {
            const struct bw_embedded *f = &bw_embedded_files[i];
            const char *pre = "src/store/migrations/";
            if (strncmp(f->name, pre, strlen(pre)) != 0)
                continue;
            const char *base = f->name + strlen(pre);
            long version = strtol(base, NULL, 10);
            if (version <= 0)
                continue;
            struct db_rows *r = NULL;
            struct db_param p[] = {DBP_INT(version)};
            if (db_query(c, "SELECT 1 FROM schema_migrations WHERE version = ?", p, 1, &r) != DB_OK) {
                failed = true;
                break;
            }
            bool have = db_rows_next(r);
            db_rows_free(r);
            if (have)
                continue;
            char ts[21];
            bw_iso8601(bw_now_s(), ts);
            struct db_param ins[] = {DBP_INT(version), DBP_TEXT(base), DBP_TEXT(ts)};
            if (db_begin(c, true) != DB_OK || db_exec_script(c, (const char *)f->data) != DB_OK ||
                db_exec(c, "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        ins, 3, NULL) != DB_OK ||
                db_commit(c) != DB_OK) {
                db_rollback(c);
                failed = true;
                break;
            }
            bw_log_json(BW_LOG_INFO, NULL, "migration applied",
                        json_pack("{s:s,s:s}", "migration", base, "backend", db->be->name));
        }
        if (!failed) {
            rc = 0;
            break;
        }
    }
    db_release(c);
    if (rc != 0)
        snprintf(err, n, "database migrations failed (see the log)");
    return rc;
}
