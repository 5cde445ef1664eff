/* Agent configuration scanner: static analysis of an AI agent's type, tool list and system prompt
 * (POST /api/ai-security/agents/scan). Pure and deterministic: no I/O, no clock; the same request
 * body always yields the same result (the handler adds scanned_at).
 *
 * Tools are recognised from their names or short descriptions after normalisation (camelCase and
 * snake_case split into lower-case words), by whole-word phrases. Each issue type has one fixed
 * severity, message, OWASP LLM Top 10 (2025) id and remediation. risk_score = the sum of the
 * issues' severity weights (CRITICAL 40, HIGH 25, MEDIUM 10, LOW 3) capped at 100; risk_level:
 * >=75 CRITICAL, >=50 HIGH, >=25 MEDIUM, else LOW. Issues are ordered by severity (worst first),
 * then by the fixed check order below, then by tool name (bytewise); duplicates are dropped. */
#ifndef BW_ENGINE_AGENTSCAN_H
#define BW_ENGINE_AGENTSCAN_H
#include <jansson.h>
#include <stddef.h>

/* Request limits (characters are UTF-8 code points, as everywhere in the API). */
#define BW_AGENT_TOOLS_MAX 200
#define BW_AGENT_TOOL_CHARS_MAX 256
#define BW_AGENT_PROMPT_CHARS_MAX 32768
/* Analysis thresholds. */
#define BW_AGENT_TOOLS_EXCESSIVE 20     /* more tools than this: excessive agency */
#define BW_AGENT_PROMPT_LONG_BYTES 16384 /* a longer prompt: cost and context-window pressure */

/* The checks, in their fixed report order (the tie-break after severity). */
enum bw_agent_check {
    BW_AC_SECRET_IN_PROMPT,
    BW_AC_SHELL_EXECUTION,
    BW_AC_CODE_EXECUTION,
    BW_AC_WILDCARD_TOOL,
    BW_AC_AUTOGEN_CODE_EXECUTION,
    BW_AC_FILE_SYSTEM_WRITE,
    BW_AC_DATABASE_WRITE,
    BW_AC_IRREVERSIBLE_ACTION,
    BW_AC_NO_HUMAN_CONFIRMATION,
    BW_AC_UNSAFE_PROMPT_INSTRUCTIONS,
    BW_AC_NETWORK_ACCESS,
    BW_AC_EXCESSIVE_TOOLS,
    BW_AC_MISSING_SYSTEM_PROMPT,
    BW_AC_PROMPT_INJECTION_EXPOSURE,
    BW_AC_MCP_SERVER_AUTH,
    BW_AC_LONG_SYSTEM_PROMPT,
    BW_AC_COUNT
};

/* The issue type string of a check ("shell_execution", ...), NULL when out of range. */
const char *bw_agent_check_type(enum bw_agent_check c);

/* Validates a request body and scans it. body: the parsed JSON body (an object; anything else is
 * reported as a missing agent_type). On success returns a new object
 * {risk_score, risk_level, issues:[{type,severity,tool?,message,owasp_llm,remediation}]} and leaves
 * *errors NULL. On invalid input returns NULL and sets *errors to a new array of
 * {field, message} (every problem found, in field order). Returns NULL with *errors NULL only when
 * out of memory. */
json_t *bw_agentscan_body(const json_t *body, json_t **errors);

/* "CRITICAL", "HIGH", "MEDIUM" or "LOW" for a risk score. */
const char *bw_agent_risk_level(int score);

/* Whether text (a system prompt) holds something that looks like a credential. Exposed for tests;
 * the scanner never echoes what it found. */
int bw_agent_prompt_has_secret(const char *text, size_t len);

#endif
