/* Liveness, readiness and the OpenAPI document (metrics: src/api/metrics.c). */
#include "api/api.h"
#include "app/app.h"
#include "common/embedded.h"
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
    /* a draining instance says so, so that a balancer stops sending it new work */
    if (atomic_load_explicit(&r->app->stopping, memory_order_relaxed)) {
        bw_req_header(r, "Retry-After", "1");
        bw_reply_error(r, BW_E_UNAVAILABLE, "shutting down", NULL);
        return;
    }
    if (!db_ping(api_ctx(r)->db)) {
        bw_reply_error(r, BW_E_UNAVAILABLE, "storage unreachable", NULL);
        return;
    }
    bw_reply_json(r, 200, json_pack("{s:s,s:s}", "status", "ready", "database", db_backend(api_ctx(r)->db)));
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
