/* SARIF 2.1.0 pieces shared by `bulwark scan --format sarif` (cli/scan_report.c, which adds
 * paths, baselines and invocations) and the API's SARIF view of one scanned text
 * (POST /api/vibe-code/scan?format=sarif): a rule's reportingDescriptor, the level of a
 * severity, a taint trace as codeFlows, and the whole log of one text. */
#ifndef BW_ENGINE_CODE_SARIF_H
#define BW_ENGINE_CODE_SARIF_H
#include "engine/code/scanner.h"

#include <jansson.h>
#include <stddef.h>

/* error (HIGH and CRITICAL), warning (MEDIUM) or note (LOW). */
const char *bw_sarif_level(int severity);
/* The rule's documentation page (docs/rules/CATEGORY.md#id) into out. */
void bw_rule_help_uri(const struct bw_rule *rule, char *out, size_t outlen);
/* The rule as a SARIF reportingDescriptor: descriptions, help (text and markdown), helpUri, default
 * level, tags (security, category, CWE, OWASP LLM) and GitHub's security-severity. NULL when out
 * of memory. */
json_t *bw_sarif_rule(const struct bw_rule *r);
/* The finding's own tags where they differ from its rule's: ["owasp-llm-2025/LLM05"] when a
 * language model's reply reached the sink of a rule mapped to no or another OWASP LLM risk
 * (result.properties.tags); NULL otherwise. */
json_t *bw_sarif_finding_tags(const struct bw_finding *x);
/* A taint finding's trace as codeFlows (one thread flow, each step a location in artifact, a
 * {"uri",...} object copied into each); NULL without a trace. */
json_t *bw_sarif_code_flows(const struct bw_finding *x, const json_t *artifact);
/* A whole log for one text named uri: one run whose driver lists the rules the results name,
 * v[0..n) as results (ruleIndex into that list, region with snippet, codeFlows), columns in code
 * points; props (stolen, may be NULL) becomes run.properties. NULL when out of memory. */
json_t *bw_sarif_log_one(const struct bw_finding *v, size_t n, const char *uri, json_t *props);

#endif
