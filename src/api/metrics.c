/* GET /metrics: Prometheus text exposition format 0.0.4 (the list of metrics and what they mean is
 * docs/metrics.md). Admin key (or admin role) unless BULWARK_METRICS_PUBLIC is set; never rate
 * limited, so scraping cannot lock anyone out.
 *
 * Counters live with what they count and are only read here: the HTTP layer's per-thread slots
 * (http/metrics.h), the job workers, the code scanner, egress and the database layer. The job
 * queue gauges are the one database read of a scrape (store_job_queue_stats, one grouped query). */
#include "api/api.h"
#include "audit/audit.h"
#include "common/bcache.h"
#include "common/metrics.h"
#include "common/timeutil.h"
#include "engine/code/scanner.h"
#include "http/metrics.h"
#include "jobs/jobs.h"
#include "net/egress.h"
#include "services/orch_cache.h"
#include "store/store.h"
#include "store/store_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void api_metrics_limiters(FILE *f, const struct api_ctx *c)
{
    bw_prom_family(f, "bulwark_ratelimit_tracked_keys", "gauge",
                   "Accounts and client IPs tracked by the rate limiter.");
    bw_prom_sample_u(f, "bulwark_ratelimit_tracked_keys", NULL, bw_limiter_size(c->rate));
    bw_prom_family(f, "bulwark_ratelimit_evictions_total", "counter",
                   "Live limiter entries evicted to track a new key when this process's table was full, by "
                   "limiter (rate, login_email, login_ip).");
    const struct {
        const char *name;
        struct bw_limiter *l;
    } lim[] = {{"rate", c->rate}, {"login_email", c->login_email}, {"login_ip", c->login_ip}};
    for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
        bw_prom_sample_u(f, "bulwark_ratelimit_evictions_total", BW_PROM_L1("limiter", lim[i].name),
                         lim[i].l ? bw_limiter_evictions(lim[i].l) : 0);
}

static void write_process(FILE *f, struct api_ctx *app)
{
    bw_prom_family(f, "bulwark_build_info", "gauge", "Version and storage backend.");
    bw_prom_sample_u(f, "bulwark_build_info", BW_PROM_L2("version", BULWARK_VERSION, "backend", db_backend(app->db)), 1);
    bw_prom_family(f, "bulwark_uptime_seconds", "gauge", "Seconds since the server started.");
    bw_prom_sample_u(f, "bulwark_uptime_seconds", NULL, (unsigned long long)(bw_now_s() - app->started_s));
    bw_prom_family(f, "bulwark_http_requests_in_flight", "gauge", "Requests being processed.");
    bw_prom_sample_u(f, "bulwark_http_requests_in_flight", NULL, (unsigned long long)bw_http_in_flight());
    api_metrics_limiters(f, app);
    bw_prom_family(f, "bulwark_http_slow_clients_closed_total", "counter",
                   "Connections cut because a request did not arrive within BULWARK_CONN_TIMEOUT_S.");
    bw_prom_sample_u(f, "bulwark_http_slow_clients_closed_total", NULL, bw_guard_cut_total());
    bw_prom_family(f, "bulwark_audit_events_dropped_total", "counter",
                   "Audit events not recorded (no room between flushes, or the write failed).");
    bw_prom_sample_u(f, "bulwark_audit_events_dropped_total", NULL, bw_audit_dropped(app->audit));
    bw_prom_family(f, "bulwark_orch_pack_computations_total", "counter",
                   "Orchestrator pipelines run on demand for pack requests (a scope without a snapshot); "
                   "concurrent and cached requests of the scope share one.");
    bw_prom_sample_u(f, "bulwark_orch_pack_computations_total", NULL,
                     app->orch_cache ? bw_orch_cache_computations(app->orch_cache) : 0);
}

/* The in-memory caches of answers, by name (common/bcache.c): the anonymous playbook envelopes
 * (keyed by record id + version) and the feed's pages (by intel generation + query). */
#define NCACHES 2
static void write_caches(FILE *f, struct api_ctx *app)
{
    const char *names[NCACHES] = {"playbooks", "feed"};
    struct bw_bcache *caches[NCACHES] = {app->playbooks, app->feed_pages};
    unsigned long long v[NCACHES][5] = {{0}};
    for (size_t i = 0; i < NCACHES; i++) {
        struct bw_bcache_stats st = {0};
        if (caches[i])
            bw_bcache_stats(caches[i], &st);
        v[i][0] = st.hits, v[i][1] = st.misses, v[i][2] = st.evictions, v[i][3] = st.entries, v[i][4] = st.bytes;
    }
    static const char *const fam[5][3] = {
        {"bulwark_cache_hits_total", "counter", "Lookups answered from the cache, by cache."},
        {"bulwark_cache_misses_total", "counter", "Lookups the cache did not hold (the answer was built), by cache."},
        {"bulwark_cache_evictions_total", "counter", "Entries dropped to make room (least recently used), by cache."},
        {"bulwark_cache_entries", "gauge", "Entries held, by cache."},
        {"bulwark_cache_bytes", "gauge", "Bytes of values held, by cache."},
    };
    for (size_t k = 0; k < 5; k++) {
        bw_prom_family(f, fam[k][0], fam[k][1], fam[k][2]);
        for (size_t i = 0; i < NCACHES; i++)
            bw_prom_sample_u(f, fam[k][0], BW_PROM_L1("cache", names[i]), v[i][k]);
    }
}

/* The job kinds to show: the registered ones, then any other kind the queue holds. */
static size_t job_kinds(const char **kinds, size_t cap, const struct store_job_queue *q, size_t nq)
{
    size_t n = bw_jobs_kinds(kinds, cap);
    for (size_t i = 0; i < nq && n < cap; i++) {
        size_t k = 0;
        while (k < n && strcmp(kinds[k], q[i].kind) != 0)
            k++;
        if (k == n)
            kinds[n++] = q[i].kind;
    }
    return n;
}

/* The queue entry of a kind, or NULL. */
static const struct store_job_queue *queue_of(const struct store_job_queue *q, size_t nq, const char *kind)
{
    for (size_t i = 0; i < nq; i++)
        if (strcmp(q[i].kind, kind) == 0)
            return &q[i];
    return NULL;
}

static void write_jobs(FILE *f, struct api_ctx *app)
{
    struct store_job_queue q[BW_METRICS_JOB_KINDS_MAX];
    size_t nq = 0;
    bool have = store_job_queue_stats(app->db, q, BW_METRICS_JOB_KINDS_MAX, &nq) == ST_OK;
    if (!have)
        nq = 0;
    const char *kinds[BW_METRICS_JOB_KINDS_MAX];
    size_t nk = job_kinds(kinds, BW_METRICS_JOB_KINDS_MAX, q, nq);
    int64_t now_ms = bw_now_us() / 1000;

    bw_prom_family(f, "bulwark_jobs_queue_depth", "gauge",
                   "Jobs in the queue that every instance on the database shares, by kind and state (queued, "
                   "running). Absent when the database could not be read.");
    for (size_t k = 0; have && k < nk; k++) {
        const struct store_job_queue *e = queue_of(q, nq, kinds[k]);
        bw_prom_sample_u(f, "bulwark_jobs_queue_depth",
                         BW_PROM_L2("kind", kinds[k], "state", bw_job_state_name(BW_JOB_STATE_QUEUED)),
                         e ? (unsigned long long)e->queued : 0);
        bw_prom_sample_u(f, "bulwark_jobs_queue_depth",
                         BW_PROM_L2("kind", kinds[k], "state", bw_job_state_name(BW_JOB_STATE_RUNNING)),
                         e ? (unsigned long long)e->running : 0);
    }
    bw_prom_family(f, "bulwark_jobs_oldest_queued_age_seconds", "gauge",
                   "Seconds since the oldest queued job of a kind was created (0 when none is queued).");
    for (size_t k = 0; have && k < nk; k++) {
        const struct store_job_queue *e = queue_of(q, nq, kinds[k]);
        double age = e && e->queued && now_ms > e->oldest_queued_ms ? (double)(now_ms - e->oldest_queued_ms) / 1e3 : 0;
        bw_prom_sample_d(f, "bulwark_jobs_oldest_queued_age_seconds", BW_PROM_L1("kind", kinds[k]), age);
    }

    bw_prom_family(f, "bulwark_jobs_finished_total", "counter",
                   "Jobs this process's workers ended, by kind and outcome (done, cancelled, retry, failed, "
                   "interrupted); a job the reaper failed counts as failed.");
    const char *reg[BW_JOB_KINDS_MAX];
    size_t nreg = bw_jobs_kinds(reg, BW_JOB_KINDS_MAX);
    for (size_t k = 0; k <= BW_JOB_KINDS_MAX; k++) {
        bool unknown = k == BW_JOB_KINDS_MAX;
        if (!unknown && k >= nreg)
            continue;
        unsigned long v[BW_JOB__RESULTS], any = 0;
        for (int r = 0; r < BW_JOB__RESULTS; r++)
            any |= v[r] = bw_jobs_finished(k, (enum bw_job_result)r);
        if (unknown && !any) /* kinds without a handler only once they happened */
            continue;
        for (int r = 0; r < BW_JOB__RESULTS; r++)
            bw_prom_sample_u(f, "bulwark_jobs_finished_total",
                             BW_PROM_L2("kind", unknown ? "unknown" : reg[k], "outcome",
                                        bw_job_result_name((enum bw_job_result)r)),
                             v[r]);
    }
}

static void write_codescan(FILE *f, struct api_ctx *app)
{
    struct bw_scan_stats st[BW_LANG_COUNT];
    for (int l = 0; l < BW_LANG_COUNT; l++)
        bw_scanner_stats(app->scanner, (enum bw_lang)l, &st[l]);
    bw_prom_family(f, "bulwark_codescan_scans_total", "counter", "Code scans run, by language.");
    for (int l = 0; l < BW_LANG_COUNT; l++)
        bw_prom_sample_u(f, "bulwark_codescan_scans_total", BW_PROM_L1("language", bw_lang_name((enum bw_lang)l)),
                         st[l].scans);
    bw_prom_family(f, "bulwark_codescan_bytes_total", "counter", "Bytes of code scanned, by language.");
    for (int l = 0; l < BW_LANG_COUNT; l++)
        bw_prom_sample_u(f, "bulwark_codescan_bytes_total", BW_PROM_L1("language", bw_lang_name((enum bw_lang)l)),
                         st[l].bytes);
    bw_prom_family(f, "bulwark_codescan_seconds_total", "counter", "Seconds spent scanning code, by language.");
    for (int l = 0; l < BW_LANG_COUNT; l++)
        bw_prom_sample_d(f, "bulwark_codescan_seconds_total", BW_PROM_L1("language", bw_lang_name((enum bw_lang)l)),
                         (double)st[l].us / 1e6);
}

static void write_egress_db(FILE *f, struct api_ctx *app)
{
    unsigned long eg[BW_EG__COUNT];
    bw_egress_stats(eg);
    bw_prom_family(f, "bulwark_egress_requests_total", "counter",
                   "Outbound requests (asset scans, MCP probes, red-team targets), by outcome.");
    for (int i = 0; i < BW_EG__COUNT; i++)
        bw_prom_sample_u(f, "bulwark_egress_requests_total",
                         BW_PROM_L1("outcome", bw_egress_outcome_name((enum bw_egress_outcome)i)), eg[i]);

    bw_prom_family(f, "bulwark_db_errors_total", "counter",
                   "Database failures, by backend and kind: connect (no connection could be had) or statement "
                   "(a statement, query or transaction step failed; constraint violations are not failures).");
    for (int k = 0; k < DB_ERR__COUNT; k++)
        bw_prom_sample_u(f, "bulwark_db_errors_total",
                         BW_PROM_L2("backend", db_backend(app->db), "kind", db_err_kind_name((enum db_err_kind)k)),
                         db_error_count(app->db, (enum db_err_kind)k));
}

void api_metrics(struct bw_req *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        bw_reply_internal(r, "open_memstream failed");
        return;
    }
    write_process(f, api_ctx(r));
    bw_http_metrics_write(f, bw_routes, bw_routes_count);
    write_jobs(f, api_ctx(r));
    write_caches(f, api_ctx(r));
    write_codescan(f, api_ctx(r));
    write_egress_db(f, api_ctx(r));
    if (fclose(f) != 0 || !buf) {
        free(buf);
        bw_reply_internal(r, "metrics serialisation failed");
        return;
    }
    bw_reply_text(r, 200, "text/plain; version=0.0.4; charset=utf-8", buf, len);
}
