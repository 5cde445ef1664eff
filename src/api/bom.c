/* GET /api/ai-security/assets/bom (STARTER+): the account's AI assets as a CycloneDX 1.7 ML-BOM
 * (src/services/bom.h, src/engine/bom.h). One document, never paged: an account past the BOM's
 * limits is answered 422 RESULT_TOO_LARGE naming the limit. */
#include "api/api.h"
#include "api/api_util.h"
#include "common/limits.h"
#include "services/bom.h"

/* What each limit's 422 says, by the service's answer. */
static const struct {
    enum bw_bom_rc rc;
    const char *message, *member;
    int max;
} LIMITS[] = {
    {BW_BOM_TOO_MANY_ASSETS, "a BOM holds at most max_assets assets and pinned MCP servers", "max_assets",
     BW_BOM_ASSETS_MAX},
    {BW_BOM_TOO_MANY_TOOLS, "a BOM holds at most max_tools tools of pinned MCP servers", "max_tools", BW_BOM_TOOLS_MAX},
    {BW_BOM_TOO_MANY_VULNS, "a BOM holds at most max_vulnerabilities matching intel records", "max_vulnerabilities",
     BW_BOM_VULNS_MAX},
};

void api_assets_bom(struct bw_req *r)
{
    json_t *bom = NULL;
    enum bw_bom_rc rc = bw_bom_account(api_ctx(r)->db, r->principal.user_id, &bom);
    if (rc == BW_BOM_OK) {
        bw_reply_json(r, 200, bom);
        return;
    }
    for (size_t i = 0; i < sizeof LIMITS / sizeof LIMITS[0]; i++) {
        if (LIMITS[i].rc == rc) {
            bw_reply_error(r, BW_E_RESULT_TOO_LARGE, LIMITS[i].message,
                           json_pack("{s:i}", LIMITS[i].member, LIMITS[i].max));
            return;
        }
    }
    api_reply_storage(r);
}
