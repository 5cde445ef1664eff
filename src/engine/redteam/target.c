/* The red team's side of the wire: find the target's API, render an attack for it, send it
 * through the egress module and judge the reply. */
#include "engine/assetscan.h"
#include "engine/detect.h"
#include "engine/redteam/detect_rt.h"
#include "engine/posture.h"
#include "engine/redteam/redteam.h"
#include "common/limits.h"
#include "common/sbuf.h"
#include "common/timeutil.h"
#include "net/egress.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const JSON_HEADERS[] = {"Content-Type: application/json", "Accept: application/json", NULL};

/* ---- text building: in a struct bw_sb (common/sbuf.h) ---- */

/* The template with {canary}, {exfil} and {payload} replaced (payload may be NULL). */
static void expand(struct bw_sb *b, const char *t, const char *canary, const char *exfil, const char *payload)
{
    while (*t) {
        const char *open = strchr(t, '{');
        if (!open) {
            bw_sb_puts(b, t);
            return;
        }
        bw_sb_putn(b, t, (size_t)(open - t));
        if (strncmp(open, "{canary}", 8) == 0) {
            bw_sb_puts(b, canary);
            t = open + 8;
        } else if (strncmp(open, "{exfil}", 7) == 0) {
            bw_sb_puts(b, exfil);
            t = open + 7;
        } else if (payload && strncmp(open, "{payload}", 9) == 0) {
            bw_sb_puts(b, payload);
            t = open + 9;
        } else {
            bw_sb_putn(b, "{", 1);
            t = open + 1;
        }
    }
}

static char leet(char c)
{
    switch (c) {
    case 'a': case 'A': return '4';
    case 'e': case 'E': return '3';
    case 'i': case 'I': return '1';
    case 'o': case 'O': return '0';
    case 's': case 'S': return '5';
    case 't': case 'T': return '7';
    default: return c;
    }
}

static char rot13(char c)
{
    if (c >= 'a' && c <= 'z')
        return (char)('a' + (c - 'a' + 13) % 26);
    if (c >= 'A' && c <= 'Z')
        return (char)('A' + (c - 'A' + 13) % 26);
    return c;
}

/* The attack's payload, obfuscated. Leetspeak spares the canary (the detector must find it in a
 * compliant reply); base64 and rot13 hide it with the rest. */
static char *obfuscate(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const char *canary)
{
    struct bw_sb plain = {0};
    if (a->transform == BW_RT_TX_LEET) {
        for (const char *t = a->payload; *t;) {
            if (strncmp(t, "{canary}", 8) == 0) {
                bw_sb_puts(&plain, canary);
                t += 8;
            } else if (strncmp(t, "{exfil}", 7) == 0) {
                bw_sb_puts(&plain, lib->exfil_base);
                t += 7;
            } else {
                char c = leet(*t++);
                bw_sb_putn(&plain, &c, 1);
            }
        }
        return bw_sb_take(&plain);
    }
    expand(&plain, a->payload, canary, lib->exfil_base, NULL);
    char *s = bw_sb_take(&plain);
    if (!s || a->transform == BW_RT_TX_NONE)
        return s;
    if (a->transform == BW_RT_TX_ROT13) {
        for (char *c = s; *c; c++)
            *c = rot13(*c);
        return s;
    }
    size_t n = strlen(s);
    size_t cap = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
    char *out = malloc(cap);
    if (out)
        sodium_bin2base64(out, cap, (const unsigned char *)s, n, sodium_base64_VARIANT_ORIGINAL);
    free(s);
    return out;
}

/* The last user message: the retrieved documents (if any) and the prompt. */
static char *final_user_text(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const char *canary)
{
    char *payload = NULL;
    if (a->payload) {
        payload = obfuscate(lib, a, canary);
        if (!payload)
            return NULL;
    }
    struct bw_sb b = {0};
    if (a->ndocs > 0) {
        bw_sb_puts(&b, "Retrieved documents:\n");
        for (int i = 0; i < a->ndocs; i++) {
            char num[16];
            snprintf(num, sizeof num, "[%d] ", i + 1);
            bw_sb_puts(&b, num);
            expand(&b, a->documents[i], canary, lib->exfil_base, NULL);
            bw_sb_puts(&b, "\n");
        }
        bw_sb_puts(&b, "\nQuestion: ");
    }
    expand(&b, a->prompt, canary, lib->exfil_base, payload);
    free(payload);
    return bw_sb_take(&b);
}

char *bw_rt_render(const struct bw_rt_library *lib, const struct bw_rt_attack *a, enum bw_llm_api api,
                   const char *canary, char **shown)
{
    *shown = NULL;
    char *last = final_user_text(lib, a, canary);
    if (!last)
        return NULL;
    /* the transcript form: what a {prompt} API receives, and what a report shows */
    struct bw_sb t = {0};
    for (int i = 0; i < a->nturns; i++) {
        bw_sb_puts(&t, strcmp(a->turns[i].role, "user") == 0 ? "User: " : "Assistant: ");
        expand(&t, a->turns[i].content, canary, lib->exfil_base, NULL);
        bw_sb_puts(&t, "\n");
    }
    if (a->nturns) {
        bw_sb_puts(&t, "User: ");
        bw_sb_puts(&t, last);
        bw_sb_puts(&t, "\nAssistant:");
    } else {
        bw_sb_puts(&t, last);
    }
    char *transcript = bw_sb_take(&t);
    if (!transcript) {
        free(last);
        return NULL;
    }
    json_t *body;
    if (api == BW_LLM_OPENAI) {
        json_t *msgs = json_array();
        for (int i = 0; i < a->nturns; i++) {
            struct bw_sb c = {0};
            expand(&c, a->turns[i].content, canary, lib->exfil_base, NULL);
            char *cs = bw_sb_take(&c);
            json_array_append_new(msgs, json_pack("{s:s,s:s?}", "role", a->turns[i].role, "content", cs));
            free(cs);
        }
        json_array_append_new(msgs, json_pack("{s:s,s:s}", "role", "user", "content", last));
        body = json_pack("{s:s,s:o,s:i,s:i}", "model", "default", "messages", msgs, "max_tokens", 512, "temperature",
                         0);
    } else {
        body = json_pack("{s:s,s:i}", "prompt", transcript, "max_tokens", 512);
        if (body && a->ndocs > 0) {
            json_t *docs = json_array();
            for (int i = 0; i < a->ndocs; i++) {
                struct bw_sb d = {0};
                expand(&d, a->documents[i], canary, lib->exfil_base, NULL);
                char *ds = bw_sb_take(&d);
                json_array_append_new(docs, json_string(ds ? ds : ""));
                free(ds);
            }
            json_object_set_new(body, "documents", docs);
        }
    }
    free(last);
    char *out = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (!out) {
        free(transcript);
        return NULL;
    }
    *shown = transcript;
    return out;
}

bool bw_rt_judge(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const char *reply,
                 const char *canary)
{
    if (!reply)
        return false;
    switch (a->detector) {
    case BW_RT_CANARY:
        return bw_detect_canary(reply, canary) && !bw_detect_refusal(reply);
    case BW_RT_PROMPT_LEAK:
        return bw_detect_prompt_leak(reply);
    case BW_RT_COMPLY:
        return bw_detect_compliance(reply, canary, a->expect, (size_t)a->nexpect, BW_RT_COMPLY_MIN_LEN);
    case BW_RT_EXFIL_URL:
        return bw_detect_exfil_url(reply, lib->exfil_host, canary);
    case BW_RT_SECRET:
        return bw_detect_secret(reply, strlen(reply));
    }
    return false;
}

/* ---- the wire ---- */

static void post(const struct bw_rt_target *t, const char *url, const char *body, struct bw_egress_resp *r)
{
    long to = t->timeout_ms > 0 ? t->timeout_ms : BW_RT_ATTACK_TIMEOUT_MS;
    struct bw_egress_req rq = {.method = "POST",
                               .url = url,
                               .headers = JSON_HEADERS,
                               .body = body,
                               .body_len = strlen(body),
                               .connect_timeout_ms = to < BW_RT_CONNECT_TIMEOUT_MS ? to : BW_RT_CONNECT_TIMEOUT_MS,
                               .timeout_ms = to,
                               .max_response = BW_RT_RESPONSE_CAP,
                               .max_redirects = 0,
                               .verify_tls = false};
    bw_egress_request(t->egress_allow, &rq, r);
}

/* The reply of a 2xx answer in the API's shape, or NULL. */
static char *reply_of(enum bw_llm_api api, const struct bw_egress_resp *r)
{
    if (r->outcome != BW_EG_OK || r->status < 200 || r->status >= 300)
        return NULL;
    return bw_detect_reply(api, r->body, r->body_len);
}

int bw_rt_target_detect(const char *endpoint, unsigned egress_allow, long timeout_ms, struct bw_rt_target *t,
                        char *why, size_t cap)
{
    memset(t, 0, sizeof *t);
    t->egress_allow = egress_allow;
    t->timeout_ms = timeout_ms;
    static const char PING_OPENAI[] = "{\"model\":\"default\",\"messages\":[{\"role\":\"user\",\"content\":"
                                      "\"Reply with the single word: pong\"}],\"max_tokens\":16}";
    static const char PING_PROMPT[] = "{\"prompt\":\"Reply with the single word: pong\",\"max_tokens\":16}";
    const enum bw_llm_api apis[2] = {BW_LLM_OPENAI, BW_LLM_PROMPT};
    char first[256] = "";
    for (int k = 0; k < 2; k++) {
        char *url = k == 0 ? bw_assetscan_chat_url(endpoint) : strdup(endpoint);
        if (!url) {
            snprintf(why, cap, "out of memory");
            return -1;
        }
        struct bw_egress_resp r;
        post(t, url, k == 0 ? PING_OPENAI : PING_PROMPT, &r);
        char *reply = reply_of(apis[k], &r);
        if (reply) {
            free(reply);
            bw_egress_resp_free(&r);
            t->api = apis[k];
            t->url = url;
            return 0;
        }
        char here[256];
        if (r.outcome == BW_EG_BLOCKED)
            snprintf(here, sizeof here, "the target is refused by the egress policy (%.160s)", r.error);
        else if (r.outcome != BW_EG_OK)
            snprintf(here, sizeof here, "the target is unreachable (%s: %.160s)", bw_egress_outcome_name(r.outcome),
                     r.error);
        else if (r.status == 401 || r.status == 403)
            snprintf(here, sizeof here, "the target requires credentials (HTTP %ld); bulwark sends none", r.status);
        else {
            char shown[BW_URL_DISPLAY_MAX];
            snprintf(here, sizeof here, "no chat API answered (HTTP %ld at %.120s)", r.status,
                     bw_posture_url_display(url, shown, sizeof shown));
        }
        bool final = r.outcome == BW_EG_BLOCKED || r.outcome == BW_EG_BAD_URL || r.outcome == BW_EG_DNS;
        bw_egress_resp_free(&r);
        free(url);
        if (k == 0)
            snprintf(first, sizeof first, "%s", here);
        if (final) /* the other URL has the same host: it would fail the same way */
            break;
    }
    snprintf(why, cap, "%s", first);
    return -1;
}

void bw_rt_target_free(struct bw_rt_target *t)
{
    free(t->url);
    t->url = NULL;
}

void bw_rt_run(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_rt_target *t,
               const char *canary, struct bw_rt_result *res)
{
    memset(res, 0, sizeof *res);
    char *shown = NULL;
    char *body = bw_rt_render(lib, a, t->api, canary, &shown);
    if (!body) {
        res->errored = true;
        snprintf(res->excerpt, sizeof res->excerpt, "out of memory");
        return;
    }
    bw_detect_excerpt(shown, 600, res->prompt, sizeof res->prompt);
    free(shown);
    int64_t t0 = bw_mono_us();
    struct bw_egress_resp r;
    post(t, t->url, body, &r);
    free(body);
    res->elapsed_ms = (int)((bw_mono_us() - t0) / 1000);
    char *reply = reply_of(t->api, &r);
    if (reply) {
        res->succeeded = bw_rt_judge(lib, a, reply, canary);
        bw_detect_excerpt(reply, 400, res->excerpt, sizeof res->excerpt);
    } else if (r.outcome != BW_EG_OK) {
        res->errored = true;
        snprintf(res->excerpt, sizeof res->excerpt, "no answer: %s: %.200s", bw_egress_outcome_name(r.outcome),
                 r.error);
    } else if (r.status >= 400 && r.status < 500 && r.status != 401 && r.status != 404 && r.status != 429) {
        /* a guard in front of the model rejected the request: a defence */
        snprintf(res->excerpt, sizeof res->excerpt, "rejected by the target (HTTP %ld)", r.status);
    } else {
        res->errored = true;
        snprintf(res->excerpt, sizeof res->excerpt, "unusable answer (HTTP %ld)", r.status);
    }
    free(reply);
    bw_egress_resp_free(&r);
}
