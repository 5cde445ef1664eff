/* The MCP configuration scanner: POST /api/mcp-security/scan (STARTER+). Validation and the
 * analysis both live in the engine (src/engine/mcpscan.c), so the fuzzer exercises exactly the
 * path this handler takes; the handler only maps errors to 400 and adds the timestamp. */
#include "api/app.h"

#include "common/timeutil.h"
#include "engine/mcpscan.h"

void api_mcp_scan(struct bw_req *r)
{
    json_t *errors = NULL;
    json_t *out = bw_mcp_scan_body(r->json, &errors);
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
