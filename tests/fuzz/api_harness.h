/* The API harness shared by the fuzz_api_<group> targets: every input is one HTTP request that
 * runs through the real request pipeline in-process (bw_http_synthetic: routing, body limit,
 * credentials, rate limit, access level, media type, JSON parse, the route's handler and its
 * validators, work handed to the thread pools), against the real application (bw_app_init, as
 * `bulwark serve` builds it) on a fresh SQLite database in a temporary directory.
 *
 * A target defines the routes it covers and includes this file once:
 *
 *     static const char *const FUZZ_API_ROUTES[] = {"POST /api/developer/keys", ..., NULL};
 *     #define FUZZ_API_UNMATCHED 0   (1: also requests no route matches: 404, 405, 501)
 *     #include "api_harness.h"
 *
 * Inputs that route elsewhere are rejected (-1: not kept in the corpus), so each target's corpus
 * stays about its own group.
 *
 * Input format (text, like an HTTP/1.1 request; seeds are readable and writable by hand):
 *
 *     METHOD TARGET            TARGET = path[?query]; the path is percent-decoded, the query
 *     Name: value              split at & and = and decoded (+ is a space), as libmicrohttpd does
 *     ...                      up to 16 headers
 *                              an empty line
 *     body                     the rest, bytes as they are
 *
 * Placeholders give the fuzzer what it could never guess:
 *   - a header value "@free", "@starter", "@pro", "@enterprise" or "@admin": in Authorization the
 *     session token ("Bearer ...") of the fixture account of that tier (@admin: the bootstrap
 *     admin account), in X-API-Key that account's API key (@admin: the admin key);
 *   - "{asset}", "{key}", "{engagement}", "{assessment}", "{run}", "{webhook}" anywhere in the target or body:
 *     the id of an object created at start that belongs to the account chosen above (the PRO
 *     account when none is), so path parameters and body references reach the handlers past the
 *     "does it exist" check.
 *
 * Outbound connections: BULWARK_EGRESS_ALLOW=none, so asset scans and MCP probes are refused
 * before any name is looked up; connect() and getaddrinfo() are also replaced in this binary by
 * versions that abort, so a probe that reached the network would be a crash, not a request.
 *
 * Invariants (abort on violation): a status the API documents; every 4xx/5xx is the error
 * envelope {"error":{"code","message","request_id"}} with the code's own status and this
 * request's id; 405 carries Allow; JSON bodies parse; no 500 ever, and no 5xx but 501 (unknown
 * method) and 503 "server busy" (pool full): with a healthy SQLite database, "storage
 * unavailable" is a bug too.
 *
 * State: rows created by fuzzed requests stay in the database (disk, not memory); accounts have
 * key and engagement limits, and orchestrator runs one per scope. Nothing else grows. Rate
 * limits are off (deterministic answers); failed logins are throttled after 2 per email and 10
 * per address, so argon2id (most of a second under ASan) runs a few times, then logins are 429. */
#ifndef FUZZ_API_HARNESS_H
#define FUZZ_API_HARNESS_H
#include "api/api.h"
#include "app/app.h"
#include "auth/password.h"
#include "common/errors.h"
#include "common/ids.h"
#include "common/log.h"
#include "common/seal.h"
#include "common/timeutil.h"
#include "http/http.h"
#include "store/store.h"
#include "store/store_webhooks.h"

#include <ftw.h>
#include <jansson.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- no network: these win over libc's for every caller in the process (libcurl included) ---- */

int connect(int fd, __CONST_SOCKADDR_ARG addr, socklen_t len)
{
    (void)fd, (void)addr, (void)len;
    fprintf(stderr, "fuzz_api: connect() called: egress reached the network\n");
    abort();
}

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)
{
    (void)node, (void)service, (void)hints, (void)res;
    fprintf(stderr, "fuzz_api: getaddrinfo() called: egress looked a name up\n");
    abort();
}

/* ---- the application and its fixtures ----------------------------------------------------------- */

#define FZ_ADMIN_KEY "adm_fuzz0000000000000000000000000000000000"
#define FZ_PASSWORD "fuzz-password-1"
#define FZ_MAX_HEADERS 16
#define FZ_MAX_QUERY 16

enum fz_who { FZ_FREE, FZ_STARTER, FZ_PRO, FZ_ENTERPRISE, FZ_ADMIN, FZ_WHO__COUNT };
static const char *const FZ_WHO_NAMES[FZ_WHO__COUNT] = {"free", "starter", "pro", "enterprise", "admin"};

struct fz_account {
    struct store_user u;
    char api_key[96];              /* for X-API-Key (@admin: the admin key) */
    char key_id[BW_ID_MAX];        /* {key}: a second key, for revoke and rotate */
    char asset[BW_ID_MAX];         /* {asset} */
    char engagement[BW_ID_MAX];    /* {engagement} */
    char assessment[BW_ID_MAX];    /* {assessment} */
    char webhook[BW_ID_MAX];       /* {webhook}: PRO and above ("" below) */
    char token[1024];              /* session token, renewed now and then */
    int64_t token_at;
};

static struct {
    struct bw_config cfg;
    struct bw_app app;
    char dir[64];
    struct fz_account acc[FZ_WHO__COUNT];
    char run[BW_ID_MAX]; /* {run}: an orchestrator run of the admin key */
    bool verbose;
} fz;

static int fz_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void fz_cleanup(void) { nftw(fz.dir, fz_rm, 8, FTW_DEPTH | FTW_PHYS); }

static void fz_die(const char *what)
{
    fprintf(stderr, "fuzz_api: setup failed: %s\n", what);
    abort();
}

/* The account's session token, of its current token generation: an input that changed its
 * password (POST /api/auth/password) ended the earlier ones, and the next input gets a new one. */
static const char *fz_token(enum fz_who w)
{
    struct fz_account *a = &fz.acc[w];
    int64_t now = bw_now_s();
    struct store_user cur;
    if (store_user_by_id(fz.app.db, a->u.id, &cur) != ST_OK)
        fz_die("fixture account");
    if (!a->token[0] || now - a->token_at > 600 || cur.token_gen != a->u.token_gen) {
        a->u.token_gen = cur.token_gen;
        char *t = NULL;
        long exp = 0;
        if (bw_auth_issue_token(fz.app.auth, a->u.id, a->u.tier, a->u.role, a->u.token_gen, &t, &exp) != 0 ||
            strlen(t) >= sizeof a->token)
            fz_die("token");
        snprintf(a->token, sizeof a->token, "%s", t);
        free(t);
        a->token_at = now;
    }
    return a->token;
}

/* One request during setup; the reply's body parsed (NULL unless want). */
static json_t *fz_call(const char *method, const char *url, const char *const (*hdrs)[2], size_t nh,
                       const char *body, unsigned want)
{
    struct bw_synth_req in = {.method = method, .url = url, .headers = hdrs, .nheaders = nh, .body = body,
                              .body_len = body ? strlen(body) : 0};
    struct bw_synth_resp out;
    if (bw_http_synthetic(&fz.app.http, &in, &out) != 0)
        fz_die("request");
    json_t *j = out.status == want ? json_loads(out.body, 0, NULL) : NULL;
    if (!j)
        fprintf(stderr, "fuzz_api: %s %s: %u %s\n", method, url, out.status, out.body ? out.body : "");
    free(out.body);
    return j;
}

/* The string member `name` of a setup reply into out (out_cap bytes); frees j. */
static void fz_take(json_t *j, const char *name, char *out, size_t cap)
{
    const char *s = json_string_value(json_object_get(j, name));
    if (!s || strlen(s) >= cap)
        fz_die(name);
    snprintf(out, cap, "%s", s);
    json_decref(j);
}

static void fz_setup_account(enum fz_who w)
{
    struct fz_account *a = &fz.acc[w];
    char auth[1100];
    snprintf(auth, sizeof auth, "Bearer %s", fz_token(w));
    const char *const hdrs[][2] = {{"Authorization", auth}, {"Content-Type", "application/json"}};
    if (w != FZ_ADMIN)
        fz_take(fz_call("POST", "/api/developer/keys", hdrs, 2, "{\"label\":\"fuzz\"}", 201), "key", a->api_key,
                sizeof a->api_key);
    fz_take(fz_call("POST", "/api/developer/keys", hdrs, 2, "{\"label\":\"victim\"}", 201), "id", a->key_id,
            sizeof a->key_id);
    if (w == FZ_FREE)
        return;
    fz_take(fz_call("POST", "/api/ai-security/assets/register", hdrs, 2,
                    "{\"name\":\"fuzz model\",\"type\":\"model\",\"provider\":\"openai\","
                    "\"endpoint\":\"https://api.example.com/v1/chat/completions\",\"env\":\"staging\"}",
                    201),
            "asset_id", a->asset, sizeof a->asset);
    fz_take(fz_call("POST", "/api/ai-security/governance/assess", hdrs, 2,
                    "{\"framework_id\":\"nist-ai-rmf\",\"ai_use_cases\":[\"customer support chatbot\"]}", 201),
            "assessment_id", a->assessment, sizeof a->assessment);
    if (w == FZ_STARTER)
        return;
    char body[160];
    snprintf(body, sizeof body, "{\"target_asset_id\":\"%s\",\"intensity\":\"light\"}", a->asset);
    fz_take(fz_call("POST", "/api/ai-security/redteam/engage", hdrs, 2, body, 202), "engagement_id",
            a->engagement, sizeof a->engagement);
    /* {webhook}: written to the store as POST /api/webhooks would, since the egress policy of the
     * harness (none) refuses every URL at registration */
    struct store_webhook wh = {.created_us = bw_now_us()};
    bw_id_new("whk_", wh.id);
    snprintf(wh.user_id, sizeof wh.user_id, "%s", a->u.id);
    snprintf(wh.url, sizeof wh.url, "https://hooks.example.com/bulwark");
    snprintf(wh.events, sizeof wh.events, ",engagement.completed,");
    bw_iso8601(wh.created_us / 1000000, wh.created_at);
    wh.secret_sealed = bw_seal_text(&fz.app.seal, "whsec_fuzz", 10);
    if (!wh.secret_sealed || store_webhook_insert(fz.app.db, &wh, BW_WEBHOOKS_MAX) != ST_OK)
        fz_die("webhook");
    free(wh.secret_sealed);
    snprintf(a->webhook, sizeof a->webhook, "%s", wh.id);
}

static void fz_add_user(enum fz_who w, enum bw_tier tier, const char *hash)
{
    struct store_user *u = &fz.acc[w].u;
    memset(u, 0, sizeof *u);
    bw_id_new("usr_", u->id);
    snprintf(u->email, sizeof u->email, "%s@fuzz.example", FZ_WHO_NAMES[w]);
    snprintf(u->password_hash, sizeof u->password_hash, "%s", hash);
    u->tier = tier;
    u->role = BW_ROLE_USER;
    bw_iso8601(bw_now_s(), u->created_at);
    if (store_user_insert(fz.app.db, u) != ST_OK)
        fz_die("user");
}

static void fz_check_group(void);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(fz.dir, sizeof fz.dir, "/tmp/bulwark-fuzz-XXXXXX");
    if (!mkdtemp(fz.dir))
        fz_die("mkdtemp");
    atexit(fz_cleanup);
    static const char *const env[][2] = {
        {"BULWARK_DATA_DIR", NULL}, {"BULWARK_ADMIN_KEY", FZ_ADMIN_KEY},
        {"BULWARK_JWT_SECRET", "fuzz-jwt-secret-0123456789abcdef0123456789abcdef"},
        {"BULWARK_BOOTSTRAP_PASSWORD", FZ_PASSWORD}, {"BULWARK_EGRESS_ALLOW", "none"},
        {"BULWARK_LOG_LEVEL", "error"}, {"BULWARK_RATE_ANON", "0"}, {"BULWARK_RATE_FREE", "0"},
        {"BULWARK_RATE_STARTER", "0"}, {"BULWARK_RATE_PRO", "0"}, {"BULWARK_RATE_ENTERPRISE", "0"},
        {"BULWARK_MAX_KEYS_FREE", "4"}, {"BULWARK_MAX_KEYS_STARTER", "4"}, {"BULWARK_WORKERS", "0"},
        {"BULWARK_THREADS", "2"}, {"BULWARK_LOGIN_MAX_FAILURES", "2"}, {"BULWARK_MAX_BODY", "65536"},
        {"BULWARK_MAX_CODE", "32768"},
    };
    unsetenv("BULWARK_DATABASE_URL");
    unsetenv("BULWARK_TRUSTED_PROXIES");
    unsetenv("BULWARK_METRICS_PUBLIC");
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
        setenv(env[i][0], env[i][1] ? env[i][1] : fz.dir, 1);
    int nrest = 0, rest[1];
    char *args[] = {"fuzz", NULL};
    if (bw_config_load(&fz.cfg, 1, args, 1, rest, &nrest) != 0)
        fz_die("config");
    bw_log_set_level(fz.cfg.log_level);
    if (bw_app_init(&fz.app, &fz.cfg) != 0 || bw_router_init(bw_routes, bw_routes_count) != 0)
        fz_die("app");
    fz_check_group();
    fz.verbose = getenv("FUZZ_API_VERBOSE") != NULL;
    /* the accounts: one argon2id hash for all of them */
    char hash[160];
    if (bw_password_hash(FZ_PASSWORD, hash) != 0)
        fz_die("hash");
    fz_add_user(FZ_FREE, BW_TIER_FREE, hash);
    fz_add_user(FZ_STARTER, BW_TIER_STARTER, hash);
    fz_add_user(FZ_PRO, BW_TIER_PRO, hash);
    fz_add_user(FZ_ENTERPRISE, BW_TIER_ENTERPRISE, hash);
    if (store_user_by_email(fz.app.db, "admin@localhost", &fz.acc[FZ_ADMIN].u) != ST_OK)
        fz_die("bootstrap admin");
    snprintf(fz.acc[FZ_ADMIN].api_key, sizeof fz.acc[FZ_ADMIN].api_key, "%s", FZ_ADMIN_KEY);
    for (int w = 0; w < FZ_WHO__COUNT; w++)
        fz_setup_account((enum fz_who)w);
    const char *const admin[][2] = {{"X-API-Key", FZ_ADMIN_KEY}, {"Content-Type", "application/json"}};
    fz_take(fz_call("POST", "/api/orchestrator/god-mode/run", admin, 2, "{\"max_items\":5}", 202), "job_id", fz.run,
            sizeof fz.run);
    return 0;
}

/* ---- one input ------------------------------------------------------------------------------------ */

static void fz_fail(const char *why, const struct bw_synth_req *in, const struct bw_synth_resp *out)
{
    fprintf(stderr, "fuzz_api: invariant broken: %s\n  request: %s %s\n  reply: %u %.*s\n", why, in->method, in->url,
            out->status, (int)(out->len > 2000 ? 2000 : out->len), out->body ? out->body : "");
    abort();
}

/* strcmp(a, b) == 0 (n: at most n bytes) without feeding libFuzzer's comparison tracing: the
 * checks below compare the server's output, not the input, and would only fill the fuzzer's
 * dictionary with error codes and route patterns. */
__attribute__((no_sanitize("coverage"))) static bool fz_same(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i])
            return false;
        if (!a[i])
            return true;
    }
    return true;
}

/* The statuses the API answers with (docs/openapi.json). */
static bool fz_status_known(unsigned s)
{
    static const unsigned ok[] = {200, 201, 202, 400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 429, 501, 503};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (s == ok[i])
            return true;
    return false;
}

/* A TAXII route's reply: a TAXII document, errors as TAXII error resources {title, http_status (the
 * status as a string), error_code (the table's code for the status, or NOT_ACCEPTABLE for 406),
 * details.request_id (this request's)}; never a 5xx but 503 "server busy". */
static void fz_check_taxii(const struct bw_synth_req *in, const struct bw_synth_resp *out)
{
    json_t *j = json_loadb(out->body, out->len, 0, NULL);
    if (!json_is_object(j))
        fz_fail("TAXII reply body is not a JSON object", in, out);
    if (out->status >= 400) {
        char st[8];
        snprintf(st, sizeof st, "%u", out->status);
        const char *title = json_string_value(json_object_get(j, "title"));
        const char *hs = json_string_value(json_object_get(j, "http_status"));
        const char *code = json_string_value(json_object_get(j, "error_code"));
        const char *rid = json_string_value(json_object_get(json_object_get(j, "details"), "request_id"));
        if (!title || !hs || !fz_same(hs, st, SIZE_MAX) || !code || !rid || !fz_same(rid, out->request_id, SIZE_MAX))
            fz_fail("TAXII error reply is not the TAXII error resource", in, out);
        unsigned want = fz_same(code, "NOT_ACCEPTABLE", SIZE_MAX) ? 406 : 0;
        for (int k = 1; k < BW_E__COUNT && !want; k++)
            if (fz_same(code, bw_err_code((enum bw_err)k), SIZE_MAX))
                want = bw_err_status((enum bw_err)k);
        if (want != out->status)
            fz_fail("TAXII error code does not match the status", in, out);
        if (out->status >= 500 && !(out->status == 503 && fz_same(json_string_value(json_object_get(j, "description")),
                                                                  "server busy, try again", SIZE_MAX)))
            fz_fail("5xx for a TAXII request", in, out);
    }
    json_decref(j);
}

static void fz_check(const struct bw_synth_req *in, const struct bw_synth_resp *out)
{
    if (!fz_status_known(out->status))
        fz_fail("undocumented status", in, out);
    bool json = fz_same(out->content_type, "application/json", 16);
    if (fz_same(out->content_type, "application/taxii+json;version=2.1", SIZE_MAX)) {
        fz_check_taxii(in, out);
        return;
    }
    if (out->status == 406)
        fz_fail("406 outside TAXII", in, out);
    if (out->status >= 400 && !json)
        fz_fail("error reply is not JSON", in, out);
    json_t *j = json ? json_loadb(out->body, out->len, 0, NULL) : NULL;
    if (json && !j)
        fz_fail("reply body is not valid JSON", in, out);
    if (out->status >= 400) {
        json_t *e = json_object_get(j, "error");
        const char *code = json_string_value(json_object_get(e, "code"));
        const char *msg = json_string_value(json_object_get(e, "message"));
        const char *rid = json_string_value(json_object_get(e, "request_id"));
        if (!code || !msg || !rid || !fz_same(rid, out->request_id, SIZE_MAX))
            fz_fail("error reply is not the error envelope", in, out);
        unsigned want = 0;
        for (int k = 1; k < BW_E__COUNT; k++)
            if (fz_same(code, bw_err_code((enum bw_err)k), SIZE_MAX))
                want = bw_err_status((enum bw_err)k);
        if (want != out->status)
            fz_fail("error code does not match the status", in, out);
        if (out->status == 405 && !out->allow[0])
            fz_fail("405 without Allow", in, out);
        if (out->status >= 500 && out->status != 501 &&
            !(out->status == 503 && fz_same(msg, "server busy, try again", SIZE_MAX)))
            fz_fail("5xx for a request", in, out);
    }
    json_decref(j);
}

/* Decodes %XX in place, and + when plus (as libmicrohttpd does: %XX in the path, both in query
 * arguments). */
static void fz_unescape(char *s, bool plus)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (*p == '+' && plus) {
            *o++ = ' ';
        } else if (*p == '%' && p[1] && p[2] && strchr("0123456789abcdefABCDEF", p[1]) &&
                   strchr("0123456789abcdefABCDEF", p[2])) {
            char hex[3] = {p[1], p[2], 0};
            *o++ = (char)strtol(hex, NULL, 16);
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
}

/* Copies src (n bytes) into a new NUL-terminated buffer with the id placeholders of account a
 * replaced; *outn gets the length. */
static char *fz_expand(const char *src, size_t n, const struct fz_account *a, size_t *outn)
{
    const char *const names[] = {"{asset}", "{key}", "{engagement}", "{assessment}", "{run}", "{webhook}"};
    const char *const vals[] = {a->asset, a->key_id, a->engagement, a->assessment, fz.run, a->webhook};
    enum { NAMES = sizeof names / sizeof names[0] };
    size_t cap = n + 1, len = 0;
    char *out = malloc(cap);
    if (!out)
        abort();
    for (size_t i = 0; i < n;) {
        size_t k = 0, kn = 0;
        for (; src[i] == '{' && k < NAMES; k++) {
            kn = strlen(names[k]);
            if (n - i >= kn && memcmp(src + i, names[k], kn) == 0)
                break;
        }
        bool hit = src[i] == '{' && k < NAMES;
        const char *add = hit ? vals[k] : src + i;
        size_t addn = hit ? strlen(vals[k]) : 1;
        if (len + addn + 1 > cap) {
            cap = 2 * (len + addn + 1);
            char *t = realloc(out, cap);
            if (!t)
                abort();
            out = t;
        }
        memcpy(out + len, add, addn);
        len += addn;
        i += hit ? kn : 1;
    }
    out[len] = '\0';
    *outn = len;
    return out;
}

/* Whether the request routes to one of this target's routes ("METHOD pattern"), or to none when
 * FUZZ_API_UNMATCHED. */
static bool fz_in_group(const char *method, const char *path)
{
    static struct bw_req scratch; /* large; only its params are written */
    enum bw_method m = bw_method_parse(method);
    char allow[8];
    const struct bw_route *rt =
        m == BW_OTHER || strlen(path) > BW_MAX_PATH ? NULL : bw_router_match(&scratch, m, path, allow, 0);
    if (!rt)
        return FUZZ_API_UNMATCHED;
    for (size_t i = 0; FUZZ_API_ROUTES[i]; i++) {
        const char *sp = strchr(FUZZ_API_ROUTES[i], ' ');
        char mname[16];
        snprintf(mname, sizeof mname, "%.*s", sp ? (int)(sp - FUZZ_API_ROUTES[i]) : 0, FUZZ_API_ROUTES[i]);
        if (bw_method_parse(mname) == rt->method && fz_same(sp + 1, rt->pattern, SIZE_MAX))
            return true;
    }
    return false;
}

/* Every entry of the target's table names a route of the table (a typo would silently shrink
 * the target). */
static void fz_check_group(void)
{
    for (size_t i = 0; FUZZ_API_ROUTES[i]; i++) {
        bool found = false;
        for (size_t k = 0; k < bw_routes_count; k++) {
            char name[160];
            snprintf(name, sizeof name, "%s %s", bw_method_name(bw_routes[k].method), bw_routes[k].pattern);
            found |= strcmp(name, FUZZ_API_ROUTES[i]) == 0;
        }
        if (!found)
            fz_die(FUZZ_API_ROUTES[i]);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int rc = -1;
    char *text = malloc(size + 1), *body = NULL, *target = NULL;
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    /* the head ends at the first empty line; the body is the rest, NULs included */
    char *sep = strstr(text, "\n\n");
    size_t head_len = sep ? (size_t)(sep - text) : strlen(text);
    const char *raw_body = sep ? (const char *)data + head_len + 2 : "";
    size_t raw_body_len = sep ? size - head_len - 2 : 0;
    text[head_len] = '\0';

    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    char *sp = line ? strchr(line, ' ') : NULL;
    if (!sp)
        goto out;
    *sp = '\0';
    const char *method = line;

    /* headers first: they choose the account */
    const char *hdrs[FZ_MAX_HEADERS][2];
    size_t nh = 0;
    enum fz_who who = FZ_PRO;
    char auth[1100];
    for (char *h = strtok_r(NULL, "\n", &save); h && nh < FZ_MAX_HEADERS; h = strtok_r(NULL, "\n", &save)) {
        char *colon = strchr(h, ':');
        if (!colon)
            continue;
        *colon = '\0';
        char *v = colon + 1;
        while (*v == ' ')
            v++;
        for (int w = 0; v[0] == '@' && w < FZ_WHO__COUNT; w++) {
            if (strcmp(v + 1, FZ_WHO_NAMES[w]) != 0)
                continue;
            who = (enum fz_who)w;
            if (strcasecmp(h, "Authorization") == 0) {
                snprintf(auth, sizeof auth, "Bearer %s", fz_token(who));
                v = auth;
            } else {
                v = fz.acc[w].api_key;
            }
            break;
        }
        hdrs[nh][0] = h;
        hdrs[nh][1] = v;
        nh++;
    }

    size_t tn = 0, bn = 0;
    target = fz_expand(sp + 1, strlen(sp + 1), &fz.acc[who], &tn);
    body = fz_expand(raw_body, raw_body_len, &fz.acc[who], &bn);
    const char *q[FZ_MAX_QUERY][2];
    size_t nq = 0;
    char *qs = strchr(target, '?');
    if (qs) {
        *qs++ = '\0';
        char *qsave = NULL;
        for (char *p = strtok_r(qs, "&", &qsave); p && nq < FZ_MAX_QUERY; p = strtok_r(NULL, "&", &qsave)) {
            char *eq = strchr(p, '=');
            if (eq)
                *eq++ = '\0';
            fz_unescape(p, true);
            if (eq)
                fz_unescape(eq, true);
            q[nq][0] = p;
            q[nq][1] = eq; /* "?a": a name without a value, NULL as libmicrohttpd has it */
            nq++;
        }
    }
    fz_unescape(target, false);
    if (!fz_in_group(method, target))
        goto out;

    struct bw_synth_req in = {.method = method, .url = target, .headers = hdrs, .nheaders = nh, .query = q,
                              .nquery = nq, .ip = "203.0.113.7", .body = body, .body_len = bn};
    struct bw_synth_resp res;
    if (bw_http_synthetic(&fz.app.http, &in, &res) != 0)
        abort(); /* out of memory */
    fz_check(&in, &res);
    if (fz.verbose) /* FUZZ_API_VERBOSE=1: what each input did, for writing seeds */
        fprintf(stderr, "fuzz_api: %s %s -> %u %.*s\n", method, target, res.status,
                (int)(res.len > 300 ? 300 : res.len), res.body);
    free(res.body);
    rc = 0;
out:
    free(target);
    free(body);
    free(text);
    return rc;
}

#endif
