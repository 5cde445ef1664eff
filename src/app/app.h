/* The composition root: it owns what the server is made of (configuration, storage, principals,
 * limiters, pools, the audit recorder, the scanner, the framework and MCP check catalogs) and
 * hands each layer the narrow context it serves from: the HTTP layer a struct bw_http_ctx (with
 * the audit and readiness hooks), the handlers a struct api_ctx (src/api/api.h), reached through
 * the request.
 * Built by bw_app_init (serve), freed by bw_app_free. Read-only after start except for the
 * thread-safe members. */
#ifndef BW_APP_APP_H
#define BW_APP_APP_H
#include "api/api.h"
#include "auth/auth.h"
#include "auth/inflight.h"
#include "auth/ratelimit.h"
#include "common/config.h"
#include "common/pool.h"
#include "common/seal.h"
#include "engine/governance.h"
#include "http/http.h"
#include "services/orch_cache.h"

struct bw_bcache;
struct store_intel_gen;
#include "store/db.h"

#include <stdint.h>

struct bw_mcp_checks;

struct bw_app {
    struct bw_config *cfg;
    struct db *db;
    struct bw_auth *auth;
    struct bw_limiter *rate;        /* per account / per anonymous IP, rolling hour */
    struct bw_limiter *login_email; /* failed logins per email */
    struct bw_limiter *login_ip;    /* failed logins per IP */
    struct bw_inflight *logins;     /* password checks in flight per email and per address */
    struct bw_pool *blocking;       /* slow work (assessments, large scans) */
    struct bw_pool *hashing;        /* password checks (argon2id), bounded (BULWARK_HASH_THREADS/_QUEUE) */
    struct bw_pool *probes;         /* outbound probes (asset scans, MCP probes): seconds each */
    struct bw_pool *orch_pool;      /* the orchestrator's pack requests: tenths of a second each */
    struct bw_orch_cache *orch_cache; /* on-demand packs, computed once per scope and shared */
    struct bw_bcache *playbooks;      /* generated playbook envelopes by record id + version */
    struct bw_bcache *feed_pages;     /* feed pages by intel generation + query */
    struct store_intel_gen *intel_gen; /* that generation, watched (PostgreSQL: notified) */
    struct bw_audit *audit;         /* audit events, the HTTP layer's response hook (src/audit/audit.h) */
    unsigned egress_allow;          /* BW_EGRESS_ALLOW_* from BULWARK_EGRESS_ALLOW */
    struct bw_seal seal;            /* the key of the secrets sealed at rest (common/seal.h) */
    char dummy_hash[160];           /* verified for unknown emails: same time as a real one */
    int64_t started_s;
    struct bw_gov_catalogs gov; /* the framework catalogs and evidence mapping, for assessments */
    struct bw_mcp_checks *mcp_checks; /* what MCP scan findings say (data/mcp/checks.json) */
    struct bw_scanner *scanner; /* the code scanner, compiled once at start */
    struct bw_http_ctx http;    /* what the HTTP layer is handed (bw_http_serve, bw_http_synthetic) */
    struct api_ctx api;         /* what the handlers are handed (api_ctx(r)) */
};

/* Opens storage, loads or generates secrets, bootstraps the first admin, precomputes documents.
 * 0 or -1 (after logging why). */
int bw_app_init(struct bw_app *app, struct bw_config *cfg);
void bw_app_free(struct bw_app *app);

/* The sealing key of cfg (BULWARK_SECRET_KEY or the data directory's key file), checked against
 * the database's sealed check value (stored by the first instance to start): another key is
 * refused, since every secret it would open was sealed with the first. 0, or -1 with why. Used by
 * serve, worker and `secrets rekey`. */
int bw_app_seal_open(const struct bw_config *cfg, struct db *db, struct bw_seal *out, char *why, size_t cap);

#endif
