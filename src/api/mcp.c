/* The MCP configuration scanner: POST /api/mcp-security/scan (STARTER+). Validation and the
 * analysis both live in the engine (src/engine/mcpscan.c), so the fuzzer exercises exactly the
 * path this handler takes; the handler maps errors to 400, adds the timestamp, and moves a
 * request with `probe: true` for an http(s) server to the probe pool, where the live probe
 * (src/engine/mcpprobe.c, through the egress module only) runs before the scan. Without a probe
 * the scan stays synchronous on the event thread: it is pure and bounded by the input limits. */
#include "api/api.h"

#include "api/api_util.h"
#include "engine/mcpprobe.h"
#include "engine/mcpscan.h"

static void reply_scan(struct bw_req *r, const struct bw_mcp_live *live)
{
    json_t *errors = NULL;
    json_t *out = bw_mcp_scan_body_live(api_ctx(r)->mcp_checks, r->json, live, &errors);
    api_reply_scan(r, out, errors, "mcp scan failed");
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
