/* The threat-intelligence store's record: one normalised document per threat, whatever its
 * source (CISA KEV, OSV advisories, MITRE ATLAS, the embedded seed). Records are stored as
 * canonical JSON text (src/store/store_intel.c) with the columns the feed filters on.
 *
 * Record document (every member always present; arrays sorted and de-duplicated, so the same
 * facts always give the same bytes):
 * {
 *   "id":            "CVE-2024-3568" | "PYSEC-2023-28" (no CVE alias) | "AML.T0051" | "AML.CS0016",
 *   "type":          "ai_cve" | "model_advisory" | "prompt_attack" | "agent_threat",
 *   "title":         short title,
 *   "summary":       our own short summary (never the source's prose copied at length),
 *   "severity":      "CRITICAL" | "HIGH" | "MEDIUM" | "LOW",
 *   "cvss":          {"version":"3.1","vector":"CVSS:3.1/AV:N/...","base_score":9.8} | null,
 *   "cve":           ["CVE-..."],
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
 *   "source":        "kev" | "osv" | "atlas" | "seed",
 *   "sources":       ["kev","osv"]   every source that contributed,
 *   "version":       integer, 1 at first import, +1 each time the record's facts change,
 *   "enriched_at":   ISO 8601 UTC of the last change of this record in the store,
 *   "risk_score":    0..100, the composite score (src/intel/risk.c, formula documented there),
 *   "risk_tier":     "CRITICAL" | "HIGH" | "MEDIUM" | "LOW" from risk_score
 * }
 */
#ifndef BW_INTEL_INTEL_H
#define BW_INTEL_INTEL_H
#include <jansson.h>

#endif
