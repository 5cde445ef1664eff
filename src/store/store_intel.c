/* Threat-intelligence records, the feed and saved playbooks (store_intel.h). */
#include "store/store_intel.h"

#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TXT(dst, src) snprintf((dst), sizeof(dst), "%s", (src) ? (src) : "")

/* ---- writing ----------------------------------------------------------------------------------- */

/* New rows wait in the transaction until PENDING_MAX of them (or a read that could see them, or the
 * end of the body) and go in as multi-row INSERTs: an import of n new records costs about n / 32
 * round trips to PostgreSQL instead of 3n. The counters move in memory and are written once at
 * the end. */
#define PENDING_MAX 32
#define NCOLS 14

struct count_delta {
    char type[32], sev[16];
    int64_t n;
};

struct store_intel_tx {
    struct db_conn *c;
    char *rows[PENDING_MAX][NCOLS]; /* each a malloc'ed copy; ids in column 13 */
    int64_t nums[PENDING_MAX][4];   /* enriched_us, version, risk_score, kev */
    int npending;
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
}

/* The columns in INSERT order, then id; placeholders typed as in the single-row statement. */
#define ROW1 "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
#define ROW2 ROW1 ", " ROW1
#define ROW4 ROW2 ", " ROW2
#define ROW8 ROW4 ", " ROW4
#define ROW16 ROW8 ", " ROW8
#define ROW32 ROW16 ", " ROW16
#define INSERT_ROWS(rows)                                                                                      \
    "INSERT INTO intel_records (type, title, severity, published, updated, enriched_at, enriched_us, version," \
    " risk_score, kev, source, doc, entry, id) VALUES " rows
static const char *const insert_sql[6] = {INSERT_ROWS(ROW1),  INSERT_ROWS(ROW2),  INSERT_ROWS(ROW4),
                                          INSERT_ROWS(ROW8), INSERT_ROWS(ROW16), INSERT_ROWS(ROW32)};
_Static_assert(PENDING_MAX == 32, "insert_sql goes up to 32 rows");

/* text columns of a row in statement order: type, title, severity, published, updated,
 * enriched_at, then (numbers), source, doc, entry, id */
static void row_params(struct store_intel_tx *tx, int i, struct db_param *p)
{
    char **r = tx->rows[i];
    int64_t *n = tx->nums[i];
    struct db_param one[NCOLS] = {DBP_TEXT(r[0]), DBP_TEXT(r[1]), DBP_TEXT(r[2]), DBP_TEXT(r[3]),  DBP_TEXT(r[4]),
                                  DBP_TEXT(r[5]), DBP_INT(n[0]),  DBP_INT(n[1]),  DBP_INT(n[2]),   DBP_INT(n[3]),
                                  DBP_TEXT(r[10]), DBP_TEXT(r[11]), DBP_TEXT(r[12]), DBP_TEXT(r[13])};
    memcpy(p, one, sizeof one);
}

/* Writes the pending rows: the largest power-of-two statements first (32, 16 ... 1). */
static int flush_rows(struct store_intel_tx *tx)
{
    int at = 0, rc = ST_OK;
    while (rc == ST_OK && at < tx->npending) {
        int k = 5;
        while ((1 << k) > tx->npending - at)
            k--;
        struct db_param q[PENDING_MAX * NCOLS];
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
    /* the lock row first: a second writer waits here until the first commits */
    if (store_conn_exec(c, "UPDATE intel_lock SET seq = seq + 1 WHERE id = 1", NULL, 0, NULL) != ST_OK)
        return ST_ERROR;
    struct store_intel_tx *tx = calloc(1, sizeof *tx);
    if (!tx)
        return ST_ERROR;
    tx->c = c;
    int rc = w->body(tx, w->arg);
    if (rc == ST_OK)
        rc = flush(tx);
    pending_free(tx);
    free(tx);
    return rc;
}

int store_intel_write(struct db *db, store_intel_fn body, void *arg)
{
    return store_tx(db, intel_write_tx, &(struct intel_write){body, arg});
}

int store_intel_tx_get(struct store_intel_tx *tx, const char *id, char **doc)
{
    *doc = NULL;
    /* a row still waiting to be inserted is flushed first, so the read sees it */
    for (int i = 0; i < tx->npending; i++)
        if (strcmp(tx->rows[i][13], id) == 0) {
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
    if (tx->npending == PENDING_MAX && flush_rows(tx) != ST_OK)
        return ST_ERROR;
    const char *t[NCOLS] = {w->type, w->title, w->severity, w->published, w->updated, w->enriched_at, NULL, NULL,
                            NULL,    NULL,     w->source,   w->doc,       w->entry,   w->id};
    char **r = tx->rows[tx->npending];
    for (int k = 0; k < NCOLS; k++) {
        r[k] = t[k] ? strdup(t[k]) : NULL;
        if (t[k] && !r[k]) {
            for (int j = 0; j < k; j++)
                free(r[j]);
            return ST_ERROR;
        }
    }
    int64_t *n = tx->nums[tx->npending];
    n[0] = w->enriched_us;
    n[1] = w->version;
    n[2] = w->risk_score;
    n[3] = w->kev ? 1 : 0;
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
                           DBP_INT(w->kev ? 1 : 0),   DBP_TEXT(w->source),      DBP_TEXT(w->doc),
                           DBP_TEXT(w->entry),        DBP_TEXT(w->id)};
    int64_t ch = 0;
    if (store_conn_exec(tx->c,
                        "UPDATE intel_records SET type = ?, title = ?, severity = ?, published = ?, updated = ?, "
                        "enriched_at = ?, enriched_us = ?, version = ?, risk_score = ?, kev = ?, source = ?, doc = ?, "
                        "entry = ? WHERE id = ?",
                        p, 14, &ch) != ST_OK)
        return ST_ERROR;
    if (ch == 0)
        return ST_NOTFOUND;
    if (strcmp(old_type, w->type) == 0 && strcmp(old_sev, w->severity) == 0)
        return ST_OK;
    if (count_move(tx, old_type, old_sev, -1) != ST_OK)
        return ST_ERROR;
    return count_move(tx, w->type, w->severity, 1);
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

int store_intel_version(struct db *db, const char *id, int64_t *version)
{
    struct db_param p[] = {DBP_TEXT(id)};
    return store_query_one(db, "SELECT version FROM intel_records WHERE id = ?", p, 1, store_row_int, version);
}

int store_intel_count(struct db *db, int64_t *n) { return store_query_int(db, COUNT_SQL, NULL, 0, n); }

/* One statement text per filter combination and paging, each answered by its own index (migration
 * 0004: type, severity, both or none, then published, id), read backwards from the offset or from
 * the cursor's row; the totals ride along as two scalar subqueries (evaluated once), so a page is
 * one round trip. String literals, because the statement caches are keyed by the text's address. */
#define FEED_ORDER " ORDER BY published DESC, id DESC"
#define TOTALS(tw) "(SELECT COALESCE(SUM(n), 0) FROM intel_counts" tw "), (SELECT MAX(enriched_us) FROM intel_records)"
#define PAGE(w, tw) "SELECT entry, published, id, " TOTALS(tw) " FROM intel_records" w FEED_ORDER " LIMIT ? OFFSET ?"
#define AFTER(w, tw) "SELECT entry, published, id, " TOTALS(tw) " FROM intel_records" w FEED_ORDER " LIMIT ?"
#define K STORE_AFTER("published", "id")
#define W_TYPE " WHERE type = ?"
#define W_SEV " WHERE severity = ?"
#define W_BOTH " WHERE type = ? AND severity = ?"
#define TOTAL(where) "SELECT " TOTALS(where)
#define EQP "EXPLAIN QUERY PLAN "
#define EX "EXPLAIN "

/* [keyset][filters: 1 type, 2 severity] */
static const char *const page_sql[2][4] = {
    {PAGE("", ""), PAGE(W_TYPE, W_TYPE), PAGE(W_SEV, W_SEV), PAGE(W_BOTH, W_BOTH)},
    {AFTER(" WHERE " K, ""), AFTER(W_TYPE " AND " K, W_TYPE), AFTER(W_SEV " AND " K, W_SEV),
     AFTER(W_BOTH " AND " K, W_BOTH)}};
static const char *const total_sql[4] = {TOTAL(""), TOTAL(W_TYPE), TOTAL(W_SEV), TOTAL(W_BOTH)};
static const char *const plan_sqlite[2][4] = {
    {EQP PAGE("", ""), EQP PAGE(W_TYPE, W_TYPE), EQP PAGE(W_SEV, W_SEV), EQP PAGE(W_BOTH, W_BOTH)},
    {EQP AFTER(" WHERE " K, ""), EQP AFTER(W_TYPE " AND " K, W_TYPE), EQP AFTER(W_SEV " AND " K, W_SEV),
     EQP AFTER(W_BOTH " AND " K, W_BOTH)}};
static const char *const plan_pg[2][4] = {
    {EX PAGE("", ""), EX PAGE(W_TYPE, W_TYPE), EX PAGE(W_SEV, W_SEV), EX PAGE(W_BOTH, W_BOTH)},
    {EX AFTER(" WHERE " K, ""), EX AFTER(W_TYPE " AND " K, W_TYPE), EX AFTER(W_SEV " AND " K, W_SEV),
     EX AFTER(W_BOTH " AND " K, W_BOTH)}};

/* The filter values (for the totals, then for the rows), then the page's; returns the count. nf:
 * the number of filter values. */
static int feed_params(const char *type, const char *sev, const struct store_page *pg, struct db_param *p, int *which,
                       int *nf)
{
    int n = 0;
    *which = (type ? 1 : 0) | (sev ? 2 : 0);
    for (int twice = 0; twice < 2; twice++) {
        if (type)
            p[n++] = DBP_TEXT(type);
        if (sev)
            p[n++] = DBP_TEXT(sev);
    }
    *nf = n / 2;
    return store_page_params(pg, true, p, n);
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

int store_intel_feed(struct db *db, const char *type, const char *sev, struct store_page *pg, struct bw_sb *out,
                     int64_t *total, int64_t *updated_us)
{
    *total = 0;
    *updated_us = 0;
    struct db_param p[8];
    int which, nf, np = feed_params(type, sev, pg, p, &which, &nf);
    static const struct store_page_cols cols = {.key = 1, .id = 2, .total = -1, .text_key = true};
    struct page st = {out, true, {total, updated_us}};
    int rc = store_query_page(db, page_sql[pg->after_id ? 1 : 0][which], p, np, pg, &cols, NULL, add_entry, &st);
    /* an empty page (past the end) carries no totals: the second round trip only then */
    if (rc == ST_OK && st.first) {
        rc = store_query_one(db, total_sql[which], p, nf, read_total, &st.t);
        rc = rc == ST_NOTFOUND ? ST_ERROR : rc;
    }
    return rc;
}

int store_intel_feed_plan(struct db *db, bool by_type, bool by_sev, bool keyset, char *out, size_t cap)
{
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    struct store_page page = {.limit = 20, .after_id = keyset ? "CVE-2024-0001" : NULL,
                              .after_text = "2024-01-01T00:00:00Z"};
    struct db_param p[8];
    int which, nf, np = feed_params(by_type ? "ai_cve" : NULL, by_sev ? "HIGH" : NULL, &page, p, &which, &nf);
    return store_plan(db, (pg ? plan_pg : plan_sqlite)[keyset ? 1 : 0][which], p, np, out, cap);
}

/* ---- in change order (STIX, TAXII) ------------------------------------------------------------ */

#define CHANGED_SQL "SELECT id, doc, enriched_us FROM intel_records WHERE "
#define CHANGED_ORDER " ORDER BY enriched_us, id LIMIT ?"
static const char CHANGED_AFTER[] = CHANGED_SQL "enriched_us > ?" CHANGED_ORDER;
static const char CHANGED_FROM[] = CHANGED_SQL "(enriched_us, id) >= (?, ?)" CHANGED_ORDER;
static const char *const changed_plan[2][2] = {
    {EQP CHANGED_SQL "enriched_us > ?" CHANGED_ORDER, EQP CHANGED_SQL "(enriched_us, id) >= (?, ?)" CHANGED_ORDER},
    {EX CHANGED_SQL "enriched_us > ?" CHANGED_ORDER, EX CHANGED_SQL "(enriched_us, id) >= (?, ?)" CHANGED_ORDER}};

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
