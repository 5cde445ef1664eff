/* Agent configuration scanner: static analysis of an AI agent's type, tools, system prompt and
 * framework options (POST /api/ai-security/agents/scan). Pure and deterministic: no I/O, no clock;
 * the same request body always yields the same result (the handler adds scanned_at).
 *
 * Tool knowledge lives in data/agents/capabilities.json (format: data/agents/README.md), embedded
 * in the binary and parsed once, on first use, into an immutable catalog shared by all threads. A
 * malformed catalog aborts the process with a message naming the file and the problem.
 *
 * A tool gets capabilities (shell, code_execution, filesystem_read, filesystem_write,
 * database_write, network_egress, email_messaging, payments, private_data, untrusted_content,
 * memory) either from the framework's table of known tool names (exact match after normalisation)
 * or from the catalog's whole-word phrases found in its normalised name/description (camelCase and
 * snake_case split into lower-case words); a phrase preceded within three words by a negation
 * ("not", "never", "no", "without", ...) does not count. "Writer" capabilities need a tool that is
 * not read-only (a read verb and no write verb); "reader" capabilities need one that is not
 * write-only.
 *
 * Issue types, in their fixed report order (the tie-break after severity), with severity,
 * OWASP LLM Top 10 (2025) id and MITRE ATLAS ids (issues add the ATLAS ids of the capabilities
 * involved):
 *   SECRET_IN_SYSTEM_PROMPT        CRITICAL        LLM07  AML.T0056 AML.T0083
 *   LETHAL_TRIFECTA                CRITICAL (HIGH when a framework option enforces human approval)
 *                                                  LLM02  AML.T0051.001 AML.T0057 AML.T0086
 *       private_data + untrusted_content + an exfiltration channel among the tools; `tools` names
 *       one tool per leg, in that order: the first in request order, preferring distinct tools
 *   CODE_EXECUTION_WITHOUT_SANDBOX CRITICAL        LLM05  AML.T0050 AML.T0053
 *       per shell/code tool, or per framework option (autogen code_execution_config, crewai
 *       allow_code_execution, langchain allow_dangerous_code), unless sandboxed: a provider-hosted
 *       tool (openai code_interpreter), the framework's sandbox option (autogen use_docker, crewai
 *       code_execution_mode), config.sandbox, a tool sandboxed by default (crewai
 *       CodeInterpreterTool), or a sandbox word in the tool's name (docker, e2b, ...), in that order
 *   OVER_PRIVILEGED_TOOL           the worst over-privileged capability of the tool (shell
 *                                  CRITICAL, one level lower when sandboxed; filesystem_write,
 *                                  database_write, email_messaging, payments HIGH; network_egress
 *                                  MEDIUM)         LLM06  AML.T0053 + capabilities'
 *   WILDCARD_TOOL_GRANT            HIGH            LLM06  AML.T0053
 *   MISSING_HUMAN_APPROVAL         HIGH            LLM06  AML.T0053 + capabilities'
 *       tools that need approval (shell, unsandboxed code, file/database writes, messaging,
 *       payments, wildcards) and no approval: framework option (autogen human_input_mode ALWAYS,
 *       crewai human_input, openai require_approval "always"), then config.human_approval, then the
 *       prompt (an approval phrase and no "do not ask for confirmation"-like phrase)
 *   UNAUTHENTICATED_MCP_SERVER     HIGH            LLM06  AML.T0053     per config.servers item
 *   UNSAFE_FRAMEWORK_OPTION        langchain allow_dangerous_requests HIGH, crewai allow_delegation
 *                                  MEDIUM          LLM06  AML.T0053 (+AML.T0086 for requests)
 *   SYSTEM_PROMPT_INJECTION_RISK   HIGH for a safety-weakening instruction in the prompt
 *                                  (LLM01 AML.T0054 AML.T0051.000); MEDIUM per untrusted-content
 *                                  tool (or wildcard) when the prompt has no guard against
 *                                  instructions in data (LLM01 AML.T0051.001)
 *   MEMORY_POISONING_RISK          MEDIUM per memory-writing tool when untrusted content is
 *                                  ingested        LLM08  AML.T0080.000 AML.T0051.001
 *   EXCESSIVE_TOOLS                MEDIUM          LLM06  AML.T0053     more than 20 tools
 *   MISSING_SYSTEM_PROMPT          MEDIUM          LLM01  AML.T0051     absent/blank
 *   LONG_SYSTEM_PROMPT             LOW             LLM10  AML.T0034     over 16 KiB
 *
 * risk_score = the sum of the issues' severity weights (CRITICAL 40, HIGH 25, MEDIUM 10, LOW 3)
 * capped at 100; risk_level from engine/risk.h: >=75 CRITICAL, >=50 HIGH, >=25 MEDIUM, else LOW.
 * Issues are ordered by severity (worst first), then by the order above, then by subject (tool,
 * server or option name, bytewise; none first), then by message; exact duplicates (a tool listed
 * twice) are dropped before scoring. */
#ifndef BW_ENGINE_AGENTSCAN_H
#define BW_ENGINE_AGENTSCAN_H
#include "common/limits.h"

#include <jansson.h>
#include <stddef.h>

struct bw_ap_catalog; /* engine/agentprompt.h */

/* The embedded catalog's name. */
#define BW_AGENT_CATALOG "data/agents/capabilities.json"

/* Request limits, the long-prompt size and the tools named per message: BW_AGENT_* in
 * common/limits.h. The analysis threshold: */
#define BW_AGENT_TOOLS_EXCESSIVE 20      /* more tools than this: excessive agency */

/* The checks, in their fixed report order. */
enum bw_agent_check {
    BW_AC_SECRET_IN_SYSTEM_PROMPT,
    BW_AC_LETHAL_TRIFECTA,
    BW_AC_CODE_EXECUTION_WITHOUT_SANDBOX,
    BW_AC_OVER_PRIVILEGED_TOOL,
    BW_AC_WILDCARD_TOOL_GRANT,
    BW_AC_MISSING_HUMAN_APPROVAL,
    BW_AC_UNAUTHENTICATED_MCP_SERVER,
    BW_AC_UNSAFE_FRAMEWORK_OPTION,
    BW_AC_SYSTEM_PROMPT_INJECTION_RISK,
    BW_AC_MEMORY_POISONING_RISK,
    BW_AC_EXCESSIVE_TOOLS,
    BW_AC_MISSING_SYSTEM_PROMPT,
    BW_AC_LONG_SYSTEM_PROMPT,
    BW_AC_COUNT
};

/* The issue type string of a check ("OVER_PRIVILEGED_TOOL", ...), NULL when out of range. */
const char *bw_agent_check_type(enum bw_agent_check c);

/* Validates a request body and scans it. body: the parsed JSON body (an object; anything else is
 * reported as a missing agent_type). Members: agent_type (required), tools, system_prompt and
 * config (optional; null = absent). config members, each only for its agent_type:
 *   any:       sandbox (bool), human_approval (bool)
 *   openai:    require_approval ("always" | "never")
 *   langchain: allow_dangerous_requests (bool), allow_dangerous_code (bool)
 *   crewai:    allow_delegation, allow_code_execution, human_input (bool),
 *              code_execution_mode ("safe" | "unsafe")
 *   autogen:   code_execution_config (false | object; its use_docker: bool or image name string),
 *              human_input_mode ("ALWAYS" | "TERMINATE" | "NEVER")
 *   mcp:       servers ([{name, transport: stdio|sse|http|streamable_http|websocket, url?,
 *              auth?: none|api_key|bearer|oauth|oauth2|mtls|basic}], at most 50)
 * On success returns a new object {risk_score, risk_level, issues:[{type, severity, tool?, message,
 * owasp_llm, remediation, atlas, ...extras}]} and leaves *errors NULL. On invalid input returns
 * NULL and sets *errors to a new array of {field, message} (field order; at most BW_MAX_ERRORS).
 * Returns NULL with *errors NULL only when out of memory. The caller owns (decrefs) either. */
json_t *bw_agentscan_body(const json_t *body, json_t **errors);

/* "CRITICAL", "HIGH", "MEDIUM" or "LOW" for a risk score. */
const char *bw_agent_risk_level(int score);

/* Whether text (a system prompt) holds something that looks like a credential. Exposed for tests;
 * the scanner never echoes what it found. */
int bw_agent_prompt_has_secret(const char *text, size_t len);

/* Loads the embedded catalog now (it is otherwise loaded on first use). Aborts the process with a
 * message on stderr when the catalog is missing or malformed. Thread-safe. */
void bw_agent_catalog_init(void);

/* Validates catalog text without keeping it: 0 when valid, else -1 with the reason in why
 * (NUL-terminated, truncated to why_len). For tests of the loader. */
int bw_agent_catalog_check(const char *text, size_t len, char *why, size_t why_len);

/* The embedded catalog's capability ids, in catalog order (i < count), NULL out of range. */
size_t bw_agent_capability_count(void);
const char *bw_agent_capability_id(size_t i);

/* The embedded instruction catalog (data/agents/instructions.json), for tests and tooling. */
const struct bw_ap_catalog *bw_agent_instructions(void);

/* What the prompt reader finds in a prompt: a new array of {instruction, verdict ("unsafe" |
 * "guard"), risks, scopes (empty: it covers everything), clause}, in prompt order, or NULL when out
 * of memory. The caller decrefs it. For tests and tooling. */
json_t *bw_agent_prompt_readings(const char *prompt, size_t len);

/* The capability ids the scanner gives one tool of an agent_type, in catalog order: a new array
 * (caller decrefs), or NULL for an unknown agent_type or out of memory. For tests and tooling. */
json_t *bw_agent_tool_capabilities(const char *agent_type, const char *tool);

#endif
