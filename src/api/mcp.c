/* The MCP configuration scanner: POST /api/mcp-security/scan (STARTER+). Validation and the
 * analysis both live in the engine (src/engine/mcpscan.c), so the fuzzer exercises exactly the
 * path this handler takes; the handler maps errors to 400, adds the timestamp, and moves a
 * request with `probe: true` for an http(s) server to the probe pool, where the live probe
 * (src/engine/mcpprobe.c, through the egress module only) runs before the scan. Without a probe
 * the scan stays synchronous on the event thread: it is pure and bounded by the input limits. */
#include "api/api.h"

#include "common/timeutil.h"
#include "engine/mcpprobe.h"
#include "engine/mcpscan.h"

static void reply_scan(struct bw_req *r, const struct bw_mcp_live *live)
{
    json_t *errors = NULL;
    json_t *out = bw_mcp_scan_body_live(api_ctx(r)->mcp_checks, r->json, live, &errors);
    if (errors) {
        struct bw_verr v = {errors}; /* the engine's list is already {field, message} items */
        if (!bw_verr_reply(r, &v))
            bw_reply_internal(r, "mcp scan failed"); /* an empty list: only when allocation failed */
        return;
    }
    if (!out) {
        bw_reply_internal(r, "mcp scan failed");
        return;
    }
    char ts[21];
    bw_iso8601(bw_now_s(), ts);
    json_object_set_new(out, "scanned_at", json_string(ts));
    bw_reply_json(r, 200, out);
}

/* Runs on the probe pool: seconds of outbound I/O at most (BW_MCP_PROBE_BUDGET_MS). */
static void probe_work(struct bw_req *r)
{
    const char *url = bw_mcp_probe_target(r->json);
    if (!url) {
        reply_scan(r, NULL); /* cannot happen: the body was checked before deferring */
        return;
    }
    struct bw_mcp_probe_opts o = {.egress_allow = api_ctx(r)->egress_allow};
    struct bw_mcp_live live;
    bw_mcp_probe_run(url, &o, &live);
    reply_scan(r, &live);
    bw_mcp_live_free(&live);
}

void api_mcp_scan(struct bw_req *r)
{
    if (bw_mcp_probe_target(r->json)) {
        bw_req_defer_on(r, api_ctx(r)->probes, probe_work); /* answers 503 itself when the pool is full */
        return;
    }
    reply_scan(r, NULL);
}
