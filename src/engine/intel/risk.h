/* The composite risk score of a threat-intelligence record (src/engine/intel/intel.h): 0..100, higher
 * is riskier. Pure and deterministic: the only clock is the reference time passed in, which the
 * store sets to the record's enriched_at (the moment its facts last changed), so the same facts
 * stored at the same moment always score the same, on every backend and every instance.
 *
 *   score = base + exploitation + ai_impact + recency, clamped to 0..100
 *
 *   base          CVSS v3 base score x 6, rounded (0..60); without CVSS, the middle of the
 *                 record severity's CVSS band x 6: CRITICAL 57, HIGH 45, MEDIUM 30, LOW 12
 *   exploitation  20 when in CISA KEV (exploited in the wild); otherwise the larger of 10 when an
 *                 exploit is available (proof of concept, or an ATLAS case study uses it) and
 *                 the EPSS probability of exploitation in the next 30 days x 20, rounded (an
 *                 EPSS of 0.5 weighs as much as a public exploit, 0.975 and above as much as
 *                 KEV); else 0. EPSS is a forecast, KEV an observation: it never adds to KEV.
 *   ai_impact     sum over the record's ai_impact, capped at 12: tool_execution 6, agentic 4,
 *                 model_supply_chain 4, prompt_injection 3, data_exposure 2, model_theft 2,
 *                 availability 1
 *   recency       age = reference - the later of published and updated, in days:
 *                 <= 30: 8, <= 90: 6, <= 365: 4, <= 730: 2, older: 0 (a future date counts as 0
 *                 days old)
 *
 * Tiers: >= 80 CRITICAL, >= 60 HIGH, >= 35 MEDIUM, else LOW. So a CVSS 9.8 code-execution flaw
 * scores HIGH on its own and CRITICAL once it is exploited in the wild. */
#ifndef BW_ENGINE_INTEL_RISK_H
#define BW_ENGINE_INTEL_RISK_H
#include <jansson.h>
#include <stdint.h>

/* The score of record at reference time ref_s (Unix seconds). Missing or mistyped members count
 * as absent. */
int bw_risk_score(const json_t *record, int64_t ref_s);
/* "CRITICAL" | "HIGH" | "MEDIUM" | "LOW" (static strings). */
const char *bw_risk_tier(int score);

#endif
