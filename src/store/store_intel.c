/* Threat-intelligence records, the feed and saved playbooks (store_intel.h). */
#include "store/store_intel.h"

#include "common/limits.h"
#include "common/timeutil.h"
#include "store/store_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TXT(dst, src) snprintf((dst), sizeof(dst), "%s", (src) ? (src) : "")

/* ---- the generation ------------------------------------------------------------------------------ */

/* This process's intel writes that committed: a watcher re-reads the generation after one without
 * waiting for its own notification to come back. */
static atomic_uint_fast64_t local_writes;

/* The writers' lock row first (a second writer waits here until the first commits), and the
 * other instances told at the commit (PostgreSQL; nothing on SQLite). */
static int bump_generation(struct db_conn *c)
{
    if (store_conn_exec(c, "UPDATE intel_lock SET seq = seq + 1 WHERE id = 1", NULL, 0, NULL) != ST_OK)
        return ST_ERROR;
    return db_conn_notify(c, BW_INTEL_CHANNEL, "") == DB_OK ? ST_OK : ST_ERROR;
}

static int committed(int rc)
{
    if (rc == ST_OK)
        atomic_fetch_add(&local_writes, 1);
    return rc;
}

struct store_intel_gen {
    struct db *db;
    struct db_listener *listener; /* PostgreSQL: the other instances' writes */
    struct db_watch *watch;       /* SQLite: the CLI's writes; neither: every call reads */
    atomic_uint_fast64_t notified;
    pthread_mutex_t mu;
    bool valid;
    int64_t gen, checked_us;
    int64_t ttl_us; /* reused without a notification this long at most */
    uint64_t epoch; /* notified + local_writes when gen was read */
};

static void on_intel_notify(void *arg, const char *payload)
{
    (void)payload; /* NULL (notifications may have been lost) or a write: either way, re-read */
    struct store_intel_gen *g = arg;
    atomic_fetch_add(&g->notified, 1);
}

struct store_intel_gen *store_intel_gen_new(struct db *db, long ttl_ms)
{
    struct store_intel_gen *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->db = db;
    g->ttl_us = (int64_t)ttl_ms * 1000;
    pthread_mutex_init(&g->mu, NULL);
    g->listener = db_listen(db, BW_INTEL_CHANNEL, on_intel_notify, g);
    if (!g->listener && ttl_ms > 0) /* 0: every call reads anyway */
        g->watch = db_watch(db);
    return g;
}

void store_intel_gen_free(struct store_intel_gen *g)
{
    if (!g)
        return;
    db_listen_stop(g->listener); /* first: its callback uses g */
    db_watch_free(g->watch);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

int store_intel_gen_get(struct store_intel_gen *g, int64_t *gen)
{
    if (!g->listener && !g->watch)
        return store_intel_generation(g->db, gen);
    int64_t now = bw_mono_us();
    pthread_mutex_lock(&g->mu);
    /* SQLite: another process's commit is counted like a notification. Polled under the lock, so
     * a caller that finds the queue empty because another caller just drained it also finds that
     * drain counted. */
    if (g->watch && db_watch_poll(g->watch))
        atomic_fetch_add(&g->notified, 1);
    /* the epoch is taken before the read: a notification that arrives during it forces the next
     * call to read again rather than being lost */
    uint64_t epoch = atomic_load(&g->notified) + atomic_load(&local_writes);
    if (g->valid && g->epoch == epoch && now - g->checked_us < g->ttl_us) {
        *gen = g->gen;
        pthread_mutex_unlock(&g->mu);
        return ST_OK;
    }
    pthread_mutex_unlock(&g->mu);
    int64_t v = 0;
    int rc = store_intel_generation(g->db, &v);
    if (rc != ST_OK)
        return rc;
    pthread_mutex_lock(&g->mu);
    /* concurrent readers: the newest read wins, an older one never replaces it */
    if (!g->valid || v > g->gen || (v == g->gen && epoch >= g->epoch)) {
        g->valid = true;
        g->gen = v;
        g->epoch = epoch;
        g->checked_us = now;
    }
    pthread_mutex_unlock(&g->mu);
    *gen = v;
    return ST_OK;
}

/* ---- writing ----------------------------------------------------------------------------------- */

/* New rows wait in the transaction until BW_INTEL_INSERT_ROWS of them (or a read that could see them, or the
 * end of the body) and go in as multi-row INSERTs: an import of n new records costs about n / 32
 * round trips to PostgreSQL instead of 3n. On PostgreSQL they go in by COPY instead (db_copy), up
 * to BW_INTEL_COPY_ROWS rows or BW_INTEL_COPY_BYTES at a time: one COPY streams the rows without
 * a statement per 32 of them. Either way in the write's transaction, so an import stays all or
 * nothing. The counters move in memory and are written once at the end. */
#define NCOLS 16

struct count_delta {
    char type[32], sev[16];
    int64_t n;
};

struct store_intel_tx {
    struct db_conn *c;
    bool copy;               /* PostgreSQL: the waiting rows go in by COPY */
    char *(*rows)[NCOLS];    /* cap rows, each value a malloc'ed copy; ids in column 15 */
    int64_t (*nums)[6];      /* enriched_us, version, risk_score, kev, epss, changed_us */
    int npending, cap;
    size_t bytes;            /* of the waiting rows' text */
    struct count_delta deltas[32];
    int ndeltas;
};

struct intel_write {
    store_intel_fn body;
    void *arg;
};

static void pending_free(struct store_intel_tx *tx)
{
    for (int i = 0; i < tx->npending; i++)
        for (int k = 0; k < NCOLS; k++)
            free(tx->rows[i][k]);
    tx->npending = 0;
    tx->bytes = 0;
}

/* The columns in INSERT order, then id; placeholders typed as in the single-row statement. */
#define ROW1 "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
#define ROW2 ROW1 ", " ROW1
#define ROW4 ROW2 ", " ROW2
#define ROW8 ROW4 ", " ROW4
#define ROW16 ROW8 ", " ROW8
#define ROW32 ROW16 ", " ROW16
#define INSERT_ROWS(rows)                                                                                      \
    "INSERT INTO intel_records (type, title, severity, published, updated, enriched_at, enriched_us, version," \
    " risk_score, kev, epss, changed_us, source, doc, entry, id) VALUES " rows
static const char *const insert_sql[6] = {INSERT_ROWS(ROW1),  INSERT_ROWS(ROW2),  INSERT_ROWS(ROW4),
                                          INSERT_ROWS(ROW8), INSERT_ROWS(ROW16), INSERT_ROWS(ROW32)};
static const char COPY_SQL[] = "COPY intel_records (type, title, severity, published, updated, enriched_at, enriched_us,"
                               " version, risk_score, kev, epss, changed_us, source, doc, entry, id) FROM STDIN";
_Static_assert(BW_INTEL_INSERT_ROWS == 32, "insert_sql goes up to 32 rows");

/* text columns of a row in statement order: type, title, severity, published, updated,
 * enriched_at, then (numbers: enriched_us, version, risk_score, kev, epss, changed_us), source, doc,
 * entry, id */
static void row_params(struct store_intel_tx *tx, int i, struct db_param *p)
{
    char **r = tx->rows[i];
    int64_t *n = tx->nums[i];
    struct db_param one[NCOLS] = {DBP_TEXT(r[0]), DBP_TEXT(r[1]), DBP_TEXT(r[2]), DBP_TEXT(r[3]),  DBP_TEXT(r[4]),
                                  DBP_TEXT(r[5]), DBP_INT(n[0]),  DBP_INT(n[1]),  DBP_INT(n[2]),   DBP_INT(n[3]),
                                  DBP_INT(n[4]),  DBP_INT(n[5]),  DBP_TEXT(r[12]), DBP_TEXT(r[13]), DBP_TEXT(r[14]),
                                  DBP_TEXT(r[15])};
    memcpy(p, one, sizeof one);
}

/* The waiting rows in one COPY. */
static int copy_rows(struct store_intel_tx *tx)
{
    struct db_param *q = malloc((size_t)tx->npending * NCOLS * sizeof *q);
    int rc = ST_ERROR;
    if (q) {
        for (int i = 0; i < tx->npending; i++)
            row_params(tx, i, q + (size_t)i * NCOLS);
        int d = db_copy(tx->c, COPY_SQL, q, NCOLS, tx->npending);
        rc = d == DB_OK ? ST_OK : d == DB_CONSTRAINT ? ST_CONFLICT : ST_ERROR;
        free(q);
    }
    pending_free(tx);
    return rc;
}

/* Writes the pending rows: by COPY, or the largest power-of-two statements first (32, 16 ... 1). */
static int flush_rows(struct store_intel_tx *tx)
{
    if (tx->copy && tx->npending)
        return copy_rows(tx);
    int at = 0, rc = ST_OK;
    while (rc == ST_OK && at < tx->npending) {
        int k = 5;
        while ((1 << k) > tx->npending - at)
            k--;
        struct db_param q[BW_INTEL_INSERT_ROWS * NCOLS];
        for (int i = 0; i < (1 << k); i++)
            row_params(tx, at + i, q + i * NCOLS);
        rc = store_conn_exec(tx->c, insert_sql[k], q, (1 << k) * NCOLS, NULL);
        at += 1 << k;
    }
    pending_free(tx);
    return rc;
}

static int count_add(struct db_conn *c, const char *type, const char *sev, int64_t delta)
{
    struct db_param p[] = {DBP_TEXT(type), DBP_TEXT(sev), DBP_INT(delta)};
    return store_conn_exec(c,
                           "INSERT INTO intel_counts (type, severity, n) VALUES (?, ?, ?) "
                           "ON CONFLICT (type, severity) DO UPDATE SET n = intel_counts.n + excluded.n",
                           p, 3, NULL) == ST_OK
               ? ST_OK
               : ST_ERROR;
}

/* Moves a counter in memory (written by flush_counts); straight to the table when the 32 slots
 * are taken, which 4 types x 4 severities never do. */
static int count_move(struct store_intel_tx *tx, const char *type, const char *sev, int64_t delta)
{
    for (int i = 0; i < tx->ndeltas; i++)
        if (strcmp(tx->deltas[i].type, type) == 0 && strcmp(tx->deltas[i].sev, sev) == 0) {
            tx->deltas[i].n += delta;
            return ST_OK;
        }
    if (tx->ndeltas == (int)(sizeof tx->deltas / sizeof tx->deltas[0]) || strlen(type) >= 32 || strlen(sev) >= 16)
        return count_add(tx->c, type, sev, delta);
    struct count_delta *d = &tx->deltas[tx->ndeltas++];
    snprintf(d->type, sizeof d->type, "%s", type);
    snprintf(d->sev, sizeof d->sev, "%s", sev);
    d->n = delta;
    return ST_OK;
}

static int flush_counts(struct store_intel_tx *tx)
{
    int rc = ST_OK;
    for (int i = 0; rc == ST_OK && i < tx->ndeltas; i++)
        if (tx->deltas[i].n)
            rc = count_add(tx->c, tx->deltas[i].type, tx->deltas[i].sev, tx->deltas[i].n);
    tx->ndeltas = 0;
    return rc;
}

static int flush(struct store_intel_tx *tx)
{
    int rc = flush_rows(tx);
    return rc == ST_OK ? flush_counts(tx) : rc;
}

static int intel_write_tx(struct db_conn *c, void *arg)
{
    const struct intel_write *w = arg;
    if (bump_generation(c) != ST_OK)
        return ST_ERROR;
    struct store_intel_tx *tx = calloc(1, sizeof *tx);
    if (!tx)
        return ST_ERROR;
    tx->c = c;
    tx->copy = db_has_copy(db_of(c));
    tx->cap = tx->copy ? BW_INTEL_COPY_ROWS : BW_INTEL_INSERT_ROWS;
    tx->rows = calloc((size_t)tx->cap, sizeof *tx->rows);
    tx->nums = calloc((size_t)tx->cap, sizeof *tx->nums);
    int rc = ST_ERROR;
    if (tx->rows && tx->nums) {
        rc = w->body(tx, w->arg);
        if (rc == ST_OK)
            rc = flush(tx);
        pending_free(tx);
    }
    free(tx->rows);
    free(tx->nums);
    free(tx);
    return rc;
}

int store_intel_write(struct db *db, store_intel_fn body, void *arg)
{
    return committed(store_tx(db, intel_write_tx, &(struct intel_write){body, arg}));
}

int store_intel_tx_get(struct store_intel_tx *tx, const char *id, char **doc)
{
    *doc = NULL;
    /* a row still waiting to be inserted is flushed first, so the read sees it */
    for (int i = 0; i < tx->npending; i++)
        if (strcmp(tx->rows[i][15], id) == 0) {
            if (flush_rows(tx) != ST_OK)
                return ST_ERROR;
            break;
        }
    struct db_param p[] = {DBP_TEXT(id)};
    return store_conn_one(tx->c, "SELECT doc FROM intel_records WHERE id = ?", p, 1, store_row_text, doc);
}

/* Keeps a copy of a new row for the next multi-row INSERT. */
static int pend(struct store_intel_tx *tx, const struct store_intel_row *w)
{
    if ((tx->npending == tx->cap || tx->bytes >= BW_INTEL_COPY_BYTES) && flush_rows(tx) != ST_OK)
        return ST_ERROR;
    const char *t[NCOLS] = {w->type, w->title, w->severity, w->published, w->updated, w->enriched_at,
                            NULL,    NULL,     NULL,        NULL,         NULL,       NULL,
                            w->source, w->doc, w->entry,    w->id};
    char **r = tx->rows[tx->npending];
    for (int k = 0; k < NCOLS; k++) {
        r[k] = t[k] ? strdup(t[k]) : NULL;
        if (t[k] && !r[k]) {
            for (int j = 0; j < k; j++)
                free(r[j]);
            return ST_ERROR;
        }
        tx->bytes += t[k] ? strlen(t[k]) : 0;
    }
    int64_t *n = tx->nums[tx->npending];
    n[0] = w->enriched_us;
    n[1] = w->version;
    n[2] = w->risk_score;
    n[3] = w->kev ? 1 : 0;
    n[4] = w->epss;
    n[5] = w->changed_us;
    tx->npending++;
    return ST_OK;
}

int store_intel_tx_put(struct store_intel_tx *tx, const struct store_intel_row *w, const char *old_type,
                       const char *old_sev)
{
    if (!old_type) {
        if (pend(tx, w) != ST_OK)
            return ST_ERROR;
        return count_move(tx, w->type, w->severity, 1);
    }
    struct db_param p[] = {DBP_TEXT(w->type),         DBP_TEXT(w->title),       DBP_TEXT(w->severity),
                           DBP_TEXT(w->published),    DBP_TEXT(w->updated),     DBP_TEXT(w->enriched_at),
                           DBP_INT(w->enriched_us),   DBP_INT(w->version),      DBP_INT(w->risk_score),
                           DBP_INT(w->kev ? 1 : 0),   DBP_INT(w->epss),         DBP_INT(w->changed_us),
                           DBP_TEXT(w->source),       DBP_TEXT(w->doc),         DBP_TEXT(w->entry),
                           DBP_TEXT(w->id)};
    int64_t ch = 0;
    if (store_conn_exec(tx->c,
                        "UPDATE intel_records SET type = ?, title = ?, severity = ?, published = ?, updated = ?, "
                        "enriched_at = ?, enriched_us = ?, version = ?, risk_score = ?, kev = ?, epss = ?, changed_us = ?, "
                        "source = ?, doc = ?, entry = ? WHERE id = ?",
                        p, 16, &ch) != ST_OK)
        return ST_ERROR;
    if (ch == 0)
        return ST_NOTFOUND;
    if (strcmp(old_type, w->type) == 0 && strcmp(old_sev, w->severity) == 0)
        return ST_OK;
    if (count_move(tx, old_type, old_sev, -1) != ST_OK)
        return ST_ERROR;
    return count_move(tx, w->type, w->severity, 1);
}

struct id_each {
    store_intel_id_fn fn;
    void *arg;
};

static int id_row(struct db_rows *r, void *arg)
{
    const struct id_each *e = arg;
    const char *id = db_rows_text(r, 0);
    return id && e->fn(id, e->arg) != 0 ? ST_ERROR : ST_OK;
}

int store_intel_tx_cves(struct store_intel_tx *tx, store_intel_id_fn fn, void *arg)
{
    if (flush_rows(tx) != ST_OK) /* rows still waiting are records too */
        return ST_ERROR;
    struct id_each e = {fn, arg};
    /* a range of the primary key: "CVE." is the first text after every "CVE-..." */
    return store_conn_each(tx->c, "SELECT id FROM intel_records WHERE id >= 'CVE-' AND id < 'CVE.' ORDER BY id", NULL,
                           0, id_row, &e);
}

/* One array, so both counts share the statement (prepared per connection by its address). */
static const char COUNT_SQL[] = "SELECT COALESCE(SUM(n), 0) FROM intel_counts";

int store_intel_tx_count(struct store_intel_tx *tx, int64_t *n)
{
    if (flush(tx) != ST_OK) /* the counters in memory first */
        return ST_ERROR;
    return store_conn_int(tx->c, COUNT_SQL, NULL, 0, n);
}

/* ---- reading ----------------------------------------------------------------------------------- */

struct doc_out {
    char **doc;
    int64_t *version;
};

static int read_doc(struct db_rows *r, void *arg)
{
    struct doc_out *o = arg;
    *o->version = db_rows_int(r, 1);
    return store_row_text(r, o->doc);
}

int store_intel_get(struct db *db, const char *id, char **doc, int64_t *version)
{
    *doc = NULL;
    struct db_param p[] = {DBP_TEXT(id)};
    return store_query_one(db, "SELECT doc, version FROM intel_records WHERE id = ?", p, 1, read_doc,
                           &(struct doc_out){doc, version});
}

int store_intel_generation(struct db *db, int64_t *gen)
{
    return store_query_one(db, "SELECT seq FROM intel_lock WHERE id = 1", NULL, 0, store_row_int, gen);
}

int store_intel_count(struct db *db, int64_t *n) { return store_query_int(db, COUNT_SQL, NULL, 0, n); }

/* The feed's statements: one text per order, filter combination and paging, generated once (the
 * statement caches are keyed by the text's address, so each must live as long as the process).
 * Every order is answered by an index ending in (key, id) (migrations 0004 and 0025): published
 * by type, severity, both or none; risk and epss alone or by type. Filters an order's index does
 * not lead with (severity for risk/epss, epss_min and since for every order but epss_min for
 * sort=epss, which is the index's own range) are checked along it. The totals ride along as
 * scalar subqueries, so a page is one round trip: from intel_counts when only type and severity
 * filter, else a count of the matching rows. */
enum { F_TYPE = 1, F_SEV = 2, F_EPSS = 4, F_SINCE = 8, NFILTERS = 16 };
#define NSORTS 3
static const char *const sort_key[NSORTS] = {"published", "risk_score", "epss"};

struct feed_sql {
    char *page[NSORTS][NFILTERS][2]; /* [sort][filters][keyset] */
    char *total[NFILTERS];
    char *plan[2][NSORTS][NFILTERS][2]; /* [postgres] ... */
    bool ok;
};
static struct feed_sql feed_sql;
static pthread_once_t feed_once = PTHREAD_ONCE_INIT;

/* " WHERE a = ? AND b >= ?" for the filters in f ("" when none) */
static void where(struct bw_sb *b, int f, const char *extra)
{
    const char *sep = " WHERE ";
    static const char *const conds[4] = {"type = ?", "severity = ?", "epss >= ?", "changed_us > ?"};
    for (int k = 0; k < 4; k++)
        if (f & (1 << k)) {
            bw_sb_puts(b, sep);
            bw_sb_puts(b, conds[k]);
            sep = " AND ";
        }
    if (extra) {
        bw_sb_puts(b, sep);
        bw_sb_puts(b, extra);
    }
}

static void totals(struct bw_sb *b, int f)
{
    if (f & (F_EPSS | F_SINCE)) {
        bw_sb_puts(b, "(SELECT COUNT(*) FROM intel_records");
        where(b, f, NULL);
    } else {
        bw_sb_puts(b, "(SELECT COALESCE(SUM(n), 0) FROM intel_counts");
        where(b, f, NULL);
    }
    bw_sb_puts(b, "), (SELECT MAX(changed_us) FROM intel_records)");
}

static char *page_text(const char *prefix, int sort, int f, bool keyset)
{
    struct bw_sb b = {0};
    char after[96];
    snprintf(after, sizeof after, "(%s, id) < (?, ?)", sort_key[sort]);
    bw_sb_puts(&b, prefix);
    bw_sb_printf(&b, "SELECT entry, %s, id, ", sort_key[sort]);
    totals(&b, f);
    bw_sb_puts(&b, " FROM intel_records");
    where(&b, f, keyset ? after : NULL);
    bw_sb_printf(&b, " ORDER BY %s DESC, id DESC %s", sort_key[sort], keyset ? "LIMIT ?" : "LIMIT ? OFFSET ?");
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

static void feed_sql_build(void)
{
    bool ok = true;
    for (int f = 0; f < NFILTERS; f++) {
        struct bw_sb b = {0};
        bw_sb_puts(&b, "SELECT ");
        totals(&b, f);
        ok = ok && !b.oom;
        feed_sql.total[f] = b.p;
        for (int s = 0; s < NSORTS; s++)
            for (int k = 0; k < 2; k++) {
                ok = ok && (feed_sql.page[s][f][k] = page_text("", s, f, k)) &&
                     (feed_sql.plan[0][s][f][k] = page_text("EXPLAIN QUERY PLAN ", s, f, k)) &&
                     (feed_sql.plan[1][s][f][k] = page_text("EXPLAIN ", s, f, k));
            }
    }
    feed_sql.ok = ok; /* kept for the process's life: the statement caches point into them */
}

/* The filter values (for the totals, then for the rows), then the page's; returns the count. nf:
 * the number of filter values. */
static int feed_params(const struct store_feed_query *q, const struct store_page *pg, struct db_param *p, int *which,
                       int *nf)
{
    int n = 0;
    *which = (q->type ? F_TYPE : 0) | (q->severity ? F_SEV : 0) | (q->epss_min >= 0 ? F_EPSS : 0) |
             (q->since_us >= 0 ? F_SINCE : 0);
    for (int twice = 0; twice < 2; twice++) {
        if (q->type)
            p[n++] = DBP_TEXT(q->type);
        if (q->severity)
            p[n++] = DBP_TEXT(q->severity);
        if (q->epss_min >= 0)
            p[n++] = DBP_INT(q->epss_min);
        if (q->since_us >= 0)
            p[n++] = DBP_INT(q->since_us);
    }
    *nf = n / 2;
    return store_page_params(pg, q->sort == STORE_FEED_PUBLISHED, p, n);
}

struct feed_total {
    int64_t *total, *updated_us;
};

/* columns 0.. of the totals statement, 3.. of a page's */
static int read_totals_at(struct db_rows *r, int col, struct feed_total *t)
{
    *t->total = db_rows_int(r, col);
    *t->updated_us = db_rows_int(r, col + 1);
    return ST_OK;
}

static int read_total(struct db_rows *r, void *arg) { return read_totals_at(r, 0, arg); }

struct page {
    struct bw_sb *out;
    bool first;
    struct feed_total t;
};

/* Appends an entry to the page, after a comma unless it is the first. */
static int add_entry(struct db_rows *r, void *arg)
{
    struct page *pg = arg;
    if (pg->first)
        read_totals_at(r, 3, &pg->t);
    const char *e = db_rows_text(r, 0);
    if (!e)
        return ST_OK;
    if (!pg->first)
        bw_sb_putc(pg->out, ',');
    bw_sb_puts(pg->out, e);
    pg->first = false;
    return pg->out->oom ? ST_ERROR : ST_OK;
}

int store_intel_feed(struct db *db, const struct store_feed_query *q, struct store_page *pg, struct bw_sb *out,
                     int64_t *total, int64_t *updated_us)
{
    *total = 0;
    *updated_us = 0;
    pthread_once(&feed_once, feed_sql_build);
    if (!feed_sql.ok || q->sort < 0 || q->sort >= NSORTS)
        return ST_ERROR;
    struct db_param p[16];
    int which, nf, np = feed_params(q, pg, p, &which, &nf);
    static const struct store_page_cols text_cols = {.key = 1, .id = 2, .total = -1, .text_key = true};
    static const struct store_page_cols int_cols = {.key = 1, .id = 2, .total = -1, .text_key = false};
    struct page st = {out, true, {total, updated_us}};
    int rc = store_query_page(db, feed_sql.page[q->sort][which][pg->after_id ? 1 : 0], p, np, pg,
                              q->sort == STORE_FEED_PUBLISHED ? &text_cols : &int_cols, NULL, add_entry, &st);
    /* an empty page (past the end) carries no totals: the second round trip only then */
    if (rc == ST_OK && st.first) {
        rc = store_query_one(db, feed_sql.total[which], p, nf, read_total, &st.t);
        rc = rc == ST_NOTFOUND ? ST_ERROR : rc;
    }
    return rc;
}

int store_intel_feed_plan(struct db *db, const struct store_feed_query *q, bool keyset, char *out, size_t cap)
{
    pthread_once(&feed_once, feed_sql_build);
    if (!feed_sql.ok || q->sort < 0 || q->sort >= NSORTS)
        return ST_ERROR;
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    struct store_page page = {.limit = 20, .after_id = keyset ? "CVE-2024-0001" : NULL,
                              .after_text = "2024-01-01T00:00:00Z", .after_int = 50};
    struct db_param p[16];
    int which, nf, np = feed_params(q, &page, p, &which, &nf);
    return store_plan(db, feed_sql.plan[pg][q->sort][which][keyset ? 1 : 0], p, np, out, cap);
}

/* ---- the sync's state ----------------------------------------------------------------------------- */

static int read_sync(struct db_rows *r, void *arg)
{
    struct store_sync_state *s = arg;
    TXT(s->url, db_rows_text(r, 0));
    TXT(s->etag, db_rows_text(r, 1));
    TXT(s->last_modified, db_rows_text(r, 2));
    TXT(s->checked_at, db_rows_text(r, 3));
    TXT(s->imported_at, db_rows_text(r, 4));
    TXT(s->status, db_rows_text(r, 5));
    TXT(s->error, db_rows_text(r, 6));
    return ST_OK;
}

int store_intel_sync_get(struct db *db, const char *source, struct store_sync_state *out)
{
    memset(out, 0, sizeof *out);
    TXT(out->source, source);
    struct db_param p[] = {DBP_TEXT(source)};
    return store_query_one(db,
                           "SELECT url, etag, last_modified, checked_at, imported_at, status, error "
                           "FROM intel_sync_state WHERE source = ?",
                           p, 1, read_sync, out);
}

struct sync_each {
    store_intel_sync_fn fn;
    void *arg;
};

static int read_sync_row(struct db_rows *r, void *arg)
{
    const struct sync_each *e = arg;
    struct store_sync_state s;
    memset(&s, 0, sizeof s);
    TXT(s.source, db_rows_text(r, 7));
    (void)read_sync(r, &s);
    return e->fn(&s, e->arg);
}

int store_intel_sync_each(struct db *db, store_intel_sync_fn fn, void *arg)
{
    struct sync_each e = {fn, arg};
    return store_query_each(db,
                            "SELECT url, etag, last_modified, checked_at, imported_at, status, error, source "
                            "FROM intel_sync_state ORDER BY source",
                            NULL, 0, read_sync_row, &e);
}

static int sync_put_tx(struct db_conn *c, void *arg)
{
    const struct store_sync_state *s = arg;
    struct db_param p[] = {DBP_TEXT(s->source),     DBP_TEXT(s->url),         DBP_TEXT(s->etag),
                           DBP_TEXT(s->last_modified), DBP_TEXT(s->checked_at), DBP_TEXT(s->imported_at),
                           DBP_TEXT(s->status),     DBP_TEXT(s->error)};
    /* the feed shows the sync state: a new generation, as for any intel write */
    if (bump_generation(c) != ST_OK)
        return ST_ERROR;
    return store_conn_exec(c,
                           "INSERT INTO intel_sync_state (source, url, etag, last_modified, checked_at, imported_at, "
                           "status, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET "
                           "url = excluded.url, etag = excluded.etag, last_modified = excluded.last_modified, "
                           "checked_at = excluded.checked_at, imported_at = excluded.imported_at, "
                           "status = excluded.status, error = excluded.error",
                           p, 8, NULL);
}

int store_intel_sync_put(struct db *db, const struct store_sync_state *s)
{
    return committed(store_tx(db, sync_put_tx, (void *)s));
}

/* ---- in change order (STIX, TAXII) ------------------------------------------------------------ */

#define CHANGED_SQL "SELECT id, doc, changed_us FROM intel_records WHERE "
#define CHANGED_ORDER " ORDER BY changed_us, id LIMIT ?"
static const char CHANGED_AFTER[] = CHANGED_SQL "changed_us > ?" CHANGED_ORDER;
static const char CHANGED_FROM[] = CHANGED_SQL "(changed_us, id) >= (?, ?)" CHANGED_ORDER;
static const char *const changed_plan[2][2] = {
    {"EXPLAIN QUERY PLAN " CHANGED_SQL "changed_us > ?" CHANGED_ORDER,
     "EXPLAIN QUERY PLAN " CHANGED_SQL "(changed_us, id) >= (?, ?)" CHANGED_ORDER},
    {"EXPLAIN " CHANGED_SQL "changed_us > ?" CHANGED_ORDER, "EXPLAIN " CHANGED_SQL "(changed_us, id) >= (?, ?)" CHANGED_ORDER}};

struct changed {
    store_intel_changed_fn fn;
    void *arg;
    long limit, seen;
    bool *more;
};

static int read_changed(struct db_rows *r, void *arg)
{
    struct changed *c = arg;
    if (++c->seen > c->limit) { /* the row past the page: only says that more follow */
        *c->more = true;
        return ST_OK;
    }
    const char *id = db_rows_text(r, 0), *doc = db_rows_text(r, 1);
    return c->fn(id ? id : "", doc ? doc : "", db_rows_int(r, 2), c->arg);
}

int store_intel_changed(struct db *db, int64_t from_us, const char *from_id, long limit, store_intel_changed_fn fn,
                        void *arg, bool *more)
{
    *more = false;
    struct db_param p[3];
    int np = 0;
    p[np++] = DBP_INT(from_us);
    if (from_id)
        p[np++] = DBP_TEXT(from_id);
    p[np++] = DBP_INT(limit + 1);
    struct changed c = {fn, arg, limit, 0, more};
    return store_query_each(db, from_id ? CHANGED_FROM : CHANGED_AFTER, p, np, read_changed, &c);
}

int store_intel_changed_plan(struct db *db, bool from_record, char *out, size_t cap)
{
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    struct db_param p[3] = {DBP_INT(0), DBP_TEXT("CVE-2024-0001"), DBP_INT(21)};
    if (!from_record)
        p[1] = DBP_INT(21);
    return store_plan(db, changed_plan[pg][from_record], p, from_record ? 3 : 2, out, cap);
}

/* ---- playbooks --------------------------------------------------------------------------------- */

int store_playbook_insert(struct db *db, const struct store_playbook *pb, const char *text)
{
    struct db_param p[] = {DBP_TEXT(pb->id),        DBP_TEXT(pb->user_id),      DBP_TEXT(pb->threat_id),
                           DBP_INT(pb->record_version), DBP_TEXT(pb->risk_tier), DBP_TEXT(text),
                           DBP_TEXT(pb->generated_at), DBP_INT(pb->generated_us)};
    return store_exec(db,
                      "INSERT INTO playbooks (id, user_id, threat_id, record_version, risk_tier, playbook, "
                      "generated_at, generated_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      p, 8, NULL);
}

/* columns: id, threat_id, record_version, risk_tier, generated_at, generated_us, r.version. The
 * caller fills user_id: its queries are per user. */
static int read_playbook(struct db_rows *r, void *item)
{
    struct store_playbook *pb = item;
    memset(pb, 0, sizeof *pb);
    TXT(pb->id, db_rows_text(r, 0));
    TXT(pb->threat_id, db_rows_text(r, 1));
    pb->record_version = db_rows_int(r, 2);
    TXT(pb->risk_tier, db_rows_text(r, 3));
    TXT(pb->generated_at, db_rows_text(r, 4));
    pb->generated_us = db_rows_int(r, 5);
    pb->current_version = db_rows_int(r, 6);
    return ST_OK;
}

#define PB_COLS "p.id, p.threat_id, p.record_version, p.risk_tier, p.generated_at, p.generated_us, r.version"

struct latest_out {
    struct store_playbook *pb;
    char **text;
};

static int read_latest(struct db_rows *r, void *arg)
{
    struct latest_out *o = arg;
    read_playbook(r, o->pb);
    const char *t = db_rows_text(r, 7);
    *o->text = t ? strdup(t) : NULL;
    return *o->text ? ST_OK : ST_ERROR;
}

int store_playbook_latest(struct db *db, const char *user_id, const char *threat_id, struct store_playbook *out,
                          char **text)
{
    *text = NULL;
    struct db_param p[] = {DBP_TEXT(user_id), DBP_TEXT(threat_id)};
    int rc = store_query_one(db,
                             "SELECT " PB_COLS ", p.playbook FROM playbooks p JOIN intel_records r "
                             "ON r.id = p.threat_id WHERE p.user_id = ? AND p.threat_id = ? "
                             "ORDER BY p.generated_us DESC, p.id DESC LIMIT 1",
                             p, 2, read_latest, &(struct latest_out){out, text});
    if (rc == ST_OK)
        TXT(out->user_id, user_id);
    return rc;
}

/* The history: a page on playbooks_page (migration 0013: user_id, generated_us, id) with the
 * caller's count as a scalar subquery (one round trip; a second only for an empty page). */
#define HIST(after, tail)                                                                                      \
    "SELECT " PB_COLS ", (SELECT COUNT(*) FROM playbooks WHERE user_id = ?) FROM playbooks p JOIN intel_records r " \
    "ON r.id = p.threat_id WHERE p.user_id = ?" after " ORDER BY p.generated_us DESC, p.id DESC" tail
static const char *const hist_sql[2] = {HIST("", " LIMIT ? OFFSET ?"),
                                        HIST(" AND " STORE_AFTER("p.generated_us", "p.id"), " LIMIT ?")};
static const char *const hist_plan[2][2] = {
    {"EXPLAIN QUERY PLAN " HIST("", " LIMIT ? OFFSET ?"),
     "EXPLAIN QUERY PLAN " HIST(" AND " STORE_AFTER("p.generated_us", "p.id"), " LIMIT ?")},
    {"EXPLAIN " HIST("", " LIMIT ? OFFSET ?"), "EXPLAIN " HIST(" AND " STORE_AFTER("p.generated_us", "p.id"), " LIMIT ?")}};
static const char HIST_COUNT[] = "SELECT COUNT(*) FROM playbooks WHERE user_id = ?";

static int hist_params(const char *user_id, const struct store_page *pg, struct db_param *p)
{
    p[0] = DBP_TEXT(user_id);
    p[1] = DBP_TEXT(user_id);
    return store_page_params(pg, false, p, 2);
}

int store_playbook_history(struct db *db, const char *user_id, struct store_page *pg, struct store_playbook **out,
                           size_t *n, int64_t *total)
{
    static const struct store_page_cols cols = {.key = 5, .id = 0, .total = 7};
    struct db_param p[6];
    int np = hist_params(user_id, pg, p);
    void *items = NULL;
    int rc = store_query_page_list(db, hist_sql[pg->after_id ? 1 : 0], p, np, pg, &cols, HIST_COUNT, 1, total,
                                   sizeof **out, read_playbook, &items, n);
    *out = items;
    for (size_t i = 0; i < *n; i++)
        TXT((*out)[i].user_id, user_id);
    return rc;
}

int store_playbook_history_plan(struct db *db, bool keyset, char *out, size_t cap)
{
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    struct store_page page = {.limit = 20, .after_id = keyset ? "pbk_x" : NULL, .after_int = 1};
    struct db_param p[6];
    int np = hist_params("usr_x", &page, p);
    return store_plan(db, hist_plan[pg][keyset], p, np, out, cap);
}
