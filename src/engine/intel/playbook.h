/* The mitigation and response playbook of one threat-intelligence record (src/engine/intel/intel.h).
 *
 * Pure and deterministic: the output depends only on the record and on the embedded ATT&CK and
 * ATLAS tables (src/engine/intel/attack.h); no clock, no randomness, no locale, no environment. The
 * same record (same version) therefore gives the same playbook, byte for byte.
 *
 * Canonical bytes: bw_playbook_text(), the same as bw_playbook_dump() of bw_playbook_build(), i.e.
 * json_dumps(pb, JSON_COMPACT | JSON_REAL_PRECISION(15)) with members in the order they are built
 * (not sorted). Every object is built in a fixed
 * member order, and the record values copied into supporting_evidence are re-inserted with their
 * keys sorted, so the bytes do not depend on the member order of the input record either. The
 * precision keeps a CVSS score as 9.8 instead of jansson's default 9.8000000000000007. Store and
 * serve these bytes (an envelope can splice them in as the value of "playbook").
 *
 * Members, in this order (types are the spec's; inner shapes are ours):
 *   risk_tier                      string: record.risk_tier, else its severity, else "MEDIUM"
 *   immediate_actions              [string], most urgent first
 *   detection_guidance             [string]
 *   threat_hunting_guide           {suggested_query, query_language:"KQL", data_sources:[string],
 *                                   hypothesis, timeframe, lookback_days,
 *                                   additional_queries:[{name, data_source, query}]}
 *   soc_playbook                   [{stage, action}], stages in the order Triage, Scoping,
 *                                   Containment, Eradication, Recovery, Lessons learned
 *   incident_response_playbook     exactly six entries, the CSF 2.0 Functions of SP 800-61 Rev. 3
 *                                   in order: {function, csf_id, rev2_phase, rev2_related:[string],
 *                                   categories:[string], actions:[string]}
 *   executive_advisory             string
 *   security_architecture_guidance [{tactic_id, tactic, shortname, url, inferred, basis:[string],
 *                                    techniques:[{id,name,url,source}],
 *                                    atlas_techniques:[{id,name,url}],
 *                                    mitigations:[{id,name,url}], atlas_mitigations:[{id,name,url}],
 *                                    guidance}] one per ATT&CK tactic, in matrix order
 *   operational_checklist          [{id, item, owner, due, done:false}]
 *   references                     [{label, url}], de-duplicated, fixed order
 *   supporting_evidence            {id, aliases, version, type, title, severity, cvss, cve, kev,
 *                                   kev_details, cwe, attack_techniques, atlas_techniques,
 *                                   affected, exploit_available, ai_impact, risk_score, risk_tier,
 *                                   published, updated, source, sources}: the record's values,
 *                                   null when the record lacks the member or has the wrong type
 *
 * SP 800-61 Rev. 2 phase per CSF Function (rev2_phase, then rev2_related), following Rev. 3's own
 * correspondence: Govern, Identify, Protect -> Preparation (Identify's Improvement category also
 * carries the lessons learned of Post-Incident Activity); Detect -> Detection & Analysis;
 * Respond -> Containment, Eradication & Recovery (its incident analysis is Detection &
 * Analysis); Recover -> Containment, Eradication & Recovery (the recovery part), related
 * Post-Incident Activity.
 *
 * Architecture entries: the tactics reached by (1) the record's attack_techniques; when it has
 * none that the table knows, (2) the ATT&CK equivalents MITRE ATLAS gives for its ATLAS
 * techniques, and when there are none either, (3) techniques inferred from the record: a
 * model_advisory is a crafted model file someone loads (T1204.002), a network attack vector
 * (CVSS AV:N) of a product is T1190, each CWE class has its technique (path traversal T1005,
 * command/code injection and deserialisation T1059, Python ones T1059.006, SSRF T1552.005, ...:
 * the WEAK table in playbook.c), and so do the AI impacts (tool_execution T1059,
 * model_supply_chain T1195.001, availability T1499; data_exposure T1567 for LLM applications
 * and agents). A record left with nothing falls back on its type (ai_cve T1190, agent_threat
 * T1059). The tactics of the record's ATLAS techniques are added through ATLAS's own
 * tactic -> ATT&CK tactic correspondence, with their ATLAS mitigations. An entry whose tactic is
 * reached by no technique listed in the record itself says inferred:true, and basis says why;
 * each technique says where it came from (source: record, atlas_reference, inferred).
 *
 * supporting_evidence leaves out enriched_at (it can move without the facts changing) and the
 * summary and references (used, but long; the references appear in references).
 *
 * Lists taken from the record are capped (BW_PLAYBOOK_MAX_*, common/limits.h), and values copied
 * into supporting_evidence keep BW_PLAYBOOK_EVIDENCE_ITEMS items per array and
 * BW_PLAYBOOK_EVIDENCE_DEPTH levels (deeper: null), so that a hostile or huge record gives a
 * bounded playbook. */
#ifndef BW_ENGINE_INTEL_PLAYBOOK_H
#define BW_ENGINE_INTEL_PLAYBOOK_H
#include "common/limits.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define BW_PLAYBOOK_FORMAT         1  /* bumped when the generator's output changes shape or wording */

#define BW_PLAYBOOK_TIER_MAX       16 /* bytes of the risk tier bw_playbook_text gives, with its NUL */

/* The canonical text of the playbook of `record` (the stored record document), malloc'd (free()
 * it), its length in *len and, when tier is not NULL, its risk_tier in tier. NULL when record is
 * not an object or memory ran out (or, which jansson's parser never lets through, the text would
 * not be valid UTF-8). Missing or mistyped members are treated as absent. Thread-safe; the first
 * call loads the ATT&CK tables. The values are built in an arena (common/jtree.h) and written
 * once: this is the path a server request takes. */
char *bw_playbook_text(const json_t *record, size_t *len, char tier[BW_PLAYBOOK_TIER_MAX]);
/* The same text appended to out (an envelope written around it costs no copy); false as above,
 * with out as it was unless it ran out of memory (out->oom). */
struct bw_sb;
bool bw_playbook_write(struct bw_sb *out, const json_t *record, char tier[BW_PLAYBOOK_TIER_MAX]);

/* The same playbook as a jansson object (a new reference, or NULL as above), for callers that
 * read or embed it (STIX course-of-action, orchestration); it is parsed from the text. */
json_t *bw_playbook_build(const json_t *record);

/* The canonical text of a playbook (see above), malloc'd (free() it), or NULL. */
char *bw_playbook_dump(const json_t *pb);

#endif
