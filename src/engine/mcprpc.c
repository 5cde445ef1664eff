/* MCP wire format: SSE framing, JSON-RPC response matching, initialize and tools/list results.
 * Pure functions (no I/O, no clock); see mcprpc.h. */
#include "engine/mcprpc.h"

#include "common/utf8.h"
#include "engine/mcpscan.h"
#include "common/jsonx.h"
#include "net/url.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Copies s into out (cap bytes), cut at a UTF-8 character boundary, control characters as '?'. */
static void copy_clean(char *out, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = (c < 0x20 || c == 0x7F) ? '?' : (char)c;
    }
    out[n] = '\0';
}

bool bw_mcp_rpc_is_sse(const char *content_type, const char *body, size_t len)
{
    if (content_type && *content_type) {
        while (*content_type == ' ' || *content_type == '\t')
            content_type++;
        if (strncasecmp(content_type, "text/event-stream", 17) == 0)
            return true;
        if (strncasecmp(content_type, "application/json", 16) == 0)
            return false;
    }
    /* no usable type: an SSE stream starts with a field name or a comment */
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n'))
        i++;
    static const char *const FIELDS[] = {"data:", "event:", "id:", "retry:", ":", NULL};
    for (size_t k = 0; FIELDS[k]; k++) {
        size_t fl = strlen(FIELDS[k]);
        if (len - i >= fl && memcmp(body + i, FIELDS[k], fl) == 0)
            return true;
    }
    return false;
}

/* Describes a JSON-RPC error object into why. */
static void describe_error(const json_t *err, char *why, size_t cap)
{
    const json_t *code = json_object_get(err, "code");
    const json_t *msg = json_object_get(err, "message");
    char m[160];
    copy_clean(m, sizeof m, json_is_string(msg) ? json_string_value(msg) : "no message");
    if (json_is_integer(code))
        snprintf(why, cap, "JSON-RPC error %" JSON_INTEGER_FORMAT ": %s", json_integer_value(code), m);
    else
        snprintf(why, cap, "JSON-RPC error: %s", m);
}

/* Checks one parsed message. Returns RESULT/ERROR when it is the response to id, NONE otherwise
 * (a request or notification from the server, or another id). */
static enum bw_mcp_rpc_rc match(const json_t *msg, json_int_t id, json_t **member, char *why, size_t cap)
{
    if (!json_is_object(msg))
        return BW_MCP_RPC_NONE;
    const json_t *mid = json_object_get(msg, "id");
    if (!json_is_integer(mid) || json_integer_value(mid) != id || json_object_get(msg, "method"))
        return BW_MCP_RPC_NONE;
    const json_t *err = json_object_get(msg, "error");
    if (json_is_object(err)) {
        describe_error(err, why, cap);
        *member = json_incref((json_t *)err);
        return BW_MCP_RPC_ERROR;
    }
    const json_t *res = json_object_get(msg, "result");
    if (!res)
        return BW_MCP_RPC_NONE;
    *member = json_incref((json_t *)res);
    return BW_MCP_RPC_RESULT;
}

/* Parses one JSON text (a message or a batch) and looks for the response. *seen_json is set when
 * the text parsed as JSON at all. */
static enum bw_mcp_rpc_rc find_in_json(const char *s, size_t n, json_int_t id, json_t **member, char *why, size_t cap,
                                       bool *seen_json, bool *too_deep)
{
    if (!bw_json_depth_ok(s, n, BW_MCP_RPC_DEPTH_MAX)) {
        *too_deep = true;
        return BW_MCP_RPC_NONE;
    }
    json_error_t e;
    json_t *j = json_loadb(s, n, 0, &e);
    if (!j)
        return BW_MCP_RPC_NONE;
    *seen_json = true;
    enum bw_mcp_rpc_rc rc = BW_MCP_RPC_NONE;
    if (json_is_array(j)) {
        size_t i;
        json_t *x;
        json_array_foreach(j, i, x) {
            rc = match(x, id, member, why, cap);
            if (rc != BW_MCP_RPC_NONE)
                break;
        }
    } else {
        rc = match(j, id, member, why, cap);
    }
    json_decref(j);
    return rc;
}

/* Walks an SSE stream: lines end in CRLF, LF or CR; `data` fields of one event are joined with
 * LF; a blank line (or the end of the body) dispatches the event; other fields and comments are
 * ignored. Each event's data is tried as a JSON-RPC message. */
static enum bw_mcp_rpc_rc find_in_sse(const char *body, size_t len, json_int_t id, json_t **member, char *why,
                                      size_t cap, bool *seen_json, bool *too_deep)
{
    char *data = malloc(len + 1); /* the joined data of an event never exceeds the body */
    if (!data) {
        snprintf(why, cap, "out of memory");
        return BW_MCP_RPC_NONE;
    }
    size_t dn = 0, i = 0;
    bool have = false; /* the event has at least one data field */
    enum bw_mcp_rpc_rc rc = BW_MCP_RPC_NONE;
    while (i <= len && rc == BW_MCP_RPC_NONE) {
        size_t start = i;
        while (i < len && body[i] != '\n' && body[i] != '\r')
            i++;
        size_t ll = i - start;
        bool at_end = i >= len;
        if (!at_end) {
            if (body[i] == '\r' && i + 1 < len && body[i + 1] == '\n')
                i++;
            i++;
        }
        const char *line = body + start;
        if (ll == 0) {
            if (have && dn > 0)
                rc = find_in_json(data, dn, id, member, why, cap, seen_json, too_deep);
            dn = 0;
            have = false;
        } else if (ll >= 4 && memcmp(line, "data", 4) == 0 && (ll == 4 || line[4] == ':')) {
            size_t v = ll > 4 ? 5 : 4;
            if (v < ll && line[v] == ' ')
                v++;
            if (have)
                data[dn++] = '\n';
            memcpy(data + dn, line + v, ll - v);
            dn += ll - v;
            have = true;
        }
        if (at_end) {
            /* a last event without its blank line: taken anyway, servers that close the
               stream right after the response are common */
            if (rc == BW_MCP_RPC_NONE && have && dn > 0)
                rc = find_in_json(data, dn, id, member, why, cap, seen_json, too_deep);
            break;
        }
    }
    free(data);
    return rc;
}

enum bw_mcp_rpc_rc bw_mcp_rpc_find(const char *body, size_t len, bool sse, json_int_t id, json_t **member,
                                   char *why, size_t cap)
{
    *member = NULL;
    why[0] = '\0';
    if (!body || len == 0) {
        snprintf(why, cap, "empty response body");
        return BW_MCP_RPC_NONE;
    }
    bool seen_json = false, too_deep = false;
    enum bw_mcp_rpc_rc rc = sse ? find_in_sse(body, len, id, member, why, cap, &seen_json, &too_deep)
                                : find_in_json(body, len, id, member, why, cap, &seen_json, &too_deep);
    if (rc == BW_MCP_RPC_NONE && !why[0]) {
        if (too_deep)
            snprintf(why, cap, "response nested deeper than %d levels", BW_MCP_RPC_DEPTH_MAX);
        else if (!seen_json)
            snprintf(why, cap, sse ? "no JSON message in the event stream" : "response is not JSON");
        else
            snprintf(why, cap, "no JSON-RPC response with id %" JSON_INTEGER_FORMAT, id);
    }
    return rc;
}

int bw_mcp_rpc_initialize(const json_t *result, struct bw_mcp_server_info *out, char *why, size_t cap)
{
    memset(out, 0, sizeof *out);
    const json_t *pv = json_object_get(result, "protocolVersion");
    if (!json_is_object(result) || !json_is_string(pv) || !*json_string_value(pv)) {
        snprintf(why, cap, "initialize result has no protocolVersion");
        return -1;
    }
    copy_clean(out->protocol_version, sizeof out->protocol_version, json_string_value(pv));
    const json_t *info = json_object_get(result, "serverInfo");
    const json_t *name = json_object_get(info, "name"), *ver = json_object_get(info, "version");
    if (json_is_string(name))
        copy_clean(out->name, sizeof out->name, json_string_value(name));
    if (json_is_string(ver))
        copy_clean(out->version, sizeof out->version, json_string_value(ver));
    const json_t *caps = json_object_get(result, "capabilities");
    out->tools_capability = json_object_get(caps, "tools") != NULL;
    out->prompts_capability = json_object_get(caps, "prompts") != NULL;
    out->resources_capability = json_object_get(caps, "resources") != NULL;
    return 0;
}

static bool valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || bw_utf8_chars(s, n) > BW_MCP_TOOL_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F)
            return false;
    return true;
}

/* A new string of at most max bytes of s, cut at a character boundary. */
static json_t *cut_string(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    return json_stringn(s, n);
}

/* Sets o[key] to the string member k of t cut to max bytes, when it is a string. */
static void copy_text(json_t *o, const char *key, const json_t *t, const char *k, size_t max)
{
    const json_t *v = json_object_get(t, k);
    if (json_is_string(v))
        json_object_set_new(o, key, cut_string(json_string_value(v), max));
}

/* A prompt's arguments as {name, description?, title?} items, at most BW_MCP_PARAM_TEXTS of them
 * (the scanner reads as many parameter texts per tool); NULL when there are none to keep. */
static json_t *prompt_arguments(const json_t *args)
{
    if (!json_is_array(args) || json_array_size(args) == 0)
        return NULL;
    json_t *out = json_array();
    size_t i;
    const json_t *a;
    json_array_foreach(args, i, a) {
        if (!out || json_array_size(out) >= BW_MCP_PARAM_TEXTS)
            break;
        const json_t *name = json_object_get(a, "name");
        json_t *o = json_object();
        if (!o)
            break;
        if (json_is_string(name))
            json_object_set_new(o, "name", cut_string(json_string_value(name), BW_MCP_TOOL_NAME_MAX));
        copy_text(o, "description", a, "description", BW_MCP_LIVE_DESCRIPTION_MAX);
        copy_text(o, "title", a, "title", BW_MCP_LIVE_DESCRIPTION_MAX);
        json_array_append_new(out, o);
    }
    return out;
}

/* One listed item in the scanner's shape, NULL when out of memory. */
static json_t *list_item(enum bw_mcp_list kind, const json_t *t, const json_t *name)
{
    json_t *o = json_pack("{s:O}", "name", name);
    if (!o)
        return NULL;
    copy_text(o, "description", t, "description", BW_MCP_LIVE_DESCRIPTION_MAX);
    copy_text(o, "title", t, "title", BW_MCP_LIVE_DESCRIPTION_MAX);
    if (kind == BW_MCP_LIST_TOOLS) {
        const json_t *schema = json_object_get(t, "inputSchema"), *ann = json_object_get(t, "annotations");
        if (json_is_object(schema))
            json_object_set(o, "input_schema", (json_t *)schema);
        if (json_is_object(ann))
            json_object_set(o, "annotations", (json_t *)ann);
    } else if (kind == BW_MCP_LIST_PROMPTS) {
        json_t *args = prompt_arguments(json_object_get(t, "arguments"));
        if (args)
            json_object_set_new(o, "arguments", args);
    } else {
        copy_text(o, "uri", t, "uri", BW_MCP_URL_MAX);
        copy_text(o, "mime_type", t, "mimeType", BW_MCP_TOOL_NAME_MAX);
    }
    return o;
}

static const char *const LIST_KEY[] = {"tools", "prompts", "resources"};
static const char *const LIST_METHOD[] = {"tools/list", "prompts/list", "resources/list"};

const char *bw_mcp_rpc_list_method(enum bw_mcp_list kind) { return LIST_METHOD[kind]; }

int bw_mcp_rpc_list(enum bw_mcp_list kind, const json_t *result, json_t *items, size_t max, char **next,
                    size_t *invalid, bool *cut, char *why, size_t cap)
{
    *next = NULL;
    const json_t *arr = json_object_get(result, LIST_KEY[kind]);
    if (!json_is_object(result) || !json_is_array(arr)) {
        snprintf(why, cap, "%s result has no %s array", LIST_METHOD[kind], LIST_KEY[kind]);
        return -1;
    }
    size_t i;
    const json_t *t;
    json_array_foreach(arr, i, t) {
        const json_t *name = json_object_get(t, "name");
        if (!json_is_string(name) || !valid_name(json_string_value(name)) ||
            (kind == BW_MCP_LIST_RESOURCES && !json_is_string(json_object_get(t, "uri")))) {
            (*invalid)++;
            continue;
        }
        if (json_array_size(items) >= max) {
            *cut = true;
            break;
        }
        json_t *o = list_item(kind, t, name);
        if (!o || json_array_append_new(items, o) != 0) {
            snprintf(why, cap, "out of memory");
            return -1;
        }
    }
    const json_t *nc = json_object_get(result, "nextCursor");
    if (json_is_string(nc)) {
        const char *c = json_string_value(nc);
        size_t n = strlen(c);
        if (n > 0 && n <= BW_MCP_CURSOR_MAX)
            *next = strdup(c);
    }
    return 0;
}

json_t *bw_mcp_rpc_instructions(const json_t *result)
{
    const json_t *v = json_object_get(result, "instructions");
    return json_is_string(v) && *json_string_value(v) ? cut_string(json_string_value(v), BW_MCP_LIVE_DESCRIPTION_MAX)
                                                       : NULL;
}

bool bw_mcp_probe_url(const char *server_url, char *out, size_t cap)
{
    struct bw_url u;
    const bool ok = bw_url_parse(&u, server_url, NULL, 0) == BW_URL_OK &&
                    (!strcmp(u.scheme, "http") || !strcmp(u.scheme, "https")) &&
                    bw_url_get(&u, BW_URL_NO_USERINFO | BW_URL_NO_QUERY | BW_URL_NO_FRAGMENT, out, cap);
    bw_url_free(&u);
    return ok;
}

bool bw_mcp_session_id_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > BW_MCP_SESSION_ID_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7E)
            return false;
    return true;
}
