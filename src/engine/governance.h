/* Governance assessment: an organisation's description of its practices (org_context) and of its
 * AI use cases, measured against one framework's control catalog (data/frameworks). Pure and
 * deterministic: the same input always gives the same result.
 *
 * - A control is met when org_context names its subject: at least half (and at least one) of the
 *   significant words of its title appear in it, or one of them when the title has a single one.
 * - A control applies when it is rated critical or high, or when one of its keywords appears in
 *   the use cases or the context. Gaps are the applicable controls not met, worst first.
 * - score = round(100 * met / total); risk_classification follows the EU AI Act's tiers from the
 *   use cases: unacceptable (a prohibited practice), high (an Annex III area), limited (people
 *   talk to or receive content from the AI), else minimal. */
#ifndef BW_ENGINE_GOVERNANCE_H
#define BW_ENGINE_GOVERNANCE_H
#include <jansson.h>

#define BW_ASSESS_MAX_RECOMMENDATIONS 5

/* framework: the catalog document ({id,name,controls:[{id,title,severity,recommendation,
 * keywords}]}); use_cases: array of strings. Returns a new object {score, risk_classification,
 * controls_total, controls_met, gaps:[{control_id,title,severity,recommendation}],
 * recommendations:[string]}, or NULL on a malformed catalog. */
json_t *bw_governance_assess(const json_t *framework, const char *org_context, const json_t *use_cases);

/* "unacceptable", "high", "limited" or "minimal" for these use cases. */
const char *bw_governance_risk_class(const char *text);

#endif
