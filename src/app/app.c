/* Composition root: storage, secrets, bootstrap account, limiters, precomputed documents, and
 * the contexts of the HTTP layer and of the handlers. */
#include "app/app.h"
#include "audit/audit.h"
#include "services/accounts.h"
#include "net/egress.h"
#include "engine/agentscan.h"
#include "engine/redteam/redteam.h"
#include "engine/code/scanner.h"
#include "engine/governance.h"
#include "engine/mcpscan.h"

#include "auth/apikey.h"
#include "auth/password.h"
#include "common/embedded.h"
#include "common/bcache.h"
#include "common/cursor.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/rng.h"
#include "common/timeutil.h"
#include "services/intel_ingest.h"
#include "store/store.h"
#include "store/store_intel.h"

#include <sodium.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JWT secret: configured, or generated once and kept in the database so that every instance on
 * it signs and verifies with the same one and tokens survive restarts. */
static int load_jwt_secret(struct bw_app *app, unsigned char *out, size_t *len)
{
    if (app->cfg->jwt_secret) {
        size_t n = strlen(app->cfg->jwt_secret);
        if (n > BW_JWT_SECRET_MAX)
            n = BW_JWT_SECRET_MAX;
        memcpy(out, app->cfg->jwt_secret, n);
        *len = n;
        return 0;
    }
    char gen[129], have[300];
    unsigned char raw[64];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(gen, sizeof gen, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
    if (store_setting_put_if_absent(app->db, "jwt_secret", gen) != ST_OK ||
        store_setting_get(app->db, "jwt_secret", have, sizeof have) != ST_OK) {
        bw_logf(BW_LOG_ERROR, NULL, "cannot store the JWT secret");
        return -1;
    }
    sodium_memzero(gen, sizeof gen);
    *len = strlen(have);
    if (*len > BW_JWT_SECRET_MAX)
        *len = BW_JWT_SECRET_MAX;
    memcpy(out, have, *len);
    sodium_memzero(have, sizeof have);
    return 0;
}

/* The key that seals list cursors (common/cursor.h): generated once and kept in the database, so
 * every instance on it accepts the others' cursors and a cursor outlives a restart. */
static int load_cursor_key(struct bw_app *app, unsigned char out[BW_CURSOR_KEY_BYTES])
{
    char gen[2 * BW_CURSOR_KEY_BYTES + 1], have[2 * BW_CURSOR_KEY_BYTES + 8];
    unsigned char raw[BW_CURSOR_KEY_BYTES];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(gen, sizeof gen, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
    size_t n = 0;
    int rc = store_setting_put_if_absent(app->db, "cursor_key", gen) == ST_OK &&
                     store_setting_get(app->db, "cursor_key", have, sizeof have) == ST_OK &&
                     sodium_hex2bin(out, BW_CURSOR_KEY_BYTES, have, strlen(have), NULL, &n, NULL) == 0 &&
                     n == BW_CURSOR_KEY_BYTES
                 ? 0
                 : -1;
    sodium_memzero(gen, sizeof gen);
    sodium_memzero(have, sizeof have);
    if (rc != 0)
        bw_logf(BW_LOG_ERROR, NULL, "cannot store the cursor key");
    return rc;
}

/* Admin key: configured, or generated once; only its SHA-256 is stored, so it is shown once. */
static int load_admin_key(struct bw_app *app, unsigned char hash[32])
{
    if (app->cfg->admin_key) {
        crypto_hash_sha256(hash, (const unsigned char *)app->cfg->admin_key, strlen(app->cfg->admin_key));
        return 0;
    }
    char key[BW_ADMIN_KEY_LEN + 1], hex[65], have[80];
    bw_admin_key_generate(key, hex);
    if (store_setting_put_if_absent(app->db, "admin_key_sha256", hex) != ST_OK ||
        store_setting_get(app->db, "admin_key_sha256", have, sizeof have) != ST_OK ||
        strlen(have) != 64) {
        bw_logf(BW_LOG_ERROR, NULL, "cannot store the admin key hash");
        return -1;
    }
    if (strcmp(have, hex) == 0) /* ours was stored: this start generated it */
        bw_log_json(BW_LOG_WARN, NULL, "admin key generated",
                    json_pack("{s:s,s:s}", "admin_key", key, "note",
                              "shown once; send it as x-api-key; only its hash is stored"));
    sodium_memzero(key, sizeof key);
    size_t bl = 0;
    if (sodium_hex2bin(hash, 32, have, 64, NULL, &bl, NULL) != 0 || bl != 32)
        return -1;
    return 0;
}

static int bootstrap_admin(struct bw_app *app)
{
    int64_t n = 0;
    if (store_user_count(app->db, &n) != ST_OK)
        return -1;
    if (n > 0)
        return 0;
    char pw[25];
    bool generated = !app->cfg->bootstrap_password;
    if (generated)
        bw_random_base62(pw, 24);
    else
        snprintf(pw, sizeof pw, "%s", "");
    const char *password = generated ? pw : app->cfg->bootstrap_password;
    struct store_user u;
    bool hash_failed;
    int rc = bw_account_create(app->db, "admin@localhost", password, BW_TIER_ENTERPRISE, BW_ROLE_ADMIN, NULL, &u,
                               &hash_failed);
    sodium_memzero(u.password_hash, sizeof u.password_hash);
    if (rc == ST_CONFLICT) /* another instance bootstrapped first */
        return 0;
    if (rc != ST_OK || hash_failed)
        return -1;
    json_t *f = json_pack("{s:s,s:s,s:s,s:s}", "email", u.email, "id", u.id, "tier", "ENTERPRISE", "role", "admin");
    if (generated)
        json_object_set_new(f, "password", json_string(pw));
    json_object_set_new(f, "note", json_string(generated ? "shown once; log in with POST /api/auth/login"
                                                         : "password from BULWARK_BOOTSTRAP_PASSWORD"));
    bw_log_json(BW_LOG_WARN, NULL, "bootstrap admin account created", f);
    sodium_memzero(pw, sizeof pw);
    return 0;
}

/* BULWARK_RATE_LIMIT_STORE: "auto" shares on PostgreSQL (where several instances can run on one
 * database) and keeps SQLite's in memory (one instance per database file, no round trip). */
static bool rate_limits_shared(const struct bw_app *app)
{
    const char *s = app->cfg->rate_limit_store;
    if (s && strcmp(s, "database") == 0)
        return true;
    if (s && strcmp(s, "memory") == 0)
        return false;
    return strcmp(db_backend(app->db), "postgres") == 0;
}

static int parse_trusted(struct bw_app *app)
{
    if (!app->cfg->trusted_proxies)
        return 0;
    struct bw_http_ctx *h = &app->http;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", app->cfg->trusted_proxies);
    char *save = NULL;
    for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        if (h->ntrusted == BW_MAX_TRUSTED_PROXIES) {
            bw_logf(BW_LOG_ERROR, NULL, "BULWARK_TRUSTED_PROXIES: at most %d addresses", BW_MAX_TRUSTED_PROXIES);
            return -1;
        }
        /* compared as text with the peer address: only an exact IP can ever match */
        unsigned char a[16];
        if (strlen(t) >= sizeof h->trusted[0] || (inet_pton(AF_INET, t, a) != 1 && inet_pton(AF_INET6, t, a) != 1)) {
            bw_logf(BW_LOG_ERROR, NULL, "BULWARK_TRUSTED_PROXIES: '%.64s' is not an IP address", t);
            return -1;
        }
        snprintf(h->trusted[h->ntrusted++], sizeof h->trusted[0], "%s", t);
    }
    return 0;
}

/* The framework catalogs and the evidence mapping (data/frameworks), checked. */
static int governance_load(struct bw_app *app)
{
    const struct bw_embedded *fw[BW_FRAMEWORKS];
    for (size_t i = 0; i < BW_FRAMEWORKS; i++) {
        char name[96];
        snprintf(name, sizeof name, "data/frameworks/%s.json", bw_governance_framework_ids[i]);
        fw[i] = bw_embedded_find(name);
    }
    char err[256];
    if (bw_governance_catalogs_load(fw, bw_embedded_find("data/frameworks/evidence.json"),
                                    bw_embedded_find("data/frameworks/usecases.json"), &app->gov, err,
                                    sizeof err) != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "the embedded framework catalogs are invalid: %s", err);
        return -1;
    }
    return 0;
}

/* Readiness (/readyz): storage answers. */
static const char *storage_ready(void *arg)
{
    struct bw_app *app = arg;
    return db_ping(app->db) ? NULL : "storage unreachable";
}

/* What the HTTP layer is handed: borrowed pointers to what the app owns, and the hooks. */
static void http_fill(struct bw_app *app)
{
    struct bw_http_ctx *h = &app->http; /* the trusted proxies are in already (parse_trusted) */
    h->cfg = app->cfg;
    h->auth = app->auth;
    h->rate = app->rate;
    h->blocking = app->blocking;
    h->backend = db_backend(app->db);
    h->ready.fn = storage_ready;
    h->ready.arg = app;
    h->handler_ctx = &app->api;
    h->fallback = api_console_static;
    bw_audit_register(app->audit, h);
}

/* The handlers' context: borrowed pointers to what the app owns. */
static void api_fill(struct bw_app *app)
{
    struct api_ctx *c = &app->api;
    c->cfg = app->cfg;
    c->db = app->db;
    c->auth = app->auth;
    c->rate = app->rate;
    c->login_email = app->login_email;
    c->login_ip = app->login_ip;
    c->logins = app->logins;
    c->hashing = app->hashing;
    c->probes = app->probes;
    c->orch_pool = app->orch_pool;
    c->orch_cache = app->orch_cache;
    c->playbooks = app->playbooks;
    c->feed_pages = app->feed_pages;
    c->intel_gen = app->intel_gen;
    c->audit = app->audit;
    c->scanner = app->scanner;
    c->egress_allow = app->egress_allow;
    c->seal = &app->seal;
    c->dummy_hash = app->dummy_hash;
    c->started_s = app->started_s;
    c->gov = &app->gov;
    c->mcp_checks = app->mcp_checks;
}

int bw_app_init(struct bw_app *app, struct bw_config *cfg)
{
    memset(app, 0, sizeof *app);
    app->cfg = cfg;
    app->started_s = bw_now_s();
    char err[1024]; /* room for the paths of a file-mode refusal */
    /* settings first: a bad one stops the start before the database is touched */
    if (parse_trusted(app) != 0)
        return -1;
    if (bw_egress_parse_allow(cfg->egress_allow ? cfg->egress_allow : "", &app->egress_allow) != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "BULWARK_EGRESS_ALLOW: expected a comma list of loopback, private, or none alone");
        return -1;
    }
    /* PostgreSQL: a connection for every thread that can hold one at once, so none waits for
     * another's: HTTP threads, the blocking and password pools, the probe pool, job workers, the
     * orchestrator's pack pool, the audit flusher and one to spare (LISTEN has its own). Connections
     * open on first use and are reused newest first, so an idle server holds few. */
    int nblocking_pool = (int)cfg->threads < 2 ? 2 : (int)cfg->threads;
    int pool = (int)cfg->threads + nblocking_pool + (int)cfg->hash_threads + BW_PROBE_THREADS + (int)cfg->workers +
               BW_ORCH_PACK_THREADS + 2;
    unsigned dbf = (cfg->allow_insecure_file_modes ? DB_OPEN_ALLOW_INSECURE_MODES : 0) |
                   (cfg->sqlite_sync_full ? DB_OPEN_SYNC_FULL : 0);
    if (db_open(cfg->database_url, cfg->data_dir, dbf, pool, &app->db, err, sizeof err) != 0) {
        bw_log_json(BW_LOG_ERROR, NULL, "cannot open the database", json_pack("{s:s}", "detail", err));
        return -1;
    }
    if (bw_app_seal_open(cfg, app->db, &app->seal, err, sizeof err) != 0) {
        bw_log_json(BW_LOG_ERROR, NULL, "refusing to serve", json_pack("{s:s}", "detail", err));
        return -1;
    }
    unsigned char secret[BW_JWT_SECRET_MAX], admin_hash[32];
    size_t slen = 0;
    if (load_jwt_secret(app, secret, &slen) != 0 ||
        load_admin_key(app, admin_hash) != 0 || load_cursor_key(app, app->api.cursor_key) != 0 ||
        bootstrap_admin(app) != 0)
        return -1;
    /* The hot path reads no account: a change made on this instance drops its entry at once,
     * other instances on one PostgreSQL database are told by NOTIFY within milliseconds, and the
     * TTL bounds a lost notification (on SQLite, the CLI's changes are seen in the database's
     * files, and the TTL bounds one made by a process still holding it open). 0 reads the
     * credential on every request, for operators who want no window at all. */
    long cache_ms = cfg->auth_cache_ms >= 0 ? cfg->auth_cache_ms : BW_AUTH_CACHE_MS_DEFAULT;
    app->auth = bw_auth_new(app->db, secret, slen, admin_hash, cache_ms);
    sodium_memzero(secret, sizeof secret);
    app->rate = bw_limiter_new(BW_RATE_WINDOW_S, BW_LIMITER_MAX_ENTRIES);
    app->login_email = bw_limiter_new(BW_LOGIN_WINDOW_S, BW_LIMITER_MAX_ENTRIES / 4);
    app->login_ip = bw_limiter_new(BW_LOGIN_WINDOW_S, BW_LIMITER_MAX_ENTRIES / 4);
    app->blocking = bw_pool_new(nblocking_pool, BW_BLOCKING_QUEUE_MAX);
    app->probes = bw_pool_new(BW_PROBE_THREADS, BW_PROBE_QUEUE_MAX);
    /* password checks have their own pool, so a flood of logins never queues in front of other
     * blocking work; each one in flight holds an email and an address slot until it is answered */
    app->hashing = bw_pool_new((int)cfg->hash_threads, (size_t)cfg->hash_queue);
    app->logins = bw_inflight_new(2 * ((size_t)cfg->hash_threads + (size_t)cfg->hash_queue + (size_t)cfg->threads));
    app->audit = bw_audit_start(app->db);
    /* packs computed on demand have a pool of their own: a burst of them never delays a login */
    app->orch_pool = bw_pool_new(BW_ORCH_PACK_THREADS, BW_ORCH_PACK_QUEUE_MAX);
    app->orch_cache = bw_orch_cache_new(app->db, app->audit, cfg->orch_pack_cache_s);
    app->playbooks = bw_bcache_new(BW_PLAYBOOK_CACHE_ENTRIES, BW_PLAYBOOK_CACHE_BYTES);
    app->feed_pages = bw_bcache_new(BW_FEED_CACHE_ENTRIES, BW_FEED_CACHE_BYTES);
    app->intel_gen = store_intel_gen_new(app->db, cfg->intel_cache_ms);
    if (!app->auth || !app->rate || !app->login_email || !app->login_ip || !app->blocking || !app->probes ||
        !app->hashing || !app->logins || !app->audit || !app->orch_pool || !app->orch_cache || !app->playbooks ||
        !app->feed_pages || !app->intel_gen)
        return -1;
    if (rate_limits_shared(app)) { /* every instance on this database spends one budget */
        bw_limiter_share(app->rate, app->db, "rate");
        bw_limiter_share(app->login_email, app->db, "login_email");
        bw_limiter_share(app->login_ip, app->db, "login_ip");
    }
    if (bw_egress_global_init() != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "libcurl could not be initialised");
        return -1;
    }
    char pw[33];
    bw_random_base62(pw, 32);
    if (bw_password_hash(pw, app->dummy_hash) != 0)
        return -1;
    bw_agent_catalog_init(); /* the embedded tool-capability catalog: a broken one stops the start here */
    {
        /* the embedded intel snapshot, once per database (ingest.h) */
        char why[256];
        long loaded = 0;
        int64_t t0 = bw_mono_us();
        if (bw_intel_seed_load(app->db, &loaded, why, sizeof why) != 0) {
            bw_logf(BW_LOG_ERROR, NULL, "intel seed: %s", why);
            return -1;
        }
        if (loaded)
            bw_log_json(BW_LOG_INFO, NULL, "intel seed loaded",
                        json_pack("{s:i,s:i}", "records", (json_int_t)loaded, "ms",
                                  (json_int_t)((bw_mono_us() - t0) / 1000)));
    }
    if (!bw_rt_library_get()) {
        bw_logf(BW_LOG_ERROR, NULL, "the embedded red-team attack library is invalid");
        return -1;
    }
    if (governance_load(app) != 0)
        return -1;
    if (bw_mcp_checks_load(bw_embedded_find(BW_MCP_CHECKS), &app->mcp_checks, err, sizeof err) != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "the embedded MCP check catalog %s is invalid: %s", BW_MCP_CHECKS, err);
        return -1;
    }
    {
        char why[512];
        int64_t t0 = bw_mono_us();
        app->scanner = bw_scanner_new_embedded(why, sizeof why);
        if (app->scanner && bw_scanner_load_all(app->scanner) != 0) {
            snprintf(why, sizeof why, "the prebuilt databases cannot be loaded");
            bw_scanner_free(app->scanner);
            app->scanner = NULL;
        }
        if (!app->scanner) {
            bw_logf(BW_LOG_ERROR, NULL, "code scanner rule catalog: %s", why);
            return -1;
        }
        bw_log_json(BW_LOG_INFO, NULL, "code scanner ready",
                    json_pack("{s:i,s:b,s:i}", "rules", (json_int_t)bw_scanner_rule_count(app->scanner), "prebuilt",
                              bw_scanner_is_prebuilt(app->scanner), "load_ms", (json_int_t)((bw_mono_us() - t0) / 1000)));
    }
    http_fill(app);
    api_fill(app);
    if (api_frameworks_render(&app->api) != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "the framework documents cannot be rendered");
        return -1;
    }
    return 0;
}

int bw_app_seal_open(const struct bw_config *cfg, struct db *db, struct bw_seal *out, char *why, size_t cap)
{
    bool insecure = false;
    if (bw_seal_key_load(cfg->secret_key, cfg->data_dir, cfg->allow_insecure_file_modes, out, &insecure, why, cap) != 0)
        return -1;
    if (insecure)
        bw_logf(BW_LOG_WARN, NULL, "the secret key file in %s may be read by group or others", cfg->data_dir);
    /* the first instance's check value stays: a later instance with another key must not win */
    char *check = bw_seal_text(out, BW_SEAL_CHECK_TEXT, sizeof BW_SEAL_CHECK_TEXT - 1);
    char have[256] = "";
    int rc = check ? store_setting_put_if_absent(db, BW_SEAL_CHECK_SETTING, check) : ST_ERROR;
    free(check);
    if (rc == ST_OK)
        rc = store_setting_get(db, BW_SEAL_CHECK_SETTING, have, sizeof have);
    if (rc != ST_OK) {
        snprintf(why, cap, "cannot read the sealed check value from the database");
        return -1;
    }
    if (!bw_seal_check_ok(out, have)) {
        sodium_memzero(out, sizeof *out);
        snprintf(why, cap,
                 "the secret key (%s) is not the key this database's secrets are sealed with: every instance "
                 "on one database needs the same key; restore it (a %s.new left by an interrupted `bulwark "
                 "secrets rekey` may be it)",
                 cfg->secret_key && *cfg->secret_key ? "BULWARK_SECRET_KEY" : "the data directory's " BW_SEAL_KEY_FILE,
                 BW_SEAL_KEY_FILE);
        return -1;
    }
    return 0;
}

void bw_app_free(struct bw_app *app)
{
    bw_pool_free(app->orch_pool); /* its computations flush the audit events and fill the cache */
    bw_orch_cache_free(app->orch_cache);
    bw_bcache_free(app->playbooks);
    bw_bcache_free(app->feed_pages);
    store_intel_gen_free(app->intel_gen);
    bw_audit_stop(app->audit); /* writes what is pending, so before the database closes */
    bw_pool_free(app->blocking);
    bw_pool_free(app->probes);
    bw_pool_free(app->hashing);
    bw_inflight_free(app->logins); /* after the pool: its last jobs leave their slots */
    bw_limiter_free(app->rate);
    bw_limiter_free(app->login_email);
    bw_limiter_free(app->login_ip);
    bw_auth_free(app->auth);
    db_close(app->db);
    api_frameworks_free(&app->api);
    bw_governance_catalogs_free(&app->gov);
    bw_mcp_checks_free(app->mcp_checks);
    bw_scanner_free(app->scanner);
    memset(app, 0, sizeof *app);
}
