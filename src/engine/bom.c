/* The CycloneDX 1.7 ML-BOM builder and the components validator (contract in bom.h). */
#include "engine/bom.h"
#include "common/jsonx.h"
#include "common/limits.h"
#include "common/utf8.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- components ---- */

static void err(json_t *errors, const char *field, const char *msg)
{
    json_array_append_new(errors, json_pack("{s:s,s:s}", "field", field, "message", msg));
}

/* The optional string member k of o into *out (NULL when absent or null): false after an error. */
static bool text_member(const json_t *o, const char *k, size_t max, size_t i, const char **out, json_t *errors)
{
    char field[64], msg[80];
    const json_t *v = json_object_get(o, k);
    *out = NULL;
    snprintf(field, sizeof field, "components[%zu].%s", i, k);
    if (!v || json_is_null(v))
        return true;
    if (!json_is_string(v)) {
        err(errors, field, "must be a string");
        return false;
    }
    const char *s = json_string_value(v);
    if (bw_utf8_chars(s, json_string_length(v)) > max) {
        snprintf(msg, sizeof msg, "must be at most %zu characters", max);
        err(errors, field, msg);
        return false;
    }
    if (bw_has_control(s)) {
        err(errors, field, "must not contain control characters");
        return false;
    }
    *out = s;
    return true;
}

/* "pkg:" type "/" name...: the purl's scheme, a type of [a-zA-Z0-9.+-] starting with a letter, a
 * slash and something after it (the rest is the package's business). */
static bool purl_ok(const char *p)
{
    if (strncmp(p, "pkg:", 4) != 0)
        return false;
    p += 4;
    while (*p == '/')
        p++; /* the purl specification tolerates slashes after the scheme */
    if (!isalpha((unsigned char)*p))
        return false;
    while (isalnum((unsigned char)*p) || *p == '.' || *p == '+' || *p == '-')
        p++;
    return *p == '/' && p[1] && p[1] != '/';
}

static const char *ver_or_empty(const json_t *c) { return bw_json_str(c, "version"); }

int bw_bom_components_parse(const json_t *v, json_t **doc, json_t *errors)
{
    size_t before = json_array_size(errors);
    *doc = NULL;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_array(v)) {
        err(errors, "components", "must be an array of {name, version?, purl?} objects, or null");
        return 1;
    }
    if (json_array_size(v) > BW_ASSET_COMPONENTS_MAX) {
        char msg[64];
        snprintf(msg, sizeof msg, "must have at most %d entries", BW_ASSET_COMPONENTS_MAX);
        err(errors, "components", msg);
        return 1;
    }
    json_t *out = json_array();
    size_t i;
    const json_t *c;
    json_array_foreach(v, i, c) {
        char field[64];
        snprintf(field, sizeof field, "components[%zu]", i);
        if (!json_is_object(c)) {
            err(errors, field, "must be an object with name, version? and purl?");
            continue;
        }
        const char *name = NULL, *version = NULL, *purl = NULL;
        bool ok = text_member(c, "name", BW_COMPONENT_NAME_MAX, i, &name, errors);
        ok &= text_member(c, "version", BW_COMPONENT_VERSION_MAX, i, &version, errors);
        ok &= text_member(c, "purl", BW_COMPONENT_PURL_MAX, i, &purl, errors);
        snprintf(field, sizeof field, "components[%zu].name", i);
        if (ok && (!name || !name[strspn(name, " \t")])) {
            err(errors, field, name ? "must not be blank" : "is required");
            ok = false;
        }
        if (ok && version && !*version) {
            snprintf(field, sizeof field, "components[%zu].version", i);
            err(errors, field, "must not be empty (leave it out)");
            ok = false;
        }
        if (ok && purl && !purl_ok(purl)) {
            snprintf(field, sizeof field, "components[%zu].purl", i);
            err(errors, field, "must be a package URL: pkg:type/name[@version]");
            ok = false;
        }
        for (size_t j = 0; ok && j < json_array_size(out); j++) {
            const json_t *o = json_array_get(out, j);
            if (strcmp(bw_json_str(o, "name"), name) == 0 && strcmp(ver_or_empty(o), version ? version : "") == 0) {
                err(errors, field, "is listed twice with the same version");
                ok = false;
            }
        }
        if (!ok)
            continue;
        json_t *e = json_pack("{s:s}", "name", name);
        if (version)
            json_object_set_new(e, "version", json_string(version));
        if (purl)
            json_object_set_new(e, "purl", json_string(purl));
        json_array_append_new(out, e);
    }
    size_t added = json_array_size(errors) - before;
    if (added)
        json_decref(out);
    else
        *doc = out;
    return (int)added;
}

/* ---- matching ---- */

static void add_key(json_t *keys, const char *s)
{
    if (!s || !*s)
        return;
    size_t n = strlen(s);
    char *low = malloc(n + 1);
    if (!low)
        return;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)s[i]);
    json_array_append_new(keys, json_string(low));
    free(low);
}

static const char *conn_model(const json_t *asset)
{
    return bw_json_str(json_object_get(asset, "connection"), "model");
}

json_t *bw_bom_asset_keys(const json_t *asset)
{
    json_t *keys = json_array();
    if (!keys)
        return NULL;
    add_key(keys, bw_json_str(asset, "provider"));
    add_key(keys, conn_model(asset));
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(asset, "components"), i, c) add_key(keys, bw_json_str(c, "name"));
    return keys;
}

/* Whether the record's name s is one of the names sought: one (when given) or an entry of keys. */
static bool sought(const char *s, const json_t *keys, const char *one)
{
    if (!*s)
        return false;
    if (one)
        return strcasecmp(s, one) == 0;
    size_t i;
    const json_t *k;
    json_array_foreach(keys, i, k) if (strcasecmp(s, json_string_value(k)) == 0) return true;
    return false;
}

/* The record's first name that is sought ("" when none), and which member it was. The one rule
 * the BOM's vulnerabilities and the intel.kev_match webhook event share. */
static const char *record_hit(const json_t *record, const json_t *keys, const char *one, const char **member)
{
    static const char *const KEV[] = {"vendor", "product"}, *const AFF[] = {"vendor", "product", "package"};
    const json_t *kev = json_object_get(record, "kev_details");
    for (size_t m = 0; m < 2; m++) {
        const char *s = bw_json_str(kev, KEV[m]);
        if (sought(s, keys, one)) {
            *member = m ? "kev product" : "kev vendor";
            return s;
        }
    }
    size_t i;
    const json_t *a;
    json_array_foreach(json_object_get(record, "affected"), i, a) {
        for (size_t m = 0; m < 3; m++) {
            const char *s = bw_json_str(a, AFF[m]);
            if (sought(s, keys, one)) {
                *member = m == 0 ? "affected vendor" : m == 1 ? "affected product" : "affected package";
                return s;
            }
        }
    }
    *member = "";
    return "";
}

bool bw_bom_record_matches(const json_t *record, const json_t *keys)
{
    const char *member;
    return *record_hit(record, keys, NULL, &member) != '\0';
}

bool bw_bom_asset_match(const json_t *record, const json_t *asset, const char **matched, const char **value)
{
    const char *member;
    const char *names[2] = {bw_json_str(asset, "provider"), conn_model(asset)};
    for (size_t k = 0; k < 2; k++)
        if (*names[k] && *record_hit(record, NULL, names[k], &member)) {
            *matched = k ? "model" : "provider";
            *value = names[k];
            return true;
        }
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(asset, "components"), i, c) {
        const char *n = bw_json_str(c, "name");
        if (*n && *record_hit(record, NULL, n, &member)) {
            *matched = "component";
            *value = n;
            return true;
        }
    }
    return false;
}

/* ---- the document ---- */

static void prop(json_t *props, const char *name, const char *value)
{
    if (value && *value)
        json_array_append_new(props, json_pack("{s:s,s:s}", "name", name, "value", value));
}

static void prop_int(json_t *props, const char *name, json_int_t v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", (long long)v);
    prop(props, name, b);
}

/* A string member copied as valid UTF-8 and at most BW_BOM_TEXT_MAX bytes (cut at a character). */
static json_t *text(const char *s)
{
    size_t n = strlen(s);
    if (n <= BW_BOM_TEXT_MAX)
        return json_string(s);
    size_t cut = BW_BOM_TEXT_MAX;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    return json_stringn(s, cut);
}

/* String members copied as properties: bulwark:<name> from member of the object. */
struct prop_map {
    const char *name, *member;
};

static void props_from(json_t *props, const json_t *o, const struct prop_map *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        prop(props, m[i].name, bw_json_str(o, m[i].member));
}

static void asset_props(json_t *props, const json_t *a, bool service)
{
    static const struct prop_map ASSET[] = {{"bulwark:asset_type", "type"},
                                            {"bulwark:environment", "env"},
                                            {"bulwark:created_at", "created_at"},
                                            {"bulwark:risk_level", "risk_level"},
                                            {"bulwark:score_basis", "score_basis"}};
    static const struct prop_map CONN[] = {{"bulwark:connection:api", "api"}, {"bulwark:connection:model", "model"}};
    static const struct prop_map SCAN[] = {{"bulwark:last_scan:id", "scan_id"},
                                           {"bulwark:last_scan:at", "scanned_at"},
                                           {"bulwark:last_scan:status", "status"},
                                           {"bulwark:last_scan:risk_level", "risk_level"},
                                           {"bulwark:last_scan:stopped_by", "stopped_by"}};
    props_from(props, a, ASSET, sizeof ASSET / sizeof ASSET[0]);
    if (!service)
        prop(props, "bulwark:endpoint", bw_json_str(a, "endpoint"));
    prop_int(props, "bulwark:security_score", json_integer_value(json_object_get(a, "security_score")));
    props_from(props, json_object_get(a, "connection"), CONN, sizeof CONN / sizeof CONN[0]);
    const json_t *scan = json_object_get(a, "last_scan");
    if (!json_is_object(scan)) {
        prop(props, "bulwark:last_scan:status", "never_scanned");
        return;
    }
    props_from(props, scan, SCAN, sizeof SCAN / sizeof SCAN[0]);
    prop_int(props, "bulwark:last_scan:score", json_integer_value(json_object_get(scan, "score")));
    const json_t *f = json_object_get(scan, "findings");
    prop_int(props, "bulwark:last_scan:findings", (json_int_t)json_array_size(f));
    size_t i;
    const json_t *x;
    json_array_foreach(f, i, x) {
        if (i == BW_BOM_FINDINGS_MAX)
            break;
        char b[160];
        snprintf(b, sizeof b, "%.16s %.120s", bw_json_str(x, "severity"), bw_json_str(x, "id"));
        prop(props, "bulwark:last_scan:finding", b);
    }
}

/* s with '%' and '@' percent-encoded, appended at out (room for 3 bytes per byte): a name holding
 * '@' cannot then pass for a name and a version. Returns the end. */
static char *ref_part(char *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '%' || *s == '@') {
            out += sprintf(out, "%%%02X", (unsigned char)*s);
        } else {
            *out++ = *s;
        }
    }
    *out = '\0';
    return out;
}

/* "<asset id>/component/<name>[@<version>]" (malloc'ed), name and version escaped by ref_part. */
static char *comp_ref(const char *asset_id, const json_t *c)
{
    const char *name = bw_json_str(c, "name"), *v = ver_or_empty(c);
    size_t n = strlen(asset_id) + 3 * (strlen(name) + strlen(v)) + 16;
    char *s = malloc(n);
    if (!s)
        return NULL;
    char *at = s + sprintf(s, "%s/component/", asset_id);
    at = ref_part(at, name);
    if (*v) {
        *at++ = '@';
        ref_part(at, v);
    }
    return s;
}

/* The asset's own entry (a component or a service), its library components appended to comps,
 * and its dependency on them to deps. */
static void add_asset(const json_t *a, json_t *comps, json_t *services, json_t *deps)
{
    const char *id = bw_json_str(a, "asset_id");
    bool model = strcmp(bw_json_str(a, "type"), "model") == 0;
    json_t *e = json_pack("{s:s}", "bom-ref", id), *props = json_array();
    const char *provider = bw_json_str(a, "provider");
    if (model) {
        json_object_set_new(e, "type", json_string("machine-learning-model"));
        json_object_set_new(e, "name", json_string(bw_json_str(a, "name")));
        if (*provider)
            json_object_set_new(e, "supplier", json_pack("{s:s}", "name", provider));
    } else {
        json_object_set_new(e, "name", json_string(bw_json_str(a, "name")));
        if (*provider)
            json_object_set_new(e, "provider", json_pack("{s:s}", "name", provider));
        json_object_set_new(e, "endpoints", json_pack("[s]", bw_json_str(a, "endpoint")));
        const json_t *conn = json_object_get(a, "connection");
        if (json_is_object(conn))
            json_object_set_new(e, "authenticated", json_boolean(json_is_object(json_object_get(conn, "auth"))));
        /* what an AI service exchanges: prompts in, completions out */
        json_object_set_new(e, "data", json_pack("[{s:s,s:s,s:s}]", "flow", "bi-directional", "classification",
                                                 "prompts and completions", "name", "AI requests and answers"));
    }
    asset_props(props, a, !model);
    json_object_set_new(e, "properties", props);
    json_array_append_new(model ? comps : services, e);
    json_t *on = json_array();
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(a, "components"), i, c) {
        char *ref = comp_ref(id, c);
        if (!ref)
            continue;
        json_t *lib = json_pack("{s:s,s:s,s:s}", "type", "library", "bom-ref", ref, "name", bw_json_str(c, "name"));
        if (*ver_or_empty(c))
            json_object_set_new(lib, "version", json_string(ver_or_empty(c)));
        if (*bw_json_str(c, "purl"))
            json_object_set_new(lib, "purl", json_string(bw_json_str(c, "purl")));
        json_array_append_new(comps, lib);
        json_array_append_new(on, json_string(ref));
        free(ref);
    }
    if (json_array_size(on))
        json_array_append_new(deps, json_pack("{s:s,s:o}", "ref", id, "dependsOn", on));
    else
        json_decref(on);
}

static void add_mcp(const json_t *m, json_t *services)
{
    json_t *ref = json_sprintf("mcp/%s", bw_json_str(m, "key"));
    json_t *e = json_pack("{s:o,s:s}", "bom-ref", ref, "name", bw_json_str(m, "server"));
    if (!e)
        return;
    json_t *tools = json_array(), *props = json_array();
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(m, "tools"), i, t) {
        json_t *tp = json_array();
        prop(tp, "bulwark:mcp:definition_sha256", bw_json_str(t, "hash"));
        json_array_append_new(tools, json_pack("{s:o,s:s,s:[{s:s,s:s,s:s}],s:o}", "bom-ref",
                                               json_sprintf("mcp/%s/tool/%s", bw_json_str(m, "key"),
                                                            bw_json_str(t, "name")),
                                               "name", bw_json_str(t, "name"), "data", "flow", "bi-directional",
                                               "classification", "tool arguments and results", "name",
                                               "MCP tool call", "properties", tp));
    }
    prop(props, "bulwark:asset_type", "mcp_server");
    prop(props, "bulwark:mcp:pinned_at", bw_json_str(m, "pinned_at"));
    prop_int(props, "bulwark:mcp:tools", (json_int_t)json_array_size(tools));
    if (json_array_size(tools))
        json_object_set_new(e, "services", tools);
    else
        json_decref(tools);
    json_object_set_new(e, "properties", props);
    json_array_append_new(services, e);
}

static int by_id(const void *x, const void *y)
{
    return strcmp(bw_json_str(*(json_t *const *)x, "id"), bw_json_str(*(json_t *const *)y, "id"));
}

/* CycloneDX's severity words. */
static const char *severity(const char *s)
{
    static const char *const IN[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW"}, *const OUT[] = {"critical", "high",
                                                                                             "medium", "low"};
    for (size_t i = 0; i < 4; i++)
        if (strcmp(s, IN[i]) == 0)
            return OUT[i];
    return "unknown";
}

static json_t *ratings(const json_t *r)
{
    const json_t *cvss = json_object_get(r, "cvss");
    const char *sev = severity(bw_json_str(r, "severity"));
    if (json_is_object(cvss) && json_is_number(json_object_get(cvss, "base_score"))) {
        const char *v = bw_json_str(cvss, "version");
        const char *method = strcmp(v, "3.1") == 0 ? "CVSSv31"
                             : strncmp(v, "3", 1) == 0 ? "CVSSv3"
                             : strncmp(v, "4", 1) == 0 ? "CVSSv4"
                             : strncmp(v, "2", 1) == 0 ? "CVSSv2"
                                                       : "other";
        json_t *o = json_pack("{s:O,s:s,s:s}", "score", json_object_get(cvss, "base_score"), "severity", sev, "method",
                              method);
        if (*bw_json_str(cvss, "vector"))
            json_object_set_new(o, "vector", json_string(bw_json_str(cvss, "vector")));
        return json_pack("[o]", o);
    }
    return json_pack("[{s:s,s:s}]", "severity", sev, "method", "other");
}

static json_t *source(const char *id, const char *src)
{
    char url[300];
    if (strncmp(id, "CVE-", 4) == 0) {
        snprintf(url, sizeof url, "https://nvd.nist.gov/vuln/detail/%s", id);
        return json_pack("{s:s,s:s}", "name", "NVD", "url", url);
    }
    if (strncmp(id, "AML.", 4) == 0) {
        snprintf(url, sizeof url, "https://atlas.mitre.org/%s/%s", strncmp(id, "AML.CS", 6) == 0 ? "studies" : "techniques",
                 id);
        return json_pack("{s:s,s:s}", "name", "MITRE ATLAS", "url", url);
    }
    if (strcmp(src, "osv") == 0) {
        snprintf(url, sizeof url, "https://osv.dev/vulnerability/%s", id);
        return json_pack("{s:s,s:s}", "name", "OSV", "url", url);
    }
    return json_pack("{s:s}", "name", *src ? src : "bulwark");
}

/* The affects and detail of record r: every asset or component it matches. NULL when none. */
static json_t *affects(const json_t *r, const json_t *assets, json_t **detail_out)
{
    json_t *out = json_array(), *detail = json_array();
    size_t i;
    const json_t *a;
    json_array_foreach(assets, i, a) {
        const char *id = bw_json_str(a, "asset_id"), *member;
        json_t *own = json_array();
        add_key(own, bw_json_str(a, "provider"));
        add_key(own, conn_model(a));
        const char *hit = record_hit(r, own, NULL, &member);
        json_decref(own);
        char line[700];
        if (*hit) {
            json_array_append_new(out, json_pack("{s:s}", "ref", id));
            snprintf(line, sizeof line, "%s: %s '%.200s' equals its provider or model", id, member, hit);
            json_array_append_new(detail, json_string(line));
        }
        size_t j;
        const json_t *c;
        json_array_foreach(json_object_get(a, "components"), j, c) {
            const char *name = bw_json_str(c, "name");
            hit = *name ? record_hit(r, NULL, name, &member) : "";
            if (!*hit)
                continue;
            char *ref = comp_ref(id, c);
            if (!ref)
                continue;
            json_array_append_new(out, json_pack("{s:s}", "ref", ref));
            snprintf(line, sizeof line, "%.400s: %s '%.200s' equals the component's name", ref, member, hit);
            json_array_append_new(detail, json_string(line));
            free(ref);
        }
    }
    if (!json_array_size(out)) {
        json_decref(out);
        json_decref(detail);
        return NULL;
    }
    *detail_out = detail;
    return out;
}

static json_t *join_lines(const json_t *lines, const char *lead)
{
    size_t cap = strlen(lead) + 1, i;
    const json_t *l;
    json_array_foreach(lines, i, l) cap += json_string_length(l) + 2;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t at = (size_t)snprintf(s, cap, "%s", lead);
    json_array_foreach(lines, i, l) at += (size_t)snprintf(s + at, cap - at, "%s%s", i ? "; " : "", json_string_value(l));
    json_t *out = text(s);
    free(s);
    return out;
}

static json_t *vulnerability(const json_t *r, json_t *aff, const json_t *detail)
{
    const char *id = bw_json_str(r, "id");
    json_t *v = json_pack("{s:o,s:s,s:o,s:o}", "bom-ref", json_sprintf("vuln/%s", id), "id", id, "source", source(id, bw_json_str(r, "source")),
                          "ratings", ratings(r));
    json_t *cwes = json_array();
    size_t i;
    const json_t *x;
    json_array_foreach(json_object_get(r, "cwe"), i, x) {
        const char *c = json_string_value(x);
        if (c && strncmp(c, "CWE-", 4) == 0 && atoi(c + 4) > 0)
            json_array_append_new(cwes, json_integer(atoi(c + 4)));
    }
    if (json_array_size(cwes))
        json_object_set_new(v, "cwes", cwes);
    else
        json_decref(cwes);
    if (*bw_json_str(r, "summary"))
        json_object_set_new(v, "description", text(bw_json_str(r, "summary")));
    const json_t *kev = json_object_get(r, "kev_details");
    if (*bw_json_str(kev, "required_action"))
        json_object_set_new(v, "recommendation", text(bw_json_str(kev, "required_action")));
    json_t *adv = json_array();
    json_array_foreach(json_object_get(r, "references"), i, x) {
        if (json_array_size(adv) == BW_BOM_ADVISORIES_MAX)
            break;
        const char *u = bw_json_str(x, "url");
        if (strncmp(u, "https://", 8) == 0 && strlen(u) <= 1024 && !strpbrk(u, " \"<>\\^`{|}"))
            json_array_append_new(adv, json_pack("{s:s}", "url", u));
    }
    if (json_array_size(adv))
        json_object_set_new(v, "advisories", adv);
    else
        json_decref(adv);
    if (*bw_json_str(r, "published"))
        json_object_set_new(v, "published", json_string(bw_json_str(r, "published")));
    if (*bw_json_str(r, "updated"))
        json_object_set_new(v, "updated", json_string(bw_json_str(r, "updated")));
    bool known = json_is_true(json_object_get(r, "kev"));
    json_object_set_new(v, "analysis",
                        json_pack("{s:s,s:o}", "state", known ? "exploitable" : "in_triage", "detail",
                                  join_lines(detail, known ? "in CISA KEV (known exploited); matched by name: "
                                                           : "matched by name, not yet analysed: ")));
    json_object_set_new(v, "affects", aff);
    json_t *props = json_array();
    prop(props, "bulwark:kev", known ? "true" : "false");
    prop_int(props, "bulwark:risk_score", json_integer_value(json_object_get(r, "risk_score")));
    prop(props, "bulwark:risk_tier", bw_json_str(r, "risk_tier"));
    prop(props, "bulwark:type", bw_json_str(r, "type"));
    const json_t *epss = json_object_get(r, "epss");
    if (json_is_number(json_object_get(epss, "score"))) {
        char b[32];
        snprintf(b, sizeof b, "%.5f", json_number_value(json_object_get(epss, "score")));
        prop(props, "bulwark:epss", b);
    }
    json_object_set_new(v, "properties", props);
    return v;
}

json_t *bw_bom_build(const struct bw_bom_in *in)
{
    json_t *comps = json_array(), *services = json_array(), *deps = json_array(), *vulns = json_array();
    size_t i;
    const json_t *x;
    json_array_foreach(in->assets, i, x) add_asset(x, comps, services, deps);
    json_array_foreach(in->mcp_servers, i, x) add_mcp(x, services);

    /* records by id, so the order does not depend on the store's */
    size_t n = json_array_size(in->records);
    json_t **recs = n ? calloc(n, sizeof *recs) : NULL;
    for (i = 0; i < n && recs; i++)
        recs[i] = json_array_get(in->records, i);
    if (recs)
        qsort(recs, n, sizeof *recs, by_id);
    for (i = 0; i < n && recs; i++) {
        if (i && strcmp(bw_json_str(recs[i], "id"), bw_json_str(recs[i - 1], "id")) == 0)
            continue;
        json_t *detail = NULL, *aff = affects(recs[i], in->assets, &detail);
        if (!aff)
            continue;
        json_array_append_new(vulns, vulnerability(recs[i], aff, detail));
        json_decref(detail);
    }
    free(recs);

    json_t *meta = json_pack("{s:s,s:[{s:s}],s:{s:[{s:s,s:s,s:s,s:s}]},s:{s:s,s:s,s:s}}", "timestamp", in->timestamp,
                             "lifecycles", "phase", "operations", "tools", "components", "type", "application",
                             "name", "bulwark", "version", in->tool_version, "bom-ref", "tool/bulwark", "component",
                             "type", "platform", "name", "AI asset inventory", "bom-ref", "inventory");
    json_t *bom = json_pack("{s:s,s:s,s:s,s:i,s:o}", "bomFormat", "CycloneDX", "specVersion", "1.7", "serialNumber",
                            in->serial, "version", 1, "metadata", meta);
    if (!bom) {
        json_decref(comps);
        json_decref(services);
        json_decref(deps);
        json_decref(vulns);
        return NULL;
    }
    json_object_set_new(bom, "components", comps);
    json_object_set_new(bom, "services", services);
    json_object_set_new(bom, "dependencies", deps);
    json_object_set_new(bom, "vulnerabilities", vulns);
    return bom;
}
