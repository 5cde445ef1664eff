/* The store's statement shapes (store_internal.h): one statement, the first row, every row, a
 * count, a list, a transaction. One query loop and one place that takes a connection of its own. */
#include "store/store.h"
#include "store/store_internal.h"

#include "common/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void store_copy(char *dst, size_t cap, const char *src)
{
    if (!src)
        src = "";
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

int store_row_int(struct db_rows *r, void *out)
{
    *(int64_t *)out = db_rows_int(r, 0);
    return ST_OK;
}

int store_row_text(struct db_rows *r, void *out)
{
    const char *t = db_rows_text(r, 0);
    char **s = out;
    *s = t ? strdup(t) : NULL;
    return *s ? ST_OK : ST_ERROR;
}

/* The loop under every reader: runs sql on c and hands fn the first row (first_only) or each row
 * until fn answers other than ST_OK. With first_only and no row: ST_NOTFOUND. */
static int rows_on(struct db_conn *c, const char *sql, const struct db_param *p, int np, bool first_only,
                   store_row_fn fn, void *arg)
{
    struct db_rows *r = NULL;
    if (db_query(c, sql, p, np, &r) != DB_OK) {
        db_rows_free(r);
        return ST_ERROR;
    }
    int rc = first_only ? ST_NOTFOUND : ST_OK;
    while (db_rows_next(r)) {
        rc = fn(r, arg);
        if (rc != ST_OK || first_only)
            break;
    }
    db_rows_free(r);
    return rc;
}

/* rows_on on c, or on a connection of its own from db when c is NULL. */
static int rows(struct db *db, struct db_conn *c, const char *sql, const struct db_param *p, int np, bool first_only,
                store_row_fn fn, void *arg)
{
    struct db_conn *own = c ? NULL : db_acquire(db);
    if (!c && !own)
        return ST_ERROR;
    int rc = rows_on(c ? c : own, sql, p, np, first_only, fn, arg);
    db_release(own);
    return rc;
}

int store_conn_exec(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *changes)
{
    int rc = db_exec(c, sql, p, np, changes);
    return rc == DB_OK ? ST_OK : rc == DB_CONSTRAINT ? ST_CONFLICT : ST_ERROR;
}

struct one_statement {
    const char *sql;
    const struct db_param *p;
    int np;
    int64_t *changes;
};

static int one_statement(struct db_conn *c, void *arg)
{
    const struct one_statement *o = arg;
    return store_conn_exec(c, o->sql, o->p, o->np, o->changes);
}

int store_exec(struct db *db, const char *sql, const struct db_param *p, int np, int64_t *changes)
{
    /* SQLite: a write is the writer thread's, like every transaction */
    if (db_single_writer(db))
        return store_tx(db, one_statement, &(struct one_statement){sql, p, np, changes});
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    int rc = store_conn_exec(c, sql, p, np, changes);
    db_release(c);
    return rc;
}

int store_exec_changed(struct db *db, const char *sql, const struct db_param *p, int np, int none)
{
    int64_t ch = 0;
    if (store_exec(db, sql, p, np, &ch) != ST_OK)
        return ST_ERROR;
    return ch ? ST_OK : none;
}

int store_query_one(struct db *db, const char *sql, const struct db_param *p, int np, store_row_fn read, void *arg)
{
    return rows(db, NULL, sql, p, np, true, read, arg);
}

int store_conn_one(struct db_conn *c, const char *sql, const struct db_param *p, int np, store_row_fn read, void *arg)
{
    return rows(NULL, c, sql, p, np, true, read, arg);
}

int store_query_each(struct db *db, const char *sql, const struct db_param *p, int np, store_row_fn fn, void *arg)
{
    return rows(db, NULL, sql, p, np, false, fn, arg);
}

int store_conn_each(struct db_conn *c, const char *sql, const struct db_param *p, int np, store_row_fn fn, void *arg)
{
    return rows(NULL, c, sql, p, np, false, fn, arg);
}

/* An aggregate always has its row: none means the statement failed while stepping (SQLite). */
static int int_of(struct db *db, struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *out)
{
    int rc = rows(db, c, sql, p, np, true, store_row_int, out);
    return rc == ST_NOTFOUND ? ST_ERROR : rc;
}

int store_query_int(struct db *db, const char *sql, const struct db_param *p, int np, int64_t *out)
{
    return int_of(db, NULL, sql, p, np, out);
}

int store_conn_int(struct db_conn *c, const char *sql, const struct db_param *p, int np, int64_t *out)
{
    return int_of(NULL, c, sql, p, np, out);
}

/* Before a failed list's array is freed: what each item read so far owns (NULL: nothing). */
static void clear_items(char *items, size_t elem, size_t n, store_item_clear_fn clear)
{
    for (size_t i = 0; clear && i < n; i++)
        clear(items + i * elem);
}

/* The rows of a list so far: elem-byte items, each zeroed and then filled by read. */
struct list {
    size_t elem;
    store_row_fn read;
    char *items;
    size_t n, cap;
};

static int list_add(struct db_rows *r, void *arg)
{
    struct list *l = arg;
    l->items = bw_vec_grow(l->items, l->elem, l->n + 1, BW_VEC_UNBOUNDED, &l->cap);
    if (l->n + 1 > l->cap)
        return ST_ERROR;
    void *it = l->items + l->n++ * l->elem;
    memset(it, 0, l->elem);
    return l->read(r, it);
}

static int list_of(struct db *db, struct db_conn *c, const char *sql, const struct db_param *p, int np, size_t elem,
                   store_row_fn read, store_item_clear_fn clear, void **out, size_t *n)
{
    struct list l = {.elem = elem, .read = read};
    int rc = rows(db, c, sql, p, np, false, list_add, &l);
    if (rc != ST_OK) {
        clear_items(l.items, elem, l.n, clear);
        free(l.items);
        l.items = NULL;
        l.n = 0;
    }
    *out = l.items;
    *n = l.n;
    return rc;
}

int store_query_list(struct db *db, const char *sql, const struct db_param *p, int np, size_t elem,
                     store_row_fn read, void **out, size_t *n)
{
    return list_of(db, NULL, sql, p, np, elem, read, NULL, out, n);
}

int store_conn_list(struct db_conn *c, const char *sql, const struct db_param *p, int np, size_t elem,
                    store_row_fn read, void **out, size_t *n)
{
    return list_of(NULL, c, sql, p, np, elem, read, NULL, out, n);
}

int store_query_list_owned(struct db *db, const char *sql, const struct db_param *p, int np, size_t elem,
                           store_row_fn read, store_item_clear_fn clear, void **out, size_t *n)
{
    return list_of(db, NULL, sql, p, np, elem, read, clear, out, n);
}

int store_conn_list_owned(struct db_conn *c, const char *sql, const struct db_param *p, int np, size_t elem,
                          store_row_fn read, store_item_clear_fn clear, void **out, size_t *n)
{
    return list_of(NULL, c, sql, p, np, elem, read, clear, out, n);
}

int store_page_params(const struct store_page *pg, bool text_key, struct db_param *p, int np)
{
    if (pg->after_id) {
        p[np++] = text_key ? DBP_TEXT(pg->after_text ? pg->after_text : "") : DBP_INT(pg->after_int);
        p[np++] = DBP_TEXT(pg->after_id);
        p[np++] = DBP_INT(pg->limit + 1);
    } else {
        p[np++] = DBP_INT(pg->limit + 1);
        p[np++] = DBP_INT(pg->offset);
    }
    return np;
}

struct page_read {
    struct store_page *pg;
    const struct store_page_cols *cols;
    int64_t *total;
    long seen;
    store_row_fn read;
    void *arg;
};

/* The first limit rows go to the list's reader; the one after only says that there is more. */
static int page_row(struct db_rows *r, void *arg)
{
    struct page_read *pr = arg;
    const struct store_page_cols *k = pr->cols;
    if (pr->seen++ >= pr->pg->limit) {
        pr->pg->more = true;
        return ST_OK;
    }
    if (pr->seen == 1 && pr->total && k->total >= 0)
        *pr->total = db_rows_int(r, k->total);
    if (k->text_key)
        COPY(pr->pg->last_text, db_rows_text(r, k->key));
    else
        pr->pg->last_int = db_rows_int(r, k->key);
    COPY(pr->pg->last_id, db_rows_text(r, k->id));
    return pr->read(r, pr->arg);
}

static int page_of(struct db *db, struct db_conn *c, const char *sql, const struct db_param *p, int np,
                   struct store_page *pg, const struct store_page_cols *cols, int64_t *total, store_row_fn read,
                   void *arg)
{
    pg->more = false;
    pg->last_int = 0;
    pg->last_text[0] = pg->last_id[0] = '\0';
    struct page_read pr = {pg, cols, total, 0, read, arg};
    return rows(db, c, sql, p, np, false, page_row, &pr);
}

int store_conn_page(struct db_conn *c, const char *sql, const struct db_param *p, int np, struct store_page *pg,
                    const struct store_page_cols *cols, int64_t *total, store_row_fn read, void *arg)
{
    return page_of(NULL, c, sql, p, np, pg, cols, total, read, arg);
}

int store_query_page(struct db *db, const char *sql, const struct db_param *p, int np, struct store_page *pg,
                     const struct store_page_cols *cols, int64_t *total, store_row_fn read, void *arg)
{
    return page_of(db, NULL, sql, p, np, pg, cols, total, read, arg);
}

/* A page's items: at most limit of them, in an array allocated once. */
struct page_list {
    char *items;
    size_t elem, n, cap;
    store_row_fn read;
};

static int page_list_add(struct db_rows *r, void *arg)
{
    struct page_list *l = arg;
    if (l->n == l->cap)
        return ST_ERROR; /* store_query_page hands over at most limit rows: not reached */
    void *it = l->items + l->n++ * l->elem;
    memset(it, 0, l->elem);
    return l->read(r, it);
}

int store_query_page_list(struct db *db, const char *sql, const struct db_param *p, int np, struct store_page *pg,
                          const struct store_page_cols *cols, const char *count_sql, int ncount, int64_t *total,
                          size_t elem, store_row_fn read, void **out, size_t *n)
{
    return store_query_page_owned(db, sql, p, np, pg, cols, count_sql, ncount, total, elem, read, NULL, out, n);
}

int store_query_page_owned(struct db *db, const char *sql, const struct db_param *p, int np, struct store_page *pg,
                           const struct store_page_cols *cols, const char *count_sql, int ncount, int64_t *total,
                           size_t elem, store_row_fn read, store_item_clear_fn clear, void **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    *total = 0;
    size_t cap = pg->limit > 0 ? (size_t)pg->limit : 1;
    struct page_list l = {calloc(cap, elem), elem, 0, cap, read};
    if (!l.items)
        return ST_ERROR;
    int rc = store_query_page(db, sql, p, np, pg, cols, total, page_list_add, &l);
    if (rc == ST_OK && l.n == 0)
        rc = store_query_int(db, count_sql, p, ncount, total);
    if (rc != ST_OK) {
        clear_items(l.items, elem, l.n, clear);
        free(l.items);
        return rc;
    }
    *out = l.items;
    *n = l.n;
    return ST_OK;
}

int store_conn_tx(struct db_conn *c, store_tx_fn body, void *arg)
{
    struct db *db = db_of(c);
    /* SQLite: through the one writer (c is the caller's reading connection, left alone) */
    if (db_single_writer(db))
        return db_write(db, body, arg, ST_ERROR);
    if (db_begin(c, true) != DB_OK)
        return ST_ERROR;
    int rc = body(c, arg);
    if (rc == ST_OK && db_commit(c) != DB_OK)
        rc = ST_ERROR;
    /* a COMMIT that failed can leave the transaction open on this connection */
    if (rc != ST_OK)
        db_rollback(c);
    return rc;
}

int store_tx(struct db *db, store_tx_fn body, void *arg) { return db_write(db, body, arg, ST_ERROR); }

struct plan_out {
    char *out;
    size_t cap, len;
    int col;
};

static int add_plan_line(struct db_rows *r, void *arg)
{
    struct plan_out *o = arg;
    const char *line = db_rows_text(r, o->col);
    if (line && o->len < o->cap)
        o->len += (size_t)snprintf(o->out + o->len, o->cap - o->len, "%s\n", line);
    return ST_OK;
}

int store_plan(struct db *db, const char *sql, const struct db_param *p, int np, char *out, size_t cap)
{
    out[0] = '\0';
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    /* SQLite's plan rows are id, parent, notused, detail */
    return store_query_each(db, sql, p, np, add_plan_line, &(struct plan_out){out, cap, 0, pg ? 0 : 3});
}
