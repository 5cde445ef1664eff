/* Liveness, readiness, metrics and the OpenAPI document. */
#include "api/app.h"
#include "auth/ratelimit.h"
#include "common/embedded.h"
#include "common/timeutil.h"
#include "store/db.h"

#include <stdio.h>
#include <stdlib.h>

void api_healthz(struct bw_req *r)
{
    static const char body[] = "{\"status\":\"ok\"}";
    bw_reply_static(r, 200, body, sizeof body - 1);
}

void api_readyz(struct bw_req *r)
{
    if (!db_ping(r->app->db)) {
        bw_reply_error(r, BW_E_UNAVAILABLE, "storage unreachable", NULL);
        return;
    }
    bw_reply_json(r, 200, json_pack("{s:s,s:s}", "status", "ready", "database", db_backend(r->app->db)));
}

void api_openapi(struct bw_req *r)
{
    const struct bw_embedded *f = bw_embedded_find("docs/openapi.json");
    if (!f) {
        bw_reply_internal(r, "openapi document not embedded");
        return;
    }
    bw_reply_static(r, 200, (const char *)f->data, f->len);
}

/* Prometheus text exposition format 0.0.4. Admin key (or admin role) unless
 * BULWARK_METRICS_PUBLIC is set; never rate limited, so scraping cannot lock anyone out. */
void api_metrics(struct bw_req *r)
{
    struct bw_http_stats st;
    bw_http_stats(&st);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        bw_reply_internal(r, "open_memstream failed");
        return;
    }
    fprintf(f, "# HELP bulwark_build_info Version and storage backend.\n"
               "# TYPE bulwark_build_info gauge\n"
               "bulwark_build_info{version=\"%s\",backend=\"%s\"} 1\n",
            BULWARK_VERSION, db_backend(r->app->db));
    fprintf(f, "# HELP bulwark_uptime_seconds Seconds since the server started.\n"
               "# TYPE bulwark_uptime_seconds gauge\n"
               "bulwark_uptime_seconds %lld\n",
            (long long)(bw_now_s() - r->app->started_s));
    fprintf(f, "# HELP bulwark_http_requests_total Requests answered, by status class.\n"
               "# TYPE bulwark_http_requests_total counter\n");
    for (int c = 1; c <= 5; c++)
        fprintf(f, "bulwark_http_requests_total{class=\"%dxx\"} %lu\n", c, st.by_class[c]);
    fprintf(f, "# HELP bulwark_http_request_duration_seconds_sum Total time spent answering requests.\n"
               "# TYPE bulwark_http_request_duration_seconds_sum counter\n"
               "bulwark_http_request_duration_seconds_sum %.6f\n",
            (double)st.duration_us / 1e6);
    fprintf(f, "# HELP bulwark_http_rate_limited_total Requests answered 429.\n"
               "# TYPE bulwark_http_rate_limited_total counter\n"
               "bulwark_http_rate_limited_total %lu\n",
            st.rate_limited);
    fprintf(f, "# HELP bulwark_http_slow_clients_closed_total Connections cut because a request did not arrive in time.\n"
               "# TYPE bulwark_http_slow_clients_closed_total counter\n"
               "bulwark_http_slow_clients_closed_total %lu\n",
            bw_guard_cut_total());
    fprintf(f, "# HELP bulwark_http_requests_in_flight Requests being processed.\n"
               "# TYPE bulwark_http_requests_in_flight gauge\n"
               "bulwark_http_requests_in_flight %ld\n",
            st.in_flight);
    fprintf(f, "# HELP bulwark_ratelimit_tracked_keys Accounts and client IPs tracked by the rate limiter.\n"
               "# TYPE bulwark_ratelimit_tracked_keys gauge\n"
               "bulwark_ratelimit_tracked_keys %zu\n",
            bw_limiter_size(r->app->rate));
    if (fclose(f) != 0 || !buf) {
        free(buf);
        bw_reply_internal(r, "metrics serialisation failed");
        return;
    }
    bw_reply_text(r, 200, "text/plain; version=0.0.4; charset=utf-8", buf, len);
}
