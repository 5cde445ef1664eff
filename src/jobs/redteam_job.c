#include "jobs/redteam_job.h"

#include "common/errors.h"
#include "common/log.h"
#include "common/seal.h"
#include "common/timeutil.h"
#include "engine/code/scanner.h"
#include "engine/redteam/redteam.h"
#include "engine/redteam/report.h"
#include "services/packages.h"
#include "services/redteam.h"
#include "services/webhooks.h"
#include "store/store.h"
#include "store/store_redteam.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long bw_redteam_attack_timeout(int64_t lease_ms)
{
    /* a third: target detection makes two exchanges before the first heartbeat */
    long third = (long)(lease_ms / 3);
    return third > 0 && third < BW_RT_ATTACK_TIMEOUT_MS ? third : BW_RT_ATTACK_TIMEOUT_MS;
}

static void now_iso(char out[21]) { bw_iso8601(bw_now_s(), out); }

/* engagement.completed for the account's webhooks: the engagement ended (completed, or failed
 * when no attack got an answer). */
static void ended(struct db *db, const struct store_engagement *e, const char *status, const char *risk, long attacks,
                  long succeeded, const char *finished_at)
{
    json_t *data = json_pack("{s:s,s:s,s:s,s:s?,s:i,s:i,s:s}", "engagement_id", e->id, "asset_id", e->asset_id,
                             "status", status, "overall_risk", risk, "attacks", (int)attacks, "attacks_succeeded",
                             (int)succeeded, "finished_at", finished_at);
    if (data)
        (void)bw_webhooks_emit(db, e->user_id, BW_WH_ENGAGEMENT_COMPLETED, data);
    json_decref(data);
}

/* Scores the stored rows and ends the engagement completed (or failed when no attack got an
 * answer). */
static enum bw_job_result finalize(struct bw_job_ctx *ctx, const struct bw_rt_library *lib,
                                   const struct store_engagement *e)
{
    struct store_attack_row *rows = NULL;
    size_t n = 0;
    if (store_engagement_attacks(ctx->db, e->id, &rows, &n) != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        return BW_JOB_RETRY;
    }
    struct bw_rt_outcome *o = bw_redteam_outcomes(rows, n);
    const char *risk = NULL;
    json_t *doc = o ? bw_rt_report_final(lib, o, n, &risk) : NULL;
    int evaluated = 0;
    long ms = 0;
    long succeeded = 0;
    for (size_t i = 0; i < n; i++)
        if (!rows[i].errored) {
            evaluated++;
            ms += rows[i].elapsed_ms;
            succeeded += rows[i].succeeded > 0;
        }
    char ts[21];
    now_iso(ts);
    int rc;
    if (!doc) {
        rc = ST_ERROR;
    } else if (evaluated == 0) {
        char err[256];
        snprintf(err, sizeof err, "no attack got an answer from the target (%.200s)",
                 n ? rows[0].response_excerpt : "nothing ran");
        rc = store_engagement_finish(ctx->db, e->id, BW_RUN_FAILED, NULL, err, NULL, -1, ts);
    } else {
        char *text = json_dumps(doc, JSON_COMPACT);
        rc = text ? store_engagement_finish(ctx->db, e->id, BW_RUN_COMPLETED, risk, NULL, text, (int)(ms / evaluated), ts)
                  : ST_ERROR;
        free(text);
    }
    json_decref(doc);
    free(o);
    free(rows);
    if (rc == ST_CONFLICT) /* cancelled while we scored */
        return BW_JOB_CANCELLED;
    if (rc != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        return BW_JOB_RETRY;
    }
    ended(ctx->db, e, evaluated ? "completed" : "failed", risk, (long)n, succeeded, ts);
    return BW_JOB_DONE;
}

static bool done_already(const struct store_attack_row *rows, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].attack_id, id) == 0)
            return true;
    return false;
}

/* The goal's detector as attack rows have named it since the first red team ("exfil_url"). */
static const char *goal_name(int d) { return d == BW_DET_EXFIL ? "exfil_url" : bw_rt_det_name(d); }

/* The code scanner's secrets rules for the judge: one per process, built on first use (a worker
 * process has no app to borrow it from). NULL when it cannot be built: credential shapes only. */
static pthread_once_t g_scanner_once = PTHREAD_ONCE_INIT;
static struct bw_scanner *g_scanner;

static void scanner_init(void)
{
    char why[256] = "";
    g_scanner = bw_scanner_new_embedded(why, sizeof why);
    if (!g_scanner)
        bw_logf(BW_LOG_WARN, NULL, "red team: the secrets rules are unavailable (%s); credential shapes only", why);
}

static const struct bw_scanner *judge_scanner(void)
{
    pthread_once(&g_scanner_once, scanner_init);
    return g_scanner;
}

/* attack_one's answer when the lease was lost or the process is stopping (not a store_rc) */
enum { ATTACK_INTERRUPTED = 100 };

/* What the adaptive attack's callbacks need: where to store, and why they stopped. */
struct attack_run {
    struct bw_job_ctx *ctx;
    const struct store_engagement *e;
    const char *attack_id;
    int rc;            /* ST_CONFLICT when the engagement ended meanwhile, ST_ERROR when storage failed */
    bool interrupted;  /* the lease was lost or the process is stopping */
};

/* An exchange as stored: {reply, body?} sealed when the server has a key (a reply may hold what
 * the target leaked), else the JSON itself. */
static char *exchange_text(const struct bw_job_ctx *ctx, const struct bw_rt_exchange *x)
{
    json_t *doc = json_pack("{s:s}", "reply", x->reply ? x->reply : "");
    if (doc && x->body)
        json_object_set_new(doc, "body", json_stringn(x->body, x->body_len));
    char *plain = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    if (!plain || !ctx->seal)
        return plain;
    char *sealed = bw_seal_text(ctx->seal, plain, strlen(plain));
    bw_unsealed_free(plain);
    return sealed;
}

static int record_turn(void *ud, const struct bw_rt_exchange *x)
{
    struct attack_run *ar = ud;
    struct store_turn t = {.step = x->step, .turn = x->turn, .status = x->status, .elapsed_ms = x->elapsed_ms};
    snprintf(t.path, sizeof t.path, "%s", x->path ? x->path : "");
    t.exchange = exchange_text(ar->ctx, x);
    ar->rc = t.exchange ? store_engagement_turn_save(ar->ctx->db, ar->e->id, ar->attack_id, &t, bw_now_us()) : ST_ERROR;
    free(t.exchange);
    return ar->rc == ST_OK ? 0 : -1;
}

static bool still_running(void *ud)
{
    struct attack_run *ar = ud;
    if (!bw_job_heartbeat(ar->ctx)) {
        ar->interrupted = true;
        return false;
    }
    enum bw_run_status status;
    if (store_engagement_status(ar->ctx->db, ar->e->id, &status) == ST_OK && status != BW_RUN_RUNNING) {
        ar->rc = ST_CONFLICT;
        return false;
    }
    return true;
}

/* The attack's stored exchanges, opened: x[i] borrows from docs[i] (json_decref each). A stored
 * exchange that cannot be opened (another key) ends the list there: from it on, the attack asks
 * again. */
static size_t load_replay(struct bw_job_ctx *ctx, const struct store_turn *t, size_t n, struct bw_rt_exchange *x,
                          json_t **docs)
{
    size_t k = 0;
    for (; k < n; k++) {
        const char *s = t[k].exchange;
        char *plain = s[0] == '{' ? NULL : ctx->seal ? bw_unseal_text(ctx->seal, s, NULL) : NULL;
        docs[k] = json_loads(plain ? plain : s, 0, NULL);
        bw_unsealed_free(plain);
        const char *reply = json_string_value(json_object_get(docs[k], "reply"));
        if (!reply || t[k].step != (int)k) {
            json_decref(docs[k]);
            break;
        }
        json_t *body = json_object_get(docs[k], "body");
        x[k] = (struct bw_rt_exchange){t[k].step, t[k].path, t[k].turn, t[k].status, reply, json_string_value(body),
                                       json_string_length(body), t[k].elapsed_ms};
    }
    return k;
}

/* Runs one attack (or records that it cannot), escalating it within its share of the budget, and
 * stores its row; ST_CONFLICT when the engagement ended meanwhile (nothing stored), ATTACK_INTERRUPTED
 * when the run was interrupted (the stored turns wait for the next claim). later: attacks after this one
 * still to run (each keeps a share of the budget). */
static int attack_one(struct bw_job_ctx *ctx, const struct bw_rt_library *lib, const struct store_engagement *e,
                      const struct bw_rt_target *t, const char *id, int seq, size_t later)
{
    struct store_attack_row row;
    memset(&row, 0, sizeof row);
    snprintf(row.attack_id, sizeof row.attack_id, "%s", id);
    row.seq = seq;
    const struct bw_rt_attack *a = bw_rt_find(lib, id);
    if (!a) { /* the library changed under a long-lived engagement */
        row.errored = 1;
        snprintf(row.severity, sizeof row.severity, "MEDIUM");
        snprintf(row.detector, sizeof row.detector, "none");
        snprintf(row.response_excerpt, sizeof row.response_excerpt, "this attack is no longer in the library");
        return store_engagement_attack_save(ctx->db, e->id, &row, bw_now_us());
    }
    long used = 0, used_ms = 0;
    struct store_turn *turns = NULL;
    size_t nturns = 0;
    if (store_engagement_turn_usage(ctx->db, e->id, id, &used, &used_ms) != ST_OK ||
        store_engagement_turns(ctx->db, e->id, id, &turns, &nturns) != ST_OK)
        return ST_ERROR;
    struct bw_rt_exchange *x = calloc(nturns ? nturns : 1, sizeof *x);
    json_t **docs = calloc(nturns ? nturns : 1, sizeof *docs);
    if (!x || !docs) {
        free(x);
        free(docs);
        store_turns_free(turns, nturns);
        return ST_ERROR;
    }
    size_t nreplay = load_replay(ctx, turns, nturns, x, docs);
    /* an equal share of what is left to this attack and each later one (unused requests pass on) */
    long left = e->budget_requests - used, left_ms = (long)e->budget_seconds * 1000 - used_ms;
    struct attack_run ar = {ctx, e, id, ST_OK, false};
    struct bw_rt_adaptive ad = {
        .replay = x,
        .nreplay = nreplay,
        .record = record_turn,
        .alive = still_running,
        .ud = &ar,
        /* at least the attack as written; 0 (engagements before 0036): no escalation */
        .budget_requests = e->budget_requests > 0 ? (left / (long)(later + 1) > 1 ? left / (long)(later + 1) : 1) : 0,
        .budget_ms = left_ms > 0 ? left_ms / (long)(later + 1) : 1,
    };
    struct bw_rt_result r;
    bw_rt_attack_adaptive(lib, a, t, e->canary, &ad, &r);
    for (size_t i = 0; i < nreplay; i++)
        json_decref(docs[i]);
    free(docs);
    free(x);
    store_turns_free(turns, nturns);
    if (ar.interrupted)
        return ATTACK_INTERRUPTED;
    if (ar.rc != ST_OK)
        return ar.rc;
    row.succeeded = r.succeeded;
    row.errored = r.errored;
    row.elapsed_ms = r.elapsed_ms;
    snprintf(row.severity, sizeof row.severity, "%s", a->severity);
    snprintf(row.detector, sizeof row.detector, "%s", goal_name(a->detector));
    snprintf(row.prompt, sizeof row.prompt, "%s", r.prompt);
    snprintf(row.response_excerpt, sizeof row.response_excerpt, "%s", r.excerpt);
    snprintf(row.findings, sizeof row.findings, "%s", r.findings[0] ? r.findings : "[]");
    snprintf(row.path, sizeof row.path, "%s", ad.path);
    snprintf(row.search, sizeof row.search, "%s", ad.end == BW_RT_END_NONE ? "" : bw_rt_search_end_name(ad.end));
    row.requests = ad.requests > 0 ? ad.requests : 1;
    return store_engagement_attack_save(ctx->db, e->id, &row, bw_now_us());
}

/* The engagement's asset's connection document (*conn, NULL when none or the asset is gone) and
 * its opened secret (*secret, NULL when none; bw_unsealed_free). -1 with why when storage fails or
 * the secret cannot be opened (then nothing is attacked with the wrong credentials). */
static int load_connection(struct bw_job_ctx *ctx, const struct store_engagement *e, json_t **conn, char **secret,
                           char *why, size_t cap)
{
    *conn = NULL;
    *secret = NULL;
    struct store_asset *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    int rc = store_asset_get(ctx->db, e->user_id, e->asset_id, a);
    if (rc == ST_OK && a->connection && strcmp(a->endpoint, e->target_url) == 0) {
        *conn = json_loads(a->connection, 0, NULL);
        if (a->auth_sealed && !(ctx->seal && (*secret = bw_unseal_text(ctx->seal, a->auth_sealed, NULL)))) {
            json_decref(*conn);
            *conn = NULL;
            rc = ST_ERROR;
            snprintf(why, cap, "the asset's sealed secret cannot be opened with this worker's key");
        }
    } else if (rc == ST_NOTFOUND) {
        rc = ST_OK;
    } else if (rc != ST_OK) {
        snprintf(why, cap, "%s", BW_MSG_STORAGE_UNAVAILABLE);
    }
    store_asset_clear(a);
    free(a);
    return rc == ST_OK ? 0 : -1;
}

/* Runs the attacks without a row, in selection order, then scores. */
static enum bw_job_result attack_all(struct bw_job_ctx *ctx, const struct bw_rt_library *lib,
                                     const struct store_engagement *e, json_t *ids)
{
    struct store_attack_row *rows = NULL;
    size_t nrows = 0;
    if (store_engagement_attacks(ctx->db, e->id, &rows, &nrows) != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        return BW_JOB_RETRY;
    }
    enum bw_job_result res = BW_JOB_DONE;
    if (nrows < json_array_size(ids)) {
        char why[512];
        /* the asset's connection as it is now (a PATCH between engage and run counts), its
         * secret opened for this run only */
        json_t *conn = NULL;
        char *secret = NULL;
        if (load_connection(ctx, e, &conn, &secret, why, sizeof why) != 0) {
            free(rows);
            snprintf(ctx->error, sizeof ctx->error, "%.200s", why);
            return BW_JOB_RETRY;
        }
        struct bw_rt_target *t = malloc(sizeof *t);
        if (!t) {
            json_decref(conn);
            bw_unsealed_free(secret);
            free(rows);
            snprintf(ctx->error, sizeof ctx->error, "out of memory");
            return BW_JOB_RETRY;
        }
        int drc = bw_rt_target_detect(e->target_url, conn, secret, ctx->egress_allow,
                                      bw_redteam_attack_timeout(ctx->lease_ms), t, why, sizeof why);
        t->scanner = judge_scanner();
        /* the imported package index, asked name by name: an import made while the engagement
         * runs counts from its next reply */
        struct bw_rt_pkg_index pix = bw_packages_index(ctx->db);
        t->packages = &pix;
        if (drc != 0) {
            json_decref(conn);
            bw_unsealed_free(secret);
            free(t);
            char ts[21];
            now_iso(ts);
            free(rows);
            /* a domain outcome, not a job failure: the engagement fails with the reason */
            int frc = store_engagement_finish(ctx->db, e->id, BW_RUN_FAILED, NULL, why, NULL, -1, ts);
            if (frc == ST_ERROR) {
                snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
                return BW_JOB_RETRY;
            }
            if (frc == ST_OK)
                ended(ctx->db, e, "failed", NULL, 0, 0, ts);
            return BW_JOB_DONE;
        }
        size_t i;
        json_t *v;
        json_array_foreach(ids, i, v) {
            const char *id = json_string_value(v);
            if (!id || done_already(rows, nrows, id))
                continue;
            if (!bw_job_heartbeat(ctx)) {
                res = BW_JOB_INTERRUPTED;
                break;
            }
            enum bw_run_status status;
            if (store_engagement_status(ctx->db, e->id, &status) == ST_OK && status != BW_RUN_RUNNING) {
                res = BW_JOB_CANCELLED;
                break;
            }
            size_t later = 0;
            for (size_t j = i + 1; j < json_array_size(ids); j++) {
                const char *nid = json_string_value(json_array_get(ids, j));
                later += nid && !done_already(rows, nrows, nid);
            }
            int rc = attack_one(ctx, lib, e, t, id, (int)i, later);
            if (rc == ST_CONFLICT) { /* cancelled while the attack ran: its result is dropped */
                res = BW_JOB_CANCELLED;
                break;
            }
            if (rc == ATTACK_INTERRUPTED) {
                res = BW_JOB_INTERRUPTED;
                break;
            }
            if (rc != ST_OK) {
                snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
                res = BW_JOB_RETRY;
                break;
            }
        }
        bw_rt_target_free(t);
        free(t);
        json_decref(conn);
        bw_unsealed_free(secret);
    }
    free(rows);
    return res == BW_JOB_DONE ? finalize(ctx, lib, e) : res;
}

static enum bw_job_result rt_run(struct bw_job_ctx *ctx)
{
    const struct bw_rt_library *lib = bw_rt_library_get();
    if (!lib) {
        snprintf(ctx->error, sizeof ctx->error, "the attack library is broken");
        return BW_JOB_FAILED;
    }
    struct store_engagement *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(ctx->error, sizeof ctx->error, "out of memory");
        return BW_JOB_RETRY;
    }
    enum bw_job_result res;
    int rc = store_engagement_get(ctx->db, NULL, ctx->job->ref, e);
    if (rc == ST_NOTFOUND) {
        res = BW_JOB_DONE;
        goto out;
    }
    if (rc != ST_OK) {
        snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        res = BW_JOB_RETRY;
        goto out;
    }
    /* ended before this claim (e.g. a crash between finishing it and finishing the job) */
    if (!bw_run_active(e->status)) {
        res = e->status == BW_RUN_CANCELLED ? BW_JOB_CANCELLED : BW_JOB_DONE;
        goto out;
    }
    char ts[21];
    now_iso(ts);
    rc = store_engagement_start(ctx->db, e->id, ts);
    if (rc != ST_OK) {
        res = rc == ST_CONFLICT ? BW_JOB_CANCELLED : BW_JOB_RETRY;
        if (rc != ST_CONFLICT)
            snprintf(ctx->error, sizeof ctx->error, "%s", BW_MSG_STORAGE_UNAVAILABLE);
        goto out;
    }
    json_t *ids = json_loads(e->attack_ids, 0, NULL);
    if (!json_is_array(ids)) {
        json_decref(ids);
        snprintf(ctx->error, sizeof ctx->error, "the engagement's attack list is unreadable");
        res = BW_JOB_FAILED;
        goto out;
    }
    res = attack_all(ctx, lib, e, ids);
    json_decref(ids);
out:
    store_engagement_clear(e);
    free(e);
    return res;
}

static void rt_failed(struct db *db, const struct store_job *job, const char *error)
{
    char ts[21];
    now_iso(ts);
    if (store_engagement_finish(db, job->ref, BW_RUN_FAILED, NULL, error, NULL, -1, ts) != ST_OK)
        return; /* already ended (cancelled, or another path finished it): no second event */
    struct store_engagement *e = calloc(1, sizeof *e);
    if (e && store_engagement_get(db, NULL, job->ref, e) == ST_OK)
        ended(db, e, "failed", NULL, e->attack_count, e->attacks_succeeded, ts);
    if (e)
        store_engagement_clear(e);
    free(e);
}

int64_t bw_rt_turns_retention_ms(long days) { return days > 0 ? (int64_t)days * 86400 * 1000 : -1; }

/* Retention of the stored requests (engagement_turns): they serve resuming a running engagement
 * and nothing after its end, and hold what the target leaked. Each process's scheduler deletes
 * those of engagements that ended longer ago than the retention, hourly (every second when it is
 * 0); concurrent sweeps of several instances delete the same rows once. */
static int64_t rt_tick(struct db *db, int64_t now_ms, const struct bw_jobs_opts *o)
{
    int64_t keep = o->rt_turns_retention_ms == 0 ? (int64_t)BW_RT_TURNS_RETENTION_DAYS * 86400 * 1000
                                                 : o->rt_turns_retention_ms;
    if (keep < 0)
        keep = 0;
    char before[21];
    bw_iso8601((now_ms - keep) / 1000, before);
    int64_t n = 0;
    if (store_engagement_turns_purge(db, before, BW_RT_TURNS_PURGE_BATCH, &n) != ST_OK)
        bw_logf(BW_LOG_WARN, NULL, "red-team turns retention: the database did not answer");
    else if (n > 0)
        bw_log_json(BW_LOG_INFO, NULL, "red-team turns retention",
                    json_pack("{s:I,s:s}", "deleted", (json_int_t)n, "ended_before", before));
    return now_ms + (keep == 0 ? BW_RT_TURNS_SWEEP_NOW_MS : BW_RT_TURNS_SWEEP_MS);
}

const struct bw_job_kind bw_redteam_job_kind = {.kind = "redteam", .run = rt_run, .failed = rt_failed,
                                                .tick = rt_tick};
