/* SQLite backend: one connection per thread, WAL, statement cache per connection, and one writer
 * thread that every write goes through (db_write: group commit, below). */
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
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
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

/* A write waiting for the writer thread; its caller waits on cv (one per job, so finishing a group
 * wakes its callers and not the ones still queued). */
struct sq_job {
    db_tx_fn body;
    void *arg;
    int fail, rc;
    bool done;
    pthread_cond_t cv;
    struct sq_job *next;
};

struct sq_db {
    char path[4096];
    bool sync_full;
    pthread_key_t key; /* thread -> its connection */
    pthread_mutex_t mu;
    struct sq_conn *all;
    /* the writer: jobs queued under wmu; the writer waits on wcv, callers on their job's cv */
    struct db *db;
    pthread_t writer;
    bool writer_started, stop;
    pthread_mutex_t wmu;
    pthread_cond_t wcv;
    struct sq_job *head, *tail;
    /* the checkpointer (started with the writer): woken under cmu by the writer's WAL hook */
    pthread_t ckpt;
    sqlite3 *ckpt_h; /* its connection */
    bool ckpt_started, ckpt_due, ckpt_stop;
    int ckpt_mark; /* the writer's: the WAL's length at the last checkpoint it asked for */
    pthread_mutex_t cmu;
    pthread_cond_t ccv;
};

/* Set on the writer thread: a db_write from inside a body runs at once, in the open transaction. */
static _Thread_local bool g_in_writer;

struct db_rows {
    struct sq_conn *c;
    sqlite3_stmt *st;
    bool cached;
    bool done;
};

static int sq_open_handle(const char *path, bool sync_full, sqlite3 **out)
{
    sqlite3 *h = NULL;
    int rc = sqlite3_open_v2(path, &h,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        sqlite3_close(h);
        return -1;
    }
    sqlite3_busy_timeout(h, BW_DB_BUSY_TIMEOUT_MS);
    /* WAL lets readers run beside the one writer. synchronous=NORMAL: a commit is written to the
     * WAL (the OS has it) before COMMIT returns, so it survives the process being killed; it is
     * fsynced at checkpoints, so a power loss or kernel crash can lose the last commits (never
     * corrupt the database). FULL (BULWARK_SQLITE_SYNC=full) fsyncs the WAL at every commit:
     * durable against power loss, at the cost of a disk flush per group commit. */
    const char *pragmas = sync_full ? "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                                      "PRAGMA foreign_keys=ON; PRAGMA temp_store=MEMORY;"
                                    : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
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
    s->sync_full = db->flags & DB_OPEN_SYNC_FULL;
    if (sq_open_handle(s->path, s->sync_full, &probe) != 0) {
        snprintf(err, n, "cannot open SQLite database %s", s->path);
        pthread_key_delete(s->key);
        pthread_mutex_destroy(&s->mu);
        free(s);
        return -1;
    }
    sqlite3_close(probe);
    s->db = db;
    pthread_mutex_init(&s->wmu, NULL);
    pthread_cond_init(&s->wcv, NULL);
    pthread_mutex_init(&s->cmu, NULL);
    pthread_cond_init(&s->ccv, NULL);
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

static void writer_stop(struct sq_db *s);

static void sq_close(struct db *db)
{
    struct sq_db *s = db->impl;
    writer_stop(s);
    struct sq_conn *c = s->all;
    while (c) {
        struct sq_conn *nx = c->next;
        conn_close(c);
        c = nx;
    }
    pthread_key_delete(s->key);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->wmu);
    pthread_cond_destroy(&s->wcv);
    pthread_mutex_destroy(&s->cmu);
    pthread_cond_destroy(&s->ccv);
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
        if (sq_open_handle(s->path, s->sync_full, &c->h) != 0) {
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

/* ---- the writer thread ----------------------------------------------------------------------
 * Every write of the process, so that our own connections never wait for each other's lock in
 * SQLite's busy handler (which sleeps: 1, 2, 5, 10 ... 100 ms), and concurrent small writes share
 * one COMMIT. Callers wait on their job's cv until it is done, which is after COMMIT returned. */

/* The transaction's own statements (BEGIN, SAVEPOINT, RELEASE, COMMIT) run several times per
 * group: prepared once, from the statement cache, not parsed by sqlite3_exec each time. */
static int run_sql(struct sq_conn *c, const char *sql)
{
    bool cached = false;
    sqlite3_stmt *st = prepare(c, sql, &cached);
    int rc = st ? sqlite3_step(st) : SQLITE_ERROR;
    if (st)
        done_stmt(st, cached);
    if (rc == SQLITE_DONE)
        return 0;
    bw_logf(BW_LOG_ERROR, NULL, "sqlite %s failed: %s", sql, sqlite3_errmsg(c->h));
    db_count_error(c->hdr.db, DB_ERR_STATEMENT);
    return -1;
}

/* Fails the jobs from..to (exclusive) that had succeeded: their transaction is gone. */
static void fail_kept(struct sq_job *from, struct sq_job *to)
{
    for (struct sq_job *j = from; j != to; j = j->next)
        if (j->rc == 0)
            j->rc = j->fail;
}

/* Runs a group of jobs (a list) in as few transactions as possible: normally one. */
static void run_group(struct sq_conn *c, struct sq_job *group)
{
    struct sq_job *tx_first = NULL; /* the first job of the open transaction */
    for (struct sq_job *j = group; j; j = j->next) {
        j->rc = j->fail;
        if (!tx_first) {
            if (run_sql(c, "BEGIN IMMEDIATE") != 0)
                continue;
            tx_first = j;
        }
        if (run_sql(c, "SAVEPOINT bw_write") != 0) {
            fail_kept(tx_first, j);
            (void)run_sql(c, "ROLLBACK");
            tx_first = NULL;
            continue;
        }
        j->rc = j->body((struct db_conn *)c, j->arg);
        if (sqlite3_get_autocommit(c->h)) {
            /* SQLite rolled the whole transaction back (disk full, I/O error): every job in it so
             * far lost its writes */
            bw_logf(BW_LOG_ERROR, NULL, "sqlite rolled back a group commit: %s", sqlite3_errmsg(c->h));
            fail_kept(tx_first, j->next);
            tx_first = NULL;
            continue;
        }
        if (j->rc != 0 && run_sql(c, "ROLLBACK TO bw_write") != 0) {
            fail_kept(tx_first, j);
            (void)run_sql(c, "ROLLBACK");
            tx_first = NULL;
            continue;
        }
        (void)run_sql(c, "RELEASE bw_write");
    }
    if (tx_first && run_sql(c, "COMMIT") != 0) {
        fail_kept(tx_first, NULL);
        if (!sqlite3_get_autocommit(c->h))
            (void)run_sql(c, "ROLLBACK");
    }
}

/* Checkpoints run on their own thread and connection, not in the writer's COMMIT (SQLite's
 * auto-checkpoint): a checkpoint copies the WAL into the database and fsyncs both, and on the
 * writer every write queued behind it waited for the disk (measured: a tenth of the writer's time
 * in key creation, and the p99). The writer's WAL hook wakes this thread past
 * BW_SQLITE_CHECKPOINT_PAGES new pages; a PASSIVE checkpoint blocks neither readers nor the
 * writer. Past BW_SQLITE_WAL_RESTART_PAGES the writer finishes the job itself (wal_hook). */
static void *ckpt_main(void *arg)
{
    struct sq_db *s = arg;
    sqlite3 *h = s->ckpt_h;
    pthread_mutex_lock(&s->cmu);
    for (;;) {
        while (!s->ckpt_due && !s->ckpt_stop)
            pthread_cond_wait(&s->ccv, &s->cmu);
        if (s->ckpt_stop)
            break;
        s->ckpt_due = false;
        pthread_mutex_unlock(&s->cmu);
        int rc = sqlite3_wal_checkpoint_v2(h, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        if (rc != SQLITE_OK && rc != SQLITE_BUSY) /* busy: another process checkpoints */
            bw_logf(BW_LOG_WARN, NULL, "sqlite checkpoint failed: %s", sqlite3_errmsg(h));
        pthread_mutex_lock(&s->cmu);
    }
    pthread_mutex_unlock(&s->cmu);
    sqlite3_close(h);
    return NULL;
}

/* The writer's busy handler while it restarts the WAL: short sleeps, a bounded number of them
 * (SQLite's busy_timeout sleeps 1, 2, 5, 10 ms ... and every write queued behind would wait). */
static int restart_busy(void *arg, int tries)
{
    (void)arg;
    if (tries >= BW_SQLITE_RESTART_TRIES)
        return 0;
    struct timespec ts = {0, BW_SQLITE_RESTART_SLEEP_US * 1000L};
    nanosleep(&ts, NULL);
    return 1;
}

/* The writer's, after each COMMIT, with the WAL's length in pages. */
static int wal_hook(void *arg, sqlite3 *h, const char *name, int pages)
{
    struct sq_db *s = arg;
    if (pages < s->ckpt_mark) /* the WAL restarted from its beginning */
        s->ckpt_mark = 0;
    if (pages - s->ckpt_mark < BW_SQLITE_CHECKPOINT_PAGES)
        return SQLITE_OK; /* a checkpoint per that many new pages, not one per COMMIT past it */
    s->ckpt_mark = pages;
    if (pages >= BW_SQLITE_WAL_RESTART_PAGES) {
        /* Under a steady stream of writes a PASSIVE checkpoint never catches up with the last
         * COMMIT, so the WAL is never found copied in full and never starts over: it would grow
         * without end. The writer (no COMMIT can come in between) copies what the checkpointer
         * has not yet, little by then, and waits briefly for the readers of older frames, so the
         * next write starts the WAL from its beginning. */
        sqlite3_busy_handler(h, restart_busy, NULL);
        (void)sqlite3_wal_checkpoint_v2(h, name, SQLITE_CHECKPOINT_RESTART, NULL, NULL);
        sqlite3_busy_timeout(h, BW_DB_BUSY_TIMEOUT_MS);
    } else if (!s->ckpt_started) {
        (void)sqlite3_wal_checkpoint_v2(h, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    } else {
        pthread_mutex_lock(&s->cmu);
        s->ckpt_due = true;
        pthread_cond_signal(&s->ccv);
        pthread_mutex_unlock(&s->cmu);
    }
    return SQLITE_OK;
}

static void *writer_main(void *arg)
{
    struct sq_db *s = arg;
    g_in_writer = true;
    struct sq_conn *c = (struct sq_conn *)sq_acquire(s->db);
    if (c)
        sqlite3_wal_hook(c->h, wal_hook, s); /* in place of SQLite's auto-checkpoint */
    pthread_mutex_lock(&s->wmu);
    for (;;) {
        while (!s->head && !s->stop)
            pthread_cond_wait(&s->wcv, &s->wmu);
        if (!s->head)
            break; /* stopping, and nothing left to write */
        /* take what is queued, at most BW_DB_GROUP_MAX */
        struct sq_job *group = s->head, *last = group;
        for (int n = 1; n < BW_DB_GROUP_MAX && last->next; n++)
            last = last->next;
        s->head = last->next;
        if (!s->head)
            s->tail = NULL;
        last->next = NULL;
        pthread_mutex_unlock(&s->wmu);
        if (c) {
            run_group(c, group);
        } else {
            for (struct sq_job *j = group; j; j = j->next)
                j->rc = j->fail;
        }
        pthread_mutex_lock(&s->wmu);
        for (struct sq_job *j = group; j;) {
            struct sq_job *nx = j->next; /* the caller may free j once done is set and wmu is free */
            j->done = true;
            pthread_cond_signal(&j->cv);
            j = nx;
        }
    }
    pthread_mutex_unlock(&s->wmu);
    if (c)
        sq_release((struct db_conn *)c);
    return NULL;
}

static void writer_stop(struct sq_db *s)
{
    pthread_mutex_lock(&s->wmu);
    bool started = s->writer_started;
    s->stop = true;
    pthread_cond_signal(&s->wcv);
    pthread_mutex_unlock(&s->wmu);
    if (started)
        pthread_join(s->writer, NULL);
    pthread_mutex_lock(&s->cmu);
    bool ckpt = s->ckpt_started;
    s->ckpt_stop = true;
    pthread_cond_signal(&s->ccv);
    pthread_mutex_unlock(&s->cmu);
    if (ckpt)
        pthread_join(s->ckpt, NULL);
}

static int sq_write(struct db *db, db_tx_fn body, void *arg, int fail)
{
    struct sq_db *s = db->impl;
    if (g_in_writer) { /* a body's own write: part of the transaction already open */
        struct db_conn *c = sq_acquire(db);
        int rc = c ? body(c, arg) : fail;
        if (c)
            sq_release(c);
        return rc;
    }
    struct sq_job job = {.body = body, .arg = arg, .fail = fail, .rc = fail};
    pthread_cond_init(&job.cv, NULL);
    pthread_mutex_lock(&s->wmu);
    if (s->stop) {
        pthread_mutex_unlock(&s->wmu);
        pthread_cond_destroy(&job.cv);
        return fail;
    }
    /* started on the first write, so opening a database to read (the CLI, tests) starts no thread */
    if (!s->writer_started) {
        /* the checkpointer first, so the writer's WAL hook sees whether it runs; without it (no
         * connection or no thread) the writer checkpoints itself (wal_hook) */
        pthread_mutex_lock(&s->cmu);
        if (sq_open_handle(s->path, s->sync_full, &s->ckpt_h) == 0) {
            s->ckpt_started = pthread_create(&s->ckpt, NULL, ckpt_main, s) == 0;
            if (!s->ckpt_started) {
                sqlite3_close(s->ckpt_h);
                s->ckpt_h = NULL;
            }
        }
        if (!s->ckpt_started)
            bw_logf(BW_LOG_WARN, NULL, "sqlite checkpointer did not start; the writer checkpoints");
        pthread_mutex_unlock(&s->cmu);
        if (pthread_create(&s->writer, NULL, writer_main, s) != 0) {
            pthread_mutex_unlock(&s->wmu);
            pthread_cond_destroy(&job.cv);
            bw_logf(BW_LOG_ERROR, NULL, "cannot start the SQLite writer thread");
            return fail;
        }
        s->writer_started = true;
    }
    if (s->tail)
        s->tail->next = &job;
    else
        s->head = &job;
    s->tail = &job;
    pthread_cond_signal(&s->wcv);
    while (!job.done)
        pthread_cond_wait(&job.cv, &s->wmu);
    pthread_mutex_unlock(&s->wmu);
    pthread_cond_destroy(&job.cv);
    return job.rc;
}

/* ---- the watch (db_watch) --------------------------------------------------------------------- */

/* Two files and their directory. The files (the database and its -wal) for a close after opening
 * for writing: a process that writes (the CLI) opens both read-write and closes them after its
 * commit, at the latest at its exit. (SQLite defers closing the database file itself while another
 * connection of the same process holds locks on it; the -wal it closes at once.) Not single
 * writes (IN_MODIFY): that put an event on every WAL write of this process's own writer thread,
 * ~6% of its CPU in fsnotify under key creation, where the writer is the bottleneck. The directory
 * only for files of the database's name coming and going (a watch on a removed -wal says nothing
 * of the one created in its place, which is then watched anew): with any per-file event on the
 * directory the kernel sends every write in it through the parent's notification path (~1.3%
 * more). A process that keeps the database open after a commit is seen within the caller's TTL. */
#define SQ_WATCH_FILE (IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)

struct sq_watch {
    int fd, dir_wd, db_wd, wal_wd; /* wal_wd -1: no -wal file now (or its watch failed) */
    bool dead; /* the directory's or the database's watch went away: every poll says "changed" */
    bool overflowed; /* events were lost since the last poll */
    char wal[4096 + 8];
    char base[64]; /* "bulwark.db": the files are this name and its -wal, -shm, -journal */
};

static struct db_watch *sq_watch(struct db *db)
{
    struct sq_db *s = db->impl;
    char dir[sizeof s->path];
    snprintf(dir, sizeof dir, "%s", s->path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    struct db_watch *w = calloc(1, sizeof *w);
    struct sq_watch *sw = calloc(1, sizeof *sw);
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC), err = errno;
    if (w && sw && fd >= 0) {
        sw->fd = fd;
        snprintf(sw->wal, sizeof sw->wal, "%s-wal", s->path);
        snprintf(sw->base, sizeof sw->base, "%s", slash + 1);
        sw->dir_wd = inotify_add_watch(fd, dir[0] ? dir : "/",
                                       IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF |
                                           IN_MOVE_SELF | IN_ONLYDIR);
        err = errno;
        if (sw->dir_wd >= 0) {
            sw->db_wd = inotify_add_watch(fd, s->path, SQ_WATCH_FILE);
            err = errno;
        }
        sw->wal_wd = inotify_add_watch(fd, sw->wal, SQ_WATCH_FILE); /* none yet: -1, watched when made */
    }
    if (!w || !sw || fd < 0 || sw->dir_wd < 0 || sw->db_wd < 0) {
        bw_logf(BW_LOG_WARN, NULL, "no watch on the SQLite database's files (%s): changes by other processes "
                "(the CLI) are found by reading, every feed page's intel generation and credentials after "
                "BULWARK_AUTH_CACHE_MS", strerror(err));
        if (fd >= 0)
            close(fd);
        free(sw);
        free(w);
        return NULL;
    }
    w->be = &db_sqlite_backend;
    w->impl = sw;
    return w;
}

static void sq_watch_dies(struct sq_watch *sw, const char *why)
{
    if (!sw->dead)
        bw_logf(BW_LOG_WARN, NULL, "the watch on the SQLite database's files ended (%s): changes by other "
                "processes (the CLI) are found by reading from now on", why);
    sw->dead = true;
}

/* One event: whether it says the database may have changed. */
static bool sq_watch_event(struct sq_watch *sw, const struct inotify_event *e)
{
    if (e->mask & IN_Q_OVERFLOW) {
        sw->overflowed = true; /* events were lost: a new -wal's creation among them */
        return true;
    }
    if (e->wd != sw->dir_wd && e->wd != sw->db_wd) { /* a -wal, this one or one replaced since */
        if (e->wd == sw->wal_wd && (e->mask & IN_IGNORED))
            sw->wal_wd = -1; /* gone: the next one is watched when created */
        return true;
    }
    if (e->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) {
        sq_watch_dies(sw, "the database file or its directory was moved or removed");
        return true;
    }
    if (e->wd == sw->db_wd)
        return true; /* closed after opening for writing */
    size_t blen = strlen(sw->base);
    if (!e->len || strncmp(e->name, sw->base, blen) != 0 || (e->name[blen] != '\0' && e->name[blen] != '-'))
        return false; /* another file of the directory */
    /* a new -wal: watched (a watch on the one it replaced stays until that file is freed) */
    if ((e->mask & (IN_CREATE | IN_MOVED_TO)) && strcmp(e->name + blen, "-wal") == 0)
        sw->wal_wd = inotify_add_watch(sw->fd, sw->wal, SQ_WATCH_FILE);
    return true;
}

static bool sq_watch_poll(struct db_watch *w)
{
    struct sq_watch *sw = w->impl;
    /* drained whole: one "changed" for however many events, so a burst costs one re-read */
    _Alignas(struct inotify_event) char buf[4096];
    bool changed = sw->dead;
    for (;;) {
        ssize_t n = read(sw->fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return changed || sw->dead;
        if (n <= 0) {
            sq_watch_dies(sw, n < 0 ? strerror(errno) : "end of the event queue");
            return true;
        }
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *e = (const struct inotify_event *)p;
            changed |= sq_watch_event(sw, e);
            p += sizeof *e + e->len;
        }
        /* a -wal whose creation was lost, or whose watch could not be added: watched now (adding
         * a watch to a file already watched returns its descriptor, so this is harmless) */
        if (sw->overflowed || sw->wal_wd < 0) {
            sw->overflowed = false;
            sw->wal_wd = inotify_add_watch(sw->fd, sw->wal, SQ_WATCH_FILE);
        }
    }
}

static bool sq_watch_alive(const struct db_watch *w) { return !((const struct sq_watch *)w->impl)->dead; }

static void sq_watch_free(struct db_watch *w)
{
    struct sq_watch *sw = w->impl;
    close(sw->fd);
    free(sw);
    free(w);
}

const struct db_backend db_sqlite_backend = {
    .name = "sqlite",
    DB_BACKEND_OPS(sq),
    .begin_write = "BEGIN IMMEDIATE",
    .write = sq_write,
    .watch = sq_watch,
    .watch_poll = sq_watch_poll,
    .watch_alive = sq_watch_alive,
    .watch_free = sq_watch_free,
};
