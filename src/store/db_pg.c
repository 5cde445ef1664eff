/* PostgreSQL backend: a pool of libpq connections; `?` placeholders become $1..$n. */
#include "store/db_internal.h"

#include "common/limits.h"
#include "common/log.h"

#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct pg_conn {
    struct db_conn_hdr hdr;
    PGconn *h;
    struct pg_conn *next_free;
    const char *stmt[BW_DB_STMT_CACHE_PG]; /* slot i holds the statement named "bw<i>"; NULL = free */
};

struct pg_db {
    char *url;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct pg_conn *free_list;
    int open, max;
};

struct db_rows {
    PGresult *res;
    int row, nrows;
};

static PGconn *pg_connect(const char *url)
{
    PGconn *h = PQconnectdb(url);
    if (!h || PQstatus(h) != CONNECTION_OK) {
        bw_logf(BW_LOG_ERROR, NULL, "postgres connect failed: %s",
                h ? PQerrorMessage(h) : "out of memory");
        PQfinish(h);
        return NULL;
    }
    PGresult *r = PQexec(h, "SET client_min_messages TO warning; SET TIME ZONE 'UTC'");
    PQclear(r);
    return h;
}

static int pg_open(struct db *db, const char *url, const char *data_dir, int pool, char *err, size_t n)
{
    (void)data_dir;
    struct pg_db *p = calloc(1, sizeof *p);
    if (!p)
        return -1;
    p->url = strdup(url);
    p->max = pool < 2 ? 2 : (pool > BW_DB_POOL_MAX ? BW_DB_POOL_MAX : pool);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    PGconn *h = pg_connect(url);
    if (!h) {
        snprintf(err, n, "cannot connect to PostgreSQL (see the log line before)");
        free(p->url);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return -1;
    }
    struct pg_conn *c = calloc(1, sizeof *c);
    c->hdr.db = db;
    c->h = h;
    p->free_list = c;
    p->open = 1;
    db->impl = p;
    return 0;
}

static void pg_close(struct db *db)
{
    struct pg_db *p = db->impl;
    struct pg_conn *c = p->free_list;
    while (c) {
        struct pg_conn *nx = c->next_free;
        PQfinish(c->h);
        free(c);
        c = nx;
    }
    free(p->url);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}

static struct db_conn *pg_acquire(struct db *db)
{
    struct pg_db *p = db->impl;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        if (p->free_list) {
            struct pg_conn *c = p->free_list;
            p->free_list = c->next_free;
            pthread_mutex_unlock(&p->mu);
            if (PQstatus(c->h) != CONNECTION_OK) {
                PQreset(c->h);
                memset(c->stmt, 0, sizeof c->stmt); /* a new session has no prepared statements */
                if (PQstatus(c->h) != CONNECTION_OK) {
                    PQfinish(c->h);
                    free(c);
                    pthread_mutex_lock(&p->mu);
                    p->open--;
                    pthread_cond_signal(&p->cv);
                    pthread_mutex_unlock(&p->mu);
                    return NULL;
                }
            }
            return (struct db_conn *)c;
        }
        if (p->open < p->max) {
            p->open++;
            pthread_mutex_unlock(&p->mu);
            PGconn *h = pg_connect(p->url);
            struct pg_conn *c = h ? calloc(1, sizeof *c) : NULL;
            if (!c) {
                PQfinish(h);
                pthread_mutex_lock(&p->mu);
                p->open--;
                pthread_cond_signal(&p->cv);
                pthread_mutex_unlock(&p->mu);
                return NULL;
            }
            c->hdr.db = db;
            c->h = h;
            return (struct db_conn *)c;
        }
        pthread_cond_wait(&p->cv, &p->mu);
    }
}

static void pg_release(struct db_conn *dc)
{
    struct pg_conn *c = (struct pg_conn *)dc;
    struct pg_db *p = c->hdr.db->impl;
    /* a connection left inside a transaction by an error path must not be reused as is */
    if (PQtransactionStatus(c->h) != PQTRANS_IDLE) {
        PGresult *r = PQexec(c->h, "ROLLBACK");
        PQclear(r);
    }
    pthread_mutex_lock(&p->mu);
    c->next_free = p->free_list;
    p->free_list = c;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* "... ? ..." -> "... $1 ..."; question marks inside '...' literals are left alone. */
static char *rewrite(const char *sql)
{
    size_t n = strlen(sql);
    char *out = malloc(n * 4 + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    int k = 0;
    bool quoted = false;
    for (const char *s = sql; *s; s++) {
        if (*s == '\'')
            quoted = !quoted;
        if (*s == '?' && !quoted)
            o += (size_t)sprintf(out + o, "$%d", ++k);
        else
            out[o++] = *s;
    }
    out[o] = '\0';
    return out;
}

/* The cache slot of sql on c: found (*hit), or a free one to prepare into, or -1 (full around it). */
static int stmt_slot(const struct pg_conn *c, const char *sql, bool *hit)
{
    size_t i = ((uintptr_t)sql >> 3) % BW_DB_STMT_CACHE_PG;
    int free_slot = -1;
    for (size_t k = 0; k < 4; k++) {
        size_t j = (i + k) % BW_DB_STMT_CACHE_PG;
        if (c->stmt[j] == sql) {
            *hit = true;
            return (int)j;
        }
        if (!c->stmt[j] && free_slot < 0)
            free_slot = (int)j;
    }
    *hit = false;
    return free_slot;
}

/* Runs sql as a statement prepared once per connection (PQprepare, then PQexecPrepared): the
 * server parses and plans it once, not on every call. The SQL text's address is the key, as in
 * the SQLite backend (db.h: pass string literals). Falls back to a one-off PQexecParams when the
 * cache has no room around the slot or the statement cannot be prepared. */
static PGresult *run(struct pg_conn *c, const char *sql, const struct db_param *p, int np)
{
    const char *vals[BW_DB_PARAMS_MAX];
    char nums[BW_DB_PARAMS_MAX][24];
    if (np > BW_DB_PARAMS_MAX) { /* a statement of ours with more is a bug: refuse, never cut */
        bw_logf(BW_LOG_ERROR, NULL, "postgres: %d parameters, at most %d", np, BW_DB_PARAMS_MAX);
        return NULL;
    }
    for (int i = 0; i < np; i++) {
        if (p[i].t == DB_P_TEXT)
            vals[i] = p[i].s;
        else if (p[i].t == DB_P_INT) {
            snprintf(nums[i], sizeof nums[i], "%lld", (long long)p[i].i);
            vals[i] = nums[i];
        } else
            vals[i] = NULL;
    }
    bool hit = false;
    int slot = stmt_slot(c, sql, &hit);
    char name[16];
    snprintf(name, sizeof name, "bw%d", slot);
    if (hit)
        return PQexecPrepared(c->h, name, np, vals, NULL, NULL, 0);
    char *q = rewrite(sql);
    if (!q)
        return NULL;
    PGresult *r = NULL;
    if (slot >= 0 && PQtransactionStatus(c->h) != PQTRANS_INERROR) {
        PGresult *pr = PQprepare(c->h, name, q, np, NULL);
        if (PQresultStatus(pr) == PGRES_COMMAND_OK) {
            c->stmt[slot] = sql;
            r = PQexecPrepared(c->h, name, np, vals, NULL, NULL, 0);
        }
        PQclear(pr);
    }
    if (!r) /* not prepared: run it once as is (an error is reported by check as usual) */
        r = PQexecParams(c->h, q, np, NULL, vals, NULL, NULL, 0);
    free(q);
    return r;
}

static int check(struct pg_conn *c, PGresult *r)
{
    if (!r)
        return DB_ERROR;
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return DB_OK;
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    if (state && strncmp(state, "23", 2) == 0)
        return DB_CONSTRAINT;
    bw_logf(BW_LOG_ERROR, NULL, "postgres error: %s", PQerrorMessage(c->h));
    return DB_ERROR;
}

static int pg_exec(struct db_conn *dc, const char *sql, const struct db_param *p, int np, int64_t *ch)
{
    struct pg_conn *c = (struct pg_conn *)dc;
    PGresult *r = run(c, sql, p, np);
    int rc = check(c, r);
    if (rc == DB_OK && ch) {
        const char *t = PQcmdTuples(r);
        *ch = (t && *t) ? strtoll(t, NULL, 10) : 0;
    }
    PQclear(r);
    return rc;
}

static int pg_query(struct db_conn *dc, const char *sql, const struct db_param *p, int np,
                    struct db_rows **out)
{
    struct pg_conn *c = (struct pg_conn *)dc;
    PGresult *r = run(c, sql, p, np);
    int rc = check(c, r);
    if (rc != DB_OK) {
        PQclear(r);
        return rc;
    }
    struct db_rows *rows = malloc(sizeof *rows);
    if (!rows) {
        PQclear(r);
        return DB_ERROR;
    }
    rows->res = r;
    rows->row = -1;
    rows->nrows = PQntuples(r);
    *out = rows;
    return DB_OK;
}

/* COPY's text format: a row is its values separated by tabs and ended by a newline, NULL is \N,
 * and a backslash, tab, newline or carriage return inside a value is escaped with a backslash. The
 * rows are sent in pieces of about BW_DB_COPY_CHUNK bytes. */
struct copy_buf {
    PGconn *h;
    char *b;
    size_t n, cap;
    bool failed;
};

static void copy_send(struct copy_buf *cb)
{
    if (!cb->failed && cb->n && PQputCopyData(cb->h, cb->b, (int)cb->n) != 1)
        cb->failed = true;
    cb->n = 0;
}

/* s as it is (numbers, separators, \N) */
static void copy_raw(struct copy_buf *cb, const char *s, size_t len)
{
    for (size_t i = 0; i < len && !cb->failed; i++) {
        if (cb->n + 1 > cb->cap)
            copy_send(cb);
        cb->b[cb->n++] = s[i];
    }
}

/* s escaped */
static void copy_put(struct copy_buf *cb, const char *s, size_t len)
{
    for (size_t i = 0; i < len && !cb->failed; i++) {
        if (cb->n + 2 > cb->cap)
            copy_send(cb);
        char e = s[i] == '\\' ? '\\' : s[i] == '\t' ? 't' : s[i] == '\n' ? 'n' : s[i] == '\r' ? 'r' : 0;
        if (e) {
            cb->b[cb->n++] = '\\';
            cb->b[cb->n++] = e;
        } else {
            cb->b[cb->n++] = s[i];
        }
    }
}

static int pg_copy(struct db_conn *dc, const char *copy, const struct db_param *p, int ncols, int nrows)
{
    struct pg_conn *c = (struct pg_conn *)dc;
    PGresult *r = PQexec(c->h, copy);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        int rc = check(c, r);
        PQclear(r);
        return rc == DB_OK ? DB_ERROR : rc; /* anything but COPY IN is a misuse */
    }
    PQclear(r);
    struct copy_buf cb = {.h = c->h, .b = malloc(BW_DB_COPY_CHUNK), .cap = BW_DB_COPY_CHUNK};
    cb.failed = cb.b == NULL;
    for (int i = 0; i < nrows && !cb.failed; i++)
        for (int k = 0; k < ncols; k++) {
            const struct db_param *v = &p[(size_t)i * (size_t)ncols + (size_t)k];
            char num[24];
            if (v->t == DB_P_INT) {
                int len = snprintf(num, sizeof num, "%lld", (long long)v->i);
                copy_raw(&cb, num, (size_t)len);
            } else if (v->t == DB_P_TEXT && v->s) {
                copy_put(&cb, v->s, strlen(v->s));
            } else {
                copy_raw(&cb, "\\N", 2);
            }
            copy_raw(&cb, k + 1 < ncols ? "\t" : "\n", 1);
        }
    copy_send(&cb);
    free(cb.b);
    /* ending with an error message makes the server fail the COPY (and so the transaction) */
    if (PQputCopyEnd(c->h, cb.failed ? "bulwark: the rows could not be sent" : NULL) != 1) {
        bw_logf(BW_LOG_ERROR, NULL, "postgres error: %s", PQerrorMessage(c->h));
        return DB_ERROR;
    }
    int rc = DB_OK;
    while ((r = PQgetResult(c->h)) != NULL) {
        int st = check(c, r);
        if (rc == DB_OK)
            rc = st;
        PQclear(r);
    }
    return cb.failed && rc == DB_OK ? DB_ERROR : rc;
}

static bool pg_next(struct db_rows *r) { return ++r->row < r->nrows; }

static const char *pg_text(struct db_rows *r, int col)
{
    if (PQgetisnull(r->res, r->row, col))
        return NULL;
    return PQgetvalue(r->res, r->row, col);
}

static bool pg_isnull(struct db_rows *r, int col) { return PQgetisnull(r->res, r->row, col); }

static int64_t pg_int(struct db_rows *r, int col)
{
    const char *t = pg_text(r, col);
    return t ? strtoll(t, NULL, 10) : 0;
}

static void pg_rows_free(struct db_rows *r)
{
    if (!r)
        return;
    PQclear(r->res);
    free(r);
}

static int pg_script(struct db_conn *dc, const char *sql)
{
    struct pg_conn *c = (struct pg_conn *)dc;
    PGresult *r = PQexec(c->h, sql);
    int rc = check(c, r);
    PQclear(r);
    return rc;
}

/* ---- LISTEN: one thread and one connection per listener ------------------------------------------ */

struct pg_listener {
    struct db_listener pub;
    char *url;
    char channel[64];
    db_notify_fn fn;
    void *arg;
    atomic_bool stop;
    pthread_t th;
};

/* Sleeps up to ms, waking early when the listener is stopped. */
static void nap(struct pg_listener *l, int ms)
{
    for (int t = 0; t < ms && !atomic_load(&l->stop); t += BW_DB_LISTEN_POLL_MS)
        poll(NULL, 0, BW_DB_LISTEN_POLL_MS);
}

/* One connection's life: LISTEN, then hand every notification to fn until the connection breaks
 * or the listener stops. */
static void listen_once(struct pg_listener *l)
{
    PGconn *h = pg_connect(l->url);
    if (!h)
        return;
    char *ident = PQescapeIdentifier(h, l->channel, strlen(l->channel));
    char sql[160];
    snprintf(sql, sizeof sql, "LISTEN %s", ident ? ident : "\"\"");
    PQfreemem(ident);
    PGresult *r = PQexec(h, sql);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    if (!ok) {
        bw_logf(BW_LOG_ERROR, NULL, "postgres LISTEN failed: %s", PQerrorMessage(h));
        PQfinish(h);
        return;
    }
    l->fn(l->arg, NULL); /* whatever was sent before this LISTEN is unknown to us */
    while (!atomic_load(&l->stop)) {
        struct pollfd pfd = {.fd = PQsocket(h), .events = POLLIN};
        if (pfd.fd < 0 || poll(&pfd, 1, BW_DB_LISTEN_POLL_MS) < 0 || !PQconsumeInput(h) ||
            PQstatus(h) != CONNECTION_OK)
            break;
        PGnotify *n;
        while ((n = PQnotifies(h))) {
            l->fn(l->arg, n->extra ? n->extra : "");
            PQfreemem(n);
        }
    }
    if (!atomic_load(&l->stop))
        bw_logf(BW_LOG_WARN, NULL, "postgres listener connection lost; reconnecting");
    PQfinish(h);
}

static void *listen_main(void *p)
{
    struct pg_listener *l = p;
    while (!atomic_load(&l->stop)) {
        listen_once(l);
        nap(l, BW_DB_LISTEN_RETRY_MS);
    }
    return NULL;
}

static struct db_listener *pg_listen(struct db *db, const char *channel, db_notify_fn fn, void *arg)
{
    struct pg_db *p = db->impl;
    struct pg_listener *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->pub.be = db->be;
    l->pub.impl = l;
    l->url = strdup(p->url);
    snprintf(l->channel, sizeof l->channel, "%s", channel);
    l->fn = fn;
    l->arg = arg;
    atomic_init(&l->stop, false);
    if (!l->url || pthread_create(&l->th, NULL, listen_main, l) != 0) {
        free(l->url);
        free(l);
        return NULL;
    }
    return &l->pub;
}

static void pg_listen_stop(struct db_listener *pub)
{
    struct pg_listener *l = pub->impl;
    atomic_store(&l->stop, true);
    pthread_join(l->th, NULL);
    free(l->url);
    free(l);
}

const struct db_backend db_pg_backend = {
    .name = "postgres",
    DB_BACKEND_OPS(pg),
    .listen = pg_listen,
    .listen_stop = pg_listen_stop,
    .copy = pg_copy,
    .begin_write = "BEGIN",
};
