/* Agent configuration scan: POST /api/ai-security/agents/scan (STARTER+; the router enforces the
 * tier and a JSON object body). Validation and analysis both live in the pure engine
 * (src/engine/agentscan.c), so the fuzzer exercises exactly the path this handler takes. */
#include "api/api.h"

#include "common/timeutil.h"
#include "engine/agentscan.h"

void api_agents_scan(struct bw_req *r)
{
    json_t *errors = NULL;
    json_t *result = bw_agentscan_body(r->json, &errors);
    if (errors) {
        struct bw_verr v = {errors}; /* answered as 400 VALIDATION_ERROR naming the fields */
        bw_verr_reply(r, &v);
        return;
    }
    if (!result) {
        bw_reply_internal(r, "agent scan failed");
        return;
    }
    char ts[21];
    bw_iso8601(bw_now_s(), ts);
    json_object_set_new(result, "scanned_at", json_string(ts));
    bw_reply_json(r, 200, result);
}
