/* Agent configuration scan: POST /api/ai-security/agents/scan (STARTER+; the router enforces the
 * tier and a JSON object body). Validation and analysis both live in the pure engine
 * (src/engine/agentscan.c), so the fuzzer exercises exactly the path this handler takes. */
#include "api/api.h"

#include "api/api_util.h"
#include "engine/agentscan.h"

void api_agents_scan(struct bw_req *r)
{
    json_t *errors = NULL;
    json_t *result = bw_agentscan_body(r->json, &errors);
    api_reply_scan(r, result, errors, "agent scan failed");
}
