/* The threat-intelligence store's record: one normalised document per threat, whatever its
 * source (CISA KEV, OSV advisories, MITRE ATLAS; the embedded seed is built from the same three).
 * Records are stored as canonical JSON text (src/store/store_intel.c) with the columns the feed
 * filters on.
 *
 * Record document (every member always present; arrays sorted and de-duplicated, so the same
 * facts always give the same bytes):
 * {
 *   "id":            "CVE-2024-3568" (a CVE; OSV advisories are filed under their CVE alias) |
 *                    "PYSEC-2023-28" (an OSV advisory without a CVE alias) | "AML.T0051" | "AML.CS0016",
 *   "type":          "ai_cve" | "model_advisory" | "prompt_attack" | "agent_threat",
 *   "title":         short title,
 *   "summary":       our own short summary (never the source's prose copied at length),
 *   "severity":      "CRITICAL" | "HIGH" | "MEDIUM" | "LOW",
 *   "cvss":          {"version":"3.1","vector":"CVSS:3.1/AV:N/...","base_score":9.8} | null,
 *   "cve":           ["CVE-..."],
 *   "aliases":       ["PYSEC-2023-28", ...]  other ids of the same threat (not the id itself),
 *   "kev":           true | false,
 *   "kev_details":   {"date_added","due_date","required_action","ransomware_use",
 *                     "vendor","product"} | null,
 *   "cwe":           ["CWE-22", ...],
 *   "attack_techniques": ["T1190", ...],          ATT&CK Enterprise ids
 *   "atlas_techniques":  ["AML.T0051", ...],      MITRE ATLAS ids
 *   "affected":      [{"vendor","product","ecosystem","package","introduced","fixed"}],
 *                    (members that do not apply are "")
 *   "exploit_available": true | false,           KEV membership, a public exploit reference, or an
 *                                                ATLAS case study using it
 *   "ai_impact":     ["agentic","tool_execution","model_supply_chain","data_exposure",
 *                     "prompt_injection","model_theft","availability"] (the ones that apply),
 *   "references":    [{"url","kind"}]  kind: "nvd" | "kev" | "advisory" | "atlas" | "attack" | "web",
 *   "published":     ISO 8601 UTC,
 *   "updated":       ISO 8601 UTC (the source's last modification),
 *   "source":        "kev" | "osv" | "atlas"  the source whose title and summary the record shows
 *                    (OSV before KEV before ATLAS when several contributed),
 *   "sources":       ["kev","osv"]   every source that contributed,
 *   "version":       integer, 1 at first import, +1 each time the record's facts change,
 *   "enriched_at":   ISO 8601 UTC of the last change of this record in the store (for seed
 *                    records: the snapshot time of data/intel/seed.json),
 *   "risk_score":    0..100, the composite score (src/engine/intel/risk.h, formula documented there),
 *   "risk_tier":     "CRITICAL" | "HIGH" | "MEDIUM" | "LOW" from risk_score,
 *   "changed_at":    ISO 8601 UTC of the last change of an EPSS score here, when that came after
 *                    the last change of facts; absent otherwise, and then enriched_at is the
 *                    record's last change,
 *   "epss", "epss_history": FIRST's EPSS score and its recent history (src/engine/intel/epss.h;
 *                    absent = null / [])
 * }
 * "Facts" are every member except version, enriched_at, risk_score, risk_tier, changed_at, epss
 * and epss_history: a new EPSS score changes changed_at and the risk, never the version.
 *
 * Ownership: functions returning json_t * return a new reference; char * results are malloc'ed
 * (free them). Nothing here touches the database or the clock. */
#ifndef BW_ENGINE_INTEL_INTEL_H
#define BW_ENGINE_INTEL_INTEL_H
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#define BW_INTEL_NTYPES 4
/* Record types, and the plural filter names the feed accepts for them, index for index. */
extern const char *const bw_intel_types[BW_INTEL_NTYPES];
extern const char *const bw_intel_type_filters[BW_INTEL_NTYPES];
extern const char *const bw_intel_severities[4]; /* CRITICAL, HIGH, MEDIUM, LOW */

/* Serialisation of stored record documents: compact, keys sorted, reals with 15 significant
 * digits (9.8 stays "9.8"). */
#define BW_INTEL_DUMP_FLAGS (JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(15))

/* Whether s can be a record id: 1..BW_INTEL_ID_MAX characters of [A-Za-z0-9._-], starting with
 * a letter or digit. */
bool bw_intel_id_valid(const char *s);

/* Combines the stored document of a record (existing; NULL when new) with a freshly normalised
 * one from one source (incoming). When the record so far came from incoming's source alone and
 * incoming restates all of it (its aliases cover existing's), the result is incoming's facts, so
 * facts the source dropped disappear. Otherwise (other sources contributed, or several advisories
 * of one source are filed under one CVE) the facts are united: lists merged (they only grow), CVSS
 * and KEV facts kept from whoever owns them, title, summary and type from the preferred source
 * (OSV, KEV, ATLAS) and within one source from the contribution with the smallest alias (so the
 * order of arrival does not matter), severity from CVSS when present, otherwise the higher
 * estimate, at least HIGH when in KEV. version, enriched_at and the risk members are copied from
 * existing (bw_intel_finalize sets them). NULL when out of memory. */
json_t *bw_intel_merge(const json_t *existing, const json_t *incoming);

/* Two records of one batch filed under the same id (two OSV advisories with one CVE alias):
 * united as bw_intel_merge unites them; the result does not depend on their order. */
json_t *bw_intel_combine(const json_t *first, const json_t *second);

/* Whether two records state the same facts (everything but version, enriched_at, risk_*). */
bool bw_intel_same_facts(const json_t *a, const json_t *b);

/* Sets version, enriched_at (from enriched_s, Unix seconds; changed_at is removed: this is the
 * last change) and the risk score and tier computed at that reference time. */
void bw_intel_finalize(json_t *record, int64_t version, int64_t enriched_s);

/* After a change that is not a fact (an EPSS score): changed_at = changed_s and the risk score
 * and tier computed again at the record's enriched_at (the same reference as before, so only the
 * new input moves the score). 0, or -1 when enriched_at is malformed or out of memory. */
int bw_intel_rescore(json_t *record, int64_t changed_s);

/* Canonical text of a record (BW_INTEL_DUMP_FLAGS). */
char *bw_intel_dump(const json_t *record);

/* The record's feed entry as JSON text: id, type, title, severity, published, summary, cve,
 * cvss, kev, attack_techniques, atlas_techniques, references, updated_at (= changed_at, or
 * enriched_at when absent), risk_score, risk_tier, epss (null when none), in that order. Stored beside the record so that the feed copies bytes
 * instead of building JSON per request. */
char *bw_intel_entry(const json_t *record);

/* Checks that a complete record document (e.g. from the seed) has every member with the right
 * type and value set. 0, or -1 with the reason in why. */
int bw_intel_check(const json_t *record, char *why, size_t cap);

#endif
