/* Imported indexes of existing package names (store_packages.h). */
#include "store/store_packages.h"

#include "common/limits.h"
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 256 rows of (ecosystem, name): 512 parameters, BW_DB_PARAMS_MAX */
#define R1 "(?, ?)"
#define R2 R1 ", " R1
#define R4 R2 ", " R2
#define R8 R4 ", " R4
#define R16 R8 ", " R8
#define R32 R16 ", " R16
#define R64 R32 ", " R32
#define R128 R64 ", " R64
#define R256 R128 ", " R128
#define INSERT_NAMES(rows) "INSERT INTO package_names (ecosystem, name) VALUES " rows " ON CONFLICT DO NOTHING"
static const char INSERT_MANY[] = INSERT_NAMES(R256);
static const char INSERT_ONE[] = INSERT_NAMES(R1);
_Static_assert(BW_PKG_INSERT_ROWS == 256 && BW_PKG_INSERT_ROWS * 2 <= BW_DB_PARAMS_MAX, "INSERT_MANY has 256 rows");

struct import_tx {
    const struct store_pkg_import *im;
    size_t from, to; /* the names this transaction writes */
    bool first;      /* a replace empties the index here */
    bool last;       /* the status row is written here */
    int64_t added;
};

/* The names [from, to) by multi-row INSERTs (SQLite). */
static int insert_rows(struct db_conn *c, struct import_tx *t)
{
    const struct store_pkg_import *im = t->im;
    size_t i = t->from;
    struct db_param p[BW_PKG_INSERT_ROWS * 2];
    while (i < t->to) {
        size_t k = t->to - i >= BW_PKG_INSERT_ROWS ? BW_PKG_INSERT_ROWS : 1;
        for (size_t r = 0; r < k; r++) {
            p[2 * r] = DBP_TEXT(im->ecosystem);
            p[2 * r + 1] = DBP_TEXT(im->names[i + r]);
        }
        int64_t ch = 0;
        if (store_conn_exec(c, k == 1 ? INSERT_ONE : INSERT_MANY, p, (int)(2 * k), &ch) != ST_OK)
            return ST_ERROR;
        t->added += ch;
        i += k;
    }
    return ST_OK;
}

/* The names [from, to) by COPY into a temporary table, then one INSERT of those not there yet
 * (PostgreSQL: COPY itself stops at the first duplicate key). */
static int copy_rows(struct db_conn *c, struct import_tx *t)
{
    const struct store_pkg_import *im = t->im;
    if (db_exec_script(c, "CREATE TEMPORARY TABLE package_import (name TEXT NOT NULL) ON COMMIT DROP") != DB_OK)
        return ST_ERROR;
    size_t chunk = BW_PKG_COPY_ROWS;
    struct db_param *p = malloc(chunk * sizeof *p);
    if (!p)
        return ST_ERROR;
    int rc = ST_OK;
    for (size_t i = t->from; rc == ST_OK && i < t->to; i += chunk) {
        size_t k = t->to - i < chunk ? t->to - i : chunk;
        for (size_t r = 0; r < k; r++)
            p[r] = DBP_TEXT(im->names[i + r]);
        if (db_copy(c, "COPY package_import (name) FROM STDIN", p, 1, (int)k) != DB_OK)
            rc = ST_ERROR;
    }
    free(p);
    struct db_param e[] = {DBP_TEXT(im->ecosystem)};
    int64_t ch = 0;
    if (rc == ST_OK)
        rc = store_conn_exec(c,
                             "INSERT INTO package_names (ecosystem, name) SELECT CAST(? AS TEXT), name "
                             "FROM package_import ON CONFLICT DO NOTHING",
                             e, 1, &ch);
    t->added += ch;
    return rc;
}

static int count_names(struct db_conn *c, const char *eco, int64_t *n)
{
    struct db_param p[] = {DBP_TEXT(eco)};
    return store_conn_int(c, "SELECT COUNT(*) FROM package_names WHERE ecosystem = ?", p, 1, n);
}

static int import_body(struct db_conn *c, void *arg)
{
    struct import_tx *t = arg;
    const struct store_pkg_import *im = t->im;
    struct db_param e[] = {DBP_TEXT(im->ecosystem)};
    if (t->first && im->replace &&
        store_conn_exec(c, "DELETE FROM package_names WHERE ecosystem = ?", e, 1, NULL) != ST_OK)
        return ST_ERROR;
    int rc = db_has_copy(db_of(c)) ? copy_rows(c, t) : insert_rows(c, t);
    if (rc != ST_OK || !t->last)
        return rc;
    /* the status row counts what the table holds (a count, not a sum of imports' answers, so it
     * cannot drift from it) */
    int64_t n = 0;
    if (count_names(c, im->ecosystem, &n) != ST_OK)
        return ST_ERROR;
    struct db_param p[] = {DBP_TEXT(im->ecosystem), DBP_INT(n), DBP_TEXT(im->source), DBP_TEXT(im->format),
                           DBP_TEXT(im->at)};
    return store_conn_exec(c,
                           "INSERT INTO package_indexes (ecosystem, names, source, format, imported_at) "
                           "VALUES (?, ?, ?, ?, ?) ON CONFLICT (ecosystem) DO UPDATE SET names = excluded.names, "
                           "source = excluded.source, format = excluded.format, imported_at = excluded.imported_at",
                           p, 5, NULL);
}

int store_packages_import(struct db *db, const struct store_pkg_import *im, int64_t *added, int64_t *total)
{
    *added = 0;
    *total = 0;
    /* PostgreSQL: one transaction, so a replace is never seen half done; SQLite: pieces, so the
     * one write lock is not held for the whole file */
    size_t step = db_has_copy(db) ? (im->n ? im->n : 1) : BW_PKG_TX_NAMES;
    size_t from = 0;
    do {
        struct import_tx t = {.im = im, .from = from, .to = im->n - from > step ? from + step : im->n, .first = from == 0};
        t.last = t.to == im->n;
        if (store_tx(db, import_body, &t) != ST_OK)
            return ST_ERROR;
        *added += t.added;
        from = t.to;
    } while (from < im->n);
    struct db_param p[] = {DBP_TEXT(im->ecosystem)};
    return store_query_int(db, "SELECT names FROM package_indexes WHERE ecosystem = ?", p, 1, total);
}

int store_packages_known(struct db *db, const char *ecosystem, const char *name, bool *known)
{
    struct db_param p[] = {DBP_TEXT(ecosystem), DBP_TEXT(name)};
    int64_t one = 0;
    int rc = store_query_one(db, "SELECT 1 FROM package_names WHERE ecosystem = ? AND name = ?", p, 2, store_row_int,
                             &one);
    *known = rc == ST_OK;
    return rc == ST_ERROR ? ST_ERROR : ST_OK;
}

static int read_index(struct db_rows *r, void *arg)
{
    struct store_pkg_index *x = arg;
    COPY(x->ecosystem, db_rows_text(r, 0));
    x->names = db_rows_int(r, 1);
    COPY(x->source, db_rows_text(r, 2));
    COPY(x->format, db_rows_text(r, 3));
    COPY(x->imported_at, db_rows_text(r, 4));
    return ST_OK;
}

int store_packages_status(struct db *db, struct store_pkg_index **out, size_t *n)
{
    return store_query_list(db,
                            "SELECT ecosystem, names, source, format, imported_at FROM package_indexes "
                            "ORDER BY ecosystem",
                            NULL, 0, sizeof **out, read_index, (void **)out, n);
}

struct clear_arg {
    const char *eco;
    int64_t removed;
};

static int clear_body(struct db_conn *c, void *arg)
{
    struct clear_arg *a = arg;
    struct db_param p[] = {DBP_TEXT(a->eco)};
    if (!a->eco)
        return store_conn_exec(c, "DELETE FROM package_names", NULL, 0, &a->removed) == ST_OK &&
                       store_conn_exec(c, "DELETE FROM package_indexes", NULL, 0, NULL) == ST_OK
                   ? ST_OK
                   : ST_ERROR;
    return store_conn_exec(c, "DELETE FROM package_names WHERE ecosystem = ?", p, 1, &a->removed) == ST_OK &&
                   store_conn_exec(c, "DELETE FROM package_indexes WHERE ecosystem = ?", p, 1, NULL) == ST_OK
               ? ST_OK
               : ST_ERROR;
}

int store_packages_clear(struct db *db, const char *ecosystem, int64_t *removed)
{
    struct clear_arg a = {ecosystem, 0};
    int rc = store_tx(db, clear_body, &a);
    *removed = a.removed;
    return rc;
}
