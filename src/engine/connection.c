#include "engine/connection.h"

#include "common/jsoncheck.h"
#include "common/limits.h"
#include "common/utf8.h"
#include <stdlib.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const API_NAMES[BW_API__COUNT] = {"openai", "openai_responses", "anthropic", "ollama",
                                                     "azure_openai", "gemini", "prompt", "template"};
static const char *const AUTH_NAMES[] = {"none", "bearer", "header", "query", "basic"};

const char *bw_conn_api_name(enum bw_conn_api a) { return (unsigned)a < BW_API__COUNT ? API_NAMES[a] : "openai"; }

int bw_conn_api_parse(const char *s)
{
    for (int i = 0; s && i < BW_API__COUNT; i++)
        if (strcmp(s, API_NAMES[i]) == 0)
            return i;
    return -1;
}

const char *bw_conn_auth_name(enum bw_conn_auth a)
{
    return (unsigned)a < sizeof AUTH_NAMES / sizeof AUTH_NAMES[0] ? AUTH_NAMES[a] : "none";
}

int bw_conn_auth_parse(const char *s)
{
    for (int i = 1; s && i < (int)(sizeof AUTH_NAMES / sizeof AUTH_NAMES[0]); i++)
        if (strcmp(s, AUTH_NAMES[i]) == 0)
            return i;
    return -1;
}

int bw_conn_api_default(const char *endpoint)
{
    size_t cut = strcspn(endpoint, "?#");
    while (cut > 0 && endpoint[cut - 1] == '/')
        cut--;
    static const char CC[] = "/chat/completions";
    if ((cut >= sizeof CC - 1 && memcmp(endpoint + cut - (sizeof CC - 1), CC, sizeof CC - 1) == 0) ||
        (cut >= 3 && memcmp(endpoint + cut - 3, "/v1", 3) == 0))
        return BW_API_OPENAI;
    return -1;
}

static bool is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("!#$%&'*+-.^_`|~", c);
}

static bool token(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!is_tchar((unsigned char)*s))
            return false;
    return true;
}

/* Letters, digits and ._-: a name that goes into a URL path or query unescaped. */
static bool path_safe(const char *s, const char *more)
{
    if (!*s)
        return false;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-' || (more && strchr(more, c))))
            return false;
    }
    return true;
}

/* No control characters (a value that ends up in a header line or a URL). */
static bool printable(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return false;
    return true;
}

bool bw_conn_header_denied(const char *name)
{
    static const char *const DENY[] = {"host", "content-length", "transfer-encoding", "connection", "keep-alive",
                                       "proxy-connection", "te", "trailer", "upgrade", "expect",
                                       /* credentials belong in auth, where they are sealed */
                                       "authorization", "proxy-authorization", "cookie", "x-api-key", "api-key",
                                       "x-goog-api-key", NULL};
    for (size_t i = 0; DENY[i]; i++)
        if (strcasecmp(name, DENY[i]) == 0)
            return true;
    return false;
}

struct ctx {
    json_t *errors;
    int added;
};

static void err(struct ctx *c, const char *field, const char *msg)
{
    char f[sizeof "connection." + sizeof "headers." + 128]; /* the longest field: a header name, cut at 128 */
    snprintf(f, sizeof f, "connection.%.*s", (int)(sizeof f - sizeof "connection."), field);
    if (json_array_size(c->errors) < BW_MAX_ERRORS)
        /* a cut name can end inside a UTF-8 character (or the name was never UTF-8): the field
         * keeps the error, with U+FFFD for the bytes that are not */
        json_array_append_new(c->errors, json_pack("{s:o,s:s}", "field", bw_utf8_json(f), "message", msg));
    c->added++;
}

/* A string member, checked the common way; NULL when absent or wrong (an error added). */
static const char *str(struct ctx *c, const json_t *o, const char *key, const char *field, bool required,
                       size_t max)
{
    const char *v = NULL;
    char msg[64];
    if (!bw_json_check_string(o, key, required, true, max, &v, msg, sizeof msg)) {
        err(c, field, msg);
        return NULL;
    }
    return v;
}

/* Depth, size and whether some string holds {{prompt}}. */
static bool template_walk(const json_t *t, int depth, bool *slot)
{
    if (depth > BW_CONN_TEMPLATE_DEPTH)
        return false;
    if (json_is_string(t)) {
        if (strstr(json_string_value(t), "{{prompt}}"))
            *slot = true;
        return true;
    }
    const char *k;
    json_t *v;
    size_t i;
    if (json_is_object(t)) {
        json_object_foreach((json_t *)t, k, v) if (!template_walk(v, depth + 1, slot)) return false;
    } else if (json_is_array(t)) {
        json_array_foreach(t, i, v) if (!template_walk(v, depth + 1, slot)) return false;
    }
    return true;
}

static bool response_path_ok(const char *p)
{
    int steps = 0;
    for (const char *s = p;;) {
        size_t n = strcspn(s, ".");
        if (n == 0 || ++steps > BW_CONN_PATH_STEPS_MAX)
            return false;
        s += n;
        if (!*s)
            return true;
        s++;
    }
}

static const char *const MEMBERS[] = {"api",     "model",   "api_version",      "system_prompt", "auth",
                                      "headers", "request_template", "response_path", NULL};

int bw_conn_parse(const json_t *conn, const char *endpoint, bool have_secret, const char *stored_auth_type,
                  json_t **doc, const char **secret, json_t *errors)
{
    *doc = NULL;
    *secret = NULL;
    if (!conn || json_is_null(conn))
        return 0;
    struct ctx c = {errors, 0};
    if (!json_is_object(conn)) {
        json_array_append_new(errors, json_pack("{s:s,s:s}", "field", "connection", "message", "must be an object"));
        return 1;
    }
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)conn, k, v) {
        bool known = false;
        for (size_t i = 0; MEMBERS[i] && !known; i++)
            known = strcmp(k, MEMBERS[i]) == 0;
        if (!known) {
            char f[80];
            snprintf(f, sizeof f, "%.64s", k);
            err(&c, f, "is not a member of a connection");
        }
    }
    int api = -1;
    const char *api_s = str(&c, conn, "api", "api", false, 32);
    if (api_s) {
        api = bw_conn_api_parse(api_s);
        if (api < 0)
            err(&c, "api",
                "must be one of openai, openai_responses, anthropic, ollama, azure_openai, gemini, prompt, template");
    } else if (!json_object_get(conn, "api") || json_is_null(json_object_get(conn, "api"))) {
        api = endpoint ? bw_conn_api_default(endpoint) : -1;
        if (api < 0)
            err(&c, "api", "is required: the endpoint does not end in /v1 or /chat/completions, so say which API it speaks");
    }

    const char *model = str(&c, conn, "model", "model", false, BW_CONN_MODEL_MAX);
    bool needs_model = api >= 0 && api != BW_API_PROMPT && api != BW_API_TEMPLATE;
    if (model && !printable(model))
        err(&c, "model", "must not contain control characters");
    else if (needs_model && !model && !json_object_get(conn, "model"))
        err(&c, "model", api == BW_API_AZURE_OPENAI ? "is required: the deployment name" : "is required for this api");
    else if (model && api == BW_API_AZURE_OPENAI && !path_safe(model, NULL))
        err(&c, "model", "must be a deployment name: letters, digits, '.', '_' and '-'");
    else if (model && api == BW_API_GEMINI && !path_safe(strncmp(model, "models/", 7) == 0 ? model + 7 : model, NULL))
        err(&c, "model", "must be a model name such as gemini-2.0-flash: letters, digits, '.', '_' and '-'");

    const char *ver = str(&c, conn, "api_version", "api_version", false, BW_CONN_API_VERSION_MAX);
    if (ver && !path_safe(ver, NULL))
        err(&c, "api_version", "must hold only letters, digits, '.', '_' and '-'");
    else if (!ver && api == BW_API_AZURE_OPENAI && !json_object_get(conn, "api_version"))
        err(&c, "api_version", "is required for azure_openai (for example 2024-10-21)");

    const char *sys = str(&c, conn, "system_prompt", "system_prompt", false, BW_CONN_SYSTEM_PROMPT_MAX);

    /* auth */
    json_t *auth = json_object_get(conn, "auth");
    int at = BW_AUTH_NONE;
    const char *aname = NULL, *asecret = NULL;
    if (auth && !json_is_null(auth)) {
        if (!json_is_object(auth)) {
            err(&c, "auth", "must be an object");
        } else {
            json_object_foreach(auth, k, v) if (strcmp(k, "type") && strcmp(k, "name") && strcmp(k, "secret")) {
                char f[80];
                snprintf(f, sizeof f, "auth.%.60s", k);
                err(&c, f, "is not a member of auth (type, name, secret)");
            }
            const char *t = str(&c, auth, "type", "auth.type", true, 16);
            if (t && (at = bw_conn_auth_parse(t)) < 0) {
                err(&c, "auth.type", "must be one of bearer, header, query, basic");
                at = BW_AUTH_NONE;
            }
            aname = str(&c, auth, "name", "auth.name", false, BW_CONN_AUTH_NAME_MAX);
            if ((at == BW_AUTH_HEADER || at == BW_AUTH_QUERY) && !aname && !json_object_get(auth, "name"))
                err(&c, "auth.name", at == BW_AUTH_HEADER ? "is required: the header that carries the secret (e.g. x-api-key)"
                                                          : "is required: the query parameter that carries the secret (e.g. key)");
            else if ((at == BW_AUTH_BEARER || at == BW_AUTH_BASIC) && aname)
                err(&c, "auth.name", "is only for header and query auth");
            else if (aname && at == BW_AUTH_HEADER && !token(aname))
                err(&c, "auth.name", "must be a header name (letters, digits and !#$%&'*+-.^_`|~)");
            else if (aname && at == BW_AUTH_HEADER &&
                     (strcasecmp(aname, "host") == 0 || strcasecmp(aname, "content-length") == 0 ||
                      strcasecmp(aname, "transfer-encoding") == 0 || strcasecmp(aname, "connection") == 0 ||
                      strcasecmp(aname, "cookie") == 0))
                err(&c, "auth.name", "must not be Host, Content-Length, Transfer-Encoding, Connection or Cookie");
            else if (aname && at == BW_AUTH_QUERY && !path_safe(aname, "~"))
                err(&c, "auth.name", "must be a query parameter name: letters, digits, '.', '_', '-' and '~'");
            char msg[64];
            if (!bw_json_check_string(auth, "secret", false, true, BW_CONN_SECRET_MAX, &asecret, msg, sizeof msg))
                err(&c, "auth.secret", msg);
            else if (!asecret && at != BW_AUTH_NONE &&
                     !(have_secret && stored_auth_type && strcmp(stored_auth_type, bw_conn_auth_name(at)) == 0))
                err(&c, "auth.secret", "is required (it is write-only: send it whenever auth is set anew)");
            else if (asecret && !printable(asecret))
                err(&c, "auth.secret", "must not contain control characters");
            else if (asecret && at == BW_AUTH_BASIC && !strchr(asecret, ':'))
                err(&c, "auth.secret", "must be user:password for basic auth");
        }
    }

    /* headers */
    json_t *hdrs = json_object_get(conn, "headers");
    if (hdrs && !json_is_null(hdrs)) {
        if (!json_is_object(hdrs)) {
            err(&c, "headers", "must be an object of header names to values");
        } else if (json_object_size(hdrs) > BW_CONN_HEADERS_MAX) {
            char m[64];
            snprintf(m, sizeof m, "must have at most %d members", BW_CONN_HEADERS_MAX);
            err(&c, "headers", m);
        } else {
            json_object_foreach(hdrs, k, v) {
                char f[sizeof "headers." + 128];
                snprintf(f, sizeof f, "headers.%.128s", k);
                if (strlen(k) > BW_CONN_HEADER_NAME_MAX || !token(k))
                    err(&c, f, "is not a header name (letters, digits and !#$%&'*+-.^_`|~, at most 128)");
                else if (bw_conn_header_denied(k))
                    err(&c, f, "may not be set: Host, Content-Length and hop-by-hop headers are the transport's, and "
                               "credentials go in auth (sealed)");
                else if (aname && at == BW_AUTH_HEADER && strcasecmp(k, aname) == 0)
                    err(&c, f, "is the auth header");
                else if (!json_is_string(v))
                    err(&c, f, "must be a string");
                else if (strlen(json_string_value(v)) > BW_CONN_HEADER_VALUE_MAX)
                    err(&c, f, "must be at most 1024 bytes");
                else if (!printable(json_string_value(v)))
                    err(&c, f, "must not contain control characters");
            }
        }
    }

    /* template */
    json_t *tpl = json_object_get(conn, "request_template");
    const char *path = str(&c, conn, "response_path", "response_path", false, BW_CONN_RESPONSE_PATH_MAX);
    if (api == BW_API_TEMPLATE) {
        bool slot = false;
        if (!tpl || json_is_null(tpl))
            err(&c, "request_template", "is required for the template api");
        else if (!json_is_object(tpl) && !json_is_array(tpl))
            err(&c, "request_template", "must be a JSON object or array");
        else if (!template_walk(tpl, 0, &slot))
            err(&c, "request_template", "is nested too deeply (at most 8 levels)");
        else if (!slot)
            err(&c, "request_template", "must contain the {{prompt}} slot in a string");
        else {
            char *t = json_dumps(tpl, JSON_COMPACT);
            if (!t || strlen(t) > BW_CONN_TEMPLATE_MAX)
                err(&c, "request_template", "must be at most 8192 bytes as JSON");
            free(t);
        }
        if (!path && !json_object_get(conn, "response_path"))
            err(&c, "response_path", "is required for the template api (e.g. choices.0.message.content)");
        else if (path && !response_path_ok(path))
            err(&c, "response_path", "must be dot-separated member names or array indexes (at most 16)");
    } else {
        if (tpl && !json_is_null(tpl))
            err(&c, "request_template", "is only for the template api");
        if (path)
            err(&c, "response_path", "is only for the template api");
    }
    if (c.added)
        return c.added;

    json_t *d = json_pack("{s:s}", "api", bw_conn_api_name((enum bw_conn_api)api));
    if (model)
        json_object_set_new(d, "model", json_string(model));
    if (ver)
        json_object_set_new(d, "api_version", json_string(ver));
    if (sys)
        json_object_set_new(d, "system_prompt", json_string(sys));
    if (at != BW_AUTH_NONE)
        json_object_set_new(d, "auth", json_pack("{s:s,s:s?}", "type", bw_conn_auth_name(at), "name", aname));
    if (hdrs && json_is_object(hdrs) && json_object_size(hdrs))
        json_object_set_new(d, "headers", json_deep_copy(hdrs));
    if (api == BW_API_TEMPLATE) {
        json_object_set_new(d, "request_template", json_deep_copy(tpl));
        json_object_set_new(d, "response_path", json_string(path));
    }
    *doc = d;
    *secret = asecret;
    return 0;
}

json_t *bw_conn_public(const json_t *doc, bool configured)
{
    if (!json_is_object(doc))
        return NULL;
    json_t *out = json_deep_copy(doc);
    json_t *auth = json_object_get(out, "auth");
    if (json_is_object(auth))
        json_object_set_new(auth, "configured", json_boolean(configured));
    return out;
}
