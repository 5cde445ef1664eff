/* Configuration: BULWARK_* environment variables, each overridden by a flag of the same name
 * (BULWARK_RATE_ANON -> --rate-anon VALUE or --rate-anon=VALUE). Strings are owned by the
 * config and freed by bw_config_free. */
#ifndef BW_COMMON_CONFIG_H
#define BW_COMMON_CONFIG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bw_tier { BW_TIER_FREE, BW_TIER_STARTER, BW_TIER_PRO, BW_TIER_ENTERPRISE, BW_TIER__COUNT };
enum bw_role { BW_ROLE_USER, BW_ROLE_MSSP, BW_ROLE_ADMIN, BW_ROLE__COUNT };

struct bw_config {
    char *listen;        /* "127.0.0.1:8080" */
    char *data_dir;      /* "./var" */
    char *database_url;  /* NULL = SQLite in data_dir */
    char *admin_key;     /* NULL = generated once, hash stored */
    char *jwt_secret;    /* NULL = generated once, stored in the database */
    char *secret_key;    /* the sealing key (common/seal.h); NULL = data_dir/secret.key */
    char *bootstrap_password;
    char *egress_allow;
    char *trusted_proxies;
    char *rate_limit_store; /* NULL/"auto" (database on PostgreSQL, memory on SQLite), "memory", "database" */
    long rate_anon;      /* requests per rolling hour; 0 = unlimited */
    long rate_tier[BW_TIER__COUNT];
    long max_keys[BW_TIER__COUNT];
    long login_max_failures;
    long hash_threads;   /* password hashing pool (argon2id: ~64 MiB and tens of ms each) */
    long hash_queue;     /* password checks waiting for it; more are answered 503 */
    long workers;        /* job workers inside serve (0 = none); `bulwark worker` runs this many too */
    long job_lease_ms;   /* how long a claimed job is ours without a heartbeat */
    long job_poll_ms;    /* an idle worker's wait between claims */
    long redteam_max[BW_TIER__COUNT]; /* queued+running engagements per account (PRO, ENTERPRISE) */
    long rt_budget_requests[3]; /* an engagement's default budget by intensity (light, standard, full) */
    long rt_budget_seconds[3];
    long rt_turns_retention_days; /* an ended engagement's stored requests are deleted after this; 0: at once */
    long threads;        /* HTTP threads */
    long conn_timeout_s; /* idle connections, and the time a request has to arrive in full */
    long shutdown_grace_s; /* how long SIGTERM waits for requests in flight */
    long max_connections;
    long max_conn_per_ip; /* 0: no per-address limit (e.g. behind one reverse proxy) */
    char *tls_cert;      /* PEM paths: native TLS when both are set (neither: plain HTTP) */
    char *tls_key;
    long max_body;
    long auth_cache_ms;  /* -1 = unset: BW_AUTH_CACHE_MS_DEFAULT */
    long intel_cache_ms; /* the intel generation's longest reuse between notifications / watch events */
    bool metrics_public;
    bool cookie_secure;  /* the console cookie is Secure even without native TLS (TLS at a proxy) */
    int log_level;
    long max_code;       /* bytes of `code` in a scan request */
    bool allow_insecure_file_modes; /* a data directory or database open to group/others: warn, not refuse */
    bool sqlite_sync_full; /* SQLite synchronous=FULL: commits survive power loss (NORMAL: process crashes) */
    long orch_pack_cache_s; /* how long an on-demand orchestrator computation is reused per scope */
    char *upgrade_url;   /* shown to FREE callers of gated endpoints */
    char *upgrade_price;
    /* the intel sync's sources (bulwark intel sync): "" disables one; unset: the public feeds */
    char *intel_kev_url, *intel_epss_url, *intel_atlas_url;
    char *intel_osv_url;      /* OSV advisories (a zip or a JSON list); unset: off */
    char *intel_osv_packages; /* [Ecosystem:]name,... the OSV advisories kept; unset: all */
    long intel_sync_interval_s; /* the scheduled sync on the job queue; 0 = off */
    long webhook_backoff_scale; /* per mille of the webhook retry schedule (1..1000; tests shorten it) */
};

/* Fills cfg from defaults, the environment, then argv flags (argv[from..argc)). Flags it does
 * not know are left for the caller: their indexes are written to rest (argc entries) and
 * counted in *nrest. Returns 0, or -1 after printing the problem to stderr. */
int bw_config_load(struct bw_config *cfg, int argc, char **argv, int from, int *rest, int *nrest);
void bw_config_free(struct bw_config *cfg);

const char *bw_tier_name(enum bw_tier t);
int bw_tier_parse(const char *s); /* -1 when unknown (case-sensitive upper case) */
const char *bw_role_name(enum bw_role r);
int bw_role_parse(const char *s);

#endif
