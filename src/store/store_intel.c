/* Threat-intelligence records, the feed and saved playbooks (store_intel.h). */
#include "store/store_intel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TXT(dst, src) snprintf((dst), sizeof(dst), "%s", (src) ? (src) : "")

/* ---- writing ----------------------------------------------------------------------------------- */

struct store_intel_tx {
    struct db_conn *c;
};

int store_intel_begin(struct db *db, struct store_intel_tx **out)
{
    *out = NULL;
    struct store_intel_tx *tx = calloc(1, sizeof *tx);
    if (!tx)
        return ST_ERROR;
    tx->c = db_acquire(db);
    if (!tx->c) {
        free(tx);
        return ST_ERROR;
    }
    /* the lock row first: a second writer waits here until the first commits */
    if (db_begin(tx->c, true) != DB_OK) {
        db_release(tx->c);
        free(tx);
        return ST_ERROR;
    }
    if (db_exec(tx->c, "UPDATE intel_lock SET seq = seq + 1 WHERE id = 1", NULL, 0, NULL) != DB_OK) {
        store_intel_rollback(tx);
        return ST_ERROR;
    }
    *out = tx;
    return ST_OK;
}

int store_intel_commit(struct store_intel_tx *tx)
{
    int rc = db_commit(tx->c) == DB_OK ? ST_OK : ST_ERROR;
    if (rc != ST_OK)
        db_rollback(tx->c);
    db_release(tx->c);
    free(tx);
    return rc;
}

void store_intel_rollback(struct store_intel_tx *tx)
{
    if (!tx)
        return;
    db_rollback(tx->c);
    db_release(tx->c);
    free(tx);
}

static int one_text(struct db_conn *c, const char *sql, const char *arg, char **out, int64_t *num)
{
    struct db_rows *r = NULL;
    struct db_param p[] = {DBP_TEXT(arg)};
    int rc = db_query(c, sql, p, 1, &r);
    if (rc != DB_OK) {
        db_rows_free(r);
        return ST_ERROR;
    }
    rc = ST_NOTFOUND;
    if (db_rows_next(r)) {
        const char *t = db_rows_text(r, 0);
        *out = t ? strdup(t) : NULL;
        if (num)
            *num = db_rows_int(r, 1);
        rc = *out ? ST_OK : ST_ERROR;
    }
    db_rows_free(r);
    return rc;
}

int store_intel_tx_get(struct store_intel_tx *tx, const char *id, char **doc)
{
    *doc = NULL;
    return one_text(tx->c, "SELECT doc FROM intel_records WHERE id = ?", id, doc, NULL);
}

static int count_add(struct db_conn *c, const char *type, const char *sev, int64_t delta)
{
    struct db_param p[] = {DBP_TEXT(type), DBP_TEXT(sev), DBP_INT(delta)};
    return db_exec(c,
                   "INSERT INTO intel_counts (type, severity, n) VALUES (?, ?, ?) "
                   "ON CONFLICT (type, severity) DO UPDATE SET n = intel_counts.n + excluded.n",
                   p, 3, NULL) == DB_OK
               ? ST_OK
               : ST_ERROR;
}

int store_intel_tx_put(struct store_intel_tx *tx, const struct store_intel_row *w, const char *old_type,
                       const char *old_sev)
{
    struct db_param p[] = {DBP_TEXT(w->type),         DBP_TEXT(w->title),       DBP_TEXT(w->severity),
                           DBP_TEXT(w->published),    DBP_TEXT(w->updated),     DBP_TEXT(w->enriched_at),
                           DBP_INT(w->enriched_us),   DBP_INT(w->version),      DBP_INT(w->risk_score),
                           DBP_INT(w->kev ? 1 : 0),   DBP_TEXT(w->source),      DBP_TEXT(w->doc),
                           DBP_TEXT(w->entry),        DBP_TEXT(w->id)};
    int rc;
    if (!old_type) {
        rc = db_exec(tx->c,
                     "INSERT INTO intel_records (type, title, severity, published, updated, enriched_at, enriched_us, "
                     "version, risk_score, kev, source, doc, entry, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     p, 14, NULL);
        if (rc != DB_OK)
            return rc == DB_CONSTRAINT ? ST_CONFLICT : ST_ERROR;
        return count_add(tx->c, w->type, w->severity, 1);
    }
    int64_t ch = 0;
    rc = db_exec(tx->c,
                 "UPDATE intel_records SET type = ?, title = ?, severity = ?, published = ?, updated = ?, "
                 "enriched_at = ?, enriched_us = ?, version = ?, risk_score = ?, kev = ?, source = ?, doc = ?, "
                 "entry = ? WHERE id = ?",
                 p, 14, &ch);
    if (rc != DB_OK)
        return ST_ERROR;
    if (ch == 0)
        return ST_NOTFOUND;
    if (strcmp(old_type, w->type) == 0 && strcmp(old_sev, w->severity) == 0)
        return ST_OK;
    if (count_add(tx->c, old_type, old_sev, -1) != ST_OK)
        return ST_ERROR;
    return count_add(tx->c, w->type, w->severity, 1);
}

static int count_rows(struct db_conn *c, int64_t *n)
{
    struct db_rows *r = NULL;
    int rc = db_query(c, "SELECT COALESCE(SUM(n), 0) FROM intel_counts", NULL, 0, &r) == DB_OK && db_rows_next(r)
                 ? ST_OK
                 : ST_ERROR;
    if (rc == ST_OK)
        *n = db_rows_int(r, 0);
    db_rows_free(r);
    return rc;
}

int store_intel_tx_count(struct store_intel_tx *tx, int64_t *n) { return count_rows(tx->c, n); }

/* ---- reading ----------------------------------------------------------------------------------- */

int store_intel_get(struct db *db, const char *id, char **doc, int64_t *version)
{
    *doc = NULL;
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    int rc = one_text(c, "SELECT doc, version FROM intel_records WHERE id = ?", id, doc, version);
    db_release(c);
    return rc;
}

int store_intel_count(struct db *db, int64_t *n)
{
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    int rc = count_rows(c, n);
    db_release(c);
    return rc;
}

/* One statement text per filter combination, each answered by its own index (migration 0004).
 * String literals, because the SQLite statement cache is keyed by the text's address. */
#define PAGE(where) "SELECT entry FROM intel_records" where " ORDER BY published DESC, id DESC LIMIT ? OFFSET ?"
#define W_TYPE " WHERE type = ?"
#define W_SEV " WHERE severity = ?"
#define W_BOTH " WHERE type = ? AND severity = ?"
#define TOTAL(where) "SELECT COALESCE(SUM(n), 0), (SELECT MAX(enriched_us) FROM intel_records) FROM intel_counts" where

static const char *const page_sql[4] = {PAGE(""), PAGE(W_TYPE), PAGE(W_SEV), PAGE(W_BOTH)};
static const char *const total_sql[4] = {TOTAL(""), TOTAL(W_TYPE), TOTAL(W_SEV), TOTAL(W_BOTH)};
static const char *const plan_sqlite[4] = {"EXPLAIN QUERY PLAN " PAGE(""), "EXPLAIN QUERY PLAN " PAGE(W_TYPE),
                                           "EXPLAIN QUERY PLAN " PAGE(W_SEV), "EXPLAIN QUERY PLAN " PAGE(W_BOTH)};
static const char *const plan_pg[4] = {"EXPLAIN " PAGE(""), "EXPLAIN " PAGE(W_TYPE), "EXPLAIN " PAGE(W_SEV),
                                       "EXPLAIN " PAGE(W_BOTH)};

/* The filter values first, then limit and offset; returns the number of parameters. */
static int feed_params(const char *type, const char *sev, long limit, long offset, struct db_param *p, int *which)
{
    int n = 0;
    *which = (type ? 1 : 0) | (sev ? 2 : 0);
    if (type)
        p[n++] = DBP_TEXT(type);
    if (sev)
        p[n++] = DBP_TEXT(sev);
    p[n++] = DBP_INT(limit);
    p[n++] = DBP_INT(offset);
    return n;
}

int store_intel_feed(struct db *db, const char *type, const char *sev, long limit, long offset,
                     struct bw_sb *out, int64_t *total, int64_t *updated_us)
{
    *total = 0;
    *updated_us = 0;
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_param p[4];
    int which, np = feed_params(type, sev, limit, offset, p, &which);
    struct db_rows *r = NULL;
    int rc = ST_ERROR;
    if (db_query(c, total_sql[which], p, np - 2, &r) != DB_OK || !db_rows_next(r))
        goto out;
    *total = db_rows_int(r, 0);
    *updated_us = db_rows_int(r, 1);
    db_rows_free(r);
    r = NULL;
    if (db_query(c, page_sql[which], p, np, &r) != DB_OK)
        goto out;
    bool first = true;
    while (db_rows_next(r)) {
        const char *e = db_rows_text(r, 0);
        if (!e)
            continue;
        if (!first)
            bw_sb_putc(out, ',');
        bw_sb_puts(out, e);
        if (out->oom)
            goto out;
        first = false;
    }
    rc = ST_OK;
out:
    db_rows_free(r);
    db_release(c);
    return rc;
}

int store_intel_feed_plan(struct db *db, bool by_type, bool by_sev, char *out, size_t cap)
{
    out[0] = '\0';
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    struct db_param p[4];
    int which, np = feed_params(by_type ? "ai_cve" : NULL, by_sev ? "HIGH" : NULL, 20, 0, p, &which);
    struct db_rows *r = NULL;
    int rc = ST_ERROR;
    if (db_query(c, (pg ? plan_pg : plan_sqlite)[which], p, np, &r) == DB_OK) {
        size_t len = 0;
        while (db_rows_next(r)) {
            const char *line = db_rows_text(r, pg ? 0 : 3); /* SQLite: id, parent, notused, detail */
            if (line && len < cap)
                len += (size_t)snprintf(out + len, cap - len, "%s\n", line);
        }
        rc = ST_OK;
    }
    db_rows_free(r);
    db_release(c);
    return rc;
}

/* ---- playbooks --------------------------------------------------------------------------------- */

int store_playbook_insert(struct db *db, const struct store_playbook *pb, const char *text)
{
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_param p[] = {DBP_TEXT(pb->id),        DBP_TEXT(pb->user_id),      DBP_TEXT(pb->threat_id),
                           DBP_INT(pb->record_version), DBP_TEXT(pb->risk_tier), DBP_TEXT(text),
                           DBP_TEXT(pb->generated_at), DBP_INT(pb->generated_us)};
    int rc = db_exec(c,
                     "INSERT INTO playbooks (id, user_id, threat_id, record_version, risk_tier, playbook, generated_at, "
                     "generated_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     p, 8, NULL);
    db_release(c);
    return rc == DB_OK ? ST_OK : rc == DB_CONSTRAINT ? ST_CONFLICT : ST_ERROR;
}

/* columns: id, threat_id, record_version, risk_tier, generated_at, generated_us, r.version */
static void read_playbook(struct db_rows *r, const char *user_id, struct store_playbook *pb)
{
    memset(pb, 0, sizeof *pb);
    TXT(pb->id, db_rows_text(r, 0));
    TXT(pb->user_id, user_id);
    TXT(pb->threat_id, db_rows_text(r, 1));
    pb->record_version = db_rows_int(r, 2);
    TXT(pb->risk_tier, db_rows_text(r, 3));
    TXT(pb->generated_at, db_rows_text(r, 4));
    pb->generated_us = db_rows_int(r, 5);
    pb->current_version = db_rows_int(r, 6);
}

#define PB_COLS "p.id, p.threat_id, p.record_version, p.risk_tier, p.generated_at, p.generated_us, r.version"

int store_playbook_latest(struct db *db, const char *user_id, const char *threat_id, struct store_playbook *out,
                          char **text)
{
    *text = NULL;
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_rows *r = NULL;
    struct db_param p[] = {DBP_TEXT(user_id), DBP_TEXT(threat_id)};
    int rc = ST_ERROR;
    if (db_query(c,
                 "SELECT " PB_COLS ", p.playbook FROM playbooks p JOIN intel_records r ON r.id = p.threat_id "
                 "WHERE p.user_id = ? AND p.threat_id = ? ORDER BY p.generated_us DESC, p.id DESC LIMIT 1",
                 p, 2, &r) == DB_OK) {
        rc = ST_NOTFOUND;
        if (db_rows_next(r)) {
            read_playbook(r, user_id, out);
            const char *t = db_rows_text(r, 7);
            *text = t ? strdup(t) : NULL;
            rc = *text ? ST_OK : ST_ERROR;
        }
    }
    db_rows_free(r);
    db_release(c);
    return rc;
}

int store_playbook_history(struct db *db, const char *user_id, long limit, long offset, struct store_playbook **out,
                           size_t *n, int64_t *total)
{
    *out = NULL;
    *n = 0;
    *total = 0;
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_param p[] = {DBP_TEXT(user_id), DBP_INT(limit), DBP_INT(offset)};
    struct db_rows *r = NULL;
    int rc = ST_ERROR;
    if (db_query(c, "SELECT COUNT(*) FROM playbooks WHERE user_id = ?", p, 1, &r) != DB_OK || !db_rows_next(r))
        goto out;
    *total = db_rows_int(r, 0);
    db_rows_free(r);
    r = NULL;
    if (db_query(c,
                 "SELECT " PB_COLS " FROM playbooks p JOIN intel_records r ON r.id = p.threat_id "
                 "WHERE p.user_id = ? ORDER BY p.generated_us DESC, p.id DESC LIMIT ? OFFSET ?",
                 p, 3, &r) != DB_OK)
        goto out;
    struct store_playbook *v = calloc((size_t)(limit > 0 ? limit : 1), sizeof *v);
    if (!v)
        goto out;
    while ((long)*n < limit && db_rows_next(r))
        read_playbook(r, user_id, &v[(*n)++]);
    *out = v;
    rc = ST_OK;
out:
    db_rows_free(r);
    db_release(c);
    return rc;
}
