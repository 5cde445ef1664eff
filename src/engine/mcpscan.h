/* MCP server configuration scanner: analysis of {server_url, tools, auth_method}, optionally
 * with what a live probe of the server found (mcpprobe.h). The scan itself is pure and
 * deterministic: the same input (and the same probe result) always gives the same findings.
 *
 * Checks (id, severity, OWASP LLM Top 10 2025; the score adds CRITICAL 40, HIGH 25, MEDIUM 10,
 * LOW 3, capped at 100):
 *   MCP-AUTH-001      no authentication: CRITICAL for a remote host, HIGH for a loopback one
 *                     (not for stdio: a spawned child process has no network peer)        LLM06
 *   MCP-AUTH-002      HIGH     basic / api_key / bearer credentials over plain http/ws, non-loopback LLM02
 *   MCP-AUTH-003      MEDIUM   unknown auth_method                                        -
 *   MCP-AUTH-004      probe: tools listed without credentials. CRITICAL (remote) / HIGH (loopback)
 *                     when auth_method declares a method, LOW when it says none (AUTH-001 then
 *                     carries the weight)                                                 LLM06
 *   MCP-TRANSPORT-001 HIGH     plain http/ws to a non-loopback host                       LLM02
 *   MCP-TRANSPORT-002 LOW      stdio transport (runs with the user's privileges)          LLM03
 *   MCP-TRANSPORT-003 HIGH     probe: the TLS certificate does not verify                 LLM02
 *   MCP-NET-001       LOW      bound to a wildcard address (0.0.0.0, ::)                  -
 *   MCP-NET-002/003   LOW      an internal IP literal (private, link-local, metadata, CGNAT) /
 *                              any other non-loopback one                                  -
 * Hosts are read and classified by the shared URL model (net/url.h), as the egress guard reads
 * them: a loopback address in any spelling (2130706433, 0x7f.1, [::ffff:127.0.0.1]) or the names
 * localhost and *.localhost are loopback; anything else is remote.
 *   MCP-POISON-001    CRITICAL hidden instructions in a tool's description, title or parameter
 *                     descriptions (phrases aimed at the model, markup such as <IMPORTANT>,
 *                     secret paths, calls to other tools), or an invisible Unicode character
 *                     (zero-width, bidi, tags, soft hyphen, variation selectors) in those or
 *                     in the name                                                         LLM01
 *   MCP-POISON-002    encoded payload in those texts: a base64 run (>=24 chars) or hex run (>=32)
 *                     that decodes to text, a base64 blob (>=80, mixed case and digits), or >=6
 *                     consecutive \uXXXX / \xHH / %HH escapes of plain ASCII. Decoded text is
 *                     checked for poisoning (and searched once more for a second encoding):
 *                     CRITICAL when it carries an indicator, else HIGH                     LLM01
 *   MCP-POISON-003    HIGH     the texts name secret files (~/.ssh, id_rsa, ~/.aws, .env,
 *                     .netrc, .pgpass, .git-credentials, .npmrc, .kube/config, .docker/config.json,
 *                     /etc/shadow, mcp.json ...); reported besides POISON-001             LLM02
 *   MCP-POISON-004..006  the same three for a live server's instructions, prompts (description,
 *                     title, arguments) and resources (name, description, title); the finding
 *                     carries `source` and `prompt` (name) or `resource` (URI)           LLM01/02
 *   MCP-PIN-001..003  tool pinning (bw_mcp_scan_body_pinned): a definition changed since it was
 *                     pinned HIGH, a tool added MEDIUM (HIGH when dangerous), removed LOW   LLM03
 *   MCP-FLOW-001      toxic flow across the server's tools: one reads private data (files, mail,
 *                     databases, secrets) and one can send data out (send/post/upload, webhooks,
 *                     URL fetches, shell): HIGH; CRITICAL when a tool also ingests untrusted
 *                     content (web pages, inbound mail, issues) - the "lethal trifecta"   LLM02
 *   MCP-FLOW-002      HIGH     a tool ingesting untrusted content and a tool with a dangerous
 *                     action (shell, file writes, sends/payments)                         LLM06
 *   MCP-TOOL-001..005 per tool: shell execution CRITICAL, file write/delete HIGH, network fetch
 *                     (SSRF) MEDIUM, database HIGH, payments/email/messaging HIGH         LLM06
 *   MCP-SHADOW-001    MEDIUM   duplicate tool name;  MCP-SHADOW-002 MEDIUM well-known tool name LLM03
 *   MCP-SCHEMA-001    MEDIUM   dangerous tool without input_schema                        LLM05
 *   MCP-SCHEMA-002    MEDIUM   free-form string parameter named command/cmd/script/query/path/url... LLM05
 *   MCP-SCHEMA-003    LOW      additionalProperties: true                                 LLM05
 *   MCP-TOOLS-001     LOW      more than 50 tools                                         LLM06
 *   MCP-PROBE-001     LOW      probe: no answer (blocked by the egress policy, DNS, connect, TLS,
 *                     timeout); the detail gives the egress outcome and reason            -
 *   MCP-PROBE-002     MEDIUM   probe: the server lists a tool the configuration does not declare LLM03
 *   MCP-PROBE-003     LOW      probe: a declared tool the server does not list            LLM03
 *   MCP-PROBE-004     MEDIUM   probe: a tool's live description differs from the declared one LLM03
 *   MCP-PROBE-005     LOW      probe: an answer that is not a usable MCP exchange (HTTP status,
 *                     body, JSON-RPC error, a failing later page)                         -
 * Drift (PROBE-002..004) is judged only when tools were declared; PROBE-003 not when the listing
 * was cut short. Findings are ordered by severity (worst first), then by the order above (see
 * enum check), then by tool order. Each finding carries owasp_llm (null where none applies).
 *
 * Live tools: when the probe listed the server's tools, they replace the declared ones for every
 * tool check and for summary.tools (an agent sees what the server lists, not what a file says);
 * when it did not, the declared tools are scanned.
 *
 * What a finding says (id, type, severity, OWASP id, title, detail, remediation) is data:
 * data/mcp/checks.json (format: data/mcp/README.md), embedded in the binary, handed to
 * bw_mcp_checks_load by the caller and checked there once; the scan borrows the result. */
#ifndef BW_ENGINE_MCPSCAN_H
#define BW_ENGINE_MCPSCAN_H
#include "common/embedded.h"
#include "common/limits.h"
#include "engine/mcppin.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define BW_MCP_MANY_TOOLS 50         /* above this: MCP-TOOLS-001 */

/* The embedded catalog of what the findings say. */
#define BW_MCP_CHECKS "data/mcp/checks.json"

struct bw_mcp_live; /* engine/mcpprobe.h */

/* The checked catalog: read-only once loaded, so threads share it. */
struct bw_mcp_checks;

/* Parses and checks the catalog (f: the embedded file, NULL when missing): every check the scan
 * refers to present exactly once, each with an id, a type, a known severity, an OWASP LLM id or
 * null, and non-empty texts, no member unknown. 0 with *out set (free with bw_mcp_checks_free),
 * or -1 with a message naming the entry in err and *out untouched. Borrows f. */
int bw_mcp_checks_load(const struct bw_embedded *f, struct bw_mcp_checks **out, char *err, size_t errlen);
void bw_mcp_checks_free(struct bw_mcp_checks *c);

/* Validates a request body ({mcp_config:{...}, probe?: boolean}) and scans it statically, the
 * findings worded by checks (borrowed). On success returns a new object {ok:true, risk_score,
 * risk_level, findings, summary, probe} (the caller adds scanned_at; probe is {performed:false},
 * with an error when one was asked for) and sets *errors to NULL. On invalid input returns NULL
 * and sets *errors to a new array of {field, message} (fields like "mcp_config.tools[3].name").
 * body may be NULL (no body). */
json_t *bw_mcp_scan_body(const struct bw_mcp_checks *checks, const json_t *body, json_t **errors);

/* The same with the result of a live probe (borrowed; NULL = none): the listed tools replace the
 * declared ones, the probe's findings are added and `probe` describes it. */
json_t *bw_mcp_scan_body_live(const struct bw_mcp_checks *checks, const json_t *body, const struct bw_mcp_live *live,
                              json_t **errors);

/* Tool pinning. A request's `pin` is true (the default), false, or "accept". */
enum bw_mcp_pin_mode { BW_MCP_PIN_ON, BW_MCP_PIN_OFF, BW_MCP_PIN_ACCEPT };

/* What a scan would pin, decided from the request (and the probe result) before any pin is read. */
struct bw_mcp_pin_plan {
    enum bw_mcp_pin_mode mode;
    bool applies;     /* mode is not off and the scan judges a tool list (declared, or listed by the
                         probe): the server's pins are to be read, and may be written */
    const char *skip; /* mode not off and !applies: why (static text) */
    char server_key[BW_MCP_PIN_HASH_HEX + 1]; /* when applies */
    char server[BW_MCP_PIN_SERVER_SHOWN + 1]; /* when applies: the identity as shown */
};

/* A pin as stored (borrowed). */
struct bw_mcp_pinned {
    const char *tool, *hash, *doc;
};

/* What the account holds for the server (borrowed), and what a scan needs to record anew. */
struct bw_mcp_pins_held {
    bool exists;           /* the server is pinned, perhaps with no tools */
    const char *pinned_at; /* when exists */
    const struct bw_mcp_pinned *v;
    size_t n;
    bool room;             /* the account may pin one more server */
    const char *now;       /* ISO 8601 UTC: the pinned_at of what this scan records */
};

/* What the scan decided to save: nothing, a first record of the server, or (accepted changes)
 * its pins replaced. v is the whole set to store; its strings are borrowed from the body, the
 * probe result, the held pins and own (the definitions this scan pinned), so save before freeing
 * those. Free with bw_mcp_pins_new_free whatever the scan returned. */
enum bw_mcp_pins_action { BW_MCP_PINS_KEEP, BW_MCP_PINS_RECORD, BW_MCP_PINS_REPLACE };
struct bw_mcp_pins_new {
    enum bw_mcp_pins_action action;
    struct bw_mcp_pinned *v;
    size_t n;
    struct bw_mcp_pin *own; /* nown items, some empty (a namesake's) */
    size_t nown;
};
void bw_mcp_pins_new_free(struct bw_mcp_pins_new *s);

/* The plan for a valid body: 0 with *plan set; -1 when body is invalid (the scan says why). */
int bw_mcp_pin_plan(const json_t *body, const struct bw_mcp_live *live, struct bw_mcp_pin_plan *plan);

/* bw_mcp_scan_body_live with pins: plan (NULL: no pins at all, and no `pins` member) and, when
 * plan->applies, what the account holds (held). The tools scanned are compared with the pins by
 * exact name (the first of a name counts): a pin whose hash differs is MCP-PIN-001
 * TOOL_DEFINITION_CHANGED (HIGH, with `changes`: {field, old, new} quotes), a tool without a pin
 * MCP-PIN-002 TOOL_ADDED (MEDIUM, HIGH when the tool is dangerous: MCP-TOOL-001..005's
 * capabilities), a pin without a tool MCP-PIN-003 TOOL_REMOVED (LOW; not after a cut listing).
 * A server not pinned yet is recorded without change findings (unless the account has no room).
 * Pins are never moved by a scan with changes: every later scan reports them again, until one
 * with pin "accept" re-pins the scanned definitions (keeping, after a cut listing, the pins it did
 * not reach) and lists what it accepted instead of reporting it. The result's `pins` describes
 * it: {state: "off"} (pin false: nothing read or written), {state: "skipped", reason} (nothing
 * to pin), or {server, state: "new"|"unchanged"|"changed"|"accepted"|"not_pinned", tools_pinned,
 * pinned_at, changes: {changed, added, removed} (pinned, not accepting), accepted: [{tool, change,
 * fields?}] (accepting), reason (not_pinned)}. *save says what to store. */
json_t *bw_mcp_scan_body_pinned(const struct bw_mcp_checks *checks, const json_t *body,
                                const struct bw_mcp_live *live, const struct bw_mcp_pin_plan *plan,
                                const struct bw_mcp_pins_held *held, struct bw_mcp_pins_new *save, json_t **errors);

/* The server_url to probe (borrowed from body) when body is valid, asks for `probe: true` and the
 * URL is http or https; NULL otherwise (the scan is then static and synchronous). */
const char *bw_mcp_probe_target(const json_t *body);

/* "CRITICAL", "HIGH", "MEDIUM" or "LOW" for a 0-100 risk score. */
const char *bw_mcp_risk_level(int score);

/* Whether host (IPv6 with or without brackets) names this machine: localhost, *.localhost, 127/8
 * and ::1 in any spelling (net/url.h). */
bool bw_mcp_host_is_loopback(const char *host);

#endif
