#include "engine/chat.h"

#include "common/sbuf.h"
#include "engine/detect.h"

#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REDACTED "REDACTED"
#define ANTHROPIC_VERSION "2023-06-01"
#define GEMINI_VERSION "v1beta"

/* ---- URLs ---- */

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

int bw_chat_url(enum bw_conn_api api, const char *endpoint, const char *model, const char *api_version, char *out,
                size_t cap)
{
    size_t cut = strcspn(endpoint, "?#"), n = cut;
    while (n > 0 && endpoint[n - 1] == '/')
        n--;
    const char *query = endpoint[cut] == '?' ? endpoint + cut + 1 : "";
    size_t qlen = strcspn(query, "#");
    struct bw_sb b = {0};
    if (model && api == BW_API_GEMINI && strncmp(model, "models/", 7) == 0)
        model = model + 7;
    switch (api) {
    case BW_API_OPENAI:
        bw_sb_putn(&b, endpoint, n);
        if (!ends_with(endpoint, n, "/chat/completions"))
            bw_sb_puts(&b, ends_with(endpoint, n, "/v1") ? "/chat/completions" : "/v1/chat/completions");
        break;
    case BW_API_OPENAI_RESPONSES:
        bw_sb_putn(&b, endpoint, n);
        if (!ends_with(endpoint, n, "/responses"))
            bw_sb_puts(&b, ends_with(endpoint, n, "/v1") ? "/responses" : "/v1/responses");
        break;
    case BW_API_ANTHROPIC:
        bw_sb_putn(&b, endpoint, n);
        if (!ends_with(endpoint, n, "/messages"))
            bw_sb_puts(&b, ends_with(endpoint, n, "/v1") ? "/messages" : "/v1/messages");
        break;
    case BW_API_OLLAMA:
        /* the README's endpoint is Ollama's OpenAI-compatible /v1; its native API is beside it */
        if (ends_with(endpoint, n, "/api/chat")) {
            bw_sb_putn(&b, endpoint, n);
        } else if (ends_with(endpoint, n, "/api")) {
            bw_sb_putn(&b, endpoint, n);
            bw_sb_puts(&b, "/chat");
        } else {
            bw_sb_putn(&b, endpoint, ends_with(endpoint, n, "/v1") ? n - 3 : n);
            bw_sb_puts(&b, "/api/chat");
        }
        break;
    case BW_API_AZURE_OPENAI:
        bw_sb_putn(&b, endpoint, n);
        if (!ends_with(endpoint, n, "/chat/completions")) {
            const char *dep = strstr(endpoint, "/openai/deployments/");
            if (dep && dep < endpoint + n)
                bw_sb_puts(&b, "/chat/completions");
            else
                bw_sb_printf(&b, "%s/deployments/%s/chat/completions", ends_with(endpoint, n, "/openai") ? "" : "/openai",
                             model ? model : "");
        }
        break;
    case BW_API_GEMINI: {
        const char *ver = api_version ? api_version : GEMINI_VERSION;
        bw_sb_putn(&b, endpoint, n);
        if (!strstr(endpoint, ":generateContent")) {
            char v[80];
            snprintf(v, sizeof v, "/%s", ver);
            if (!ends_with(endpoint, n, v) && !ends_with(endpoint, n, "/v1") && !ends_with(endpoint, n, "/v1beta"))
                bw_sb_puts(&b, v);
            bw_sb_printf(&b, "/models/%s:generateContent", model ? model : "");
        }
        break;
    }
    case BW_API_PROMPT:
    case BW_API_TEMPLATE:
    case BW_API__COUNT:
        bw_sb_putn(&b, endpoint, cut);
        break;
    }
    bool q = false;
    if (qlen) {
        bw_sb_putc(&b, '?');
        bw_sb_putn(&b, query, qlen);
        q = true;
    }
    if (api == BW_API_AZURE_OPENAI && !strstr(query, "api-version=")) {
        bw_sb_printf(&b, "%capi-version=%s", q ? '&' : '?', api_version ? api_version : "");
    }
    const char *s = bw_sb_str(&b);
    int rc = b.len < cap && !b.oom ? 0 : -1;
    if (rc == 0)
        memcpy(out, s, b.len + 1);
    free(b.p);
    return rc;
}

/* Appends name=value to url (cap bytes), value percent-encoded. -1 when it does not fit. */
static int add_query(char *url, size_t cap, const char *name, const char *value)
{
    size_t n = strlen(url);
    int w = snprintf(url + n, cap - n, "%c%s=", strchr(url, '?') ? '&' : '?', name);
    if (w < 0 || (size_t)w >= cap - n)
        return -1;
    n += (size_t)w;
    static const char HEX[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if (n + 4 >= cap)
            return -1;
        if (isalnum(*p) || *p == '-' || *p == '_' || *p == '.' || *p == '~') {
            url[n++] = (char)*p;
        } else {
            url[n++] = '%';
            url[n++] = HEX[*p >> 4];
            url[n++] = HEX[*p & 15];
        }
    }
    url[n] = '\0';
    return 0;
}

static char *line(const char *name, const char *value)
{
    char *s = NULL;
    return asprintf(&s, "%s: %s", name, value) < 0 ? NULL : s;
}

int bw_chat_init(struct bw_chat *c, const char *endpoint, const json_t *doc, enum bw_conn_api guess,
                 const char *secret, unsigned egress_allow, char *why, size_t cap)
{
    memset(c, 0, sizeof *c);
    c->egress_allow = egress_allow;
    c->api = guess;
    c->model = "default";
    if (doc) {
        int api = bw_conn_api_parse(json_string_value(json_object_get(doc, "api")));
        c->api = api >= 0 ? (enum bw_conn_api)api : BW_API_OPENAI;
        c->configured = true;
        const char *m = json_string_value(json_object_get(doc, "model"));
        if (m)
            c->model = m;
        c->api_version = json_string_value(json_object_get(doc, "api_version"));
        c->system_prompt = json_string_value(json_object_get(doc, "system_prompt"));
        c->request_template = json_object_get(doc, "request_template");
        c->response_path = json_string_value(json_object_get(doc, "response_path"));
        json_t *auth = json_object_get(doc, "auth");
        int at = bw_conn_auth_parse(json_string_value(json_object_get(auth, "type")));
        if (at > 0 && secret && *secret) {
            c->auth = (enum bw_conn_auth)at;
            c->secret = secret;
            const char *name = json_string_value(json_object_get(auth, "name"));
            snprintf(c->auth_name, sizeof c->auth_name, "%s", name ? name : "");
        }
    }
    if (bw_chat_url(c->api, endpoint, c->model, c->api_version, c->url, sizeof c->url) != 0) {
        snprintf(why, cap, "the endpoint is too long to build the request URL from");
        return -1;
    }
    memcpy(c->shown, c->url, sizeof c->shown);
    memcpy(c->bare, c->url, sizeof c->bare);
    if (c->auth == BW_AUTH_QUERY &&
        (add_query(c->url, sizeof c->url, c->auth_name, c->secret) != 0 ||
         add_query(c->shown, sizeof c->shown, c->auth_name, REDACTED) != 0)) {
        snprintf(why, cap, "the endpoint is too long to build the request URL from");
        return -1;
    }
    size_t h = 0;
    c->headers[h++] = strdup("Content-Type: application/json");
    c->headers[h++] = strdup("Accept: application/json");
    if (c->api == BW_API_ANTHROPIC)
        c->headers[h++] = line("anthropic-version", c->api_version ? c->api_version : ANTHROPIC_VERSION);
    if (c->auth == BW_AUTH_BEARER || c->auth == BW_AUTH_BASIC) {
        char *v = NULL;
        if (c->auth == BW_AUTH_BEARER) {
            if (asprintf(&v, "Bearer %s", c->secret) < 0)
                v = NULL;
        } else {
            size_t n = strlen(c->secret), b64 = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
            char *enc = malloc(b64);
            if (enc) {
                sodium_bin2base64(enc, b64, (const unsigned char *)c->secret, n, sodium_base64_VARIANT_ORIGINAL);
                if (asprintf(&v, "Basic %s", enc) < 0)
                    v = NULL;
                sodium_memzero(enc, b64);
                free(enc);
            }
        }
        c->auth_header = v ? line("Authorization", v) : NULL;
        if (v) {
            sodium_memzero(v, strlen(v));
            free(v);
        }
    } else if (c->auth == BW_AUTH_HEADER) {
        c->auth_header = line(c->auth_name, c->secret);
        c->cred_names[0] = c->auth_name;
    }
    json_t *hdrs = doc ? json_object_get(doc, "headers") : NULL;
    const char *k;
    json_t *v;
    json_object_foreach(hdrs, k, v) {
        const char *val = json_string_value(v);
        if (h < BW_CONN_HEADERS_MAX + 3)
            c->headers[h++] = line(k, val ? val : "");
    }
    for (size_t i = 0; i < h; i++)
        if (!c->headers[i]) {
            bw_chat_free(c);
            snprintf(why, cap, "out of memory");
            return -1;
        }
    if (c->auth != BW_AUTH_NONE && c->auth != BW_AUTH_QUERY && !c->auth_header) {
        bw_chat_free(c);
        snprintf(why, cap, "out of memory");
        return -1;
    }
    return 0;
}

void bw_chat_free(struct bw_chat *c)
{
    for (size_t i = 0; i < sizeof c->headers / sizeof c->headers[0]; i++) {
        free(c->headers[i]);
        c->headers[i] = NULL;
    }
    if (c->auth_header) {
        sodium_memzero(c->auth_header, strlen(c->auth_header));
        free(c->auth_header);
        c->auth_header = NULL;
    }
    sodium_memzero(c->url, sizeof c->url);
}

/* ---- bodies ---- */

char *bw_chat_transcript(const struct bw_chat_turn *turns, size_t n)
{
    if (n == 0)
        return strdup("");
    if (n == 1)
        return strdup(turns[0].content ? turns[0].content : "");
    struct bw_sb t = {0};
    for (size_t i = 0; i < n; i++) {
        bw_sb_puts(&t, strcmp(turns[i].role, "user") == 0 ? "User: " : "Assistant: ");
        bw_sb_puts(&t, turns[i].content ? turns[i].content : "");
        bw_sb_puts(&t, "\n");
    }
    bw_sb_puts(&t, "Assistant:");
    return bw_sb_take(&t);
}

static json_t *messages(const struct bw_chat_turn *turns, size_t n, const char *assistant, bool gemini)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        bool user = strcmp(turns[i].role, "user") == 0;
        const char *content = turns[i].content ? turns[i].content : "";
        if (gemini)
            json_array_append_new(a, json_pack("{s:s,s:[{s:s}]}", "role", user ? "user" : "model", "parts", "text",
                                               content));
        else
            json_array_append_new(a, json_pack("{s:s,s:s}", "role", user ? "user" : assistant, "content", content));
    }
    return a;
}

/* A copy of t with {{prompt}} and {{model}} replaced in every string; a string that is exactly
 * "{{max_tokens}}" becomes the number. */
static json_t *fill(const json_t *t, const char *prompt, const char *model, long max_tokens)
{
    if (json_is_string(t)) {
        const char *s = json_string_value(t);
        if (strcmp(s, "{{max_tokens}}") == 0)
            return json_integer(max_tokens);
        struct bw_sb b = {0};
        while (*s) {
            if (strncmp(s, "{{prompt}}", 10) == 0) {
                bw_sb_puts(&b, prompt);
                s += 10;
            } else if (strncmp(s, "{{model}}", 9) == 0) {
                bw_sb_puts(&b, model);
                s += 9;
            } else {
                bw_sb_putc(&b, *s++);
            }
        }
        json_t *out = json_stringn(bw_sb_str(&b), b.len);
        free(b.p);
        return out;
    }
    const char *k;
    json_t *v;
    size_t i;
    if (json_is_object(t)) {
        json_t *o = json_object();
        json_object_foreach((json_t *)t, k, v) json_object_set_new(o, k, fill(v, prompt, model, max_tokens));
        return o;
    }
    if (json_is_array(t)) {
        json_t *a = json_array();
        json_array_foreach(t, i, v) json_array_append_new(a, fill(v, prompt, model, max_tokens));
        return a;
    }
    return json_deep_copy(t);
}

char *bw_chat_body(const struct bw_chat *c, const struct bw_chat_turn *turns, size_t n, long max_tokens,
                   const json_t *documents)
{
    json_t *b = NULL;
    json_int_t mt = (json_int_t)max_tokens;
    switch (c->api) {
    case BW_API_OPENAI:
    case BW_API__COUNT:
        b = json_pack("{s:s,s:o,s:I}", "model", c->model, "messages", messages(turns, n, "assistant", false),
                      "max_tokens", mt);
        break;
    case BW_API_AZURE_OPENAI:
        b = json_pack("{s:o,s:I}", "messages", messages(turns, n, "assistant", false), "max_tokens", mt);
        break;
    case BW_API_OPENAI_RESPONSES:
        b = json_pack("{s:s,s:o,s:I}", "model", c->model, "input", messages(turns, n, "assistant", false),
                      "max_output_tokens", mt);
        break;
    case BW_API_ANTHROPIC:
        b = json_pack("{s:s,s:I,s:o}", "model", c->model, "max_tokens", mt, "messages",
                      messages(turns, n, "assistant", false));
        break;
    case BW_API_OLLAMA:
        b = json_pack("{s:s,s:o,s:b,s:{s:I}}", "model", c->model, "messages", messages(turns, n, "assistant", false),
                      "stream", 0, "options", "num_predict", mt);
        break;
    case BW_API_GEMINI:
        b = json_pack("{s:o,s:{s:I}}", "contents", messages(turns, n, "model", true), "generationConfig",
                      "maxOutputTokens", mt);
        break;
    case BW_API_PROMPT:
    case BW_API_TEMPLATE: {
        char *t = bw_chat_transcript(turns, n);
        if (!t)
            return NULL;
        if (c->api == BW_API_PROMPT) {
            b = json_pack("{s:s,s:I}", "prompt", t, "max_tokens", mt);
            if (b && json_is_array(documents) && json_array_size(documents))
                json_object_set_new(b, "documents", json_deep_copy(documents));
        } else {
            b = c->request_template ? fill(c->request_template, t, c->model, max_tokens) : NULL;
        }
        free(t);
        break;
    }
    }
    char *out = b ? json_dumps(b, JSON_COMPACT) : NULL;
    json_decref(b);
    return out;
}

/* ---- replies ---- */

/* The text members of an array of blocks ({type, text}) joined; type NULL = any. */
static void join_text(struct bw_sb *b, const json_t *blocks, const char *type)
{
    size_t i;
    json_t *blk;
    json_array_foreach(blocks, i, blk) {
        const char *t = json_string_value(json_object_get(blk, "type"));
        const char *s = json_string_value(json_object_get(blk, "text"));
        if (s && (!type || (t && strcmp(t, type) == 0)))
            bw_sb_puts(b, s);
    }
}

/* Follows a response_path ("choices.0.message.content") through doc. */
static const json_t *at_path(const json_t *doc, const char *path)
{
    const json_t *cur = doc;
    char step[BW_CONN_RESPONSE_PATH_MAX + 1];
    while (cur && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof step)
            return NULL;
        memcpy(step, path, n);
        step[n] = '\0';
        path += n + (path[n] == '.');
        if (json_is_array(cur)) {
            char *end;
            unsigned long idx = strtoul(step, &end, 10);
            cur = *step && !*end ? json_array_get(cur, idx) : NULL;
        } else {
            cur = json_object_get(cur, step);
        }
    }
    return cur;
}

char *bw_chat_reply(const struct bw_chat *c, const char *body, size_t len)
{
    if (!body)
        return NULL;
    char *out = NULL;
    if (c->api == BW_API_OPENAI || c->api == BW_API_AZURE_OPENAI || c->api == BW_API_PROMPT) {
        out = bw_detect_reply(c->api == BW_API_PROMPT ? BW_LLM_PROMPT : BW_LLM_OPENAI, body, len);
    } else {
        json_t *doc = json_loadb(body, len, JSON_REJECT_DUPLICATES, NULL);
        struct bw_sb b = {0};
        bool found = false;
        if (json_is_object(doc) || (c->api == BW_API_TEMPLATE && doc)) {
            switch (c->api) {
            case BW_API_OPENAI_RESPONSES: {
                const char *s = json_string_value(json_object_get(doc, "output_text"));
                if (s) {
                    bw_sb_puts(&b, s);
                    found = true;
                } else if (json_is_array(json_object_get(doc, "output"))) {
                    size_t i;
                    json_t *item;
                    json_array_foreach(json_object_get(doc, "output"), i, item) {
                        json_t *content = json_object_get(item, "content");
                        if (json_is_array(content)) {
                            join_text(&b, content, "output_text");
                            found = true;
                        }
                    }
                }
                break;
            }
            case BW_API_ANTHROPIC:
                if (json_is_array(json_object_get(doc, "content"))) {
                    join_text(&b, json_object_get(doc, "content"), "text");
                    found = true;
                }
                break;
            case BW_API_OLLAMA: {
                const char *s = json_string_value(json_object_get(json_object_get(doc, "message"), "content"));
                if (!s)
                    s = json_string_value(json_object_get(doc, "response")); /* /api/generate */
                if (s) {
                    bw_sb_puts(&b, s);
                    found = true;
                }
                break;
            }
            case BW_API_GEMINI: {
                json_t *parts = json_object_get(
                    json_object_get(json_array_get(json_object_get(doc, "candidates"), 0), "content"), "parts");
                if (json_is_array(parts)) {
                    join_text(&b, parts, NULL);
                    found = true;
                }
                break;
            }
            case BW_API_TEMPLATE: {
                const json_t *v = c->response_path ? at_path(doc, c->response_path) : NULL;
                if (json_is_string(v)) {
                    bw_sb_puts(&b, json_string_value(v));
                    found = true;
                }
                break;
            }
            default:
                break;
            }
        }
        json_decref(doc);
        if (found && !b.oom)
            out = bw_sb_take(&b);
        else
            free(b.p);
    }
    if (out && c->secret) {
        size_t cap = strlen(out) + 1;
        bw_chat_redact(c, out, cap); /* REDACTED never outgrows a redacted secret of 8+ bytes */
    }
    return out;
}

void bw_chat_error_message(const struct bw_chat *c, const char *body, size_t len, char *out, size_t cap)
{
    out[0] = '\0';
    json_t *doc = body ? json_loadb(body, len, 0, NULL) : NULL;
    const char *m = NULL;
    json_t *e = json_object_get(doc, "error");
    if (json_is_string(e))
        m = json_string_value(e); /* Ollama: {"error":"model 'x' not found"} */
    else if (json_is_object(e))
        m = json_string_value(json_object_get(e, "message")); /* OpenAI, Azure, Anthropic, Gemini */
    if (!m)
        m = json_string_value(json_object_get(doc, "message"));
    if (m) {
        size_t n = 0;
        for (const char *p = m; *p && n + 1 < cap && n < 160; p++)
            out[n++] = (unsigned char)*p < 0x20 || *p == '"' ? ' ' : *p;
        while (n > 0 && ((unsigned char)out[n - 1] & 0xC0) == 0x80)
            n--;
        if (n > 0 && ((unsigned char)out[n - 1] & 0xC0) == 0xC0)
            n--;
        out[n] = '\0';
        bw_chat_redact(c, out, cap);
    }
    json_decref(doc);
}

/* ---- the wire ---- */

enum bw_egress_outcome bw_chat_post(const struct bw_chat *c, const char *body, bool with_auth, long timeout_ms,
                                    long connect_ms, size_t cap, struct bw_egress_resp *r)
{
    const char *hdrs[BW_CONN_HEADERS_MAX + 6];
    size_t h = 0;
    for (size_t i = 0; c->headers[i] && h + 2 < sizeof hdrs / sizeof hdrs[0]; i++)
        hdrs[h++] = c->headers[i];
    if (with_auth && c->auth_header)
        hdrs[h++] = c->auth_header;
    hdrs[h] = NULL;
    struct bw_egress_req rq = {.method = "POST",
                               .url = with_auth ? c->url : c->bare,
                               .headers = hdrs,
                               .credential_headers = c->cred_names,
                               .body = body,
                               .body_len = strlen(body),
                               .connect_timeout_ms = connect_ms,
                               .timeout_ms = timeout_ms,
                               .max_response = cap,
                               .max_redirects = 0, /* a credential never follows a redirect */
                               /* a credential goes only to the endpoint's host, which an unverified
                                * certificate does not prove: only the exchanges without one look past it */
                               .verify_tls = with_auth && c->auth != BW_AUTH_NONE};
    bw_egress_request(c->egress_allow, &rq, r);
    bw_chat_redact(c, r->error, sizeof r->error);
    bw_chat_redact(c, r->final_url, sizeof r->final_url);
    return r->outcome;
}

/* Replaces every occurrence of needle in s (cap bytes) with REDACTED. */
static void redact_one(char *s, size_t cap, const char *needle)
{
    size_t nl = strlen(needle), rl = sizeof REDACTED - 1;
    if (!nl)
        return;
    char *p = s;
    while ((p = strstr(p, needle))) {
        size_t tail = strlen(p + nl);
        size_t at = (size_t)(p - s);
        if (at + rl + tail + 1 > cap) { /* no room: cut the text where the secret began */
            if (at + rl + 1 <= cap) {
                memcpy(p, REDACTED, rl);
                p[rl] = '\0';
            } else {
                *p = '\0';
            }
            return;
        }
        memmove(p + rl, p + nl, tail + 1);
        memcpy(p, REDACTED, rl);
        p += rl;
    }
}

void bw_chat_redact(const struct bw_chat *c, char *s, size_t cap)
{
    if (!c->secret || !*c->secret || !s || !cap)
        return;
    redact_one(s, cap, c->secret);
    char enc[BW_CONN_SECRET_MAX * 3 + 1] = "";
    if (add_query(enc, sizeof enc, "x", c->secret) == 0 && strcmp(enc + 3, c->secret) != 0)
        redact_one(s, cap, enc + 3);
    if (c->auth == BW_AUTH_BASIC && c->auth_header)
        redact_one(s, cap, c->auth_header + strlen("Authorization: Basic "));
    sodium_memzero(enc, sizeof enc);
}

/* ---- leak detection against a known system prompt ---- */

bool bw_chat_leaks_system_prompt(const struct bw_chat *c, const char *reply)
{
    return bw_detect_overlap(c->system_prompt, reply, BW_RT_LEAK_RUN);
}
