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
 *  6. for model, agent and rag assets: the chat API is the asset's connection (engine/chat.h, with
 *     its credentials; then once more without them, to see whether they are enforced) or, without
 *     one, an OpenAI-compatible chat API or a simple {prompt} JSON API answering without
 *     credentials. None answering is LLM_API_NOT_REACHED, with what was tried and the statuses.
 *     Then quick probes for prompt injection
 *     (LLM01, direct and document-borne, with a per-scan canary), system prompt leakage (LLM07),
 *     sensitive information disclosure (LLM02) and unbounded consumption (LLM10: an oversized
 *     prompt with an absurd max_tokens accepted).
 *
 * Score: 100 minus the findings' weights (CRITICAL 35, HIGH 20, MEDIUM 10, LOW 3), floored at 0,
 * and never above the asset's static registration score (the scan cannot make an http endpoint
 * look better than registration judged it); a scan that could not reach the endpoint or its chat
 * API is at most BW_STATIC_SCORE_MAX (what was not assessed cannot read LOW). A scan the egress
 * policy stopped is status "incomplete" with stopped_by "egress_policy": its caller leaves the
 * asset's score alone. risk_level from the score as everywhere (>=80 LOW,
 * >=60 MEDIUM, >=40 HIGH, else CRITICAL). Findings are ordered by severity, then by check order. */
#ifndef BW_ENGINE_ASSETSCAN_H
#define BW_ENGINE_ASSETSCAN_H
#include "common/limits.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bw_assetscan_opts {
    unsigned egress_allow;  /* BW_EGRESS_ALLOW_* */
    long request_timeout_ms; /* each exchange; 0 = 5000 */
    long budget_ms;          /* the whole scan; 0 = 30000: probes left when it runs out are skipped */
    int static_score;        /* the registration score, the ceiling of the result */
    int64_t now_s;           /* for certificate expiry */
    const json_t *connection; /* the asset's connection document (engine/connection.h); NULL: detect */
    const char *secret;      /* its opened secret; NULL when none */
};

/* Scans; returns {score, risk_level, findings:[{id,severity,title,owasp_llm,detail,remediation}],
 * owasp_llm_hits, owasp_llm_tested, llm_api (the flavour spoken, "auth_required" or "none"), requests,
 * duration_ms, incomplete, status (completed|incomplete), stopped_by ("egress_policy" or absent)}. type: the asset type; endpoint: its
 * URL. NULL only when out of memory. */
json_t *bw_assetscan_run(const char *type, const char *endpoint, const struct bw_assetscan_opts *o);

/* The chat-completions URL for an endpoint: kept when it already ends in /chat/completions,
 * ".../v1" + "/chat/completions", otherwise base + "/v1/chat/completions". malloc'ed. */
char *bw_assetscan_chat_url(const char *endpoint);

/* Score of a findings array (see above) before the ceiling. */
int bw_assetscan_score(const json_t *findings);

/* ---- what one scan is evidence of, for governance (src/services/evidence.c) ---- */

/* The text of bw_assetscan_evidence_ids: per risk "NN:" and its ids (each byte escaped as %XX at
 * worst), ',' between ids, ';' between risks, and the NUL. */
#define BW_EVIDENCE_IDS_TEXT \
    (BW_EVIDENCE_OWASP * (4 + BW_EVIDENCE_FINDING_IDS * ((BW_EVIDENCE_ID_MAX - 1) * 3 + 1)) + 1)

enum { BW_EV_CRITICAL, BW_EV_HIGH, BW_EV_MEDIUM, BW_EV_LOW, BW_EV_SEVERITIES };

struct bw_scan_evidence {
    int64_t open_findings[BW_EV_SEVERITIES]; /* findings by severity */
    unsigned owasp_hit;    /* bit k: a finding reported LLM(k+1) */
    unsigned owasp_tested; /* bit k: the scan probed LLM(k+1), found or not */
    /* per risk (index 0 = LLM01), up to BW_EVIDENCE_FINDING_IDS distinct finding ids that reported
     * it, ascending, the smallest kept; "" after the last */
    char owasp_findings[BW_EVIDENCE_OWASP][BW_EVIDENCE_FINDING_IDS][BW_EVIDENCE_ID_MAX];
};

/* What a scan result document (bw_assetscan_run's, as answered and stored) is evidence of, into
 * *out (zeroed first). Which risks it probed: the document's owasp_llm_tested when it has one;
 * otherwise (documents from before that member) the scanner's contract of step 6: when its chat
 * probes ran (llm_api "openai" or "prompt") and the scan was not cut short, LLM01, LLM02, LLM07
 * and LLM10. A risk a finding reported was tested too. false when doc is not a scan document (no
 * findings array). */
bool bw_assetscan_evidence(const json_t *doc, struct bw_scan_evidence *out);

/* Adds id to a risk's list (distinct, ascending, the smallest BW_EVIDENCE_FINDING_IDS kept, so the
 * result does not depend on the order ids come in); empty and too long ids are ignored. */
void bw_assetscan_evidence_add_id(char ids[BW_EVIDENCE_FINDING_IDS][BW_EVIDENCE_ID_MAX], const char *id);

/* The finding ids of ev as one text for a column: "NN:id,id;NN:id" by ascending risk number, risks
 * without ids left out, bytes other than [A-Za-z0-9_.-] in an id as %XX; "" when none. out holds
 * BW_EVIDENCE_IDS_TEXT bytes. */
void bw_assetscan_evidence_ids(const struct bw_scan_evidence *ev, char out[BW_EVIDENCE_IDS_TEXT]);
/* Reads such a text back into ev->owasp_findings (other members untouched); false when it is not
 * one (ev's lists then hold what was read before the fault). */
bool bw_assetscan_evidence_ids_parse(const char *text, struct bw_scan_evidence *ev);

#endif
