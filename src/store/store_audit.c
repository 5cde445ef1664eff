#include "store/store_audit.h"

#include "common/limits.h"
#include "store/store.h"
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>


static int row_cmp(const void *a, const void *b)
{
    const struct store_audit_row *x = a, *y = b;
    int c = strcmp(x->kind, y->kind);
    if (!c)
        c = strcmp(x->principal, y->principal);
    if (!c)
        c = (x->bucket_ms > y->bucket_ms) - (x->bucket_ms < y->bucket_ms);
    if (!c)
        c = strcmp(x->sub, y->sub);
    return c;
}

/* first_ms/last_ms widen, n adds up; the detail and account of the newer write win. Both sides
 * of SET read the row as it was before the statement, on both backends. */
#define UPSERT_SQL                                                                                                    \
    "INSERT INTO audit_counts (kind, principal, bucket_ms, sub, principal_type, account_id, detail, n, first_ms,"  \
    " last_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"                                                               \
    " ON CONFLICT (kind, principal, bucket_ms, sub) DO UPDATE SET n = audit_counts.n + excluded.n,"                \
    " first_ms = CASE WHEN excluded.first_ms < audit_counts.first_ms THEN excluded.first_ms"                       \
    " ELSE audit_counts.first_ms END,"                                                                             \
    " last_ms = CASE WHEN excluded.last_ms > audit_counts.last_ms THEN excluded.last_ms ELSE audit_counts.last_ms" \
    " END,"                                                                                                        \
    " detail = CASE WHEN excluded.last_ms >= audit_counts.last_ms THEN excluded.detail ELSE audit_counts.detail"   \
    " END,"                                                                                                        \
    " account_id = COALESCE(excluded.account_id, audit_counts.account_id)"

/* The rows of one transaction. */
struct chunk {
    const struct store_audit_row *rows;
    size_t n;
};

static int upsert_tx(struct db_conn *c, void *arg)
{
    const struct chunk *k = arg;
    for (size_t i = 0; i < k->n; i++) {
        const struct store_audit_row *w = &k->rows[i];
        struct db_param p[] = {DBP_TEXT(w->kind),
                               DBP_TEXT(w->principal),
                               DBP_INT(w->bucket_ms),
                               DBP_TEXT(w->sub),
                               DBP_TEXT(w->principal_type),
                               w->account_id[0] ? DBP_TEXT(w->account_id) : DBP_NULL,
                               DBP_TEXT(w->detail),
                               DBP_INT(w->n),
                               DBP_INT(w->first_ms),
                               DBP_INT(w->last_ms)};
        if (store_conn_exec(c, UPSERT_SQL, p, 10, NULL) != ST_OK)
            return ST_ERROR;
    }
    return ST_OK;
}

int store_audit_upsert(struct db *db, struct store_audit_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rows[i].written = false;
    if (!n)
        return ST_OK;
    qsort(rows, n, sizeof *rows, row_cmp);
    /* one connection for the flush (an unreachable database is one failure, not one per chunk)
     * and a transaction per chunk: other writers get the SQLite lock in between */
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    int st = ST_OK;
    for (size_t at = 0; at < n; at += BW_AUDIT_UPSERT_CHUNK) {
        size_t end = n - at < BW_AUDIT_UPSERT_CHUNK ? n : at + BW_AUDIT_UPSERT_CHUNK;
        if (store_conn_tx(c, upsert_tx, &(struct chunk){rows + at, end - at}) != ST_OK) {
            st = ST_ERROR;
            continue;
        }
        for (size_t i = at; i < end; i++)
            rows[i].written = true;
    }
    db_release(c);
    return st;
}

int store_audit_purge(struct db *db, const char *kind, int64_t before_ms, long batch, int64_t *deleted)
{
    if (deleted)
        *deleted = 0;
    struct db_param p[] = {DBP_TEXT(kind), DBP_TEXT(kind), DBP_INT(before_ms), DBP_INT(batch)};
    /* by key, a batch at a time: a long backlog never holds the write lock for long */
    return store_exec(db,
                      "DELETE FROM audit_counts WHERE kind = ? AND (principal, bucket_ms, sub) IN"
                      " (SELECT principal, bucket_ms, sub FROM audit_counts WHERE kind = ? AND bucket_ms < ? LIMIT ?)",
                      p, 4, deleted);
}

/* The candidate queries: the newest `scan` rows of the kind in the period (everyone's, or one
 * account's), grouped by principal, the largest totals first. */
#define CAND_ROWS_ALL                                                                                   \
    "(SELECT principal, account_id, sub, n FROM audit_counts WHERE kind = ? AND bucket_ms >= ?"         \
    " AND bucket_ms <= ? ORDER BY bucket_ms DESC LIMIT ?) t"
#define CAND_ROWS_ACCOUNT                                                                               \
    "(SELECT principal, account_id, sub, n FROM audit_counts WHERE account_id = ? AND kind = ?"         \
    " AND bucket_ms >= ? AND bucket_ms <= ? ORDER BY bucket_ms DESC LIMIT ?) t"
#define CAND_SUM(rows)                                                                                  \
    "SELECT principal, MAX(account_id), SUM(n) FROM " rows " GROUP BY principal HAVING SUM(n) >= ?"     \
    " ORDER BY 3 DESC, principal LIMIT ?"
#define CAND_DISTINCT(rows)                                                                             \
    "SELECT principal, MAX(account_id), COUNT(DISTINCT sub) FROM " rows " GROUP BY principal"           \
    " HAVING COUNT(DISTINCT sub) >= ? ORDER BY 3 DESC, principal LIMIT ?"

/* Rows into a caller's array of cap items; the rest are read and dropped (SQLite finishes the
 * statement as it steps). */
struct capped {
    void *out;
    size_t cap, n;
};

static int read_cand(struct db_rows *r, void *arg)
{
    struct capped *k = arg;
    if (k->n == k->cap)
        return ST_OK;
    struct store_audit_cand *o = (struct store_audit_cand *)k->out + k->n++;
    COPY(o->principal, db_rows_text(r, 0));
    COPY(o->account_id, db_rows_text(r, 1));
    o->total = db_rows_int(r, 2);
    return ST_OK;
}

int store_audit_candidates(struct db *db, const char *kind, const char *account_id, bool distinct_sub,
                           int64_t from_ms, int64_t to_ms, int64_t min_total, long scan_rows,
                           struct store_audit_cand *out, size_t cap, size_t *n)
{
    *n = 0;
    struct db_param p[8];
    int np = 0;
    if (account_id)
        p[np++] = DBP_TEXT(account_id);
    p[np++] = DBP_TEXT(kind);
    p[np++] = DBP_INT(from_ms);
    p[np++] = DBP_INT(to_ms);
    p[np++] = DBP_INT(scan_rows);
    p[np++] = DBP_INT(min_total);
    p[np++] = DBP_INT((int64_t)cap);
    const char *sql = account_id ? (distinct_sub ? CAND_DISTINCT(CAND_ROWS_ACCOUNT) : CAND_SUM(CAND_ROWS_ACCOUNT))
                                 : (distinct_sub ? CAND_DISTINCT(CAND_ROWS_ALL) : CAND_SUM(CAND_ROWS_ALL));
    struct capped k = {out, cap, 0};
    int rc = store_query_each(db, sql, p, np, read_cand, &k);
    *n = k.n;
    return rc;
}

#define BUCKET_COLS "bucket_ms, sub, n, first_ms, last_ms, principal_type, detail"

/* The buckets, and the principal type of the first row and the detail of the newest event. */
struct buckets {
    struct capped k;
    char *ptype, *detail;
    int64_t newest;
};

static int read_bucket(struct db_rows *r, void *arg)
{
    struct buckets *s = arg;
    if (s->k.n == s->k.cap)
        return ST_OK;
    struct store_audit_bucket *b = (struct store_audit_bucket *)s->k.out + s->k.n++;
    b->bucket_ms = db_rows_int(r, 0);
    COPY(b->sub, db_rows_text(r, 1));
    b->n = db_rows_int(r, 2);
    b->first_ms = db_rows_int(r, 3);
    b->last_ms = db_rows_int(r, 4);
    if (!s->ptype[0])
        store_copy(s->ptype, 16, db_rows_text(r, 5));
    if (b->last_ms > s->newest) {
        s->newest = b->last_ms;
        store_copy(s->detail, BW_AUDIT_DETAIL_MAX, db_rows_text(r, 6));
    }
    return ST_OK;
}

int store_audit_buckets(struct db *db, const char *kind, const char *principal, const char *account_id,
                        int64_t from_ms, int64_t to_ms, struct store_audit_bucket *out, size_t cap, size_t *n,
                        char ptype[16], char detail[BW_AUDIT_DETAIL_MAX])
{
    *n = 0;
    ptype[0] = detail[0] = '\0';
    struct db_param p[6];
    int np = 0;
    p[np++] = DBP_TEXT(kind);
    p[np++] = DBP_TEXT(principal);
    if (account_id)
        p[np++] = DBP_TEXT(account_id);
    p[np++] = DBP_INT(from_ms);
    p[np++] = DBP_INT(to_ms);
    p[np++] = DBP_INT((int64_t)cap);
    /* newest first, so a capped read keeps the recent end; reversed below */
    const char *sql = account_id ? "SELECT " BUCKET_COLS " FROM audit_counts WHERE kind = ? AND principal = ?"
                                   " AND account_id = ? AND bucket_ms >= ? AND bucket_ms <= ?"
                                   " ORDER BY bucket_ms DESC, sub LIMIT ?"
                                 : "SELECT " BUCKET_COLS " FROM audit_counts WHERE kind = ? AND principal = ?"
                                   " AND bucket_ms >= ? AND bucket_ms <= ? ORDER BY bucket_ms DESC, sub LIMIT ?";
    struct buckets s = {{out, cap, 0}, ptype, detail, INT64_MIN};
    if (store_query_each(db, sql, p, np, read_bucket, &s) != ST_OK)
        return ST_ERROR;
    *n = s.k.n;
    for (size_t i = 0, j = *n ? *n - 1 : 0; i < j; i++, j--) {
        struct store_audit_bucket t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
    return ST_OK;
}
