/* Liveness and the OpenAPI document (readiness: bw_http_readyz in src/http/server.c; metrics:
 * src/api/metrics.c). */
#include "api/api.h"
#include "common/embedded.h"

#include <stdio.h>
#include <stdlib.h>

void api_healthz(struct bw_req *r)
{
    static const char body[] = "{\"status\":\"ok\"}";
    bw_reply_static(r, 200, body, sizeof body - 1);
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
