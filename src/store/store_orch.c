#include "store/store_orch.h"

#include "store/store.h"
#include "store/store_internal.h"
#include "store/store_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUN_COLS                                                                                   \
    "job_id, scope_key, requested_by, status, max_items, phase, phases_done, accepted_at, started_at," \
    " finished_at, error"

static int read_run(struct db_rows *r, void *item)
{
    struct store_orch_run *o = item;
    COPY(o->job_id, db_rows_text(r, 0));
    COPY(o->scope_key, db_rows_text(r, 1));
    COPY(o->requested_by, db_rows_text(r, 2));
    o->status = bw_run_status_stored(db_rows_text(r, 3));
    o->max_items = (long)db_rows_int(r, 4);
    o->phase = (int)db_rows_int(r, 5);
    o->phases_done = (int)db_rows_int(r, 6);
    COPY(o->accepted_at, db_rows_text(r, 7));
    COPY(o->started_at, db_rows_text(r, 8));
    COPY(o->finished_at, db_rows_text(r, 9));
    COPY(o->error, db_rows_text(r, 10));
    return ST_OK;
}

/* One row of a query into out: ST_OK, ST_NOTFOUND or ST_ERROR. */
static int one_run(struct db *db, const char *sql, const struct db_param *p, int np, struct store_orch_run *out)
{
    return store_query_one(db, sql, p, np, read_run, out);
}

int store_orch_run_active(struct db *db, const char *scope_key, struct store_orch_run *out)
{
    struct db_param p[] = {DBP_TEXT(scope_key)};
    return one_run(db, "SELECT " RUN_COLS " FROM orch_runs WHERE scope_key = ? AND active = 1 LIMIT 1", p, 1, out);
}

struct run_create {
    const struct store_orch_run *run;
    int64_t accepted_us;
    int max_attempts;
    int64_t now_ms;
};

static int run_create_tx(struct db_conn *c, void *arg)
{
    const struct run_create *a = arg;
    const struct store_orch_run *run = a->run;
    struct db_param p[] = {DBP_TEXT(run->job_id),   DBP_TEXT(run->scope_key),   DBP_TEXT(run->requested_by),
                           DBP_INT(run->max_items), DBP_TEXT(run->accepted_at), DBP_INT(a->accepted_us)};
    /* ST_CONFLICT: the unique index on (scope_key, active) holds another active run */
    int rc = store_conn_exec(c,
                             "INSERT INTO orch_runs (job_id, scope_key, requested_by, max_items, status, active,"
                             " accepted_at, accepted_us) VALUES (?, ?, ?, ?, 'queued', 1, ?, ?)",
                             p, 6, NULL);
    if (rc != ST_OK)
        return rc;
    return store_job_enqueue_conn(c, run->job_id, "orchestrator", run->job_id, a->max_attempts, a->now_ms);
}

int store_orch_run_create(struct db *db, const struct store_orch_run *run, int64_t accepted_us, int max_attempts,
                          int64_t now_ms, char active_job[BW_ID_MAX])
{
    active_job[0] = '\0';
    int rc = store_tx(db, run_create_tx, &(struct run_create){run, accepted_us, max_attempts, now_ms});
    if (rc == ST_CONFLICT) {
        struct store_orch_run a;
        if (store_orch_run_active(db, run->scope_key, &a) == ST_OK)
            snprintf(active_job, BW_ID_MAX, "%s", a.job_id);
    }
    return rc;
}

int store_orch_run_get(struct db *db, const char *job_id, struct store_orch_run *out)
{
    struct db_param p[] = {DBP_TEXT(job_id)};
    return one_run(db, "SELECT " RUN_COLS " FROM orch_runs WHERE job_id = ?", p, 1, out);
}

int store_orch_run_latest(struct db *db, const char *scope_key, struct store_orch_run *out)
{
    struct db_param p[] = {DBP_OPT(scope_key)};
    if (!scope_key)
        return one_run(db, "SELECT " RUN_COLS " FROM orch_runs ORDER BY accepted_us DESC, job_id DESC LIMIT 1", p, 0,
                       out);
    return one_run(db,
                   "SELECT " RUN_COLS " FROM orch_runs WHERE scope_key = ? ORDER BY accepted_us DESC, job_id DESC"
                   " LIMIT 1",
                   p, 1, out);
}

int store_orch_run_count(struct db *db, const char *scope_key, int64_t *n)
{
    struct db_param p[] = {DBP_OPT(scope_key)};
    if (!scope_key)
        return store_query_int(db, "SELECT COUNT(*) FROM orch_runs", p, 0, n);
    return store_query_int(db, "SELECT COUNT(*) FROM orch_runs WHERE scope_key = ?", p, 1, n);
}

int store_orch_run_start(struct db *db, const char *job_id, const char *now_iso)
{
    struct db_param p[] = {DBP_TEXT(now_iso), DBP_TEXT(job_id)};
    return store_exec_changed(db,
                              "UPDATE orch_runs SET status = 'running', phase = 0, phases_done = 0,"
                              " started_at = COALESCE(started_at, ?) WHERE job_id = ? AND active = 1",
                              p, 2, ST_NOTFOUND);
}

int store_orch_run_progress(struct db *db, const char *job_id, int phase, int phases_done)
{
    struct db_param p[] = {DBP_INT(phase), DBP_INT(phases_done), DBP_TEXT(job_id)};
    return store_exec_changed(db, "UPDATE orch_runs SET phase = ?, phases_done = ? WHERE job_id = ? AND active = 1",
                              p, 3, ST_NOTFOUND);
}

int store_orch_run_finish(struct db *db, const char *job_id, enum bw_run_status status, const char *error,
                          const char *now_iso)
{
    struct db_param p[] = {DBP_TEXT(bw_run_status_name(status)), DBP_OPT(error), DBP_TEXT(now_iso), DBP_TEXT(job_id)};
    return store_exec_changed(db,
                              "UPDATE orch_runs SET status = ?, error = ?, finished_at = ?, active = NULL"
                              " WHERE job_id = ? AND active = 1",
                              p, 4, ST_NOTFOUND);
}

struct snapshot_save {
    const struct store_orch_snapshot *s;
    const char *const *texts;
    int keep;
};

static int snapshot_save_tx(struct db_conn *c, void *arg)
{
    const struct snapshot_save *a = arg;
    const struct store_orch_snapshot *s = a->s;
    struct db_param p[] = {DBP_TEXT(s->id),         DBP_TEXT(s->scope_key), DBP_TEXT(s->job_id),
                           DBP_INT(s->max_items),   DBP_TEXT(s->created_at), DBP_INT(s->created_us),
                           DBP_TEXT(a->texts[0]),   DBP_TEXT(a->texts[1]),  DBP_TEXT(a->texts[2]),
                           DBP_TEXT(a->texts[3])};
    /* keep the newest few: a snapshot can be megabytes, and only the newest is served */
    struct db_param q[] = {DBP_TEXT(s->scope_key), DBP_TEXT(s->scope_key), DBP_INT(a->keep)};
    if (store_conn_exec(c,
                        "INSERT INTO orch_snapshots (id, scope_key, job_id, max_items, created_at, created_us, ciso,"
                        " aspm, compliance, hunt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        p, 10, NULL) != ST_OK ||
        store_conn_exec(c,
                        "DELETE FROM orch_snapshots WHERE scope_key = ? AND id NOT IN (SELECT id FROM orch_snapshots"
                        " WHERE scope_key = ? ORDER BY created_us DESC, id DESC LIMIT ?)",
                        q, 3, NULL) != ST_OK)
        return ST_ERROR;
    return ST_OK;
}

int store_orch_snapshot_save(struct db *db, const struct store_orch_snapshot *s, const char *const texts[4],
                             int keep)
{
    return store_tx(db, snapshot_save_tx, &(struct snapshot_save){s, texts, keep});
}

struct snapshot_out {
    struct store_orch_snapshot *meta;
    char **text;
};

static int read_snapshot(struct db_rows *r, void *arg)
{
    struct snapshot_out *o = arg;
    COPY(o->meta->id, db_rows_text(r, 0));
    COPY(o->meta->scope_key, db_rows_text(r, 1));
    COPY(o->meta->job_id, db_rows_text(r, 2));
    o->meta->max_items = (long)db_rows_int(r, 3);
    COPY(o->meta->created_at, db_rows_text(r, 4));
    o->meta->created_us = db_rows_int(r, 5);
    const char *t = db_rows_text(r, 6);
    *o->text = strdup(t ? t : "{}");
    return *o->text ? ST_OK : ST_ERROR;
}

int store_orch_snapshot_latest(struct db *db, const char *scope_key, enum store_orch_pack pack,
                               struct store_orch_snapshot *meta, char **text)
{
    static const char *const sql[4] = {
        "SELECT id, scope_key, job_id, max_items, created_at, created_us, ciso FROM orch_snapshots"
        " WHERE scope_key = ? ORDER BY created_us DESC, id DESC LIMIT 1",
        "SELECT id, scope_key, job_id, max_items, created_at, created_us, aspm FROM orch_snapshots"
        " WHERE scope_key = ? ORDER BY created_us DESC, id DESC LIMIT 1",
        "SELECT id, scope_key, job_id, max_items, created_at, created_us, compliance FROM orch_snapshots"
        " WHERE scope_key = ? ORDER BY created_us DESC, id DESC LIMIT 1",
        "SELECT id, scope_key, job_id, max_items, created_at, created_us, hunt FROM orch_snapshots"
        " WHERE scope_key = ? ORDER BY created_us DESC, id DESC LIMIT 1",
    };
    *text = NULL;
    struct db_param p[] = {DBP_TEXT(scope_key)};
    return store_query_one(db, sql[pack], p, 1, read_snapshot, &(struct snapshot_out){meta, text});
}

/* ---- the pipeline's reads ---- */

/* Appends rows to a JSON array with add, at most cap of them. */
struct json_rows {
    void (*add)(struct db_rows *r, json_t *out);
    json_t *out;
    size_t cap, n;
};

static int add_row(struct db_rows *r, void *arg)
{
    struct json_rows *j = arg;
    if (j->n < j->cap) {
        j->add(r, j->out);
        j->n++;
    }
    return ST_OK;
}

/* Runs sql (which has LIMIT cap) and hands each row to add (which appends to out). */
static int each_row(struct db *db, const char *sql, const struct db_param *p, int np, size_t cap,
                    void (*add)(struct db_rows *r, json_t *out), json_t *out)
{
    return store_query_each(db, sql, p, np, add_row, &(struct json_rows){add, out, cap, 0});
}

static json_t *text_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static void add_id(struct db_rows *r, json_t *out) { json_array_append_new(out, text_or_null(db_rows_text(r, 0))); }

int store_orch_managed(struct db *db, const char *manager_id, size_t cap, json_t *ids)
{
    struct db_param p[] = {DBP_TEXT(manager_id), DBP_INT((int64_t)cap)};
    return each_row(db, "SELECT id FROM users WHERE managed_by = ? ORDER BY id LIMIT ?", p, 2, cap, add_id, ids);
}

/* The caller's function for each row of a document read, and its argument. */
struct row_fn {
    union {
        store_orch_asset_fn asset;
        store_orch_engagement_fn engagement;
        store_orch_doc_fn doc;
    } fn;
    void *arg;
};

#define ASSET_SELECT                                                                                     \
    "SELECT a.id, a.user_id, a.name, a.type, a.provider, a.endpoint, a.env, a.security_score, a.risk_level," \
    " a.created_at, a.last_scan_id, a.last_scanned_at, s.body, a.score_basis FROM assets a"                             \
    " LEFT JOIN asset_scans s ON s.id = a.last_scan_id"

static int put_asset(struct db_rows *r, void *arg)
{
    const struct row_fn *f = arg;
    f->fn.asset(f->arg, &(struct store_orch_asset){
                            .id = db_rows_text(r, 0),
                            .user_id = db_rows_text(r, 1),
                            .name = db_rows_text(r, 2),
                            .type = db_rows_text(r, 3),
                            .provider = db_rows_text(r, 4),
                            .endpoint = db_rows_text(r, 5),
                            .env = db_rows_text(r, 6),
                            .security_score = db_rows_int(r, 7),
                            .risk_level = db_rows_text(r, 8),
                            .created_at = db_rows_text(r, 9),
                            .last_scan_id = db_rows_text(r, 10),
                            .last_scanned_at = db_rows_text(r, 11),
                            .scan = db_rows_text(r, 12),
                            .score_basis = db_rows_text(r, 13),
                        });
    return ST_OK;
}

/* The reads below have LIMIT cap, so at most cap rows reach fn. */
int store_orch_assets(struct db *db, const char *user_id, size_t cap, store_orch_asset_fn fn, void *arg)
{
    struct db_param p[] = {DBP_OPT(user_id), DBP_INT((int64_t)cap)};
    struct row_fn f = {.fn.asset = fn, .arg = arg};
    if (!user_id)
        return store_query_each(db, ASSET_SELECT " ORDER BY a.created_us DESC, a.id DESC LIMIT ?", p + 1, 1, put_asset,
                                &f);
    return store_query_each(db, ASSET_SELECT " WHERE a.user_id = ? ORDER BY a.created_us DESC, a.id DESC LIMIT ?", p,
                            2, put_asset, &f);
}

#define ENG_SELECT "SELECT id, user_id, asset_id, overall_risk, finished_at, report FROM engagements"

static int put_engagement(struct db_rows *r, void *arg)
{
    const struct row_fn *f = arg;
    f->fn.engagement(f->arg, &(struct store_orch_engagement){
                                 .id = db_rows_text(r, 0),
                                 .user_id = db_rows_text(r, 1),
                                 .asset_id = db_rows_text(r, 2),
                                 .overall_risk = db_rows_text(r, 3),
                                 .finished_at = db_rows_text(r, 4),
                                 .report = db_rows_text(r, 5),
                             });
    return ST_OK;
}

int store_orch_engagements(struct db *db, const char *user_id, size_t cap, store_orch_engagement_fn fn, void *arg)
{
    struct db_param p[] = {DBP_OPT(user_id), DBP_INT((int64_t)cap)};
    struct row_fn f = {.fn.engagement = fn, .arg = arg};
    if (!user_id)
        return store_query_each(db, ENG_SELECT " WHERE status = 'completed' ORDER BY created_us DESC, id DESC LIMIT ?",
                                p + 1, 1, put_engagement, &f);
    return store_query_each(
        db, ENG_SELECT " WHERE user_id = ? AND status = 'completed' ORDER BY created_us DESC, id DESC LIMIT ?", p, 2,
        put_engagement, &f);
}

static int put_doc(struct db_rows *r, void *arg)
{
    const struct row_fn *f = arg;
    f->fn.doc(f->arg, db_rows_text(r, 0));
    return ST_OK;
}

int store_orch_active_cves(struct db *db, size_t limit, store_orch_doc_fn fn, void *arg)
{
    struct db_param p[] = {DBP_INT((int64_t)limit)};
    return store_query_each(db,
                            "SELECT doc FROM intel_records WHERE substr(id, 1, 4) = 'CVE-' AND (kev = 1 OR severity IN"
                            " ('CRITICAL', 'HIGH')) ORDER BY risk_score DESC, id LIMIT ?",
                            p, 1, put_doc, &(struct row_fn){.fn.doc = fn, .arg = arg});
}

int store_orch_kev(struct db *db, size_t cap, store_orch_doc_fn fn, void *arg)
{
    struct db_param p[] = {DBP_INT((int64_t)cap)};
    return store_query_each(db, "SELECT doc FROM intel_records WHERE kev = 1 ORDER BY risk_score DESC, id LIMIT ?", p,
                            1, put_doc, &(struct row_fn){.fn.doc = fn, .arg = arg});
}

static int read_counts(struct db_rows *r, void *arg)
{
    struct store_orch_counts *o = arg;
    o->records = db_rows_int(r, 0);
    o->cves = db_rows_int(r, 1);
    o->cves_kev = db_rows_int(r, 2);
    o->critical = db_rows_int(r, 3);
    o->critical_kev = db_rows_int(r, 4);
    o->critical_ai = db_rows_int(r, 5);
    return ST_OK;
}

int store_orch_counts(struct db *db, struct store_orch_counts *out)
{
    memset(out, 0, sizeof *out);
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    /* The stored document is canonical JSON (compact, sorted keys), so an empty list is exactly
     * the bytes `"ai_impact":[]`; quotes inside string values are escaped and cannot fake it. */
    int rc = store_conn_one(c,
                            "SELECT (SELECT COALESCE(SUM(n), 0) FROM intel_counts),"
                            " COUNT(*), SUM(kev),"
                            " SUM(CASE WHEN severity = 'CRITICAL' THEN 1 ELSE 0 END),"
                            " SUM(CASE WHEN severity = 'CRITICAL' AND kev = 1 THEN 1 ELSE 0 END),"
                            " SUM(CASE WHEN severity = 'CRITICAL' AND (doc NOT LIKE '%\"ai_impact\":[]%'"
                            " OR doc NOT LIKE '%\"atlas_techniques\":[]%') THEN 1 ELSE 0 END)"
                            " FROM intel_records WHERE substr(id, 1, 4) = 'CVE-'",
                            NULL, 0, read_counts, out);
    if (rc == ST_OK)
        rc = store_conn_int(c, "SELECT COUNT(*) FROM intel_records WHERE kev = 1", NULL, 0, &out->kev);
    db_release(c);
    return rc == ST_NOTFOUND ? ST_ERROR : rc; /* an aggregate has its row, or it failed */
}

static void add_stale(struct db_rows *r, json_t *out)
{
    json_array_append_new(out, json_pack("{s:o,s:I,s:I}", "threat_id", text_or_null(db_rows_text(r, 0)),
                                         "record_version", (json_int_t)db_rows_int(r, 1), "current_version",
                                         (json_int_t)db_rows_int(r, 2)));
}

int store_orch_stale_playbooks(struct db *db, const char *user_id, size_t cap, json_t *out)
{
    struct db_param p[] = {DBP_TEXT(user_id), DBP_INT((int64_t)cap)};
    return each_row(db,
                    "SELECT p.threat_id, MAX(p.record_version), r.version FROM playbooks p"
                    " JOIN intel_records r ON r.id = p.threat_id WHERE p.user_id = ?"
                    " GROUP BY p.threat_id, r.version HAVING MAX(p.record_version) < r.version"
                    " ORDER BY p.threat_id LIMIT ?",
                    p, 2, cap, add_stale, out);
}

int store_orch_asset_count(struct db *db, const char *user_id, int64_t *n)
{
    struct db_param p[] = {DBP_OPT(user_id)};
    if (!user_id)
        return store_query_int(db, "SELECT COUNT(*) FROM assets", p, 0, n);
    return store_query_int(db, "SELECT COUNT(*) FROM assets WHERE user_id = ?", p, 1, n);
}
