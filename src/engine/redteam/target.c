/* The red team's side of the wire: find the target's API, render an attack for it, send it
 * through the egress module and judge the reply. */
#include "engine/chat.h"
#include "engine/detect.h"
#include "engine/posture.h"
#include "engine/redteam/redteam.h"
#include "common/limits.h"
#include "common/sbuf.h"
#include "common/timeutil.h"
#include "net/egress.h"

#include <ctype.h>
#include <jansson.h>
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

/* Cyrillic look-alikes of a, c, e, i, o, p, x (lower case), UTF-8. */
static const char *homoglyph(char c)
{
    switch (c) {
    case 'a': return "\xd0\xb0";
    case 'c': return "\xd1\x81";
    case 'e': return "\xd0\xb5";
    case 'i': return "\xd1\x96";
    case 'o': return "\xd0\xbe";
    case 'p': return "\xd1\x80";
    case 'x': return "\xd1\x85";
    default: return NULL;
    }
}

char *bw_rt_transform_apply(enum bw_rt_transform t, const char *text, const char *canary)
{
    struct bw_sb b = {0};
    size_t cl = canary ? strlen(canary) : 0;
    if (t == BW_RT_TX_LEET || t == BW_RT_TX_ZEROWIDTH || t == BW_RT_TX_HOMOGLYPH || t == BW_RT_TX_NONE) {
        for (const char *p = text; *p;) {
            if (cl && strncmp(p, canary, cl) == 0) { /* the detectors must find it in a reply */
                bw_sb_putn(&b, canary, cl);
                p += cl;
                continue;
            }
            char c = *p++;
            const char *h = t == BW_RT_TX_HOMOGLYPH ? homoglyph(c) : NULL;
            if (t == BW_RT_TX_LEET)
                c = leet(c);
            if (h)
                bw_sb_puts(&b, h);
            else
                bw_sb_putn(&b, &c, 1);
            /* inside a word: an invisible break after each letter */
            if (t == BW_RT_TX_ZEROWIDTH && isalpha((unsigned char)c) && isalpha((unsigned char)*p))
                bw_sb_puts(&b, "\xe2\x80\x8b");
        }
        return bw_sb_take(&b);
    }
    if (t == BW_RT_TX_ROT13) {
        char *s = strdup(text);
        for (char *c = s; c && *c; c++)
            *c = rot13(*c);
        return s;
    }
    size_t n = strlen(text);
    if (t == BW_RT_TX_HEX) {
        char *out = malloc(n * 2 + 1);
        if (out)
            sodium_bin2hex(out, n * 2 + 1, (const unsigned char *)text, n);
        return out;
    }
    size_t cap = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_ORIGINAL);
    char *out = malloc(cap);
    if (out)
        sodium_bin2base64(out, cap, (const unsigned char *)text, n, sodium_base64_VARIANT_ORIGINAL);
    return out;
}

/* The attack's payload with its placeholders filled, then obfuscated. */
static char *obfuscate(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const char *canary)
{
    struct bw_sb plain = {0};
    expand(&plain, a->payload, canary, lib->exfil_base, NULL);
    char *s = bw_sb_take(&plain);
    if (!s)
        return NULL;
    char *out = bw_rt_transform_apply(a->transform, s, canary);
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

/* The attack's tools in the flavour's own format, added to the request body (OpenAI, Azure and
 * Ollama: tools[{type:function,function}]; Anthropic: tools[{name,description,input_schema}]);
 * the other flavours read them from the prompt's text. body is replaced; false when out of memory. */
static bool add_tools(const struct bw_rt_attack *a, const struct bw_chat *chat, char **body)
{
    if (a->ntools == 0)
        return true;
    bool oa = chat->api == BW_API_OPENAI || chat->api == BW_API_AZURE_OPENAI || chat->api == BW_API_OLLAMA;
    bool an = chat->api == BW_API_ANTHROPIC;
    if (!oa && !an)
        return true;
    json_t *doc = json_loads(*body, 0, NULL);
    if (!doc)
        return false;
    json_t *tools = json_array();
    for (int i = 0; i < a->ntools; i++) {
        json_t *schema = json_pack("{s:s,s:{}}", "type", "object", "properties");
        if (oa)
            json_array_append_new(tools, json_pack("{s:s,s:{s:s,s:s,s:o}}", "type", "function", "function", "name",
                                                   a->tools[i], "description", a->tool_desc[i], "parameters",
                                                   schema));
        else
            json_array_append_new(tools, json_pack("{s:s,s:s,s:o}", "name", a->tools[i], "description",
                                                   a->tool_desc[i], "input_schema", schema));
    }
    json_object_set_new(doc, "tools", tools);
    char *out = json_dumps(doc, JSON_COMPACT);
    json_decref(doc);
    if (!out)
        return false;
    free(*body);
    *body = out;
    return true;
}

/* The request for the attack's scripted turns followed by a conversation of our own: users[0..n-1]
 * with the target's replies[0..n-2] between them (the real history). *shown: its transcript. */
static char *render_conv(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_chat *chat,
                         const char *canary, char *const *users, char *const *replies, int nusers, char **shown)
{
    *shown = NULL;
    struct bw_chat_turn turns[BW_RT_MAX_TURNS + 2 * BW_RT_ESC_TURNS_MAX];
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
    for (int i = 0; i < nusers && i < BW_RT_ESC_TURNS_MAX; i++) {
        turns[n++] = (struct bw_chat_turn){"user", users[i]};
        if (i + 1 < nusers)
            turns[n++] = (struct bw_chat_turn){"assistant", replies[i] ? replies[i] : ""};
    }
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
    if (out && !add_tools(a, chat, &out)) {
        free(out);
        out = NULL;
    }
    /* the transcript form: what a {prompt} API receives, and what a report shows */
    char *transcript = out ? bw_chat_transcript(turns, n) : NULL;
    json_decref(docs);
    for (int i = 0; i < a->nturns; i++)
        free(texts[i]);
    if (!transcript) {
        free(out);
        return NULL;
    }
    *shown = transcript;
    return out;
}

char *bw_rt_render(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_chat *chat,
                   const char *canary, char **shown)
{
    *shown = NULL;
    char *last = final_user_text(lib, a, canary);
    if (!last)
        return NULL;
    char *out = render_conv(lib, a, chat, canary, &last, NULL, 1, shown);
    free(last);
    return out;
}

bool bw_rt_judge(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_scanner *scanner,
                 const struct bw_rt_pkg_index *packages, const char *system_prompt, enum bw_conn_api api,
                 const char *body, size_t body_len, const char *reply, const char *canary, struct bw_rt_verdict *v)
{
    /* the attack as written (not as an escalation transformed it): what the reply answers */
    char *request = final_user_text(lib, a, canary);
    struct bw_rt_judge_ctx c = {
        .canary = canary,
        .request = request,
        .exfil_host = lib->exfil_host,
        .system_prompt = system_prompt,
        .tools = a->tools,
        .ntools = (size_t)a->ntools,
        .read_only = a->read_only,
        .nread_only = (size_t)a->nread_only,
        .asked = a->asked,
        .expect = a->expect,
        .nexpect = (size_t)a->nexpect,
        .scanner = scanner,
        .api = api,
        .body = body,
        .body_len = body_len,
        .packages = packages,
    };
    bw_rt_judge_reply(&c, reply, v);
    free(request);
    /* a comply attack without markers: the canary it asked the reply to open with */
    if (a->detector == BW_DET_COMPLY && a->nexpect == 0)
        return v->hit[BW_DET_CANARY].fired && !v->hit[BW_DET_REFUSAL].fired;
    return bw_rt_goal_met(v, a->detector);
}

int bw_rt_findings_json(const struct bw_rt_verdict *v, char *out, size_t cap)
{
    json_t *arr = json_array();
    int worst = 0;
    for (int d = BW_DET_CANARY; d < BW_DET_COUNT; d++) {
        const struct bw_rt_hit *h = &v->hit[d];
        if (!h->fired)
            continue;
        if (h->sev > worst)
            worst = h->sev;
        json_t *item = json_pack("{s:s,s:s,s:s}", "detector", bw_rt_det_name(d), "severity",
                                 bw_rt_severity_name(h->sev), "evidence", h->evidence);
        if (d == BW_DET_PACKAGE && v->packages[0]) {
            /* every name, not just those the evidence had room for */
            json_t *pk = json_array();
            for (const char *p = v->packages; *p;) {
                const char *sp = strchr(p, ' '), *nl = strchr(p, '\n');
                if (!sp || !nl || sp > nl)
                    break;
                json_array_append_new(pk, json_pack("{s:s%,s:s%}", "ecosystem", p, (size_t)(sp - p), "name", sp + 1,
                                                    (size_t)(nl - sp - 1)));
                p = nl + 1;
            }
            json_object_set_new(item, "packages", pk);
        }
        json_array_append_new(arr, item);
    }
    char *s = json_dumps(arr, JSON_COMPACT);
    json_decref(arr);
    snprintf(out, cap, "%s", s && strlen(s) < cap ? s : "[]");
    free(s);
    return worst;
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

/* One exchange, live or replayed. */
struct xout {
    int status;      /* 0 a reply; else the HTTP status of a guard's rejection */
    char *reply;     /* malloc'ed; "" when rejected */
    char *body;      /* malloc'ed, the secret redacted; NULL when none or too large to keep */
    size_t body_len;
    int elapsed_ms;
    bool errored;
    char why[256];   /* when errored */
};

static void xout_free(struct xout *x)
{
    free(x->reply);
    free(x->body);
    memset(x, 0, sizeof *x);
}

static void live(const struct bw_rt_attack *a, const struct bw_rt_target *t, const char *body, struct xout *x)
{
    int64_t t0 = bw_mono_us();
    struct bw_egress_resp r;
    post(t, body, &r);
    x->elapsed_ms = (int)((bw_mono_us() - t0) / 1000);
    bool ok2xx = r.outcome == BW_EG_OK && r.status >= 200 && r.status < 300;
    char *reply = reply_of(&t->chat, &r);
    if (!reply && ok2xx && r.body && a->ntools > 0)
        reply = strdup(""); /* a tool call alone carries no text */
    if (reply) {
        x->reply = reply;
        if (r.body && r.body_len <= BW_RT_ESC_EXCHANGE_MAX) {
            size_t cap = r.body_len + 256; /* room for REDACTED where a short secret stood */
            x->body = malloc(cap);
            if (x->body) {
                memcpy(x->body, r.body, r.body_len);
                x->body[r.body_len] = '\0';
                bw_chat_redact(&t->chat, x->body, cap);
                x->body_len = strlen(x->body);
            }
        }
    } else if (r.outcome != BW_EG_OK) {
        x->errored = true;
        snprintf(x->why, sizeof x->why, "no answer: %s: %.200s", bw_egress_outcome_name(r.outcome), r.error);
    } else if (r.status >= 400 && r.status < 500 && r.status != 401 && r.status != 404 && r.status != 429) {
        /* a guard in front of the model rejected the request: a defence */
        x->status = (int)r.status;
        x->reply = strdup("");
    } else {
        x->errored = true;
        snprintf(x->why, sizeof x->why, "unusable answer (HTTP %ld)", r.status);
    }
    if (!x->errored && !x->reply) {
        x->errored = true;
        snprintf(x->why, sizeof x->why, "out of memory");
    }
    bw_egress_resp_free(&r);
}

/* Judges an exchange into res (succeeded, findings, closeness, excerpt). */
static void judge_x(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_rt_target *t,
                    const char *canary, const struct xout *x, struct bw_rt_result *res)
{
    res->succeeded = false;
    res->closeness = 0;
    snprintf(res->findings, sizeof res->findings, "[]");
    if (x->status != 0) {
        snprintf(res->excerpt, sizeof res->excerpt, "rejected by the target (HTTP %d)", x->status);
        return;
    }
    struct bw_rt_verdict v;
    res->succeeded = bw_rt_judge(lib, a, t->scanner, t->packages, t->chat.system_prompt, t->chat.api, x->body, x->body_len,
                                 x->reply, canary, &v);
    bw_rt_findings_json(&v, res->findings, sizeof res->findings);
    res->closeness = res->succeeded ? 1.0 : bw_rt_closeness(&v, a->detector);
    bw_detect_excerpt(x->reply, 400, res->excerpt, sizeof res->excerpt);
}

void bw_rt_run(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_rt_target *t,
               const char *canary, struct bw_rt_result *res)
{
    struct bw_rt_adaptive ad = {0};
    bw_rt_attack_adaptive(lib, a, t, canary, &ad, res);
}

static const char *const ENDS[] = {"none", "found", "exhausted", "budget", "error"};
const char *bw_rt_search_end_name(enum bw_rt_search_end e) { return e <= BW_RT_END_ERROR ? ENDS[e] : "none"; }

/* The exchange of step ad->requests: replayed when stored, else sent and recorded. false when it
 * cannot be had (x->why says why; the target errored or storage failed). */
static bool step_x(const struct bw_rt_attack *a, const struct bw_rt_target *t, struct bw_rt_adaptive *ad,
                   const char *path, int turn, const char *body, struct xout *x)
{
    memset(x, 0, sizeof *x);
    int step = ad->requests;
    for (size_t i = 0; ad->replay && i < ad->nreplay; i++) {
        const struct bw_rt_exchange *e = &ad->replay[i];
        if (e->step != step)
            continue;
        x->status = e->status;
        x->reply = strdup(e->reply ? e->reply : "");
        if (e->body && (x->body = malloc(e->body_len + 1))) {
            memcpy(x->body, e->body, e->body_len);
            x->body[e->body_len] = '\0';
            x->body_len = e->body_len;
        }
        x->elapsed_ms = e->elapsed_ms;
        ad->requests++;
        ad->spent_ms += x->elapsed_ms;
        if (!x->reply) {
            x->errored = true;
            snprintf(x->why, sizeof x->why, "out of memory");
        }
        return !x->errored;
    }
    if (ad->alive && !ad->alive(ad->ud)) {
        ad->stopped = true;
        x->errored = true;
        snprintf(x->why, sizeof x->why, "stopped");
        return false;
    }
    live(a, t, body, x);
    ad->requests++;
    ad->spent_ms += x->elapsed_ms;
    if (x->errored)
        return false;
    if (ad->record) {
        const struct bw_rt_exchange e = {step, path, turn, x->status, x->reply, x->body, x->body_len, x->elapsed_ms};
        if (ad->record(ad->ud, &e) != 0) {
            ad->record_failed = true;
            snprintf(x->why, sizeof x->why, "the exchange could not be stored");
            return false;
        }
    }
    return true;
}

/* Tries node p: its turns in order, each with the real history; the last reply judged into *res.
 * -1 when an exchange could not be had (res->excerpt says why). */
static int try_node(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_rt_target *t,
                    const char *canary, const char *last, const struct bw_rt_path *p, struct bw_rt_adaptive *ad,
                    struct bw_rt_result *res)
{
    char ptext[BW_RT_PATH_MAX];
    bw_rt_path_text(p, ptext, sizeof ptext);
    char *users[BW_RT_ESC_TURNS_MAX], *replies[BW_RT_ESC_TURNS_MAX] = {0};
    int k = p->n ? bw_rt_escalate_turns(p, last, canary, a->technique, users) : 1;
    if (k < 0) {
        snprintf(res->excerpt, sizeof res->excerpt, "out of memory");
        return -1;
    }
    if (p->n == 0) {
        users[0] = strdup(last);
        if (!users[0]) {
            snprintf(res->excerpt, sizeof res->excerpt, "out of memory");
            return -1;
        }
    }
    int rc = 0;
    for (int j = 0; j < k; j++) {
        char *shown = NULL;
        char *body = render_conv(lib, a, &t->chat, canary, users, replies, j + 1, &shown);
        if (!body) {
            snprintf(res->excerpt, sizeof res->excerpt, "out of memory");
            rc = -1;
            break;
        }
        bw_detect_excerpt(shown, 600, res->prompt, sizeof res->prompt);
        free(shown);
        struct xout x;
        bool got = step_x(a, t, ad, ptext, j, body, &x);
        free(body);
        res->elapsed_ms = x.elapsed_ms;
        if (!got) {
            snprintf(res->excerpt, sizeof res->excerpt, "%s", x.why);
            xout_free(&x);
            rc = -1;
            break;
        }
        if (j + 1 == k || x.status != 0) { /* the last turn, or a guard ended the conversation */
            judge_x(lib, a, t, canary, &x, res);
            xout_free(&x);
            break;
        }
        replies[j] = x.reply;
        x.reply = NULL;
        xout_free(&x);
    }
    for (int j = 0; j < k; j++) {
        free(users[j]);
        free(replies[j]);
    }
    return rc;
}

void bw_rt_attack_adaptive(const struct bw_rt_library *lib, const struct bw_rt_attack *a, const struct bw_rt_target *t,
                           const char *canary, struct bw_rt_adaptive *ad, struct bw_rt_result *res)
{
    memset(res, 0, sizeof *res);
    ad->requests = 0;
    ad->spent_ms = 0;
    ad->end = BW_RT_END_NONE;
    ad->path[0] = '\0';
    ad->turns = 1;
    ad->record_failed = false;
    ad->stopped = false;
    char *last = final_user_text(lib, a, canary);
    if (!last) {
        res->errored = true;
        snprintf(res->excerpt, sizeof res->excerpt, "out of memory");
        return;
    }
    const struct bw_rt_path root = {{0}, 0};
    if (try_node(lib, a, t, canary, last, &root, ad, res) != 0) {
        res->errored = true;
        free(last);
        return;
    }
    if (res->succeeded || ad->budget_requests <= 0) {
        free(last);
        return;
    }
    struct bw_rt_search *s = malloc(sizeof *s);
    struct bw_rt_result *node = malloc(sizeof *node);
    if (!s || !node) {
        free(s);
        free(node);
        free(last);
        ad->end = BW_RT_END_ERROR;
        return;
    }
    bw_rt_search_init(s, res->closeness);
    struct bw_rt_path p;
    ad->end = BW_RT_END_EXHAUSTED;
    while (bw_rt_search_next(s, &p)) {
        if (ad->requests + bw_rt_path_turns(&p) > ad->budget_requests ||
            (ad->budget_ms > 0 && ad->spent_ms >= ad->budget_ms)) {
            ad->end = BW_RT_END_BUDGET;
            break;
        }
        memset(node, 0, sizeof *node);
        if (try_node(lib, a, t, canary, last, &p, ad, node) != 0) {
            ad->end = BW_RT_END_ERROR;
            break;
        }
        if (node->succeeded) {
            *res = *node;
            bw_rt_path_text(&p, ad->path, sizeof ad->path);
            ad->turns = bw_rt_path_turns(&p);
            ad->end = BW_RT_END_FOUND;
            break;
        }
        bw_rt_search_expand(s, &p, node->closeness);
    }
    free(node);
    free(s);
    free(last);
}
