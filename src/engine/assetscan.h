/* The live posture scan of a registered AI asset (POST /api/ai-security/assets/{id}/scan).
 * Every request goes through the egress module (src/net/egress.h), without credentials, with
 * bounded time; it runs on a blocking pool, never on an HTTP event thread.
 *
 * What it checks, in order:
 *  1. reachability: a GET of the endpoint (redirects followed up to 3, each re-checked). Blocked by
 *     the egress policy or unreachable (DNS, refused, timeout, TLS handshake) is a finding, and the
 *     scan stops there;
 *  2. transport: plaintext HTTP, certificate validity (chain, name, expiry within 30 days), old TLS
 *     versions, HSTS on HTTPS;
 *  3. disclosure: server/framework banners with versions, model identifiers in headers, verbose
 *     errors (stack traces) in the answer to a malformed JSON request;
 *  4. CORS: a foreign Origin reflected or a wildcard, worst with credentials allowed;
 *  5. access: whether the endpoint (and its chat API) answers without credentials;
 *  6. for model, agent and rag assets whose endpoint speaks an OpenAI-compatible chat API or a
 *     simple {prompt} JSON API and answers without credentials: quick probes for prompt injection
 *     (LLM01, direct and document-borne, with a per-scan canary), system prompt leakage (LLM07),
 *     sensitive information disclosure (LLM02) and unbounded consumption (LLM10: an oversized
 *     prompt with an absurd max_tokens accepted).
 *
 * Score: 100 minus the findings' weights (CRITICAL 35, HIGH 20, MEDIUM 10, LOW 3), floored at 0,
 * and never above the asset's static registration score (the scan cannot make an http endpoint
 * look better than registration judged it). risk_level from the score as everywhere (>=80 LOW,
 * >=60 MEDIUM, >=40 HIGH, else CRITICAL). Findings are ordered by severity, then by check order. */
#ifndef BW_ENGINE_ASSETSCAN_H
#define BW_ENGINE_ASSETSCAN_H
#include <jansson.h>
#include <stdint.h>

struct bw_assetscan_opts {
    unsigned egress_allow;  /* BW_EGRESS_ALLOW_* */
    long request_timeout_ms; /* each exchange; 0 = 5000 */
    long budget_ms;          /* the whole scan; 0 = 30000: probes left when it runs out are skipped */
    int static_score;        /* the registration score, the ceiling of the result */
    int64_t now_s;           /* for certificate expiry */
};

/* Scans; returns {score, risk_level, findings:[{id,severity,title,owasp_llm,detail,remediation}],
 * owasp_llm_hits, llm_api, requests, duration_ms, incomplete}. type: the asset type; endpoint: its
 * URL. NULL only when out of memory. */
json_t *bw_assetscan_run(const char *type, const char *endpoint, const struct bw_assetscan_opts *o);

/* The chat-completions URL for an endpoint: kept when it already ends in /chat/completions,
 * ".../v1" + "/chat/completions", otherwise base + "/v1/chat/completions". malloc'ed. */
char *bw_assetscan_chat_url(const char *endpoint);

/* Score of a findings array (see above) before the ceiling. */
int bw_assetscan_score(const json_t *findings);

#endif
