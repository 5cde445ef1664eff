/* The MCP wire format as the live probe reads it (streamable HTTP, protocol 2025-06-18): JSON-RPC
 * 2.0 responses carried either as one application/json body or inside a text/event-stream (SSE)
 * body, and the results of `initialize`, `tools/list`, `prompts/list` and `resources/list`. Everything here is a pure function of
 * its input, so tests/fuzz/fuzz_mcp_rpc.c can drive it; the I/O is in mcpprobe.c.
 *
 * Ownership: functions returning json_t * return a new reference the caller frees; the tools
 * appended by bw_mcp_rpc_list borrow nothing from `result` except tools' input schemas and
 * annotations, whose reference counts they increment (jansson: json_object_set, not _new). */
#ifndef BW_ENGINE_MCPRPC_H
#define BW_ENGINE_MCPRPC_H
#include "common/limits.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define BW_MCP_PROTOCOL_VERSION "2025-06-18" /* what the probe asks for in initialize */

enum bw_mcp_rpc_rc {
    BW_MCP_RPC_NONE = -1,  /* no response with the id (or not JSON-RPC at all) */
    BW_MCP_RPC_RESULT = 0, /* *member is the `result` */
    BW_MCP_RPC_ERROR = 1,  /* *member is the `error` object; why describes it */
};

/* Whether a response body is an SSE stream: by Content-Type (text/event-stream) when given, else
 * (missing or another type) by its first non-blank line starting with an SSE field. */
bool bw_mcp_rpc_is_sse(const char *content_type, const char *body, size_t len);

/* Finds the JSON-RPC response whose id is the integer `id` in a response body: the body itself,
 * or an item of a batch array (JSON), or the data of one of the events (SSE; server requests and
 * notifications on the stream are skipped). Sets *member (new reference) for RESULT and ERROR,
 * NULL otherwise. why (cap bytes) says what went wrong for NONE and ERROR. */
enum bw_mcp_rpc_rc bw_mcp_rpc_find(const char *body, size_t len, bool sse, json_int_t id, json_t **member,
                                   char *why, size_t cap);

struct bw_mcp_server_info {
    char protocol_version[32];
    char name[128];    /* serverInfo.name, "" when absent; control characters replaced by '?' */
    char version[64];  /* serverInfo.version, "" when absent */
    bool tools_capability;     /* capabilities.tools present */
    bool prompts_capability;   /* capabilities.prompts present: prompts/list may be asked */
    bool resources_capability; /* capabilities.resources present: resources/list may be asked */
};

/* Reads an initialize result. 0, or -1 (why) when it is not an object with a protocolVersion. */
int bw_mcp_rpc_initialize(const json_t *result, struct bw_mcp_server_info *out, char *why, size_t cap);

/* The initialize result's `instructions` (text the client may hand to the model as it would a
 * system prompt) cut to BW_MCP_LIVE_DESCRIPTION_MAX bytes: a new string, NULL when absent or empty. */
json_t *bw_mcp_rpc_instructions(const json_t *result);

/* The paginated lists the probe reads. */
enum bw_mcp_list { BW_MCP_LIST_TOOLS, BW_MCP_LIST_PROMPTS, BW_MCP_LIST_RESOURCES };
const char *bw_mcp_rpc_list_method(enum bw_mcp_list kind); /* "tools/list", ... */

/* Appends the items of a tools/list, prompts/list or resources/list result to `items` in the
 * scanner's own shape, at most until `items` holds max (*cut is then set when items were left):
 *   tools     {name, description?, title?, input_schema?, annotations?} (inputSchema renamed)
 *   prompts   {name, description?, title?, arguments?: [{name?, description?, title?}]} (at most
 *             BW_MCP_PARAM_TEXTS arguments)
 *   resources {name, uri, description?, title?, mime_type?}
 * Texts are cut to BW_MCP_LIVE_DESCRIPTION_MAX bytes (a URI to BW_MCP_URL_MAX). Items without a
 * valid name (a non-empty string of at most BW_MCP_TOOL_NAME_MAX characters without control
 * characters), and resources without a string uri, are skipped and counted in *invalid. *next
 * gets a malloc'ed copy of nextCursor, or NULL. Returns 0, or -1 (why) when result is not an
 * object with the list's array. */
int bw_mcp_rpc_list(enum bw_mcp_list kind, const json_t *result, json_t *items, size_t max, char **next,
                    size_t *invalid, bool *cut, char *why, size_t cap);

/* Builds the URL the probe posts to from server_url, as the shared URL parser (net/url.h) writes
 * it: http(s) only; userinfo, query and fragment dropped (they commonly carry credentials, and
 * the probe sends none). false when not a valid http(s) URL or out is too small. */
bool bw_mcp_probe_url(const char *server_url, char *out, size_t cap);

/* Whether an Mcp-Session-Id value may be echoed: 1..BW_MCP_SESSION_ID_MAX visible ASCII bytes
 * (0x21-0x7E), as the transport requires; this also keeps it from splitting a header. */
bool bw_mcp_session_id_ok(const char *s);

#endif
