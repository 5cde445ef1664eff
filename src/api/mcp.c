/* The MCP configuration scanner: POST /api/mcp-security/scan (STARTER+). Validation and the
 * analysis both live in the engine (src/engine/mcpscan.c), so the fuzzer exercises exactly the
 * path this handler takes; the account's tool pins are read and saved by the service
 * (src/services/mcppins.c). The handler maps errors to 400 (503 when the store failed), adds the
 * timestamp, and moves a request with `probe: true` for an http(s) server to the probe pool,
 * where the live probe (src/engine/mcpprobe.c, through the egress module only) runs before the
 * scan. A static scan that pins goes to the blocking pool (a transaction of up to 500 rows); one
 * that does not stays on the event thread: it is pure and bounded by the input limits. */
#include "api/api.h"

#include "api/api_util.h"
#include "engine/mcpprobe.h"
#include "engine/mcpscan.h"
#include "services/mcppins.h"
#include "store/store.h"

static void reply_scan(struct bw_req *r, const struct bw_mcp_live *live)
{
    json_t *errors = NULL, *out = NULL;
    if (bw_mcp_scan_pinned(api_ctx(r)->db, api_ctx(r)->mcp_checks, r->principal.user_id, r->json, live, &out,
                           &errors) != ST_OK) {
        api_reply_storage(r);
        return;
    }
    api_reply_scan(r, out, errors, "mcp scan failed");
}

static void pinned_work(struct bw_req *r) { reply_scan(r, NULL); }

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
    struct bw_mcp_pin_plan plan;
    if (bw_mcp_pin_plan(r->json, NULL, &plan) == 0 && plan.applies) {
        bw_req_defer(r, pinned_work);
        return;
    }
    reply_scan(r, NULL);
}
