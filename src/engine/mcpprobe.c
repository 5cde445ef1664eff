/* The live MCP probe over streamable HTTP (see mcpprobe.h): initialize, notifications/initialized,
 * tools/list, prompts/list and resources/list with pagination, then the session's DELETE. The wire format is parsed by mcprpc.c;
 * this file only sequences the exchanges and keeps them within their time and size bounds. */
#include "engine/mcpprobe.h"

#include "common/limits.h"
#include "common/timeutil.h"
#include "engine/mcpscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BULWARK_VERSION
#define BULWARK_VERSION "0"
#endif


struct probe {
    const struct bw_mcp_probe_opts *o;
    struct bw_mcp_live *out;
    int64_t t0_us;
    long budget_ms, exchange_ms;
    size_t max_response;
    char url[BW_MCP_URL_MAX + 16];
    char session[BW_MCP_SESSION_ID_MAX + 1]; /* "" until the server issues one */
    char proto[32];                          /* negotiated version, "" before initialize */
};

static long elapsed_ms(const struct probe *p)
{
    return (long)((bw_mono_us() - p->t0_us) / 1000);
}

static int egress_exchange(void *ctx, unsigned allow, const struct bw_egress_req *rq, struct bw_egress_resp *out)
{
    (void)ctx;
    return bw_egress_request(allow, rq, out);
}

/* One HTTP exchange within the bounds left. false (with out->outcome BW_EG_TIMEOUT) when the
 * budget cannot cover another one. resp is always initialised and must be freed. */
static bool exchange(struct probe *p, const char *method, const char *body, long cap_ms, struct bw_egress_resp *resp)
{
    memset(resp, 0, sizeof *resp);
    long left = p->budget_ms - elapsed_ms(p);
    if (left < BW_MCP_PROBE_MIN_EXCHANGE_MS) {
        resp->outcome = BW_EG_TIMEOUT;
        snprintf(resp->error, sizeof resp->error, "probe time budget of %ld ms used up", p->budget_ms);
        return false;
    }
    long t = cap_ms < left ? cap_ms : left;
    char proto_h[64], session_h[BW_MCP_SESSION_ID_MAX + 32];
    const char *hdrs[6];
    size_t nh = 0;
    if (body) {
        hdrs[nh++] = "Content-Type: application/json";
        hdrs[nh++] = "Accept: application/json, text/event-stream";
    }
    if (p->proto[0]) {
        snprintf(proto_h, sizeof proto_h, "MCP-Protocol-Version: %s", p->proto);
        hdrs[nh++] = proto_h;
    }
    if (p->session[0]) {
        snprintf(session_h, sizeof session_h, "Mcp-Session-Id: %s", p->session);
        hdrs[nh++] = session_h;
    }
    hdrs[nh] = NULL;
    struct bw_egress_req rq = {
        .method = method,
        .url = p->url,
        .headers = hdrs,
        .body = body,
        .body_len = body ? strlen(body) : 0,
        .connect_timeout_ms = t < BW_MCP_PROBE_CONNECT_MS ? t : BW_MCP_PROBE_CONNECT_MS,
        .timeout_ms = t,
        .max_response = p->max_response,
        .max_redirects = 0,  /* a redirected POST is reported, not followed */
        .verify_tls = false, /* list the tools past a bad certificate; the result is reported */
    };
    p->out->requests++;
    bw_mcp_exchange_fn fn = p->o->exchange ? p->o->exchange : egress_exchange;
    return fn(p->o->ctx, p->o->egress_allow, &rq, resp) == 0 && resp->outcome == BW_EG_OK;
}

enum call_rc { CALL_OK, CALL_NET, CALL_AUTH, CALL_HTTP, CALL_RPC };

/* Sends the JSON-RPC request `method` with id and params (stolen) and reads its response into
 * *result (new reference) on CALL_OK. Otherwise describes the failure in p->out->error, prefixed
 * with the method. resp stays for the caller to read headers from, and to free. */
static enum call_rc call(struct probe *p, json_int_t id, const char *method, json_t *params, json_t **result,
                         struct bw_egress_resp *resp)
{
    *result = NULL;
    struct bw_mcp_live *out = p->out;
    json_t *msg = json_pack("{s:s,s:I,s:s,s:o}", "jsonrpc", "2.0", "id", id, "method", method, "params",
                            params ? params : json_object());
    char *body = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    if (!body) {
        memset(resp, 0, sizeof *resp);
        snprintf(out->error, sizeof out->error, "%s: out of memory", method);
        return CALL_RPC;
    }
    bool ok = exchange(p, "POST", body, p->exchange_ms, resp);
    free(body);
    if (!ok) {
        out->outcome = resp->outcome == BW_EG_OK ? BW_EG_ERROR : resp->outcome;
        snprintf(out->error, sizeof out->error, "%s: %s%s%.200s", method, bw_egress_outcome_name(out->outcome),
                 resp->error[0] ? ": " : "", resp->error);
        return CALL_NET;
    }
    out->reachable = true;
    if (resp->status == 401 || resp->status == 403) {
        snprintf(out->error, sizeof out->error, "%s: authentication required (HTTP %ld)", method, resp->status);
        return CALL_AUTH;
    }
    if (resp->status < 200 || resp->status > 299) {
        snprintf(out->error, sizeof out->error, "%s: answered HTTP %ld%s", method, resp->status,
                 resp->status >= 300 && resp->status < 400 ? " (redirects are not followed)" : "");
        return CALL_HTTP;
    }
    if (resp->truncated) {
        snprintf(out->error, sizeof out->error, "%s: response larger than %zu bytes", method, p->max_response);
        return CALL_RPC;
    }
    char ctype[128] = "";
    bw_egress_header(resp, "Content-Type", ctype, sizeof ctype);
    bool sse = bw_mcp_rpc_is_sse(ctype, resp->body ? resp->body : "", resp->body_len);
    out->sse |= sse;
    char why[200];
    enum bw_mcp_rpc_rc rc = bw_mcp_rpc_find(resp->body, resp->body_len, sse, id, result, why, sizeof why);
    if (rc == BW_MCP_RPC_RESULT)
        return CALL_OK;
    json_decref(*result);
    *result = NULL;
    snprintf(out->error, sizeof out->error, "%s: %s", method, why);
    return CALL_RPC;
}

/* notifications/initialized: a notification has no response to wait for (202 expected); its
 * failure alone does not stop the probe, tools/list tells whether the server went on. */
static void notify_initialized(struct probe *p)
{
    struct bw_egress_resp resp;
    exchange(p, "POST", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", p->exchange_ms, &resp);
    bw_egress_resp_free(&resp);
}

/* Reads the pages of a list into *items (created here) from JSON-RPC id *id on, each page a new
 * id: at most max_pages pages and max items, a repeated cursor ends it. Returns 0 when the first
 * page was read (the pages read are kept when a later one fails: *truncated), -1 with
 * p->out->error set when it was not (*items is then NULL). */
static int list_pages(struct probe *p, enum bw_mcp_list kind, size_t max, json_int_t *id, json_t **items,
                      bool *truncated, size_t *invalid, int *pages)
{
    struct bw_mcp_live *out = p->out;
    const char *method = bw_mcp_rpc_list_method(kind);
    int max_pages = p->o->max_pages > 0 ? p->o->max_pages : BW_MCP_PROBE_PAGES;
    if (!(*items = json_array())) {
        snprintf(out->error, sizeof out->error, "%s: out of memory", method);
        return -1;
    }
    char *cursor = NULL;
    int rc = 0;
    for (int page = 0; page < max_pages; page++) {
        json_t *params = json_object();
        if (cursor && params)
            json_object_set_new(params, "cursor", json_string(cursor));
        json_t *result = NULL;
        struct bw_egress_resp resp;
        enum call_rc crc = call(p, (*id)++, method, params, &result, &resp);
        bw_egress_resp_free(&resp);
        char *next = NULL, why[160];
        bool cut = false;
        if (crc == CALL_OK &&
            bw_mcp_rpc_list(kind, result, *items, max, &next, invalid, &cut, why, sizeof why) != 0) {
            snprintf(out->error, sizeof out->error, "%s: %s", method, why);
            crc = CALL_RPC;
        }
        json_decref(result);
        if (crc != CALL_OK) {
            free(next);
            if (page == 0)
                rc = -1; /* nothing listed */
            else
                *truncated = true; /* the pages read are kept; the error says why it stopped */
            break;
        }
        (*pages)++;
        bool repeat = next && cursor && strcmp(next, cursor) == 0;
        free(cursor);
        cursor = next;
        if (cut || (cursor && json_array_size(*items) >= max)) {
            *truncated = true;
            break;
        }
        if (!cursor || repeat)
            break;
        if (page + 1 == max_pages)
            *truncated = true; /* the server had more pages than we follow */
    }
    free(cursor);
    if (rc != 0) {
        json_decref(*items);
        *items = NULL;
    }
    return rc;
}

/* prompts/list or resources/list, when the server declared the capability (a server without it
 * answers "method not found", as the protocol allows). A failure here leaves the tools listed:
 * the list is null and the error is kept unless one was already. */
static void list_extra(struct probe *p, enum bw_mcp_list kind, struct bw_mcp_listed *l, json_int_t *id)
{
    char before[sizeof p->out->error];
    memcpy(before, p->out->error, sizeof before);
    int pages = 0;
    if (list_pages(p, kind, BW_MCP_LIVE_ITEMS_MAX, id, &l->items, &l->truncated, &l->invalid, &pages) != 0 &&
        before[0])
        memcpy(p->out->error, before, sizeof before);
}
void bw_mcp_probe_run(const char *server_url, const struct bw_mcp_probe_opts *o, struct bw_mcp_live *out)
{
    memset(out, 0, sizeof *out);
    out->performed = true;
    out->outcome = BW_EG_OK;
    struct probe p = {.o = o, .out = out, .t0_us = bw_mono_us()};
    p.budget_ms = o->budget_ms > 0 ? o->budget_ms : BW_MCP_PROBE_BUDGET_MS;
    p.exchange_ms = o->exchange_ms > 0 ? o->exchange_ms : BW_MCP_PROBE_EXCHANGE_MS;
    p.max_response = o->max_response > 0 ? o->max_response : BW_MCP_PROBE_RESPONSE_MAX;
    if (!bw_mcp_probe_url(server_url, p.url, sizeof p.url)) {
        out->status = BW_MCP_PROBE_PROTOCOL;
        out->outcome = BW_EG_BAD_URL;
        snprintf(out->error, sizeof out->error, "the probe speaks streamable HTTP: server_url must be http or https");
        return;
    }

    json_t *params = json_pack("{s:s,s:{},s:{s:s,s:s}}", "protocolVersion", BW_MCP_PROTOCOL_VERSION, "capabilities",
                               "clientInfo", "name", "bulwark", "version", BULWARK_VERSION);
    json_t *result = NULL;
    struct bw_egress_resp resp;
    enum call_rc rc = call(&p, 1, "initialize", params, &result, &resp);
    out->http_status = resp.status;
    out->tls = resp.tls;
    out->tls_verify_ok = resp.tls_verify_ok;
    snprintf(out->tls_error, sizeof out->tls_error, "%.127s", resp.tls_error);
    if (rc == CALL_OK) {
        char why[160];
        out->instructions = bw_mcp_rpc_instructions(result);
        if (bw_mcp_rpc_initialize(result, &out->info, why, sizeof why) != 0) {
            snprintf(out->error, sizeof out->error, "initialize: %s", why);
            rc = CALL_RPC;
        }
    }
    json_decref(result);
    if (rc == CALL_OK) {
        char sid[BW_MCP_SESSION_ID_MAX + 2];
        if (bw_egress_header(&resp, "Mcp-Session-Id", sid, sizeof sid)) {
            if (bw_mcp_session_id_ok(sid)) { /* so it fits p.session */
                memcpy(p.session, sid, strlen(sid) + 1);
                out->session = true;
            }
            /* an id that is too long or not visible ASCII is not echoed; tools/list then shows
               whether the server insists on it */
        }
        snprintf(p.proto, sizeof p.proto, "%s", out->info.protocol_version);
    }
    bw_egress_resp_free(&resp);
    switch (rc) {
    case CALL_OK:
        break;
    case CALL_NET:
        out->status = out->reachable ? BW_MCP_PROBE_PROTOCOL : BW_MCP_PROBE_UNREACHABLE;
        goto done;
    case CALL_AUTH:
        out->status = BW_MCP_PROBE_AUTH;
        goto done;
    case CALL_HTTP:
    case CALL_RPC:
        out->status = BW_MCP_PROBE_PROTOCOL;
        goto done;
    }
    out->initialized = true;
    notify_initialized(&p);
    json_int_t id = 2;
    if (list_pages(&p, BW_MCP_LIST_TOOLS, BW_MCP_TOOLS_MAX, &id, &out->tools, &out->truncated, &out->invalid_tools,
                   &out->pages) != 0)
        out->status = BW_MCP_PROBE_PROTOCOL; /* nothing listed: the scan falls back to the declared tools */
    else
        out->status = BW_MCP_PROBE_LISTED;
    if (out->info.prompts_capability)
        list_extra(&p, BW_MCP_LIST_PROMPTS, &out->prompts, &id);
    if (out->info.resources_capability)
        list_extra(&p, BW_MCP_LIST_RESOURCES, &out->resources, &id);
    if (p.session[0]) {
        exchange(&p, "DELETE", NULL, BW_MCP_PROBE_DELETE_MS, &resp);
        bw_egress_resp_free(&resp);
    }
done:
    out->elapsed_ms = elapsed_ms(&p);
}

void bw_mcp_live_free(struct bw_mcp_live *l)
{
    json_decref(l->tools);
    json_decref(l->instructions);
    json_decref(l->prompts.items);
    json_decref(l->resources.items);
    l->tools = l->instructions = l->prompts.items = l->resources.items = NULL;
}
