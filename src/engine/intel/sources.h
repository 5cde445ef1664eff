/* Normalisers: source documents (parsed by src/engine/intel/yaml.h) -> records (src/engine/intel/intel.h).
 * Pure: no database, no clock. A record comes out with its facts set and arrays sorted;
 * version, enriched_at and the risk members are left for bw_intel_finalize.
 *
 * What becomes a record, and of which type:
 *  - OSV advisory (one per file): filed under its CVE alias when it has one (the PYSEC id goes to
 *    aliases), else under its own id. Type model_advisory when the flaw is reached through a model
 *    artifact (the package is a model format such as onnx, or the text speaks of TFLite, saved
 *    models, checkpoints, crafted or loaded model files), else ai_cve. Withdrawn advisories are
 *    skipped.
 *  - CISA KEV entry: type ai_cve (model_advisory by the same rule). Every entry is normalised;
 *    the importer keeps those that bw_intel_kev_is_ai accepts, and those whose CVE is already a
 *    record (so KEV membership reaches an OSV advisory's record).
 *  - MITRE ATLAS technique: agent_threat when its name speaks of agents, tool invocation, MCP or
 *    plugins ("Agent", "Tool Invocation", "MCP", "Plugin"); prompt_attack when it names LLMs,
 *    prompts, jailbreaks or RAG ("LLM", "Prompt", "Jailbreak", "RAG"); a sub-technique without
 *    such a word takes its parent's type; other techniques are not threat-feed records.
 *  - MITRE ATLAS case study: agent_threat when a procedure step uses an agent_threat technique,
 *    else prompt_attack when one uses a prompt_attack technique; other case studies are skipped.
 *
 * Severity: from the CVSS v3 base score when the source gives a vector; otherwise estimated from
 * the advisory text (code execution, injection, deserialisation, traversal, SSRF, missing
 * authentication and memory corruption HIGH; denial of service, out-of-bounds reads, XSS and the
 * rest MEDIUM), an OSV database_specific severity when given; KEV entries at least HIGH and
 * CRITICAL for code execution; ATLAS techniques by maturity (realized HIGH, demonstrated MEDIUM,
 * feasible LOW) and case studies by kind (incident HIGH, exercise MEDIUM), one level higher when
 * they lead to tool or code execution. */
#ifndef BW_ENGINE_INTEL_SOURCES_H
#define BW_ENGINE_INTEL_SOURCES_H
#include "engine/intel/yaml.h"

#include <jansson.h>
#include <stdbool.h>

/* Why and where input was refused. file is filled by the caller that knows it. */
struct bw_intel_reject {
    char file[512];
    struct bw_srcpos at;
    char msg[300];
};

/* The CISA KEV catalog (JSON): an array of records, one per entry. 0, or -1 with *rej set. */
int bw_intel_kev(const struct bw_tree *t, json_t **out, struct bw_intel_reject *rej);

/* Whether a KEV record concerns an AI/ML product: its KEV vendor or product contains one of
 * bw_intel_kev_keywords as a whole word, ignoring case. */
bool bw_intel_kev_is_ai(const json_t *record);
extern const char *const bw_intel_kev_keywords[]; /* NULL-terminated */

/* One OSV advisory (YAML or JSON tree). 0 with *out the record, or NULL when the advisory is
 * withdrawn; -1 with *rej set. */
int bw_intel_osv(const struct bw_tree *t, json_t **out, struct bw_intel_reject *rej);

/* MITRE ATLAS (ATLAS.yaml): an array of records for its LLM/agent techniques and case studies. */
int bw_intel_atlas(const struct bw_tree *t, json_t **out, struct bw_intel_reject *rej);

/* "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)" -> "YYYY-MM-DDTHH:MM:SSZ" (21 bytes
 * with the NUL). 0, or -1 when malformed or out of range. */
int bw_intel_date(const char *in, char out[21]);

#endif
