/* Governance assessment: an organisation's description of its practices (org_context), its AI
 * use cases and the evidence the platform holds for the account, measured against one
 * framework's control catalog (data/frameworks). Pure and deterministic: the same input always
 * gives the same result. The API layer gathers the evidence (src/services/evidence.c); this
 * engine decides what it means, through the mapping in data/frameworks/evidence.json. The
 * catalogs and the mapping are parsed and checked here too, from the bytes the caller hands over
 * (bw_governance_catalogs_load).
 *
 * - org_context meets a control when it names its subject: at least half (and at least one) of
 *   the significant words of its title appear in it, or one of them when the title has a single one.
 * - Evidence: each kind of the mapping names controls per framework. For one control, each
 *   mapped kind is satisfied, unsatisfied, contradicted or silent (no data):
 *     asset_inventory      satisfied with >= 1 asset registered, else unsatisfied;
 *     posture_scanned_90d  satisfied when every registered asset (>= 1) has a live scan from the
 *                          last 90 days, else unsatisfied;
 *     no_open_critical     contradicted by any CRITICAL finding in the assets' latest scans;
 *     no_open_high         unsatisfied by any HIGH finding in the latest scans;
 *     owasp_risk           (the control id is the risk) contradicted when a latest scan found
 *                          it, satisfied when a latest scan from the last 90 days probed it and
 *                          none found it;
 *     keys_rotated         satisfied when a key was ever rotated, else unsatisfied;
 *     keys_fresh           satisfied when keys are active and none is older than 90 days, else
 *                          unsatisfied; silent without active keys.
 *   A mapping entry marked "gaps_only" ignores "satisfied" (the evidence covers part of the
 *   control only).
 * - A control is contradicted when any mapped kind contradicts it: it is a gap whatever
 *   org_context says. Otherwise it is met by evidence when at least one mapped kind is
 *   satisfied and none unsatisfied; it is met when org_context or evidence meets it.
 * - A control applies when it is contradicted, rated critical or high, or one of its keywords
 *   appears in the use cases or the context. Gaps are the applicable controls not met, worst
 *   first, then in catalog order; a gap carries `evidence` (the platform facts, contradictions
 *   first) when a mapped kind contradicted or did not satisfy it.
 * - score = round(100 * met / total); risk_classification follows the EU AI Act's tiers from the
 *   use cases: unacceptable (a prohibited practice), high (an Annex III area), limited (people
 *   talk to or receive content from the AI), else minimal. */
#ifndef BW_ENGINE_GOVERNANCE_H
#define BW_ENGINE_GOVERNANCE_H
#include "common/embedded.h"
#include "common/limits.h"

#include <jansson.h>
#include <stddef.h>

struct bw_uc_catalog; /* engine/usecase.h */

#define BW_FRAMEWORKS 4

/* The frameworks' ids in the order the spec lists them; catalog i is data/frameworks/<id>.json. */
extern const char *const bw_governance_framework_ids[BW_FRAMEWORKS];

/* The control catalogs and the evidence mapping, checked; read-only once loaded, so threads share
 * them. Freed with bw_governance_catalogs_free. */
struct bw_gov_catalogs {
    json_t *framework[BW_FRAMEWORKS]; /* in bw_governance_framework_ids order */
    json_t *evidence_map;             /* data/frameworks/evidence.json */
    struct bw_uc_catalog *usecases;   /* data/frameworks/usecases.json (engine/usecase.h) */
};

/* Parses and checks the catalogs (framework[i]: the file of bw_governance_framework_ids[i], NULL
 * when missing) and the evidence mapping: each catalog an object with its own "id", a "name" and
 * a non-empty "controls" array; the mapping as bw_governance_evidence_check. 0 with *out filled,
 * or -1 with a message in err and nothing held. Borrows the files. */
int bw_governance_catalogs_load(const struct bw_embedded *const framework[BW_FRAMEWORKS],
                                const struct bw_embedded *evidence_map, const struct bw_embedded *usecases,
                                struct bw_gov_catalogs *out, char *err, size_t errlen);
/* Releases what bw_governance_catalogs_load filled; c is left empty (a second call is harmless). */
void bw_governance_catalogs_free(struct bw_gov_catalogs *c);

/* framework: the catalog document ({id,name,controls:[{id,title,severity,recommendation,
 * keywords}]}); use_cases: array of strings. Returns a new object {score, risk_classification,
 * controls_total, controls_met, gaps:[{control_id,title,severity,recommendation}],
 * recommendations:[string]}, or NULL on a malformed catalog. Borrows every argument. */
json_t *bw_governance_assess(const json_t *framework, const struct bw_uc_catalog *uc, const char *org_context,
                             const json_t *use_cases);

/* The same with platform evidence. mapping: data/frameworks/evidence.json (checked with
 * bw_governance_evidence_check); evidence: the account's facts,
 *   {assets_registered, assets_by_type:{type:n}, assets_scanned, assets_scanned_90d,
 *    open_findings:{CRITICAL,HIGH,MEDIUM,LOW}, owasp_llm:{"LLM01":{hit,tested,findings:[id]},...},
 *    keys_active, keys_rotated, oldest_active_key_days (integer, or null without active keys)}
 * (missing numbers count as 0). Either NULL gives bw_governance_assess. The result adds
 * `evidence` to gaps it decided and an `evidence` object: the facts as {assets_registered,
 * assets_by_type, assets_scanned, assets_scanned_90d, open_findings, owasp_llm_hits:[ids],
 * owasp_llm_tested:[ids], keys_active, keys_rotated, oldest_active_key_days,
 * controls_met_by_evidence:[ids], controls_contradicted:[ids]} (id lists in catalog order). */
json_t *bw_governance_assess_evidence(const json_t *framework, const struct bw_uc_catalog *uc, const char *org_context,
                                      const json_t *use_cases, const json_t *mapping, const json_t *evidence);

/* Checks the evidence mapping against the catalogs (frameworks[0..n), each with its "id"): known
 * kinds, a condition per kind, known framework ids, every control id present in its catalog,
 * a reason per entry, no control twice under one kind. 0, or -1 with a message in err. */
int bw_governance_evidence_check(const json_t *mapping, const json_t *const *frameworks, size_t n, char *err,
                                 size_t errlen);

/* "unacceptable", "high", "limited" or "minimal" for one use case. */
const char *bw_governance_risk_class(const struct bw_uc_catalog *uc, const char *text);

#endif
