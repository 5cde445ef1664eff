/* The route table: it reads like the spec's endpoint tables. Every route here is in
 * docs/openapi.json and back (tests/unit/api/test_openapi.c checks both ways). */
#include "api/api.h"

const struct bw_route bw_routes[] = {
    /* platform */
    {BW_GET, "/healthz", BW_ACCESS_OPEN, api_healthz, 0, NULL},
    {BW_GET, "/readyz", BW_ACCESS_OPEN, bw_http_readyz, 0, NULL},
    {BW_GET, "/api/openapi.json", BW_ACCESS_PUBLIC, api_openapi, 0, NULL},
    {BW_GET, "/metrics", BW_ACCESS_ADMIN, api_metrics, BW_ROUTE_UNLIMITED | BW_ROUTE_METRICS, NULL},

    /* authentication and keys */
    {BW_POST, "/api/auth/login", BW_ACCESS_LOGIN, api_auth_login, BW_ROUTE_BODY, NULL},
    {BW_POST, "/api/auth/password", BW_ACCESS_SESSION, api_auth_password, BW_ROUTE_BODY, NULL},
    {BW_POST, "/api/console/session", BW_ACCESS_LOGIN, api_console_login, BW_ROUTE_BODY, NULL},
    {BW_GET, "/api/console/session", BW_ACCESS_PUBLIC, api_console_session, 0, NULL},
    {BW_DELETE, "/api/console/session", BW_ACCESS_SESSION, api_console_logout, 0, NULL},
    {BW_POST, "/api/developer/keys", BW_ACCESS_SESSION, api_keys_create, BW_ROUTE_BODY, NULL},
    {BW_GET, "/api/developer/keys", BW_ACCESS_SESSION, api_keys_list, 0, NULL},
    {BW_DELETE, "/api/developer/keys/{id}", BW_ACCESS_SESSION, api_keys_revoke, 0, NULL},
    {BW_POST, "/api/developer/keys/{id}/rotate", BW_ACCESS_SESSION, api_keys_rotate, 0, NULL},

    /* managed accounts (a session of an mssp or admin account) */
    {BW_GET, "/api/accounts", BW_ACCESS_MANAGER, api_accounts_list, 0, NULL},
    {BW_POST, "/api/accounts", BW_ACCESS_MANAGER, api_accounts_create, BW_ROUTE_BODY, NULL},
    {BW_POST, "/api/accounts/{id}/disable", BW_ACCESS_MANAGER, api_accounts_disable, 0, NULL},
    {BW_POST, "/api/accounts/{id}/enable", BW_ACCESS_MANAGER, api_accounts_enable, 0, NULL},

    /* code scanner */
    {BW_POST, "/api/vibe-code/scan", BW_ACCESS_PUBLIC, api_vibe_scan, BW_ROUTE_BODY, NULL},
    {BW_GET, "/api/vibe-code/patterns", BW_ACCESS_PUBLIC, api_vibe_patterns, 0, NULL},

    /* AI asset posture */
    {BW_POST, "/api/ai-security/assets/register", BW_ACCESS_STARTER, api_assets_register, BW_ROUTE_BODY, NULL},
    {BW_GET, "/api/ai-security/assets", BW_ACCESS_STARTER, api_assets_list, 0, NULL},
    {BW_GET, "/api/ai-security/assets/bom", BW_ACCESS_STARTER, api_assets_bom, 0, NULL},
    {BW_GET, "/api/ai-security/assets/{id}", BW_ACCESS_STARTER, api_assets_get, 0, NULL},
    {BW_PATCH, "/api/ai-security/assets/{id}", BW_ACCESS_STARTER, api_assets_update, BW_ROUTE_BODY, NULL},
    {BW_DELETE, "/api/ai-security/assets/{id}", BW_ACCESS_STARTER, api_assets_delete, 0, NULL},
    {BW_POST, "/api/ai-security/assets/{id}/scan", BW_ACCESS_PRO, api_assets_scan, 0, NULL},
    {BW_GET, "/api/ai-security/assets/{id}/scans", BW_ACCESS_PRO, api_assets_scans, 0, NULL},
    {BW_GET, "/api/ai-security/assets/{id}/scans/{scan_id}", BW_ACCESS_PRO, api_assets_scan_get, 0, NULL},

    /* red-team engagements */
    {BW_POST, "/api/ai-security/redteam/engage", BW_ACCESS_PRO, api_redteam_engage, BW_ROUTE_BODY, NULL},
    {BW_GET, "/api/ai-security/redteam/engagements", BW_ACCESS_PRO, api_redteam_engagements, 0, NULL},
    {BW_GET, "/api/ai-security/redteam/{id}/report", BW_ACCESS_PRO, api_redteam_report, 0, NULL},
    {BW_POST, "/api/ai-security/redteam/{id}/cancel", BW_ACCESS_PRO, api_redteam_cancel, 0, NULL},

    /* agents and MCP servers */
    {BW_POST, "/api/ai-security/agents/scan", BW_ACCESS_STARTER, api_agents_scan, BW_ROUTE_BODY, NULL},
    {BW_POST, "/api/mcp-security/scan", BW_ACCESS_STARTER, api_mcp_scan, BW_ROUTE_BODY, NULL},

    /* governance */
    {BW_GET, "/api/ai-security/governance/frameworks", BW_ACCESS_PUBLIC, api_governance_frameworks, 0, NULL},
    {BW_GET, "/api/ai-security/governance/frameworks/{id}", BW_ACCESS_PUBLIC, api_governance_framework_get, 0, NULL},
    {BW_POST, "/api/ai-security/governance/assess", BW_ACCESS_STARTER, api_governance_assess, BW_ROUTE_BODY, NULL},
    {BW_GET, "/api/ai-security/governance/assessments", BW_ACCESS_STARTER, api_governance_assessments, 0, NULL},
    {BW_GET, "/api/ai-security/governance/assessments/{id}", BW_ACCESS_STARTER, api_governance_assessment_get, 0, NULL},

    /* threat intelligence */
    {BW_GET, "/api/ai-security/threat-feed", BW_ACCESS_PUBLIC, api_threat_feed, 0, NULL},
    {BW_GET, "/api/ai-security/threat-feed/stix", BW_ACCESS_PUBLIC, api_stix_bundle, 0, NULL},
    {BW_GET, "/api/ai-security/threat-feed/{id}", BW_ACCESS_PUBLIC, api_threat_record, 0, NULL},
    {BW_GET, "/api/threat-intel/{id}/playbook", BW_ACCESS_PUBLIC, api_playbook_get, 0, NULL},
    {BW_POST, "/api/threat-intel/{id}/playbook", BW_ACCESS_SIGNED_IN, api_playbook_regenerate, 0, NULL},
    {BW_GET, "/api/threat-intel/playbooks/history", BW_ACCESS_SIGNED_IN, api_playbook_history, 0, NULL},

    /* TAXII 2.1 (read-only; accounts, also by HTTP Basic with an API key as the password; errors as
     * TAXII error resources) */
#define TAXII(path, fn) {BW_GET, path, BW_ACCESS_SIGNED_IN, fn, BW_ROUTE_BASIC, api_taxii_error}
    TAXII("/taxii2/", api_taxii_discovery),
    TAXII("/taxii2/intel/", api_taxii_root),
    TAXII("/taxii2/intel/collections/", api_taxii_collections),
    TAXII("/taxii2/intel/collections/{id}/", api_taxii_collection),
    TAXII("/taxii2/intel/collections/{id}/objects/", api_taxii_objects),
    TAXII("/taxii2/intel/collections/{id}/objects/{object_id}/", api_taxii_object),
    TAXII("/taxii2/intel/collections/{id}/manifest/", api_taxii_manifest),
#undef TAXII

    /* orchestration (privileged; status is public but coarse) */
    {BW_GET, "/api/orchestrator/god-mode/status", BW_ACCESS_PUBLIC, api_orch_status, 0, NULL},
    {BW_GET, "/api/orchestrator/god-mode/ciso", BW_ACCESS_PRIVILEGED, api_orch_ciso, 0, NULL},
    {BW_GET, "/api/orchestrator/god-mode/aspm", BW_ACCESS_PRIVILEGED, api_orch_aspm, 0, NULL},
    {BW_GET, "/api/orchestrator/god-mode/compliance", BW_ACCESS_PRIVILEGED, api_orch_compliance, 0, NULL},
    {BW_GET, "/api/orchestrator/god-mode/hunt-pack", BW_ACCESS_PRIVILEGED, api_orch_hunt, 0, NULL},
    {BW_POST, "/api/orchestrator/god-mode/run", BW_ACCESS_PRIVILEGED, api_orch_run, BW_ROUTE_BODY, NULL},
    {BW_GET, "/api/orchestrator/god-mode/run/{job_id}", BW_ACCESS_PRIVILEGED, api_orch_run_get, 0, NULL},

    /* webhooks (the secret is shown once, at creation) */
    {BW_POST, "/api/webhooks", BW_ACCESS_PRO, api_webhooks_create, BW_ROUTE_BODY, NULL},
    {BW_GET, "/api/webhooks", BW_ACCESS_PRO, api_webhooks_list, 0, NULL},
    {BW_DELETE, "/api/webhooks/{id}", BW_ACCESS_PRO, api_webhooks_delete, 0, NULL},
    {BW_GET, "/api/webhooks/{id}/deliveries", BW_ACCESS_PRO, api_webhooks_deliveries, 0, NULL},
    {BW_POST, "/api/webhooks/{id}/ping", BW_ACCESS_PRO, api_webhooks_ping, 0, NULL},
};

const size_t bw_routes_count = sizeof bw_routes / sizeof bw_routes[0];
