/* The red team's side of the wire: find the target's API, render an attack for it, send it
 * through the egress module and judge the reply. */
#include "engine/chat.h"
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

char *bw_rt_render(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_chat *chat,
                   const char *canary, char **shown)
{
    *shown = NULL;
    char *last = final_user_text(lib, a, canary);
    if (!last)
        return NULL;
    struct bw_chat_turn turns[BW_RT_MAX_TURNS + 1];
    char *texts[BW_RT_MAX_TURNS] = {0};
    size_t n = 0;
    bool oom = false;
    for (int i = 0; i < a->nturns; i++) {
        struct bw_sb c = {0};
        expand(&c, a->turns[i].content, canary, lib->exfil_base, NULL);
        texts[i] = bw_sb_take(&c);
        oom |= !texts[i];
        turns[n++] = (struct bw_chat_turn){strcmp(a->turns[i].role, "user") == 0 ? "user" : "assistant", texts[i]};
    }
    turns[n++] = (struct bw_chat_turn){"user", last};
    json_t *docs = NULL;
    if (a->ndocs > 0) {
        docs = json_array();
        for (int i = 0; i < a->ndocs; i++) {
            struct bw_sb d = {0};
            expand(&d, a->documents[i], canary, lib->exfil_base, NULL);
            char *ds = bw_sb_take(&d);
            json_array_append_new(docs, json_string(ds ? ds : ""));
            free(ds);
        }
    }
    char *out = oom ? NULL : bw_chat_body(chat, turns, n, BW_RT_MAX_TOKENS, docs);
    /* the transcript form: what a {prompt} API receives, and what a report shows */
    char *transcript = out ? bw_chat_transcript(turns, n) : NULL;
    json_decref(docs);
    for (int i = 0; i < a->nturns; i++)
        free(texts[i]);
    free(last);
    if (!transcript) {
        free(out);
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

static void post(const struct bw_rt_target *t, const char *body, struct bw_egress_resp *r)
{
    long to = t->timeout_ms > 0 ? t->timeout_ms : BW_RT_ATTACK_TIMEOUT_MS;
    bw_chat_post(&t->chat, body, true, to, to < BW_RT_CONNECT_TIMEOUT_MS ? to : BW_RT_CONNECT_TIMEOUT_MS,
                 BW_RT_RESPONSE_CAP, r);
}

/* The reply of a 2xx answer in the API's shape, or NULL. */
static char *reply_of(const struct bw_chat *c, const struct bw_egress_resp *r)
{
    if (r->outcome != BW_EG_OK || r->status < 200 || r->status >= 300)
        return NULL;
    return bw_chat_reply(c, r->body, r->body_len);
}

int bw_rt_target_detect(const char *endpoint, const json_t *connection, const char *secret, unsigned egress_allow,
                        long timeout_ms, struct bw_rt_target *t, char *why, size_t cap)
{
    memset(t, 0, sizeof *t);
    t->egress_allow = egress_allow;
    t->timeout_ms = timeout_ms;
    /* with a connection, only it; else an OpenAI-compatible chat API, then a {prompt} API */
    const enum bw_conn_api guesses[2] = {BW_API_OPENAI, BW_API_PROMPT};
    int tries = connection ? 1 : 2;
    char first[512] = "";
    for (int k = 0; k < tries; k++) {
        if (bw_chat_init(&t->chat, endpoint, connection, guesses[k], secret, egress_allow, why, cap) != 0)
            return -1;
        static const char PING[] = "Reply with the single word: pong";
        struct bw_chat_turn turn = {"user", PING};
        char *body = bw_chat_body(&t->chat, &turn, 1, 16, NULL);
        if (!body) {
            bw_chat_free(&t->chat);
            snprintf(why, cap, "out of memory");
            return -1;
        }
        struct bw_egress_resp r;
        post(t, body, &r);
        free(body);
        char *reply = reply_of(&t->chat, &r);
        if (reply) {
            free(reply);
            bw_egress_resp_free(&r);
            t->ready = true;
            return 0;
        }
        char here[512], shown[BW_URL_DISPLAY_MAX], msg[200];
        bw_posture_url_display(t->chat.shown, shown, sizeof shown);
        bw_chat_error_message(&t->chat, r.body, r.body_len, msg, sizeof msg);
        if (r.outcome == BW_EG_BLOCKED)
            snprintf(here, sizeof here, "the target is refused by the egress policy (%.160s)", r.error);
        else if (r.outcome != BW_EG_OK)
            snprintf(here, sizeof here, "the target is unreachable (%s: %.160s)", bw_egress_outcome_name(r.outcome),
                     r.error);
        else if ((r.status == 401 || r.status == 403) && t->chat.auth == BW_AUTH_NONE)
            snprintf(here, sizeof here, "the target requires credentials (HTTP %ld at %.120s); give the asset a "
                     "connection with auth", r.status, shown);
        else if (r.status == 401 || r.status == 403)
            snprintf(here, sizeof here, "the target refused the connection's %s credentials (HTTP %ld at %.120s%s%.120s)",
                     bw_conn_auth_name(t->chat.auth), r.status, shown, msg[0] ? ": " : "", msg);
        else
            snprintf(here, sizeof here, "no chat API answered (%s, model %.60s: HTTP %ld at %.120s%s%.120s)",
                     bw_conn_api_name(t->chat.api), t->chat.model, r.status, shown, msg[0] ? ": " : "", msg);
        bool final = r.outcome == BW_EG_BLOCKED || r.outcome == BW_EG_BAD_URL || r.outcome == BW_EG_DNS;
        bw_egress_resp_free(&r);
        bw_chat_free(&t->chat);
        if (k == 0)
            snprintf(first, sizeof first, "%s", here);
        if (final) /* the other URL has the same host: it would fail the same way */
            break;
    }
    snprintf(why, cap, "%s", first);
    bw_chat_redact(&t->chat, why, cap);
    return -1;
}

void bw_rt_target_free(struct bw_rt_target *t)
{
    if (t->ready)
        bw_chat_free(&t->chat);
    t->ready = false;
}

void bw_rt_run(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_rt_target *t,
               const char *canary, struct bw_rt_result *res)
{
    memset(res, 0, sizeof *res);
    char *shown = NULL;
    char *body = bw_rt_render(lib, a, &t->chat, canary, &shown);
    if (!body) {
        res->errored = true;
        snprintf(res->excerpt, sizeof res->excerpt, "out of memory");
        return;
    }
    bw_detect_excerpt(shown, 600, res->prompt, sizeof res->prompt);
    free(shown);
    int64_t t0 = bw_mono_us();
    struct bw_egress_resp r;
    post(t, body, &r);
    free(body);
    res->elapsed_ms = (int)((bw_mono_us() - t0) / 1000);
    char *reply = reply_of(&t->chat, &r);
    if (reply) {
        res->succeeded = bw_rt_judge(lib, a, reply, canary) ||
                         (a->detector == BW_RT_PROMPT_LEAK && bw_chat_leaks_system_prompt(&t->chat, reply));
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
