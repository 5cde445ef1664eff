/* MCP server configuration scanner: static analysis of {server_url, tools, auth_method}. Nothing
 * is fetched from server_url. Pure and deterministic: the same input always gives the same result.
 *
 * Checks (id, severity; the score adds CRITICAL 40, HIGH 25, MEDIUM 10, LOW 3, capped at 100):
 *   MCP-AUTH-001      no authentication: CRITICAL for a remote host, HIGH for a loopback one
 *                     (not for stdio: a spawned child process has no network peer to authenticate)
 *   MCP-AUTH-002      HIGH     basic / api_key / bearer credentials over plain http/ws, non-loopback
 *   MCP-AUTH-003      MEDIUM   unknown auth_method
 *   MCP-TRANSPORT-001 HIGH     plain http/ws to a non-loopback host
 *   MCP-TRANSPORT-002 LOW      stdio transport (runs with the user's privileges)
 *   MCP-NET-001       LOW      bound to a wildcard address (0.0.0.0, ::)
 *   MCP-NET-002/003   LOW      private / public IP literal
 *   MCP-TOOL-001..005 per tool: shell execution CRITICAL, file write/delete HIGH, network fetch
 *                     (SSRF) MEDIUM, database HIGH, payments/email/messaging HIGH
 *   MCP-POISON-001    CRITICAL hidden instructions in a tool's description (tool poisoning)
 *   MCP-SHADOW-001    MEDIUM   duplicate tool name;  MCP-SHADOW-002 MEDIUM well-known tool name
 *   MCP-SCHEMA-001    MEDIUM   dangerous tool without input_schema
 *   MCP-SCHEMA-002    MEDIUM   free-form string parameter named command/cmd/script/query/path/url...
 *   MCP-SCHEMA-003    LOW      additionalProperties: true
 *   MCP-TOOLS-001     LOW      more than 50 tools
 * Findings are ordered by severity (worst first), then by the order above, then by tool order. */
#ifndef BW_ENGINE_MCPSCAN_H
#define BW_ENGINE_MCPSCAN_H
#include <jansson.h>
#include <stdbool.h>

#define BW_MCP_URL_MAX 2048          /* server_url characters */
#define BW_MCP_TOOLS_MAX 500         /* tools per configuration */
#define BW_MCP_TOOL_NAME_MAX 256     /* tool name characters */
#define BW_MCP_DESCRIPTION_MAX 4096  /* tool description characters */
#define BW_MCP_AUTH_MAX 64           /* auth_method characters */
#define BW_MCP_MANY_TOOLS 50         /* above this: MCP-TOOLS-001 */
#define BW_MCP_MAX_FINDINGS 1000     /* findings listed (the score counts them all; it caps at 100) */
#define BW_MCP_MAX_ERRORS 32         /* validation errors reported */

/* Validates a request body ({mcp_config:{...}}) and scans it. On success returns a new object
 * {ok:true, risk_score, risk_level, findings, summary} (the caller adds scanned_at) and sets
 * *errors to NULL. On invalid input returns NULL and sets *errors to a new array of
 * {field, message} (fields like "mcp_config.tools[3].name"). body may be NULL (no body). */
json_t *bw_mcp_scan_body(const json_t *body, json_t **errors);

/* "CRITICAL", "HIGH", "MEDIUM" or "LOW" for a 0-100 risk score. */
const char *bw_mcp_risk_level(int score);

/* Whether host (no brackets for IPv6) names this machine: localhost, *.localhost, 127/8, ::1. */
bool bw_mcp_host_is_loopback(const char *host);

#endif
