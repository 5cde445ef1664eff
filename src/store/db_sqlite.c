/* SQLite backend: one connection per thread, WAL, statement cache per connection. */
#include "store/db_internal.h"

#include "common/limits.h"
#include "common/log.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


struct sq_conn {
    struct db_conn_hdr hdr;
    sqlite3 *h;
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } cache[BW_DB_STMT_CACHE_SQLITE];
    struct sq_conn *next; /* all connections, closed by db_close */
    int in_use;
};

struct sq_db {
    char path[4096];
    pthread_key_t key; /* thread -> its connection */
    pthread_mutex_t mu;
    struct sq_conn *all;
};

struct db_rows {
    struct sq_conn *c;
    sqlite3_stmt *st;
    bool cached;
    bool done;
};

static int sq_open_handle(const char *path, sqlite3 **out)
{
    sqlite3 *h = NULL;
    int rc = sqlite3_open_v2(path, &h,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        sqlite3_close(h);
        return -1;
    }
    sqlite3_busy_timeout(h, BW_DB_BUSY_TIMEOUT_MS);
    /* WAL lets readers run beside the one writer; NORMAL sync is durable against process crashes
     * (the WAL is written before commit returns) and only an OS crash can lose the last commits. */
    const char *pragmas = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                          "PRAGMA foreign_keys=ON; PRAGMA temp_store=MEMORY;";
    if (sqlite3_exec(h, pragmas, NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(h);
        return -1;
    }
    *out = h;
    return 0;
}

/* The data directory and the database files must be the owner's alone: the settings table holds
 * the JWT signing secret (whoever reads it can forge sessions) and the accounts. One that group or
 * others may read or write stops the open, naming it and the fix, unless allowed (then a warning). */
static int check_modes(const char *dir, const char *db_path, bool allow, char *err, size_t n)
{
    static const char *const suffix[] = {"", "-wal", "-shm"};
    char path[4200];
    for (int i = -1; i < 3; i++) {
        snprintf(path, sizeof path, "%s%s", i < 0 ? dir : db_path, i < 0 ? "" : suffix[i]);
        struct stat st;
        if (stat(path, &st) != 0 || !(st.st_mode & 066))
            continue;
        char msg[2 * sizeof path + 200];
        snprintf(msg, sizeof msg,
                 "%s %s is readable or writable by group or others (mode %04o) and holds the JWT signing secret: "
                 "run chmod %s %s",
                 i < 0 ? "data directory" : "database file", path, (unsigned)(st.st_mode & 07777), i < 0 ? "700" : "600",
                 path);
        if (!allow) {
            snprintf(err, n, "%s (or set BULWARK_ALLOW_INSECURE_FILE_MODES=1 to start anyway)", msg);
            return -1;
        }
        bw_logf(BW_LOG_WARN, NULL, "%s; used anyway, BULWARK_ALLOW_INSECURE_FILE_MODES is set", msg);
    }
    return 0;
}

/* The database file, created 0600 before SQLite would create it 0644 less the umask. 0 or -1. */
static int create_private(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno == EEXIST ? 0 : -1;
    int rc = fchmod(fd, 0600); /* the umask may have taken bits the owner needs */
    close(fd);
    return rc;
}

static int sq_open(struct db *db, const char *url, const char *data_dir, int pool, char *err, size_t n)
{
    (void)url;
    (void)pool;
    struct sq_db *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    if (mkdir(data_dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, n, "cannot create data dir %s: %s", data_dir, strerror(errno));
        free(s);
        return -1;
    }
    snprintf(s->path, sizeof s->path, "%s/bulwark.db", data_dir);
    if (check_modes(data_dir, s->path, db->flags & DB_OPEN_ALLOW_INSECURE_MODES, err, n) != 0) {
        free(s);
        return -1;
    }
    if (create_private(s->path) != 0) {
        snprintf(err, n, "cannot create SQLite database %s: %s", s->path, strerror(errno));
        free(s);
        return -1;
    }
    pthread_key_create(&s->key, NULL);
    pthread_mutex_init(&s->mu, NULL);
    sqlite3 *probe;
    if (sq_open_handle(s->path, &probe) != 0) {
        snprintf(err, n, "cannot open SQLite database %s", s->path);
        pthread_key_delete(s->key);
        pthread_mutex_destroy(&s->mu);
        free(s);
        return -1;
    }
    sqlite3_close(probe);
    db->impl = s;
    return 0;
}

static void conn_close(struct sq_conn *c)
{
    for (int i = 0; i < BW_DB_STMT_CACHE_SQLITE; i++)
        if (c->cache[i].st)
            sqlite3_finalize(c->cache[i].st);
    sqlite3_close(c->h);
    free(c);
}

static void sq_close(struct db *db)
{
    struct sq_db *s = db->impl;
    struct sq_conn *c = s->all;
    while (c) {
        struct sq_conn *nx = c->next;
        conn_close(c);
        c = nx;
    }
    pthread_key_delete(s->key);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

static struct db_conn *sq_acquire(struct db *db)
{
    struct sq_db *s = db->impl;
    struct sq_conn *c = pthread_getspecific(s->key);
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c)
            return NULL;
        if (sq_open_handle(s->path, &c->h) != 0) {
            free(c);
            return NULL;
        }
        c->hdr.db = db;
        pthread_mutex_lock(&s->mu);
        c->next = s->all;
        s->all = c;
        pthread_mutex_unlock(&s->mu);
        pthread_setspecific(s->key, c);
    }
    c->in_use++;
    return (struct db_conn *)c;
}

static void sq_release(struct db_conn *dc)
{
    struct sq_conn *c = (struct sq_conn *)dc;
    c->in_use--;
}

static size_t slot_of(const char *sql)
{
    uintptr_t x = (uintptr_t)sql;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 40) % BW_DB_STMT_CACHE_SQLITE;
}

/* Returns a reset statement for sql, from the cache when possible; *cached says whether the
 * statement belongs to the cache (and must be reset, not finalized). */
static sqlite3_stmt *prepare(struct sq_conn *c, const char *sql, bool *cached)
{
    size_t i = slot_of(sql);
    for (size_t k = 0; k < 4; k++) {
        size_t j = (i + k) % BW_DB_STMT_CACHE_SQLITE;
        if (c->cache[j].sql == sql && c->cache[j].st) {
            *cached = true;
            return c->cache[j].st;
        }
    }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v3(c->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
        bw_logf(BW_LOG_ERROR, NULL, "sqlite prepare failed: %s", sqlite3_errmsg(c->h));
        return NULL;
    }
    for (size_t k = 0; k < 4; k++) {
        size_t j = (i + k) % BW_DB_STMT_CACHE_SQLITE;
        if (!c->cache[j].st) {
            c->cache[j].sql = sql;
            c->cache[j].st = st;
            *cached = true;
            return st;
        }
    }
    *cached = false;
    return st;
}

static int bind(sqlite3_stmt *st, const struct db_param *p, int np)
{
    for (int i = 0; i < np; i++) {
        int rc;
        switch (p[i].t) {
        case DB_P_TEXT:
            rc = sqlite3_bind_text(st, i + 1, p[i].s, -1, SQLITE_STATIC);
            break;
        case DB_P_INT:
            rc = sqlite3_bind_int64(st, i + 1, p[i].i);
            break;
        default:
            rc = sqlite3_bind_null(st, i + 1);
        }
        if (rc != SQLITE_OK)
            return -1;
    }
    return 0;
}

static int map_rc(struct sq_conn *c, int rc)
{
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return DB_CONSTRAINT;
    bw_logf(BW_LOG_ERROR, NULL, "sqlite error: %s", sqlite3_errmsg(c->h));
    return DB_ERROR;
}

static void done_stmt(sqlite3_stmt *st, bool cached)
{
    if (cached) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    } else {
        sqlite3_finalize(st);
    }
}

static int sq_exec(struct db_conn *dc, const char *sql, const struct db_param *p, int np, int64_t *ch)
{
    struct sq_conn *c = (struct sq_conn *)dc;
    bool cached;
    sqlite3_stmt *st = prepare(c, sql, &cached);
    if (!st)
        return DB_ERROR;
    int out = DB_OK;
    if (bind(st, p, np) != 0) {
        out = DB_ERROR;
    } else {
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            ;
        if (rc != SQLITE_DONE)
            out = map_rc(c, rc);
        else if (ch)
            *ch = sqlite3_changes64(c->h);
    }
    done_stmt(st, cached);
    return out;
}

static int sq_query(struct db_conn *dc, const char *sql, const struct db_param *p, int np,
                    struct db_rows **out)
{
    struct sq_conn *c = (struct sq_conn *)dc;
    bool cached;
    sqlite3_stmt *st = prepare(c, sql, &cached);
    if (!st)
        return DB_ERROR;
    if (bind(st, p, np) != 0) {
        done_stmt(st, cached);
        return DB_ERROR;
    }
    struct db_rows *r = malloc(sizeof *r);
    if (!r) {
        done_stmt(st, cached);
        return DB_ERROR;
    }
    r->c = c;
    r->st = st;
    r->cached = cached;
    r->done = false;
    *out = r;
    return DB_OK;
}

static bool sq_next(struct db_rows *r)
{
    if (r->done)
        return false;
    int rc = sqlite3_step(r->st);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE && map_rc(r->c, rc) == DB_ERROR) /* SQLite runs a query while stepping */
        db_count_error(r->c->hdr.db, DB_ERR_STATEMENT);
    r->done = true;
    return false;
}

static const char *sq_text(struct db_rows *r, int col)
{
    return (const char *)sqlite3_column_text(r->st, col);
}

static bool sq_isnull(struct db_rows *r, int col) { return sqlite3_column_type(r->st, col) == SQLITE_NULL; }
static int64_t sq_int(struct db_rows *r, int col) { return sqlite3_column_int64(r->st, col); }

static void sq_rows_free(struct db_rows *r)
{
    if (!r)
        return;
    done_stmt(r->st, r->cached);
    free(r);
}

static int sq_script(struct db_conn *dc, const char *sql)
{
    struct sq_conn *c = (struct sq_conn *)dc;
    char *msg = NULL;
    if (sqlite3_exec(c->h, sql, NULL, NULL, &msg) != SQLITE_OK) {
        bw_logf(BW_LOG_ERROR, NULL, "sqlite script failed: %s", msg ? msg : "?");
        sqlite3_free(msg);
        return DB_ERROR;
    }
    return DB_OK;
}

const struct db_backend db_sqlite_backend = {
    .name = "sqlite",
    DB_BACKEND_OPS(sq),
    .begin_write = "BEGIN IMMEDIATE",
};
