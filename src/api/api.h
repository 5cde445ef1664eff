/* The API layer: the handlers (one file per resource group of the spec), the route table, and the
 * context the handlers are handed.
 *
 * A handler reaches the application through api_ctx(r) only. The composition root (src/app/)
 * fills the context once before the server starts; it is read-only after, and what its members
 * point to is safe to use from any thread. Everything in it is borrowed: the composition root
 * owns and frees it, except the documents api_frameworks_render makes (api_frameworks_free). */
#ifndef BW_API_API_H
#define BW_API_API_H
#include "common/config.h"
#include "common/cursor.h"
#include "engine/governance.h"
#include "http/http.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bw_audit;
struct bw_inflight;
struct bw_bcache;
struct store_intel_gen;
struct bw_limiter;
struct bw_orch_cache;
struct bw_mcp_checks;
struct bw_pool;
struct bw_scanner;
struct db;

struct bw_seal;

struct api_ctx {
    const struct bw_config *cfg;
    struct db *db;
    struct bw_auth *auth;
    struct bw_limiter *rate;        /* the per-hour limiter (its size, for /metrics) */
    struct bw_limiter *login_email; /* failed logins per email */
    struct bw_limiter *login_ip;    /* failed logins per IP */
    struct bw_inflight *logins;     /* password checks in flight per email ("e:") and address ("i:") */
    struct bw_pool *hashing;        /* password checks (argon2id): a bounded pool of their own */
    struct bw_pool *probes;         /* outbound probes (asset scans, MCP probes): seconds each */
    struct bw_audit *audit;         /* its drop count */
    struct bw_pool *orch_pool;      /* the orchestrator's pack requests: tenths of a second each */
    struct bw_orch_cache *orch_cache; /* on-demand packs, computed once per scope and shared */
    struct bw_bcache *playbooks;      /* anonymous playbook envelopes by record id + version */
    struct bw_bcache *feed_pages;     /* feed pages by intel generation + query */
    struct store_intel_gen *intel_gen; /* that generation, watched (PostgreSQL: notified) */
    struct bw_scanner *scanner;     /* the code scanner, compiled once at start */
    unsigned egress_allow;          /* BW_EGRESS_ALLOW_* */
    const struct bw_seal *seal;     /* seals and opens assets' connection secrets */
    const char *dummy_hash;         /* verified for unknown emails: same time as a real one */
    int64_t started_s;
    const struct bw_gov_catalogs *gov; /* the framework catalogs and evidence mapping */
    const struct bw_mcp_checks *mcp_checks; /* what MCP scan findings say */
    unsigned char cursor_key[BW_CURSOR_KEY_BYTES]; /* seals list cursors (per database) */

    /* the framework documents, rendered once by api_frameworks_render */
    char *frameworks_json; /* GET /api/ai-security/governance/frameworks body */
    size_t frameworks_len;
    char *framework_json[BW_FRAMEWORKS]; /* GET .../frameworks/{id} bodies */
    size_t framework_len[BW_FRAMEWORKS];
};

/* The context of the request's handler (the pointer the HTTP layer carries without reading it). */
static inline struct api_ctx *api_ctx(const struct bw_req *r) { return r->ctx; }

/* Renders the frameworks listing and the one-framework documents from c->gov, once at start.
 * 0 or -1; api_frameworks_free frees them (also after a failure). */
int api_frameworks_render(struct api_ctx *c);
void api_frameworks_free(struct api_ctx *c);

/* The limiters' families of GET /metrics (tracked keys; evictions per limiter), written to f. */
void api_metrics_limiters(FILE *f, const struct api_ctx *c);

/* The route table (src/api/routes.c). */
extern const struct bw_route bw_routes[];
extern const size_t bw_routes_count;

/* Handlers, one file per resource group. */
void api_healthz(struct bw_req *r);
void api_openapi(struct bw_req *r);
void api_metrics(struct bw_req *r);
void api_vibe_scan(struct bw_req *r);
void api_vibe_patterns(struct bw_req *r);
void api_auth_login(struct bw_req *r);
void api_auth_password(struct bw_req *r);
void api_console_login(struct bw_req *r);   /* the web console's session (src/api/auth.c) */
void api_console_session(struct bw_req *r);
void api_console_logout(struct bw_req *r);
void api_console_static(struct bw_req *r);  /* its files (src/api/console.c): the HTTP layer's fallback */
void api_keys_create(struct bw_req *r);
void api_keys_list(struct bw_req *r);
void api_keys_revoke(struct bw_req *r);
void api_keys_rotate(struct bw_req *r);
void api_accounts_list(struct bw_req *r); /* src/api/accounts.c */
void api_accounts_create(struct bw_req *r);
void api_accounts_disable(struct bw_req *r);
void api_accounts_enable(struct bw_req *r);
void api_governance_frameworks(struct bw_req *r);
void api_governance_framework_get(struct bw_req *r);
void api_governance_assess(struct bw_req *r);
void api_governance_assessment_get(struct bw_req *r);
void api_governance_assessments(struct bw_req *r);
void api_agents_scan(struct bw_req *r); /* src/api/agents.c */
void api_assets_register(struct bw_req *r);
void api_assets_list(struct bw_req *r);
void api_assets_get(struct bw_req *r);
void api_assets_update(struct bw_req *r);
void api_assets_delete(struct bw_req *r);
void api_assets_scan(struct bw_req *r);
void api_assets_scans(struct bw_req *r);
void api_assets_scan_get(struct bw_req *r);
void api_assets_bom(struct bw_req *r);          /* src/api/bom.c */
void api_mcp_scan(struct bw_req *r);    /* src/api/mcp.c */
void api_redteam_engage(struct bw_req *r);
void api_redteam_engagements(struct bw_req *r); /* src/api/redteam.c */
void api_redteam_report(struct bw_req *r);
void api_redteam_cancel(struct bw_req *r);
void api_threat_feed(struct bw_req *r);         /* src/api/threatintel.c */
void api_threat_record(struct bw_req *r);       /* src/api/threatintel.c */
void api_playbook_get(struct bw_req *r);
void api_playbook_regenerate(struct bw_req *r);
void api_playbook_history(struct bw_req *r);
void api_stix_bundle(struct bw_req *r);        /* src/api/stix.c */
void api_taxii_discovery(struct bw_req *r);
void api_taxii_root(struct bw_req *r);
void api_taxii_collections(struct bw_req *r);
void api_taxii_collection(struct bw_req *r);
void api_taxii_objects(struct bw_req *r);
void api_taxii_object(struct bw_req *r);
void api_taxii_manifest(struct bw_req *r);
/* TAXII routes' error renderer: the TAXII error resource in application/taxii+json;version=2.1 */
void api_taxii_error(struct bw_req *r, enum bw_err e, const char *msg, json_t *extra);
void api_orch_status(struct bw_req *r); /* src/api/orchestrator.c */
void api_orch_ciso(struct bw_req *r);
void api_orch_aspm(struct bw_req *r);
void api_orch_compliance(struct bw_req *r);
void api_orch_hunt(struct bw_req *r);
void api_orch_run(struct bw_req *r);
void api_orch_run_get(struct bw_req *r);
void api_webhooks_create(struct bw_req *r); /* src/api/webhooks.c */
void api_webhooks_list(struct bw_req *r);
void api_webhooks_delete(struct bw_req *r);
void api_webhooks_deliveries(struct bw_req *r);
void api_webhooks_ping(struct bw_req *r);

#endif
