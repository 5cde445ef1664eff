/* The composition root shared by every handler: configuration, storage, principals, limiters,
 * pools and the documents computed once at start. Built by bw_app_init (serve), freed by
 * bw_app_free. Read-only after start except for the thread-safe members. */
#ifndef BW_APP_APP_H
#define BW_APP_APP_H
#include "auth/auth.h"
#include "auth/ratelimit.h"
#include "common/config.h"
#include "common/pool.h"
#include "engine/governance.h"
#include "http/http.h"
#include "store/db.h"

#include <stdatomic.h>
#include <stdbool.h>

struct bw_app {
    struct bw_config *cfg;
    struct db *db;
    struct bw_auth *auth;
    struct bw_limiter *rate;        /* per account / per anonymous IP, rolling hour */
    struct bw_limiter *login_email; /* failed logins per email */
    struct bw_limiter *login_ip;    /* failed logins per IP */
    struct bw_pool *blocking;       /* argon2id and other slow work */
    struct bw_pool *probes;         /* outbound probes (asset scans, MCP probes): seconds each */
    struct bw_audit *audit;         /* audit events of the middleware (src/audit/audit.h) */
    unsigned egress_allow;          /* BW_EGRESS_ALLOW_* from BULWARK_EGRESS_ALLOW */
    char dummy_hash[160];           /* verified for unknown emails: same time as a real one */
    int64_t started_s;
    atomic_bool stopping;
    char trusted[8][64]; /* trusted proxy addresses */
    int ntrusted;

    struct bw_gov_catalogs gov;          /* the framework catalogs and evidence mapping, for assessments */
    char *frameworks_json; /* GET /api/ai-security/governance/frameworks body */
    char *framework_json[BW_FRAMEWORKS];   /* GET .../frameworks/{id} bodies */
    size_t framework_len[BW_FRAMEWORKS];
    struct bw_scanner *scanner; /* the code scanner, compiled once at start */
    size_t frameworks_len;
};

/* Opens storage, loads or generates secrets, bootstraps the first admin, precomputes documents.
 * 0 or -1 (after logging why). */
int bw_app_init(struct bw_app *app, struct bw_config *cfg);
void bw_app_free(struct bw_app *app);

/* The route table (src/api/routes.c). */
extern const struct bw_route bw_routes[];
extern const size_t bw_routes_count;

/* Handlers, one file per resource group. */
void api_healthz(struct bw_req *r);
void api_readyz(struct bw_req *r);
void api_openapi(struct bw_req *r);
void api_metrics(struct bw_req *r);
void api_vibe_scan(struct bw_req *r);
void api_vibe_patterns(struct bw_req *r);
void api_auth_login(struct bw_req *r);
void api_keys_create(struct bw_req *r);
void api_keys_list(struct bw_req *r);
void api_keys_revoke(struct bw_req *r);
void api_keys_rotate(struct bw_req *r);
void api_governance_frameworks(struct bw_req *r);
void api_governance_framework_get(struct bw_req *r);

/* Renders the frameworks listing and the one-framework documents from app->gov, once at start.
 * 0 or -1; api_frameworks_free frees them. */
int api_frameworks_render(struct bw_app *app);
void api_frameworks_free(struct bw_app *app);
void api_governance_assess(struct bw_req *r);
void api_agents_scan(struct bw_req *r); /* src/api/agents.c */
void api_assets_register(struct bw_req *r);
void api_assets_list(struct bw_req *r);
void api_assets_get(struct bw_req *r);
void api_assets_delete(struct bw_req *r);
void api_assets_scan(struct bw_req *r);
void api_mcp_scan(struct bw_req *r);    /* src/api/mcp.c */
void api_redteam_engage(struct bw_req *r); /* src/api/redteam.c */
void api_redteam_report(struct bw_req *r);
void api_redteam_cancel(struct bw_req *r);
void api_governance_assessment_get(struct bw_req *r);
void api_threat_feed(struct bw_req *r);         /* src/api/threatintel.c */
void api_playbook_get(struct bw_req *r);
void api_playbook_regenerate(struct bw_req *r);
void api_playbook_history(struct bw_req *r);
void api_orch_status(struct bw_req *r); /* src/api/orchestrator.c */
void api_orch_ciso(struct bw_req *r);
void api_orch_aspm(struct bw_req *r);
void api_orch_compliance(struct bw_req *r);
void api_orch_hunt(struct bw_req *r);
void api_orch_run(struct bw_req *r);
void api_orch_run_get(struct bw_req *r);

#endif
