/* The live MCP probe: speaks MCP over streamable HTTP to a server and lists the tools it really
 * exposes, so the scanner (mcpscan.h) can judge those instead of what a configuration declares.
 *
 * Every request goes through the egress module (src/net/egress.h) under the server's egress
 * policy, and carries no credentials: no Authorization header, no cookies, and the userinfo and
 * query of server_url are dropped (bw_mcp_probe_url). Blocking: run it on the probe pool.
 *
 * The exchange (each POST: Content-Type: application/json, Accept: application/json,
 * text/event-stream; the answer may be JSON or an SSE stream):
 *   1. `initialize` (id 1, protocolVersion 2025-06-18, capabilities {}, clientInfo bulwark);
 *      the Mcp-Session-Id the server returns is echoed on every later request, with
 *      MCP-Protocol-Version set to the version the server chose;
 *   2. `notifications/initialized`;
 *   3. `tools/list` (ids 2, 3, ...), following nextCursor for at most BW_MCP_PROBE_PAGES pages
 *      and BW_MCP_TOOLS_MAX tools (a repeated cursor ends it);
 *   4. `prompts/list` and `resources/list` (the next ids) in the same way, each only when the
 *      server declared the capability in initialize, at most BW_MCP_LIVE_ITEMS_MAX items each;
 *      the server's `instructions` come with the initialize result. Prompts, resources and
 *      instructions reach the model through the client like tool descriptions do, so the scanner
 *      reads them for the same poisoning;
 *   5. a DELETE of the session when one was issued (best effort, its answer is ignored).
 * Bounds: each exchange BW_MCP_PROBE_EXCHANGE_MS, the whole probe BW_MCP_PROBE_BUDGET_MS, each
 * response BW_MCP_PROBE_RESPONSE_MAX bytes, no redirects followed. */
#ifndef BW_ENGINE_MCPPROBE_H
#define BW_ENGINE_MCPPROBE_H
#include "common/limits.h"
#include "engine/mcprpc.h"
#include "net/egress.h"

#include <jansson.h>
#include <stdbool.h>

/* The transport: bw_egress_request, or a stand-in for tests. Same contract as bw_egress_request. */
typedef int (*bw_mcp_exchange_fn)(void *ctx, unsigned allow, const struct bw_egress_req *rq,
                                  struct bw_egress_resp *out);

struct bw_mcp_probe_opts {
    unsigned egress_allow;        /* BW_EGRESS_ALLOW_* */
    long exchange_ms;             /* 0 = BW_MCP_PROBE_EXCHANGE_MS */
    long budget_ms;               /* 0 = BW_MCP_PROBE_BUDGET_MS */
    size_t max_response;          /* 0 = BW_MCP_PROBE_RESPONSE_MAX */
    int max_pages;                /* 0 = BW_MCP_PROBE_PAGES */
    bw_mcp_exchange_fn exchange;  /* NULL = the egress module */
    void *ctx;
};

/* How far the probe got. */
enum bw_mcp_probe_status {
    BW_MCP_PROBE_LISTED,      /* initialize and tools/list answered: `tools` holds what was listed */
    BW_MCP_PROBE_UNREACHABLE, /* no HTTP answer: blocked by the egress policy, DNS, connect, TLS, timeout */
    BW_MCP_PROBE_AUTH,        /* initialize was refused with 401/403: authentication is enforced */
    BW_MCP_PROBE_PROTOCOL,    /* an answer, but not a usable MCP one (status, body, JSON-RPC error) */
};

/* A list other than the tools. */
struct bw_mcp_listed {
    json_t *items;  /* owned; the listed items (mcprpc.h's shapes), NULL when not listed */
    bool truncated; /* items left unlisted */
    size_t invalid; /* items without a valid name (or a resource without a uri), skipped */
};

struct bw_mcp_live {
    bool performed;                   /* a probe ran (the scanner renders `probe` from this) */
    enum bw_mcp_probe_status status;
    enum bw_egress_outcome outcome;   /* of the exchange that failed, else BW_EG_OK */
    bool reachable;                   /* an HTTP answer arrived */
    long http_status;                 /* of the initialize answer, 0 when none */
    bool initialized;                 /* initialize succeeded, with no credentials sent */
    bool session;                     /* the server issued an Mcp-Session-Id */
    bool sse;                         /* an answer came as an event stream */
    bool truncated;                   /* tools left unlisted: page/tool bound, or a later page failed */
    bool tls, tls_verify_ok;          /* of the initialize exchange */
    char tls_error[128];
    struct bw_mcp_server_info info;   /* from initialize */
    json_t *tools;                    /* owned; the listed tools when status is LISTED, else NULL */
    json_t *instructions;             /* owned; the initialize result's instructions (string), or NULL */
    struct bw_mcp_listed prompts, resources; /* when the server declared them */
    size_t invalid_tools;             /* listed items without a valid name (skipped) */
    int pages;                        /* tools/list pages read */
    int requests;                     /* HTTP exchanges attempted */
    long elapsed_ms;
    char error[256];                  /* what went wrong ("" when nothing) */
};

/* Probes server_url (http or https; anything else is PROTOCOL with an error). Always fills *out;
 * free it with bw_mcp_live_free. */
void bw_mcp_probe_run(const char *server_url, const struct bw_mcp_probe_opts *o, struct bw_mcp_live *out);
void bw_mcp_live_free(struct bw_mcp_live *l);

#endif
