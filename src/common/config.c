#include "common/config.h"

#include "common/limits.h"
#include "common/log.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tier_names[] = {"FREE", "STARTER", "PRO", "ENTERPRISE"};
static const char *role_names[] = {"user", "mssp", "admin"};

const char *bw_tier_name(enum bw_tier t) { return (unsigned)t < BW_TIER__COUNT ? tier_names[t] : "FREE"; }
const char *bw_role_name(enum bw_role r) { return (unsigned)r < BW_ROLE__COUNT ? role_names[r] : "user"; }

int bw_tier_parse(const char *s)
{
    for (int i = 0; s && i < BW_TIER__COUNT; i++)
        if (strcmp(s, tier_names[i]) == 0)
            return i;
    return -1;
}

int bw_role_parse(const char *s)
{
    for (int i = 0; s && i < BW_ROLE__COUNT; i++)
        if (strcmp(s, role_names[i]) == 0)
            return i;
    return -1;
}

/* K_DUR: seconds, plain or with a unit suffix s, m, h or d ("90", "15m", "6h", "1d"); 0 allowed */
enum kind { K_STR, K_LONG, K_BOOL, K_LEVEL, K_DUR };
struct opt {
    const char *env; /* without the BULWARK_ prefix */
    enum kind kind;
    size_t off;
    long min, max;
};

#define OFF(f) offsetof(struct bw_config, f)
static const struct opt opts[] = {
    {"LISTEN", K_STR, OFF(listen), 0, 0},
    {"DATA_DIR", K_STR, OFF(data_dir), 0, 0},
    {"DATABASE_URL", K_STR, OFF(database_url), 0, 0},
    {"ADMIN_KEY", K_STR, OFF(admin_key), 0, 0},
    {"JWT_SECRET", K_STR, OFF(jwt_secret), 0, 0},
    {"SECRET_KEY", K_STR, OFF(secret_key), 0, 0},
    {"BOOTSTRAP_PASSWORD", K_STR, OFF(bootstrap_password), 0, 0},
    {"EGRESS_ALLOW", K_STR, OFF(egress_allow), 0, 0},
    {"TRUSTED_PROXIES", K_STR, OFF(trusted_proxies), 0, 0},
    {"RATE_LIMIT_STORE", K_STR, OFF(rate_limit_store), 0, 0},
    {"RATE_ANON", K_LONG, OFF(rate_anon), 0, BW_RATE_CEILING},
    {"RATE_FREE", K_LONG, OFF(rate_tier[BW_TIER_FREE]), 0, BW_RATE_CEILING},
    {"RATE_STARTER", K_LONG, OFF(rate_tier[BW_TIER_STARTER]), 0, BW_RATE_CEILING},
    {"RATE_PRO", K_LONG, OFF(rate_tier[BW_TIER_PRO]), 0, BW_RATE_CEILING},
    {"RATE_ENTERPRISE", K_LONG, OFF(rate_tier[BW_TIER_ENTERPRISE]), 0, BW_RATE_CEILING},
    {"MAX_KEYS_FREE", K_LONG, OFF(max_keys[BW_TIER_FREE]), 1, BW_MAX_KEYS_CEILING},
    {"MAX_KEYS_STARTER", K_LONG, OFF(max_keys[BW_TIER_STARTER]), 1, BW_MAX_KEYS_CEILING},
    {"MAX_KEYS_PRO", K_LONG, OFF(max_keys[BW_TIER_PRO]), 1, BW_MAX_KEYS_CEILING},
    {"MAX_KEYS_ENTERPRISE", K_LONG, OFF(max_keys[BW_TIER_ENTERPRISE]), 1, BW_MAX_KEYS_CEILING},
    {"LOGIN_MAX_FAILURES", K_LONG, OFF(login_max_failures), 1, BW_LOGIN_MAX_FAILURES_CEILING},
    {"HASH_THREADS", K_LONG, OFF(hash_threads), 1, BW_HASH_THREADS_MAX},
    {"HASH_QUEUE", K_LONG, OFF(hash_queue), 1, BW_HASH_QUEUE_MAX},
    {"WORKERS", K_LONG, OFF(workers), 0, BW_THREADS_MAX},
    {"JOB_LEASE_MS", K_LONG, OFF(job_lease_ms), BW_JOB_LEASE_MS_MIN, BW_JOB_LEASE_MS_MAX},
    {"JOB_POLL_MS", K_LONG, OFF(job_poll_ms), BW_JOB_POLL_MS_MIN, BW_JOB_POLL_MS_MAX},
    {"REDTEAM_MAX_PRO", K_LONG, OFF(redteam_max[BW_TIER_PRO]), 1, BW_REDTEAM_MAX_CEILING},
    {"REDTEAM_MAX_ENTERPRISE", K_LONG, OFF(redteam_max[BW_TIER_ENTERPRISE]), 1, BW_REDTEAM_MAX_CEILING},
    {"RT_BUDGET_LIGHT_REQUESTS", K_LONG, OFF(rt_budget_requests[0]), 1, BW_RT_BUDGET_REQ_CEILING},
    {"RT_BUDGET_STANDARD_REQUESTS", K_LONG, OFF(rt_budget_requests[1]), 1, BW_RT_BUDGET_REQ_CEILING},
    {"RT_BUDGET_FULL_REQUESTS", K_LONG, OFF(rt_budget_requests[2]), 1, BW_RT_BUDGET_REQ_CEILING},
    {"RT_BUDGET_LIGHT_SECONDS", K_LONG, OFF(rt_budget_seconds[0]), 1, BW_RT_BUDGET_S_CEILING},
    {"RT_BUDGET_STANDARD_SECONDS", K_LONG, OFF(rt_budget_seconds[1]), 1, BW_RT_BUDGET_S_CEILING},
    {"RT_BUDGET_FULL_SECONDS", K_LONG, OFF(rt_budget_seconds[2]), 1, BW_RT_BUDGET_S_CEILING},
    {"RT_TURNS_RETENTION_DAYS", K_LONG, OFF(rt_turns_retention_days), 0, BW_RT_TURNS_RETENTION_DAYS_MAX},
    {"THREADS", K_LONG, OFF(threads), 1, BW_THREADS_MAX},
    {"CONN_TIMEOUT_S", K_LONG, OFF(conn_timeout_s), 1, BW_CONFIG_SECONDS_MAX},
    {"SHUTDOWN_GRACE_S", K_LONG, OFF(shutdown_grace_s), 0, BW_CONFIG_SECONDS_MAX},
    {"MAX_CONNECTIONS", K_LONG, OFF(max_connections), BW_MAX_CONNECTIONS_MIN, BW_MAX_CONNECTIONS_CEILING},
    {"MAX_CONN_PER_IP", K_LONG, OFF(max_conn_per_ip), 0, BW_MAX_CONNECTIONS_CEILING},
    {"TLS_CERT", K_STR, OFF(tls_cert), 0, 0},
    {"TLS_KEY", K_STR, OFF(tls_key), 0, 0},
    {"MAX_BODY", K_LONG, OFF(max_body), BW_MAX_BODY_MIN, BW_MAX_BODY_CEILING},
    {"AUTH_CACHE_MS", K_LONG, OFF(auth_cache_ms), 0, BW_AUTH_CACHE_MS_MAX},
    {"INTEL_CACHE_MS", K_LONG, OFF(intel_cache_ms), 0, BW_INTEL_GEN_TTL_MS_MAX},
    {"METRICS_PUBLIC", K_BOOL, OFF(metrics_public), 0, 1},
    {"COOKIE_SECURE", K_BOOL, OFF(cookie_secure), 0, 1},
    {"LOG_LEVEL", K_LEVEL, OFF(log_level), 0, 0},
    {"MAX_CODE", K_LONG, OFF(max_code), BW_MAX_BODY_MIN, BW_MAX_BODY_CEILING},
    {"ALLOW_INSECURE_FILE_MODES", K_BOOL, OFF(allow_insecure_file_modes), 0, 1},
    {"SQLITE_SYNC_FULL", K_BOOL, OFF(sqlite_sync_full), 0, 1},
    {"ORCH_PACK_CACHE_S", K_LONG, OFF(orch_pack_cache_s), 0, BW_ORCH_PACK_CACHE_S_MAX},
    {"UPGRADE_URL", K_STR, OFF(upgrade_url), 0, 0},
    {"UPGRADE_PRICE", K_STR, OFF(upgrade_price), 0, 0},
    {"INTEL_KEV_URL", K_STR, OFF(intel_kev_url), 0, 0},
    {"INTEL_EPSS_URL", K_STR, OFF(intel_epss_url), 0, 0},
    {"INTEL_ATLAS_URL", K_STR, OFF(intel_atlas_url), 0, 0},
    {"INTEL_OSV_URL", K_STR, OFF(intel_osv_url), 0, 0},
    {"INTEL_OSV_PACKAGES", K_STR, OFF(intel_osv_packages), 0, 0},
    {"INTEL_SYNC_INTERVAL", K_DUR, OFF(intel_sync_interval_s), BW_INTEL_SYNC_INTERVAL_MIN_S,
     BW_INTEL_SYNC_INTERVAL_MAX_S},
    {"WEBHOOK_BACKOFF_SCALE", K_LONG, OFF(webhook_backoff_scale), 1, 1000},
};
#define NOPTS (sizeof opts / sizeof opts[0])

static int set_opt(struct bw_config *cfg, const struct opt *o, const char *val, const char *origin)
{
    char *base = (char *)cfg + o->off;
    switch (o->kind) {
    case K_STR: {
        char **dst = (char **)(void *)base;
        free(*dst);
        *dst = val[0] ? strdup(val) : NULL;
        return 0;
    }
    case K_LONG: {
        char *end;
        errno = 0;
        long v = strtol(val, &end, 10);
        if (errno || end == val || *end || v < o->min || v > o->max) {
            fprintf(stderr, "bulwark: %s: BULWARK_%s must be an integer from %ld to %ld\n", origin,
                    o->env, o->min, o->max);
            return -1;
        }
        *(long *)(void *)base = v;
        return 0;
    }
    case K_DUR: {
        char *end;
        errno = 0;
        long v = strtol(val, &end, 10);
        long unit = 1;
        if (*end && !end[1])
            unit = *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600 : *end == 'd' ? 86400 : 0;
        else if (*end)
            unit = 0;
        /* 0 (off) in any unit; otherwise min..max seconds, checked before multiplying */
        if (errno || end == val || !isdigit((unsigned char)val[0]) || unit == 0 ||
            (v != 0 && (v > o->max / unit || v * unit < o->min))) {
            fprintf(stderr,
                    "bulwark: %s: BULWARK_%s must be 0 (off) or a duration from %ld to %ld seconds "
                    "(a number of seconds, or with a unit: 90s, 15m, 6h, 1d)\n",
                    origin, o->env, o->min, o->max);
            return -1;
        }
        *(long *)(void *)base = v * unit;
        return 0;
    }
    case K_BOOL:
        if (strcmp(val, "1") == 0 || strcmp(val, "true") == 0)
            *(bool *)(void *)base = true;
        else if (strcmp(val, "0") == 0 || strcmp(val, "false") == 0)
            *(bool *)(void *)base = false;
        else {
            fprintf(stderr, "bulwark: %s: BULWARK_%s must be 0 or 1\n", origin, o->env);
            return -1;
        }
        return 0;
    case K_LEVEL: {
        int l = bw_log_parse_level(val);
        if (l < 0) {
            fprintf(stderr, "bulwark: %s: BULWARK_LOG_LEVEL must be debug, info, warn or error\n", origin);
            return -1;
        }
        *(int *)(void *)base = l;
        return 0;
    }
    }
    return -1;
}

/* "--rate-anon" -> matches env name "RATE_ANON" */
static const struct opt *find_flag(const char *flag, size_t n)
{
    for (size_t i = 0; i < NOPTS; i++) {
        const char *e = opts[i].env;
        if (strlen(e) != n)
            continue;
        size_t k = 0;
        for (; k < n; k++) {
            char c = flag[k] == '-' ? '_' : (char)toupper((unsigned char)flag[k]);
            if (c != e[k])
                break;
        }
        if (k == n)
            return &opts[i];
    }
    return NULL;
}

int bw_config_load(struct bw_config *cfg, int argc, char **argv, int from, int *rest, int *nrest)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->listen = strdup("127.0.0.1:8080");
    cfg->data_dir = strdup("./var");
    cfg->upgrade_url = strdup("https://bulwark.dev/pricing");
    cfg->upgrade_price = strdup("$49/month");
    /* the public feeds (an empty value disables a source) */
    cfg->intel_kev_url = strdup("https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json");
    cfg->intel_epss_url = strdup("https://epss.cyentia.com/epss_scores-current.csv.gz");
    cfg->intel_atlas_url = strdup("https://raw.githubusercontent.com/mitre-atlas/atlas-data/main/dist/ATLAS.yaml");
    cfg->rate_anon = BW_RATE_ANON_DEFAULT;
    cfg->rate_tier[BW_TIER_FREE] = BW_RATE_FREE_DEFAULT;
    cfg->rate_tier[BW_TIER_STARTER] = BW_RATE_STARTER_DEFAULT;
    cfg->rate_tier[BW_TIER_PRO] = BW_RATE_PRO_DEFAULT;
    cfg->rate_tier[BW_TIER_ENTERPRISE] = BW_RATE_ENTERPRISE_DEFAULT;
    cfg->max_keys[BW_TIER_FREE] = BW_MAX_KEYS_FREE;
    cfg->max_keys[BW_TIER_STARTER] = BW_MAX_KEYS_STARTER;
    cfg->max_keys[BW_TIER_PRO] = BW_MAX_KEYS_PRO;
    cfg->max_keys[BW_TIER_ENTERPRISE] = BW_MAX_KEYS_ENTERPRISE;
    cfg->login_max_failures = BW_LOGIN_MAX_FAILURES;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    cfg->workers = cores;
    /* half the cores: a flood of password checks leaves the rest to everything else */
    cfg->hash_threads = cores / 2 > 0 ? (cores / 2 < BW_HASH_THREADS_MAX ? cores / 2 : BW_HASH_THREADS_MAX) : 1;
    cfg->hash_queue = BW_HASH_QUEUE_DEFAULT;
    cfg->job_lease_ms = BW_JOB_LEASE_MS;
    cfg->job_poll_ms = BW_JOB_POLL_MS;
    cfg->webhook_backoff_scale = BW_WEBHOOK_BACKOFF_SCALE;
    cfg->redteam_max[BW_TIER_PRO] = BW_REDTEAM_MAX_PRO;
    cfg->redteam_max[BW_TIER_ENTERPRISE] = BW_REDTEAM_MAX_ENTERPRISE;
    cfg->rt_budget_requests[0] = BW_RT_BUDGET_REQ_LIGHT;
    cfg->rt_budget_requests[1] = BW_RT_BUDGET_REQ_STANDARD;
    cfg->rt_budget_requests[2] = BW_RT_BUDGET_REQ_FULL;
    cfg->rt_budget_seconds[0] = BW_RT_BUDGET_S_LIGHT;
    cfg->rt_budget_seconds[1] = BW_RT_BUDGET_S_STANDARD;
    cfg->rt_budget_seconds[2] = BW_RT_BUDGET_S_FULL;
    cfg->rt_turns_retention_days = BW_RT_TURNS_RETENTION_DAYS;
    /* A request thread waits on the database (the SQLite writer's group commit, a PostgreSQL
     * round trip) as much as it computes: more threads than cores keep the cores busy meanwhile,
     * and more writers waiting at once share one COMMIT. Past BW_THREADS_DEFAULT_CAP the cores
     * alone are enough. */
    long th = cores * BW_THREADS_PER_CORE;
    cfg->threads = th > BW_THREADS_DEFAULT_CAP ? (cores > BW_THREADS_DEFAULT_CAP ? cores : BW_THREADS_DEFAULT_CAP) : th;
    cfg->conn_timeout_s = BW_CONNECTION_TIMEOUT_S;
    cfg->shutdown_grace_s = BW_SHUTDOWN_GRACE_S;
    cfg->max_connections = BW_MAX_CONNECTIONS;
    cfg->max_conn_per_ip = BW_MAX_CONNECTIONS_PER_IP;
    cfg->max_body = BW_MAX_BODY_DEFAULT;
    cfg->auth_cache_ms = -1; /* unset: chosen by backend when the database is open (app.c) */
    cfg->intel_cache_ms = BW_INTEL_GEN_TTL_MS;
    cfg->max_code = BW_MAX_CODE_DEFAULT;
    cfg->orch_pack_cache_s = BW_ORCH_PACK_CACHE_S_DEFAULT;
    cfg->log_level = BW_LOG_INFO;

    for (size_t i = 0; i < NOPTS; i++) {
        char name[64];
        snprintf(name, sizeof name, "BULWARK_%s", opts[i].env);
        const char *v = getenv(name);
        if (v && set_opt(cfg, &opts[i], v, "environment") != 0)
            return -1;
    }
    *nrest = 0;
    for (int i = from; i < argc; i++) {
        const char *a = argv[i];
        const struct opt *o = NULL;
        const char *val = NULL;
        if (strncmp(a, "--", 2) == 0) {
            const char *eq = strchr(a + 2, '=');
            size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            o = find_flag(a + 2, n);
            if (o) {
                if (eq)
                    val = eq + 1;
                else if (i + 1 < argc)
                    val = argv[++i];
                else {
                    fprintf(stderr, "bulwark: %s needs a value\n", a);
                    return -1;
                }
            }
        }
        if (!o) {
            rest[(*nrest)++] = i;
            continue;
        }
        if (set_opt(cfg, o, val, "flag") != 0)
            return -1;
    }
    if (!cfg->listen || !cfg->data_dir) {
        fprintf(stderr, "bulwark: BULWARK_LISTEN and BULWARK_DATA_DIR must not be empty\n");
        return -1;
    }
    if (cfg->jwt_secret && strlen(cfg->jwt_secret) < BW_JWT_SECRET_MIN) {
        fprintf(stderr, "bulwark: BULWARK_JWT_SECRET must be at least %d bytes\n", BW_JWT_SECRET_MIN);
        return -1;
    }
    if (!cfg->tls_cert != !cfg->tls_key) {
        fprintf(stderr, "bulwark: BULWARK_TLS_CERT and BULWARK_TLS_KEY go together: set both (native TLS) "
                        "or neither (plain HTTP)\n");
        return -1;
    }
    if (cfg->rate_limit_store && strcmp(cfg->rate_limit_store, "auto") != 0 &&
        strcmp(cfg->rate_limit_store, "memory") != 0 && strcmp(cfg->rate_limit_store, "database") != 0) {
        fprintf(stderr, "bulwark: BULWARK_RATE_LIMIT_STORE must be auto, memory or database\n");
        return -1;
    }
    if (cfg->admin_key && strlen(cfg->admin_key) < BW_ADMIN_KEY_MIN) {
        fprintf(stderr, "bulwark: BULWARK_ADMIN_KEY must be at least %d characters\n", BW_ADMIN_KEY_MIN);
        return -1;
    }
    return 0;
}

void bw_config_free(struct bw_config *cfg)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (opts[i].kind == K_STR) {
            char **p = (char **)(void *)((char *)cfg + opts[i].off);
            free(*p);
            *p = NULL;
        }
}
