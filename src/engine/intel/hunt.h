/* Hunt pack: detection content generated from one threat-intelligence record (the document of
 * src/engine/intel/intel.h) for the orchestrator's hunt-pack endpoint. A pure engine: no I/O, no
 * database, no clock, no randomness, so the same record always gives the same bytes.
 *
 * Output object, members in this order:
 *   threat_id   the record's id
 *   cve         ["CVE-..."], the record's well-formed CVE ids (at most BW_HUNT_MAX_CVES)
 *   title       the record's title (clipped on a UTF-8 boundary)
 *   severity    CRITICAL | HIGH | MEDIUM | LOW (MEDIUM when the record has none)
 *   basis       {products, packages, cwe, attack_techniques, indicators}: what the rules were
 *               built from; indicators are the payload and log markers the rules look for
 *   sigma       the Sigma rule as an object (members: title, id, status, description,
 *               references, author, date, modified, tags, logsource, detection,
 *               falsepositives, level; date/modified/references only when the record has them)
 *   sigma_yaml  the same rule as YAML text (parses back to exactly the object above)
 *   kql         a Microsoft Sentinel (KQL) query over the last 30 days
 *   yara        one YARA rule as text
 *
 * How the content is chosen:
 * - Terms: the affected packages and products (and the KEV product), cleaned (control characters
 *   become spaces), clipped to BW_HUNT_MAX_TERM_LEN bytes, de-duplicated ignoring case, and a
 *   term that contains another one is dropped (the shorter one already matches it). Terms shorter
 *   than BW_HUNT_MIN_TERM_LEN bytes are too generic to search for and are not used.
 * - Classes: each weakness or behaviour class (path traversal, SSRF, SQL injection, code
 *   execution, prompt injection, crashes, ...) is inferred from the record's CWEs, title words,
 *   ATT&CK techniques and AI impacts, in that order of trust; it brings a fixed list of markers.
 * - Sigma: classes whose payloads travel in URLs (injection, traversal, SSRF, deserialisation,
 *   XSS) give a rule over `category: webserver` where each selection requires a product term in
 *   the host or path AND a marker in the query; otherwise the rule reads the product's
 *   application logs and each selection is a `'|all'` keyword pair (product term AND marker). A
 *   record without terms but with CVEs gets a keyword rule on the CVE ids. Every selection thus
 *   holds a record-specific value; there is never an empty selection, a bare wildcard or an
 *   always-true condition. Values are escaped for Sigma (\, * and ? are literal).
 * - KQL: a `union isfuzzy=true` of sub-queries (web logs, application logs, process events,
 *   security alerts naming the CVE), each filtered on the record's own terms or CVE ids.
 * - YARA: product terms (fullword), CVE ids and markers as text strings; the condition needs a
 *   product term together with a CVE id or two markers, or a CVE id when there is no term.
 * - Ids: the Sigma rule id is a version-5-style UUID from BLAKE2b (libsodium) of the record id;
 *   the YARA rule name is "bulwark_" + the id made an identifier + 8 hex digits of that hash, so
 *   rules of different records never collide when concatenated into one file.
 *
 * Ownership: *out is a new reference (json_decref it). The record is only read. Thread-safe (the
 * ATT&CK tables of src/engine/intel/attack.h are loaded on first use). */
#ifndef BW_ENGINE_INTEL_HUNT_H
#define BW_ENGINE_INTEL_HUNT_H
#include "common/limits.h"

#include <jansson.h>
#include <stddef.h>

#define BW_HUNT_FORMAT          1   /* bumped when the generated content changes shape or wording */
#define BW_HUNT_LOOKBACK_DAYS   30  /* KQL time window */

/* Hunt content for one intel record (the document of src/engine/intel/intel.h). 0 and *out a new
 * object, or -1 with why (e.g. the record has nothing specific to detect). Deterministic: the
 * same record gives the same bytes. */
int bw_hunt_build(const json_t *record, json_t **out, char *why, size_t cap);

#endif
