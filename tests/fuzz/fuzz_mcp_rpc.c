/* The live MCP probe's wire format: the fuzzer's bytes are one HTTP response body (the first byte
 * picks JSON or SSE framing, how the Content-Type reads, and the JSON-RPC id looked for). The
 * response is searched for the id; a result is read as an initialize result (with its
 * instructions) and as a tools/list, prompts/list and resources/list page, and what was listed is
 * then scanned as a probe result would be, so the scanner's text checks (poisoning, encoded
 * payloads, flows) also see arbitrary server-supplied descriptions, prompts and resources. */
#include "engine/mcpprobe.h"
#include "engine/mcprpc.h"
#include "engine/mcpscan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mcp_checks.h"

static json_t *g_body; /* the scan request the probe result is merged into */

static void check_tools(const json_t *tools)
{
    size_t i;
    const json_t *t;
    json_array_foreach(tools, i, t) {
        const char *name = json_string_value(json_object_get(t, "name"));
        if (!name || !*name)
            abort();
        for (const char *p = name; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7F)
                abort();
        const char *d = json_string_value(json_object_get(t, "description"));
        if (d && strlen(d) > BW_MCP_LIVE_DESCRIPTION_MAX)
            abort();
        if (json_object_get(t, "inputSchema") || (json_object_get(t, "input_schema") &&
                                                  !json_is_object(json_object_get(t, "input_schema"))))
            abort();
    }
}

/* The prompts or resources of a result, checked for their shape; NULL when it has none. */
static json_t *list_of(enum bw_mcp_list kind, const json_t *result)
{
    json_t *items = json_array();
    char *next = NULL, why[160];
    size_t invalid = 0;
    bool cut = false;
    if (!items || bw_mcp_rpc_list(kind, result, items, 64, &next, &invalid, &cut, why, sizeof why) != 0) {
        json_decref(items);
        return NULL;
    }
    free(next);
    size_t i;
    const json_t *t;
    json_array_foreach(items, i, t) {
        if (!json_is_string(json_object_get(t, "name")) ||
            (kind == BW_MCP_LIST_RESOURCES && !json_is_string(json_object_get(t, "uri"))) ||
            json_array_size(json_object_get(t, "arguments")) > BW_MCP_PARAM_TEXTS)
            abort();
    }
    return items;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!g_body)
        g_body = json_loads("{\"mcp_config\":{\"server_url\":\"https://mcp.example.com/mcp\",\"auth_method\":\"oauth\","
                            "\"tools\":[\"add\",{\"name\":\"read_file\",\"description\":\"Reads a file.\"}]},\"probe\":true}",
                            0, NULL);
    unsigned flags = data[0];
    const char *body = (const char *)data + 1;
    size_t len = size - 1;
    static const char *const CTYPES[] = {NULL, "text/event-stream", "application/json", "text/plain"};
    bool sse = bw_mcp_rpc_is_sse(CTYPES[flags & 3], body, len);
    json_int_t id = (json_int_t)((flags >> 2) & 3) + 1;
    json_t *member = NULL;
    char why[200];
    enum bw_mcp_rpc_rc rc = bw_mcp_rpc_find(body, len, sse, id, &member, why, sizeof why);
    if ((rc == BW_MCP_RPC_NONE) != (member == NULL))
        abort();
    if (rc != BW_MCP_RPC_RESULT && !why[0])
        abort();
    if (rc == BW_MCP_RPC_ERROR && !json_is_object(member))
        abort();
    if (rc == BW_MCP_RPC_RESULT) {
        struct bw_mcp_server_info info;
        if (bw_mcp_rpc_initialize(member, &info, why, sizeof why) == 0 && !info.protocol_version[0])
            abort();
        struct bw_mcp_live live = {.performed = true, .status = BW_MCP_PROBE_LISTED, .reachable = true,
                                   .initialized = true, .http_status = 200, .info = info, .tools = json_array()};
        char *next = NULL;
        size_t invalid = 0;
        bool cut = false;
        live.instructions = bw_mcp_rpc_instructions(member);
        if (live.instructions && (!json_is_string(live.instructions) ||
                                  strlen(json_string_value(live.instructions)) > BW_MCP_LIVE_DESCRIPTION_MAX))
            abort();
        live.prompts.items = list_of(BW_MCP_LIST_PROMPTS, member);
        live.resources.items = list_of(BW_MCP_LIST_RESOURCES, member);
        if (bw_mcp_rpc_list(BW_MCP_LIST_TOOLS, member, live.tools, 64, &next, &invalid, &cut, why, sizeof why) == 0) {
            if (json_array_size(live.tools) > 64 || (next && (!*next || strlen(next) > BW_MCP_CURSOR_MAX)))
                abort();
            check_tools(live.tools);
            live.truncated = cut;
            json_t *errors = NULL;
            json_t *out = bw_mcp_scan_body_live(mcp_checks, g_body, &live, &errors);
            if (!out || errors)
                abort();
            if ((size_t)json_integer_value(json_object_get(json_object_get(out, "summary"), "tools")) !=
                json_array_size(live.tools))
                abort();
            char *s = json_dumps(out, JSON_COMPACT);
            if (!s)
                abort();
            free(s);
            json_decref(out);
        }
        free(next);
        bw_mcp_live_free(&live);
    }
    json_decref(member);
    return 0;
}
