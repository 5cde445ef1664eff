/* Compliance posture: which controls of six frameworks the threats of the intel store put at
 * risk (control gaps), and why. A pure engine: no I/O, no database, no clock.
 *
 * The knowledge is data: data/compliance/mapping.json (embedded; format and sources in
 * data/compliance/README.md) holds a catalog of the controls used per framework, themes (one
 * per kind of weakness or behaviour, each naming controls with a one-line rationale) and
 * triggers that lead from record facts to themes: CWE ids, ATT&CK techniques (a sub-technique
 * falls back to its parent), ATLAS techniques (likewise) and the mere presence of ATLAS
 * techniques, AI impacts, the record type, KEV membership, exploit_available, and a baseline
 * for every vulnerability (a record with a CVE or an affected package).
 *
 * Frameworks, always all six and in this order:
 *   iso_27001_2022  ISO/IEC 27001:2022 Annex A ("A.8.8")
 *   soc2_tsc        AICPA Trust Services Criteria, SOC 2 ("CC7.1")
 *   nist_csf_2.0    NIST Cybersecurity Framework 2.0 subcategories ("ID.RA-01")
 *   gdpr            Regulation (EU) 2016/679 ("Art. 32")
 *   dpdp_2023       India's Digital Personal Data Protection Act, 2023 ("Section 8(5)")
 *   owasp_llm_2025  OWASP Top 10 for LLM Applications 2025 ("LLM01", the ids used across this
 *                   repository, e.g. data/frameworks/owasp-llm.json)
 *
 * bw_compliance_map output:
 * {"mapping_version": "...",
 *  "frameworks": [{"id","name","version","controls_affected": N,
 *                  "controls": [{"control_id","title","cves":["CVE-..."],"threat_ids":[...],
 *                                "why":[{"threat_id","via","rationale"}]}]}],
 *  "cves": [{"threat_id","cve":[...],"gaps":{"iso_27001_2022":["A.8.8",...], ... all six}}]}
 * via is the record fact that led to the control: "CWE-22", "T1190" (the record's own id, also
 * for a sub-technique mapped through its parent), "AML.T0051", "atlas" (any ATLAS technique),
 * "ai_impact:prompt_injection", "type:model_advisory", "kev", "exploit_available", "baseline".
 * Ordering is deterministic and independent of the input order: records by threat id (then input
 * position), controls and gap lists by control id compared naturally (A.8.8 before A.8.28), cves
 * and threat_ids sorted and unique, why in record order then trigger order (CWE, ATT&CK,
 * ATLAS, AI impact, type, KEV, exploit, baseline), one entry per (threat, via). Records that are
 * not objects or have no valid id are skipped; each list read from a record is capped at
 * BW_COMPLIANCE_MAX_ITEMS entries.
 *
 * Ownership: the loaded mapping is immutable and may be shared by threads; free it once with
 * bw_compliance_free. bw_compliance_map returns a new reference (json_decref it) and only reads
 * the records. */
#ifndef BW_ENGINE_INTEL_COMPLIANCE_H
#define BW_ENGINE_INTEL_COMPLIANCE_H
#include "common/limits.h"

#include <jansson.h>
#include <stddef.h>

#define BW_COMPLIANCE_FILE       "data/compliance/mapping.json"
#define BW_COMPLIANCE_FRAMEWORKS 6

/* Framework ids in output order. */
extern const char *const bw_compliance_framework_ids[BW_COMPLIANCE_FRAMEWORKS];

struct bw_compliance;

/* Loads and checks data/compliance/mapping.json (embedded; see src/common/embedded.h): every
 * control referenced exists in its framework's catalog, every framework present. 0 or -1 + why. */
int bw_compliance_load(struct bw_compliance **out, char *why, size_t cap);

/* The same from mapping text (len bytes, need not be NUL-terminated): what bw_compliance_load
 * runs on the embedded file, exposed for tests of the checks. 0 and *out, or -1 + why. */
int bw_compliance_load_text(const char *text, size_t len, struct bw_compliance **out, char *why, size_t cap);

void bw_compliance_free(struct bw_compliance *c);

/* Maps records (intel documents) to control gaps. Returns a new object (NULL on OOM). */
json_t *bw_compliance_map(const struct bw_compliance *c, const json_t *const *records, size_t n);

#endif
