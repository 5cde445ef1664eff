/* MCP tool pinning: canonical definitions, their pins and diffs, server identities (mcppin.h). */
#include "engine/mcppin.h"

#include "engine/detect.h"
#include "net/url.h"

#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(BW_MCP_PIN_DEPTH_MAX > BW_JSON_MAX_DEPTH && BW_MCP_PIN_DEPTH_MAX > BW_MCP_RPC_DEPTH_MAX,
               "every definition the scan can hold canonicalises");

/* The members of a definition, in the order a diff lists them. */
enum { F_DESCRIPTION, F_TITLE, F_SCHEMA, F_ANNOTATIONS, F_COUNT };
static const char *const FIELD[F_COUNT] = {"description", "title", "input_schema", "annotations"};

static int cmp_json_string(const void *a, const void *b)
{
    return strcmp(json_string_value(*(json_t *const *)a), json_string_value(*(json_t *const *)b));
}

/* A sorted copy of a `required` member that is an array of strings (JSON Schema reads it as a
 * set: its order is no change); NULL when v is not one, or out of memory (*oom). */
static json_t *sorted_required(const json_t *v, bool *oom)
{
    size_t n = json_array_size(v), i;
    const json_t *x;
    if (!json_is_array(v) || n < 2)
        return NULL;
    json_array_foreach(v, i, x) {
        if (!json_is_string(x))
            return NULL;
    }
    json_t **items = malloc(n * sizeof *items), *out = json_array();
    for (i = 0; items && i < n; i++)
        items[i] = json_array_get(v, i);
    if (items)
        qsort(items, n, sizeof *items, cmp_json_string);
    for (i = 0; items && out && i < n; i++)
        if (json_array_append(out, items[i]) != 0)
            break;
    free(items);
    if (!items || !out || i < n) {
        json_decref(out);
        *oom = true;
        return NULL;
    }
    return out;
}

/* A copy of v with every number of integral value as an integer (2^53 bounds the doubles that
 * are exact integers) and every `required` array of strings sorted; NULL when out of memory or
 * nested deeper than BW_MCP_PIN_DEPTH_MAX. */
static json_t *canon_copy(const json_t *v, int depth)
{
    if (depth > BW_MCP_PIN_DEPTH_MAX)
        return NULL;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        json_t *o = json_object();
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            bool oom = false;
            json_t *c = strcmp(k, "required") == 0 ? sorted_required(x, &oom) : NULL;
            if (!c && !oom)
                c = canon_copy(x, depth + 1);
            if (!o || json_object_set_new(o, k, c) != 0) { /* steals, NULL too */
                json_decref(o);
                return NULL;
            }
        }
        return o;
    }
    case JSON_ARRAY: {
        json_t *a = json_array();
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) {
            if (!a || json_array_append_new(a, canon_copy(x, depth + 1)) != 0) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    case JSON_REAL: {
        double d = json_real_value(v);
        if (d > -9007199254740992.0 && d < 9007199254740992.0 && d == (double)(json_int_t)d)
            return json_integer((json_int_t)d);
        return json_real(d);
    }
    default:
        return json_deep_copy(v);
    }
}

char *bw_mcp_canonical(const json_t *v)
{
    json_t *c = canon_copy(v, 1);
    char *s = c ? json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
    json_decref(c);
    return s;
}

static void sha256_hex(const char *s, size_t n, char hex[BW_MCP_PIN_HASH_HEX + 1])
{
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)s, n);
    sodium_bin2hex(hex, BW_MCP_PIN_HASH_HEX + 1, h, sizeof h);
}

/* Member k of d as a JSON value (new reference), NULL when absent or out of memory (*oom). */
static json_t *member(const struct bw_mcp_tooldef *d, int k, bool *oom)
{
    json_t *v = NULL;
    switch (k) {
    case F_DESCRIPTION:
        v = d->description ? json_string(d->description) : NULL;
        break;
    case F_TITLE:
        v = d->title ? json_string(d->title) : NULL;
        break;
    case F_SCHEMA:
        return d->input_schema ? json_incref((json_t *)d->input_schema) : NULL;
    default:
        return d->annotations ? json_incref((json_t *)d->annotations) : NULL;
    }
    if (!v && (k == F_DESCRIPTION ? d->description : d->title))
        *oom = true;
    return v;
}

/* The text a diff quotes of member k of d (malloc'ed: a string as it is, an object as canonical
 * JSON) and the hash of its canonical text. false when absent (*text NULL) or out of memory
 * (*oom). */
static bool field_text(const struct bw_mcp_tooldef *d, int k, char **text, char hash[BW_MCP_PIN_HASH_HEX + 1],
                       bool *oom)
{
    *text = NULL;
    json_t *v = member(d, k, oom);
    if (!v)
        return false;
    char *canon = bw_mcp_canonical(v);
    if (canon) {
        sha256_hex(canon, strlen(canon), hash);
        *text = json_is_string(v) ? strdup(json_string_value(v)) : canon;
        if (*text != canon)
            free(canon);
    }
    json_decref(v);
    if (!*text)
        *oom = true;
    return *text != NULL;
}

/* The first n bytes of s at most, cut back to a UTF-8 character boundary. */
static size_t cut_at(const char *s, size_t n)
{
    size_t len = strlen(s);
    if (len <= n)
        return len;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return n;
}

int bw_mcp_pin_make(const struct bw_mcp_tooldef *d, struct bw_mcp_pin *out)
{
    memset(out, 0, sizeof *out);
    bool oom = false;
    json_t *def = json_object(), *fields = json_object();
    for (int k = 0; k < F_COUNT && def && fields && !oom; k++) {
        json_t *v = member(d, k, &oom);
        char *text = NULL, h[BW_MCP_PIN_HASH_HEX + 1];
        if (v && field_text(d, k, &text, h, &oom)) {
            size_t n = cut_at(text, BW_MCP_PIN_TEXT_MAX);
            json_t *f = json_pack("{s:s,s:s%}", "sha256", h, "text", text, n);
            if (f && n < strlen(text))
                json_object_set_new(f, "cut", json_true());
            oom |= !f || json_object_set_new(fields, FIELD[k], f) != 0 || json_object_set(def, FIELD[k], v) != 0;
        }
        free(text);
        json_decref(v);
    }
    char *canon = def && fields && !oom ? bw_mcp_canonical(def) : NULL;
    json_t *doc = canon ? json_pack("{s:i,s:O}", "v", 1, "fields", fields) : NULL;
    out->doc = doc ? json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    if (out->doc)
        sha256_hex(canon, strlen(canon), out->hash);
    json_decref(doc);
    json_decref(def);
    json_decref(fields);
    free(canon);
    return out->doc ? 0 : -1;
}

void bw_mcp_pin_clear(struct bw_mcp_pin *p)
{
    free(p->doc);
    p->doc = NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* quoting a change                                                                            */

static bool blank(unsigned char c) { return c <= 0x20 || c == 0x7F; }

/* The quote of t[from, to) (n bytes in all) with BW_MCP_PIN_CONTEXT bytes either side, widened to
 * whole words, credential-shaped words masked; a word still cut at an edge is masked whole, since
 * a secret missing its first bytes no longer looks like one. "..." marks text left out, also past
 * the end when the kept text was cut. */
static json_t *quote(const char *t, size_t n, size_t from, size_t to, bool cut)
{
    size_t w = from > BW_MCP_PIN_CONTEXT ? from - BW_MCP_PIN_CONTEXT : 0;
    size_t e = n - to > BW_MCP_PIN_CONTEXT ? to + BW_MCP_PIN_CONTEXT : n;
    for (size_t w0 = w; w > 0 && w0 - w < BW_MCP_PIN_WORD_MAX && !blank((unsigned char)t[w - 1]);)
        w--;
    for (size_t e0 = e; e < n && e - e0 < BW_MCP_PIN_WORD_MAX && !blank((unsigned char)t[e]);)
        e++;
    char *buf = malloc(e - w + 1);
    if (!buf)
        return NULL;
    memcpy(buf, t + w, e - w);
    buf[e - w] = '\0';
    for (size_t i = 0; w > 0 && !blank((unsigned char)t[w - 1]) && i < e - w && !blank((unsigned char)buf[i]); i++)
        buf[i] = '*';
    for (size_t i = e - w; e < n && !blank((unsigned char)t[e]) && i > 0 && !blank((unsigned char)buf[i - 1]); i--)
        buf[i - 1] = '*';
    char q[BW_MCP_PIN_QUOTE_MAX + 8], out[sizeof q + 8];
    bw_detect_excerpt(buf, e - w, q, sizeof q);
    free(buf);
    size_t ql = strlen(q);
    bool more = (e < n || cut) && !(ql >= 3 && strcmp(q + ql - 3, "...") == 0);
    snprintf(out, sizeof out, "%s%s%s", w > 0 ? "..." : "", q, more ? "..." : "");
    return json_string(out);
}

/* Quotes of what differs between a (old, an bytes, cut when the kept text ended early) and b
 * (new): after their common start and, unless a was cut, before their common end. */
static void quote_pair(const char *a, bool a_cut, const char *b, json_t **qa, json_t **qb)
{
    size_t an = strlen(a), bn = strlen(b), p = 0, s = 0;
    while (p < an && p < bn && a[p] == b[p])
        p++;
    while (p > 0 && ((p < an && ((unsigned char)a[p] & 0xC0) == 0x80) || (p < bn && ((unsigned char)b[p] & 0xC0) == 0x80)))
        p--;
    while (!a_cut && s < an - p && s < bn - p && a[an - 1 - s] == b[bn - 1 - s])
        s++;
    while (s > 0 && ((s < an && ((unsigned char)a[an - s] & 0xC0) == 0x80) || (s < bn && ((unsigned char)b[bn - s] & 0xC0) == 0x80)))
        s--;
    *qa = quote(a, an, p, an - s, a_cut);
    *qb = quote(b, bn, p, bn - s, false);
}

/* Appends {field, old, new} to out; false when out of memory. */
static bool add_change(json_t *out, const char *field, json_t *old, json_t *cur)
{
    json_t *c = json_pack("{s:s,s:o,s:o}", "field", field, "old", old ? old : json_null(), "new",
                          cur ? cur : json_null());
    return c && json_array_append_new(out, c) == 0;
}

json_t *bw_mcp_pin_diff(const char *doc, const struct bw_mcp_tooldef *d)
{
    json_t *out = json_array();
    json_t *old = doc ? json_loads(doc, 0, NULL) : NULL;
    const json_t *fields = json_object_get(old, "fields");
    bool ok = out != NULL;
    if (ok && (json_integer_value(json_object_get(old, "v")) != 1 || !json_is_object(fields))) {
        ok = add_change(out, "definition", NULL, NULL);
        fields = NULL;
    }
    for (int k = 0; ok && fields && k < F_COUNT; k++) {
        const json_t *o = json_object_get(fields, FIELD[k]);
        const char *oh = json_string_value(json_object_get(o, "sha256"));
        const char *ot = json_string_value(json_object_get(o, "text"));
        char *text = NULL, h[BW_MCP_PIN_HASH_HEX + 1];
        bool oom = false;
        bool have = field_text(d, k, &text, h, &oom);
        if (oom) {
            ok = false;
        } else if ((oh && ot) || have) {
            if (!(oh && ot && have && strcmp(oh, h) == 0)) {
                json_t *qa = NULL, *qb = NULL;
                if (oh && ot && have)
                    quote_pair(ot, json_is_true(json_object_get(o, "cut")), text, &qa, &qb);
                else if (have)
                    qb = quote(text, strlen(text), 0, strlen(text), false);
                else
                    qa = quote(ot, strlen(ot), 0, strlen(ot), json_is_true(json_object_get(o, "cut")));
                ok = add_change(out, FIELD[k], qa, qb); /* a quote that failed reads as null */
            }
        }
        free(text);
    }
    json_decref(old);
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

/* ------------------------------------------------------------------------------------------ */
/* server identity                                                                             */

bool bw_mcp_server_identity(const char *server_url, char key[BW_MCP_PIN_HASH_HEX + 1], char *shown, size_t cap)
{
    char scheme[16];
    if (!server_url || !bw_url_scheme(server_url, scheme, sizeof scheme))
        return false;
    size_t n = strlen(server_url);
    char *id = malloc(n + BW_URL_HOST_MAX + 32); /* a respelled host grows by at most a host's length */
    if (!id)
        return false;
    bool ok = true;
    if (strcmp(scheme, "stdio") == 0) {
        /* the command line, white space runs as one space, none at either end */
        size_t o = (size_t)snprintf(id, 16, "stdio://");
        bool sp = false;
        for (const char *p = server_url + strlen(scheme) + 3; *p; p++) {
            if (blank((unsigned char)*p)) {
                sp = o > 8;
                continue;
            }
            if (sp)
                id[o++] = ' ';
            sp = false;
            id[o++] = *p;
        }
        id[o] = '\0';
    } else {
        struct bw_url u;
        ok = bw_url_parse(&u, server_url, NULL, 0) == BW_URL_OK &&
             bw_url_get(&u, BW_URL_NO_USERINFO | BW_URL_NO_QUERY | BW_URL_NO_FRAGMENT | BW_URL_NORMAL_HOST |
                                BW_URL_NO_DEFAULT_PORT,
                        id, n + BW_URL_HOST_MAX + 32);
        bw_url_free(&u);
    }
    if (ok) {
        sha256_hex(id, strlen(id), key);
        char *q = malloc(BW_MCP_PIN_SERVER_SHOWN + 8);
        ok = q != NULL;
        if (ok) {
            bw_detect_excerpt(id, strlen(id), q, BW_MCP_PIN_SERVER_SHOWN + 1);
            snprintf(shown, cap, "%s", q);
            free(q);
        }
    }
    free(id);
    return ok;
}
