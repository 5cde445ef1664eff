/* The AI asset register (STARTER+): register, list, get, delete; and the live posture scan (PRO+),
 * which probes the endpoint through the egress module on the probe pool (src/engine/assetscan.c),
 * stores the result and moves the asset's score to it. The registration score is static
 * (src/engine/posture.c). Another account's asset is 404 everywhere. */
#include "api/api.h"
#include "api/api_util.h"
#include "common/ids.h"
#include "common/jsonx.h"
#include "common/limits.h"
#include "common/timeutil.h"
#include "common/seal.h"
#include "engine/bom.h"
#include "engine/connection.h"
#include "engine/posture.h"
#include "net/url.h"
#include "engine/assetscan.h"
#include "services/evidence.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const TYPES[] = {"model", "agent", "rag", "api", "pipeline"};
static const char *const RISKS[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW"};

static bool one_of(const char *v, const char *const *set, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v, set[i]) == 0)
            return true;
    return false;
}

static bool asset_id_param(struct bw_req *r);

static json_t *asset_json(const struct store_asset *a)
{
    json_t *o = json_pack("{s:s,s:s,s:s,s:s?,s:s,s:s,s:i,s:s,s:s,s:s,s:s?,s:s?}", "asset_id", a->id, "name", a->name,
                          "type", a->type, "provider", a->provider[0] ? a->provider : NULL, "endpoint", a->endpoint,
                          "env", a->env, "security_score", a->security_score, "risk_level", a->risk_level,
                          "score_basis", a->score_basis[0] ? a->score_basis : "static", "created_at", a->created_at,
                          "last_scan_id", a->last_scan_id[0] ? a->last_scan_id : NULL, "last_scanned_at",
                          a->last_scanned_at[0] ? a->last_scanned_at : NULL);
    json_t *doc = a->connection ? json_loads(a->connection, 0, NULL) : NULL;
    json_t *pub = bw_conn_public(doc, a->auth_sealed != NULL); /* never the secret: it is not in doc */
    json_decref(doc);
    json_object_set_new(o, "connection", pub ? pub : json_null());
    json_t *comps = a->components ? json_loads(a->components, 0, NULL) : NULL;
    json_object_set_new(o, "components", comps ? comps : json_null());
    return o;
}

/* The registration (static) score: an estimate from what was registered, never better than
 * MEDIUM until a live scan has looked. */
static void static_score(struct store_asset *a)
{
    int score = bw_posture_score(a->type, a->provider, a->endpoint, a->env);
    a->security_score = score > BW_STATIC_SCORE_MAX ? BW_STATIC_SCORE_MAX : score;
    snprintf(a->risk_level, sizeof a->risk_level, "%s", bw_posture_level(a->security_score));
    snprintf(a->score_basis, sizeof a->score_basis, "static");
}

/* The body's `connection` validated against endpoint: into a->connection (text) and, when a
 * secret came, a->auth_sealed (sealed now; the old one is kept when keep_sealed and none came).
 * false after adding errors to v (or replying 500). */
static bool take_connection(struct bw_req *r, struct bw_verr *v, const char *endpoint, struct store_asset *a,
                            bool keep_ok, const char *stored_auth_type)
{
    json_t *conn = r->json ? json_object_get(r->json, "connection") : NULL;
    json_t *errs = json_array(), *doc = NULL;
    const char *secret = NULL;
    int bad = bw_conn_parse(conn, endpoint, keep_ok && a->auth_sealed, stored_auth_type, &doc, &secret, errs);
    size_t i;
    json_t *it;
    json_array_foreach(errs, i, it) {
        bw_verr_add(v, json_string_value(json_object_get(it, "field")), json_string_value(json_object_get(it, "message")));
    }
    json_decref(errs);
    if (bad) {
        json_decref(doc);
        return false;
    }
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    bool has_doc = doc != NULL, has_auth = doc && json_object_get(doc, "auth");
    json_decref(doc);
    if (has_doc && (!text || strlen(text) > BW_CONN_DOC_MAX)) {
        free(text);
        bw_verr_add(v, "connection", "is too large");
        return false;
    }
    free(a->connection);
    a->connection = text;
    if (secret) {
        free(a->auth_sealed);
        a->auth_sealed = bw_seal_text(api_ctx(r)->seal, secret, strlen(secret));
        if (!a->auth_sealed) {
            bw_verr_add(v, "connection.auth.secret", "could not be sealed");
            return false;
        }
    } else if (!has_auth) {
        free(a->auth_sealed); /* no auth any more: the sealed secret goes with it */
        a->auth_sealed = NULL;
    }
    return true;
}

/* The body's `components` (engine/bom.h) into a->components (text; NULL for none). false after
 * adding errors to v. */
static bool take_components(struct bw_req *r, struct bw_verr *v, struct store_asset *a)
{
    json_t *errs = json_array(), *doc = NULL;
    int bad = bw_bom_components_parse(json_object_get(r->json, "components"), &doc, errs);
    size_t i;
    json_t *it;
    json_array_foreach(errs, i, it) {
        bw_verr_add(v, json_string_value(json_object_get(it, "field")), json_string_value(json_object_get(it, "message")));
    }
    json_decref(errs);
    if (bad)
        return false;
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    bool failed = doc && !text;
    json_decref(doc);
    if (failed) {
        bw_verr_add(v, "components", "could not be stored");
        return false;
    }
    free(a->components);
    a->components = text;
    return true;
}

void api_assets_register(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *name = NULL, *type = NULL, *provider = NULL, *endpoint = NULL, *env = NULL;
    struct store_asset *a = calloc(1, sizeof *a);
    if (!a) {
        bw_reply_internal(r, "out of memory");
        return;
    }
    if (!r->json) {
        bw_verr_add(&v, "name", "is required");
        bw_verr_add(&v, "type", "is required");
        bw_verr_add(&v, "endpoint", "is required");
    } else {
        if (bw_body_string(r, &v, "name", true, BW_NAME_MAX, &name) && name && !name[strspn(name, " \t\r\n")])
            bw_verr_add(&v, "name", "must not be blank");
        if (bw_body_string(r, &v, "type", true, BW_ASSET_TYPE_MAX, &type) && type &&
            !one_of(type, TYPES, sizeof TYPES / sizeof TYPES[0]))
            bw_verr_add(&v, "type", "must be one of model, agent, rag, api, pipeline");
        bw_body_string(r, &v, "provider", false, BW_NAME_MAX, &provider);
        if (bw_body_string(r, &v, "endpoint", true, BW_ENDPOINT_MAX, &endpoint) && endpoint &&
            !bw_posture_url_ok(endpoint))
            bw_verr_add(&v, "endpoint", "must be an http or https URL");
        bw_body_string(r, &v, "env", false, BW_ASSET_ENV_MAX, &env);
        take_connection(r, &v, endpoint && bw_posture_url_ok(endpoint) ? endpoint : NULL, a, false, NULL);
        take_components(r, &v, a);
    }
    if (bw_verr_reply(r, &v)) {
        api_asset_free(a);
        return;
    }
    bw_id_new("ast_", a->id);
    snprintf(a->user_id, sizeof a->user_id, "%s", r->principal.user_id);
    snprintf(a->name, sizeof a->name, "%s", name);
    snprintf(a->type, sizeof a->type, "%s", type);
    snprintf(a->provider, sizeof a->provider, "%s", provider ? provider : "");
    snprintf(a->endpoint, sizeof a->endpoint, "%s", endpoint);
    snprintf(a->env, sizeof a->env, "%s", env && *env ? env : "production");
    static_score(a);
    a->created_us = bw_now_us();
    bw_iso8601(a->created_us / 1000000, a->created_at);
    int rc = store_asset_insert(api_ctx(r)->db, a);
    if (rc == ST_OK)
        bw_reply_json(r, 201, asset_json(a));
    else
        api_reply_storage(r);
    api_asset_free(a);
}

/* Whether two endpoints name the same host and port (a kept secret must not follow an endpoint
 * to another host). */
static bool same_host(const char *x, const char *y)
{
    struct bw_url a, b;
    bool same = false;
    if (bw_url_parse(&a, x, NULL, 0) == BW_URL_OK) {
        if (bw_url_parse(&b, y, NULL, 0) == BW_URL_OK) {
            same = strcmp(a.host.name, b.host.name) == 0 && a.port == b.port && strcmp(a.scheme, b.scheme) == 0;
            bw_url_free(&b);
        }
        bw_url_free(&a);
    }
    return same;
}

static const char *const PATCHABLE[] = {"name", "provider", "endpoint", "env", "connection", "components"};

void api_assets_update(struct bw_req *r)
{
    if (!asset_id_param(r))
        return;
    struct bw_verr v = {0};
    if (!json_is_object(r->json)) {
        bw_verr_add(&v, "body", "must be an object with name, provider, endpoint, env, connection or components");
        bw_verr_reply(r, &v);
        return;
    }
    const char *k;
    json_t *val;
    size_t known = 0;
    json_object_foreach(r->json, k, val) {
        if (one_of(k, PATCHABLE, sizeof PATCHABLE / sizeof PATCHABLE[0]))
            known++;
        else if (strcmp(k, "type") == 0)
            bw_verr_add(&v, k, "cannot be changed: register a new asset");
        else
            bw_verr_add(&v, k, "is not a member an asset update may change");
    }
    if (!known && !v.errors)
        bw_verr_add(&v, "body", "must change at least one of name, provider, endpoint, env, connection or components");
    if (bw_verr_reply(r, &v))
        return;
    struct store_asset *a = api_asset_or_reply(r, r->params[0]);
    if (!a)
        return;
    int rc;
    const char *name = NULL, *provider = NULL, *endpoint = NULL, *env = NULL;
    if (json_object_get(r->json, "name") &&
        bw_body_string(r, &v, "name", true, BW_NAME_MAX, &name) && name && !name[strspn(name, " \t\r\n")])
        bw_verr_add(&v, "name", "must not be blank");
    bw_body_string(r, &v, "provider", false, BW_NAME_MAX, &provider);
    if (json_object_get(r->json, "endpoint") && bw_body_string(r, &v, "endpoint", true, BW_ENDPOINT_MAX, &endpoint) &&
        endpoint && !bw_posture_url_ok(endpoint))
        bw_verr_add(&v, "endpoint", "must be an http or https URL");
    if (json_object_get(r->json, "env"))
        bw_body_string(r, &v, "env", true, BW_ASSET_ENV_MAX, &env);
    const char *ep = endpoint && bw_posture_url_ok(endpoint) ? endpoint : a->endpoint;
    bool moved = endpoint && strcmp(endpoint, a->endpoint) != 0;
    char stored_auth[16] = "";
    json_t *old = a->connection ? json_loads(a->connection, 0, NULL) : NULL;
    const char *old_type = json_string_value(json_object_get(json_object_get(old, "auth"), "type"));
    snprintf(stored_auth, sizeof stored_auth, "%s", old_type ? old_type : "");
    json_decref(old);
    if (json_object_get(r->json, "connection")) {
        /* the stored secret may stay only while it keeps going to the same host */
        take_connection(r, &v, ep, a, !moved || same_host(endpoint, a->endpoint), stored_auth);
    } else if (moved && a->auth_sealed && !same_host(endpoint, a->endpoint)) {
        bw_verr_add(&v, "connection.auth.secret",
                    "is required again: the endpoint moves to another host, and the stored secret is only ever sent "
                    "to the host it was given for");
    }
    if (json_object_get(r->json, "components"))
        take_components(r, &v, a);
    if (bw_verr_reply(r, &v))
        goto out;
    if (name)
        snprintf(a->name, sizeof a->name, "%s", name);
    if (json_object_get(r->json, "provider"))
        snprintf(a->provider, sizeof a->provider, "%s", provider ? provider : "");
    if (env)
        snprintf(a->env, sizeof a->env, "%s", env);
    if (endpoint)
        snprintf(a->endpoint, sizeof a->endpoint, "%s", endpoint);
    /* a live score judged the old endpoint: a new one starts from the static estimate again */
    if (moved || strcmp(a->score_basis, "live") != 0)
        static_score(a);
    rc = store_asset_update(api_ctx(r)->db, a);
    if (rc == ST_OK)
        bw_reply_json(r, 200, asset_json(a));
    else if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
    else
        api_reply_storage(r);
out:
    api_asset_free(a);
}

void api_assets_list(struct bw_req *r)
{
    struct bw_verr v = {0};
    const char *type = bw_query(r, "type"), *risk = bw_query(r, "risk");
    bool type_ok = !type || one_of(type, TYPES, sizeof TYPES / sizeof TYPES[0]);
    bool risk_ok = !risk || one_of(risk, RISKS, sizeof RISKS / sizeof RISKS[0]);
    if (!type_ok)
        bw_verr_add(&v, "type", "must be one of model, agent, rag, api, pipeline");
    if (!risk_ok)
        bw_verr_add(&v, "risk", "must be one of CRITICAL, HIGH, MEDIUM, LOW");
    /* the cursor's filter text; validated values only, so it fits */
    char filters[64];
    snprintf(filters, sizeof filters, "type=%s&risk=%s", type && type_ok ? type : "", risk && risk_ok ? risk : "");
    struct api_page pg;
    api_page_query(r, &v, &pg, BW_CURSOR_ASSETS, 0, filters, false);
    if (bw_verr_reply(r, &v))
        return;
    struct store_asset *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    if (store_asset_list(api_ctx(r)->db, r->principal.user_id, type, risk, &pg.page, &list, &n, &total) != ST_OK) {
        api_reply_storage(r);
        return;
    }
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, asset_json(&list[i]));
    store_asset_list_free(list, n);
    api_reply_page(r, "assets", arr, total, &pg);
}

/* The {id} path parameter: an asset id of ours, or 404 without a lookup. */
static bool asset_id_param(struct bw_req *r)
{
    if (bw_id_valid(r->params[0], "ast_"))
        return true;
    bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
    return false;
}

void api_assets_get(struct bw_req *r)
{
    if (!asset_id_param(r))
        return;
    struct store_asset *a = api_asset_or_reply(r, r->params[0]);
    if (!a)
        return;
    bw_reply_json(r, 200, asset_json(a));
    api_asset_free(a);
}

void api_assets_delete(struct bw_req *r)
{
    if (!asset_id_param(r))
        return;
    int64_t cancelled = 0;
    int rc = store_asset_delete(api_ctx(r)->db, r->principal.user_id, r->params[0], &cancelled);
    if (rc == ST_OK)
        bw_reply_json(r, 200, json_pack("{s:b,s:s,s:b,s:I}", "success", 1, "asset_id", r->params[0], "deleted", 1,
                                        "engagements_cancelled", (json_int_t)cancelled));
    else if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
    else
        api_reply_storage(r);
}

/* Runs on the probe pool: the asset is read here too, so a delete racing the scan is a 404. The
 * secret is opened here, lives on this thread for the scan only and is wiped after. */
static void scan_work(struct bw_req *r)
{
    struct store_asset *a = api_asset_or_reply(r, r->params[0]);
    if (!a)
        return;
    int rc;
    json_t *conn = a->connection ? json_loads(a->connection, 0, NULL) : NULL;
    char *secret = a->auth_sealed ? bw_unseal_text(api_ctx(r)->seal, a->auth_sealed, NULL) : NULL;
    if (a->auth_sealed && !secret) {
        json_decref(conn);
        api_asset_free(a);
        bw_reply_internal(r, "the asset's sealed secret cannot be opened with this server's key");
        return;
    }
    struct bw_assetscan_opts o = {.egress_allow = api_ctx(r)->egress_allow,
                                  .static_score = bw_posture_score(a->type, a->provider, a->endpoint, a->env),
                                  .now_s = bw_now_s(),
                                  .connection = conn,
                                  .secret = secret};
    json_t *res = bw_assetscan_run(a->type, a->endpoint, &o);
    bw_unsealed_free(secret);
    json_decref(conn);
    if (!res) {
        api_asset_free(a);
        bw_reply_internal(r, "out of memory");
        return;
    }
    struct store_asset_scan sc = {0};
    bw_id_new("scn_", sc.id);
    snprintf(sc.asset_id, sizeof sc.asset_id, "%s", a->id);
    snprintf(sc.user_id, sizeof sc.user_id, "%s", a->user_id);
    sc.score = (int)json_integer_value(json_object_get(res, "score"));
    snprintf(sc.risk_level, sizeof sc.risk_level, "%s", json_string_value(json_object_get(res, "risk_level")));
    sc.created_us = bw_now_us();
    bw_iso8601(sc.created_us / 1000000, sc.created_at);
    /* a scan the egress policy stopped sent nothing: it is kept, and the asset's score stays */
    sc.keeps_score = json_is_string(json_object_get(res, "stopped_by"));
    sc.status = json_string_value(json_object_get(res, "status"));
    json_object_set_new(res, "scan_id", json_string(sc.id));
    json_object_set_new(res, "asset_id", json_string(a->id));
    json_object_set_new(res, "scanned_at", json_string(sc.created_at));
    json_object_set_new(res, "asset_score_changed", json_boolean(!sc.keeps_score));
    api_asset_free(a);
    char *body = bw_json_dump(res, 0, NULL);
    sc.body = body;
    rc = body ? bw_evidence_scan_save(api_ctx(r)->db, &sc, res) : ST_ERROR;
    free(body);
    if (rc == ST_OK)
        bw_reply_json(r, 200, res);
    else {
        json_decref(res);
        if (rc == ST_NOTFOUND)
            bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
        else
            api_reply_storage(r);
    }
}

void api_assets_scan(struct bw_req *r)
{
    if (!asset_id_param(r))
        return;
    bw_req_defer_on(r, api_ctx(r)->probes, scan_work);
}

void api_assets_scans(struct bw_req *r)
{
    struct bw_verr v = {0};
    struct api_page pg;
    char filters[80];
    snprintf(filters, sizeof filters, "asset=%.60s", r->params[0]);
    api_page_query(r, &v, &pg, BW_CURSOR_SCANS, 0, filters, false);
    if (bw_verr_reply(r, &v))
        return;
    struct store_asset *a = api_asset_or_reply(r, r->params[0]); /* another account's asset is 404 */
    if (!a)
        return;
    struct store_doc *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    int rc = store_asset_scan_list(api_ctx(r)->db, r->principal.user_id, a->id, &pg.page, &list, &n, &total);
    api_asset_free(a);
    if (rc != ST_OK) {
        api_reply_storage(r);
        return;
    }
    api_reply_doc_page(r, "scans", list, n, total, &pg);
}

void api_assets_scan_get(struct bw_req *r)
{
    char *body = NULL;
    int rc = bw_id_valid(r->params[0], "ast_") && bw_id_valid(r->params[1], "scn_")
                 ? store_asset_scan_get(api_ctx(r)->db, r->principal.user_id, r->params[0], r->params[1], &body)
                 : ST_NOTFOUND;
    if (rc == ST_OK)
        bw_reply_text(r, 200, "application/json; charset=utf-8", body, strlen(body)); /* takes body */
    else if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such scan", NULL);
    else
        api_reply_storage(r);
}
