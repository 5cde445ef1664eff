#include "engine/agentscan.h"

#include "common/embedded.h"
#include "common/jsoncheck.h"
#include "common/limits.h"
#include "common/sbuf.h"
#include "common/utf8.h"
#include "common/vec.h"
#include "engine/agentprompt.h"
#include "engine/risk.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- severities, agent types and the check table ---- */

enum sev { SEV_NONE, SEV_LOW, SEV_MEDIUM, SEV_HIGH, SEV_CRITICAL };
static const char *const SEV_NAME[] = {"", "LOW", "MEDIUM", "HIGH", "CRITICAL"};
static const int SEV_WEIGHT[] = {0, 3, 10, 25, 40};

static const char *const AGENT_TYPES[] = {"openai", "langchain", "crewai", "autogen", "mcp", "langgraph", "openai_agents",
                                          NULL};
enum { AT_OPENAI, AT_LANGCHAIN, AT_CREWAI, AT_AUTOGEN, AT_MCP, AT_LANGGRAPH, AT_OPENAI_AGENTS, AT_COUNT };
#define AT_BIT(t) (1u << (t))

/* What is fixed per issue type; severity, message and (for some) remediation depend on the case. */
struct check {
    const char *type;
    const char *owasp;
    const char *atlas[BW_AGENT_CHECK_ATLAS_MAX]; /* unused slots NULL */
    const char *remediation;            /* NULL: the case supplies it */
};

static const struct check CHECKS[BW_AC_COUNT] = {
    [BW_AC_SECRET_IN_SYSTEM_PROMPT] =
        {"SECRET_IN_SYSTEM_PROMPT", "LLM07", {"AML.T0056", "AML.T0083"},
         "Remove the credential from the prompt and rotate it now; let tools read credentials from a secret store "
         "at call time so the model never sees them."},
    [BW_AC_LETHAL_TRIFECTA] =
        {"LETHAL_TRIFECTA", "LLM02", {"AML.T0051.001", "AML.T0057", "AML.T0086"},
         "Break the combination: split reading private data and reading untrusted content into separate agents, "
         "or remove the outbound channel; failing that, put every outbound action behind human approval that "
         "shows the full content being sent."},
    [BW_AC_CODE_EXECUTION_WITHOUT_SANDBOX] =
        {"CODE_EXECUTION_WITHOUT_SANDBOX", "LLM05", {"AML.T0050", "AML.T0053"},
         "Run model-written code only in an isolated sandbox: a container or microVM with no host mounts, no "
         "secrets and no unrestricted network, with CPU, memory and time limits (autogen: a Docker executor; "
         "crewai: code_execution_mode \"safe\"; openai: the hosted code_interpreter)."},
    [BW_AC_OVER_PRIVILEGED_TOOL] = {"OVER_PRIVILEGED_TOOL", "LLM06", {"AML.T0053"}, NULL},
    [BW_AC_WILDCARD_TOOL_GRANT] = {"WILDCARD_TOOL_GRANT", "LLM06", {"AML.T0053"},
                                   "List the tools the agent needs by name; never grant tools by wildcard."},
    [BW_AC_MISSING_HUMAN_APPROVAL] =
        {"MISSING_HUMAN_APPROVAL", "LLM06", {"AML.T0053"},
         "Require a human to confirm each destructive, irreversible or code-executing call, enforced by the "
         "framework or the tool layer (autogen human_input_mode \"ALWAYS\", crewai human_input, openai "
         "require_approval \"always\", an approval callback or interrupt), not only requested in the prompt."},
    [BW_AC_UNAUTHENTICATED_MCP_SERVER] =
        {"UNAUTHENTICATED_MCP_SERVER", "LLM06", {"AML.T0053"},
         "Require authentication on the server (OAuth for remote MCP servers, or mTLS or bearer tokens), serve "
         "it over TLS, and pin the server's identity in the client configuration."},
    [BW_AC_UNSAFE_FRAMEWORK_OPTION] = {"UNSAFE_FRAMEWORK_OPTION", "LLM06", {"AML.T0053"}, NULL},
    [BW_AC_SYSTEM_PROMPT_INJECTION_RISK] = {"SYSTEM_PROMPT_INJECTION_RISK", "LLM01", {NULL}, NULL},
    [BW_AC_MEMORY_POISONING_RISK] = {"MEMORY_POISONING_RISK", "LLM08", {"AML.T0051.001"}, NULL},
    [BW_AC_EXCESSIVE_TOOLS] = {"EXCESSIVE_TOOLS", "LLM06", {"AML.T0053"},
                               "Give each agent only the tools its task needs; split a broad agent into "
                               "narrower ones."},
    [BW_AC_MISSING_SYSTEM_PROMPT] =
        {"MISSING_SYSTEM_PROMPT", "LLM01", {"AML.T0051"},
         "Write a system prompt that states the agent's scope, what it must refuse, and that tool output is data, "
         "never instructions."},
    [BW_AC_LONG_SYSTEM_PROMPT] = {"LONG_SYSTEM_PROMPT", "LLM10", {"AML.T0034"},
                                  "Shorten the prompt; move reference material into retrieval."},
};

const char *bw_agent_check_type(enum bw_agent_check c)
{
    return (unsigned)c < BW_AC_COUNT ? CHECKS[c].type : NULL;
}

const char *bw_agent_risk_level(int score) { return bw_risk_level(score); }

/* ---- text normalisation and phrase matching ---- */

/* " words separated by single spaces ": lower-case alphanumerics, camelCase split ("WriteFileTool"
 * -> "write file tool", "PythonREPLTool" -> "python repl tool"), everything else a separator. So a
 * phrase matches at word boundaries with a plain substring search for " phrase ". */
static char *normalise(const char *s, size_t len)
{
    char *out = malloc(2 * len + 3); /* at most one inserted space per input byte, plus both ends */
    if (!out)
        return NULL;
    size_t n = 0;
    out[n++] = ' ';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80 && isalnum(c)) {
            if (isupper(c) && i > 0) {
                unsigned char p = (unsigned char)s[i - 1];
                unsigned char nx = i + 1 < len ? (unsigned char)s[i + 1] : 0;
                bool boundary = (p < 0x80 && (islower(p) || isdigit(p))) ||
                                (p < 0x80 && isupper(p) && nx < 0x80 && islower(nx));
                if (boundary && out[n - 1] != ' ')
                    out[n++] = ' ';
            }
            out[n++] = (char)tolower(c);
        } else if (out[n - 1] != ' ') {
            out[n++] = ' ';
        }
    }
    if (out[n - 1] != ' ')
        out[n++] = ' ';
    out[n] = '\0';
    return out;
}

/* A list of catalog phrases, each stored as " words " (the normalised form with both spaces), so a
 * whole-word match is strstr(norm, entry). */
struct words {
    char **v;
    size_t n;
};

/* The first entry of w found in norm, or NULL. */
static const char *find_any(const char *norm, const struct words *w)
{
    for (size_t i = 0; i < w->n; i++)
        if (strstr(norm, w->v[i]))
            return w->v[i];
    return NULL;
}

/* Whether one of the (up to) three words before position at (the space before a phrase in norm)
 * is a negation word from neg: "do not bypass", "never ignore previous instructions". */
static bool negated(const char *norm, const char *at, const struct words *neg)
{
    const char *end = at; /* the space before the phrase */
    for (int w = 0; w < 3 && end > norm; w++) {
        const char *start = end;
        while (start > norm && start[-1] != ' ')
            start--;
        size_t wl = (size_t)(end - start);
        for (size_t i = 0; wl > 0 && i < neg->n; i++)
            if (strlen(neg->v[i]) == wl + 2 && memcmp(neg->v[i] + 1, start, wl) == 0)
                return true;
        if (start == norm)
            break;
        end = start - 1; /* the space before that word */
    }
    return false;
}

/* The longest entry of w (the first of equal length) that occurs in norm without a negation before
 * it, or NULL. The longest is the most specific, so messages quote "send email" rather than "email". */
static const char *find_unnegated(const char *norm, const struct words *w, const struct words *neg)
{
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < w->n; i++) {
        size_t l = strlen(w->v[i]);
        if (l <= best_len)
            continue;
        for (const char *at = strstr(norm, w->v[i]); at; at = strstr(at + 1, w->v[i]))
            if (!negated(norm, at, neg)) {
                best = w->v[i];
                best_len = l;
                break;
            }
    }
    return best;
}

/* ---- the capability catalog (data/agents/capabilities.json) ---- */

_Static_assert(BW_AGENT_CAPS_MAX <= 32, "capabilities are a bit set in a uint32_t");

enum applies { AP_ANY, AP_WRITERS, AP_READERS };
enum leg { LEG_NONE, LEG_PRIVATE, LEG_UNTRUSTED, LEG_EXFIL, LEG_COUNT };
enum known_sandbox { KS_NONE, KS_DEFAULT, KS_PROVIDER };

struct cap {
    char *id, *name, *risk, *remediation;
    enum sev sev;
    enum applies applies;
    enum leg leg;
    bool over_privileged, needs_approval, executes, persists;
    struct words phrases;
    char *atlas[BW_AGENT_CAP_ATLAS_MAX];
    size_t natlas;
};

/* A framework's known tool name: its capabilities replace phrase matching. */
struct known {
    char *norm; /* normalised name, " words " */
    uint32_t caps;
    enum known_sandbox sandbox;
};

struct catalog {
    struct cap cap[BW_AGENT_CAPS_MAX];
    size_t ncap;
    struct words read_only, read, write, tool_neg, wildcard, sandbox;
    struct known *known[AT_COUNT];
    size_t nknown[AT_COUNT];
    int tools_from[AT_COUNT]; /* the agent type whose table is also read (LangGraph runs LangChain's tools), or -1 */
    struct bw_ap_catalog *prompt; /* data/agents/instructions.json */
};

static void words_free(struct words *w)
{
    for (size_t i = 0; i < w->n; i++)
        free(w->v[i]);
    free(w->v);
    w->v = NULL;
    w->n = 0;
}

static void catalog_free(struct catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->ncap; i++) {
        struct cap *k = &c->cap[i];
        free(k->id);
        free(k->name);
        free(k->risk);
        free(k->remediation);
        words_free(&k->phrases);
        for (size_t j = 0; j < k->natlas; j++)
            free(k->atlas[j]);
    }
    struct words *lists[] = {&c->read_only, &c->read, &c->write, &c->tool_neg, &c->wildcard, &c->sandbox};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        words_free(lists[i]);
    for (int t = 0; t < AT_COUNT; t++) {
        for (size_t i = 0; i < c->nknown[t]; i++)
            free(c->known[t][i].norm);
        free(c->known[t]);
    }
    bw_ap_catalog_free(c->prompt);
    free(c);
}

static bool lfail_oom(struct bw_cerr *e) { return bw_cerr_fail(e, "out of memory"); }

static bool get_text(const json_t *o, const char *key, const char *ctx, char **out, struct bw_cerr *e)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || json_string_length(v) == 0)
        return bw_cerr_fail(e, "%s.%s must be a non-empty string", ctx, key);
    if (!(*out = strdup(json_string_value(v))))
        return lfail_oom(e);
    return true;
}

static bool get_flag(const json_t *o, const char *key, const char *ctx, bool *out, struct bw_cerr *e)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_boolean(v))
        return bw_cerr_fail(e, "%s.%s must be true or false", ctx, key);
    *out = json_is_true(v);
    return true;
}

/* Index of s in the NULL-terminated list, or -1. */
static int index_of(const char *s, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(s, list[i]) == 0)
            return i;
    return -1;
}

/* *out gets the index of the member's value in values, -1 (and false) when it has none. */
static bool get_enum(const json_t *o, const char *key, const char *ctx, const char *const *values, int *out,
                     struct bw_cerr *e)
{
    const json_t *v = json_object_get(o, key);
    *out = json_is_string(v) ? index_of(json_string_value(v), values) : -1;
    if (*out < 0)
        return bw_cerr_fail(e, "%s.%s has no valid value", ctx, key);
    return true;
}

/* A phrase as the normaliser writes it: lower-case ASCII letters and digits in words separated by
 * single spaces. Anything else could never match a normalised tool name or prompt. */
static bool is_phrase(const char *s, bool one_word)
{
    size_t n = strlen(s);
    if (n == 0 || n > BW_AGENT_PHRASE_MAX || s[0] == ' ' || s[n - 1] == ' ')
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ') {
            if (one_word || s[i + 1] == ' ')
                return false;
        } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
            return false;
        }
    }
    return true;
}

/* A non-empty array of phrases, stored padded with spaces. */
static bool get_words(const json_t *o, const char *key, const char *ctx, bool one_word, struct words *out,
                      struct bw_cerr *e)
{
    const json_t *a = json_object_get(o, key);
    if (!json_is_array(a) || json_array_size(a) == 0)
        return bw_cerr_fail(e, "%s.%s must be a non-empty array", ctx, key);
    out->v = calloc(json_array_size(a), sizeof *out->v);
    if (!out->v)
        return lfail_oom(e);
    size_t i;
    json_t *x;
    json_array_foreach(a, i, x) {
        const char *s = json_string_value(x);
        if (!s || !is_phrase(s, one_word))
            return bw_cerr_fail(e, "%s.%s[%zu] must be %s in normalised form (lower-case ASCII letters and digits, "
                            "single spaces, at most %d characters)",
                         ctx, key, i, one_word ? "one word" : "a phrase", BW_AGENT_PHRASE_MAX);
        size_t l = strlen(s);
        char *p = malloc(l + 3);
        if (!p)
            return lfail_oom(e);
        p[0] = ' ';
        memcpy(p + 1, s, l);
        p[l + 1] = ' ';
        p[l + 2] = '\0';
        out->v[out->n++] = p;
    }
    return true;
}

/* "AML.T0051" or "AML.T0051.001". */
static bool is_atlas_id(const char *s)
{
    size_t n = strlen(s);
    if ((n != 9 && n != 13) || strncmp(s, "AML.T", 5) != 0)
        return false;
    for (size_t i = 5; i < 9; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    if (n == 13) {
        if (s[9] != '.')
            return false;
        for (size_t i = 10; i < 13; i++)
            if (!isdigit((unsigned char)s[i]))
                return false;
    }
    return true;
}

static const char *const SEVERITIES[] = {"", "LOW", "MEDIUM", "HIGH", "CRITICAL", NULL};
static const char *const APPLIES[] = {"any", "writers", "readers", NULL};
static const char *const LEGS[] = {"", "private_data", "untrusted_content", "exfiltration", NULL};

static bool load_cap(const json_t *o, size_t idx, struct catalog *c, struct bw_cerr *e)
{
    static const char *const KEYS[] = {"id",         "name",    "severity", "applies_to", "over_privileged",
                                       "needs_approval", "executes_code", "persists", "trifecta", "risk",
                                       "remediation", "atlas", "phrases", NULL};
    char ctx[48];
    snprintf(ctx, sizeof ctx, "capabilities[%zu]", idx);
    struct cap *k = &c->cap[c->ncap++]; /* counted now so catalog_free releases what is half-built */
    struct bw_cerr_ids earlier = {c->cap, c->ncap - 1, sizeof c->cap[0], offsetof(struct cap, id)};
    if (!bw_cerr_entry(o, KEYS, false, ctx, "abcdefghijklmnopqrstuvwxyz_", &earlier, &k->id, e))
        return false;
    int sev, applies, leg = 0;
    if (!get_text(o, "name", ctx, &k->name, e) || !get_text(o, "risk", ctx, &k->risk, e) ||
        !get_text(o, "remediation", ctx, &k->remediation, e) || !get_enum(o, "severity", ctx, SEVERITIES, &sev, e) ||
        !get_enum(o, "applies_to", ctx, APPLIES, &applies, e) ||
        !get_flag(o, "over_privileged", ctx, &k->over_privileged, e) ||
        !get_flag(o, "needs_approval", ctx, &k->needs_approval, e) ||
        !get_flag(o, "executes_code", ctx, &k->executes, e) || !get_flag(o, "persists", ctx, &k->persists, e) ||
        !get_words(o, "phrases", ctx, false, &k->phrases, e))
        return false;
    if (sev == 0)
        return bw_cerr_fail(e, "%s.severity has no valid value", ctx);
    const json_t *tri = json_object_get(o, "trifecta");
    if (!json_is_null(tri) && (!get_enum(o, "trifecta", ctx, LEGS, &leg, e) || leg == 0))
        return bw_cerr_fail(e, "%s.trifecta must be null, private_data, untrusted_content or exfiltration", ctx);
    k->sev = (enum sev)sev;
    k->applies = (enum applies)applies;
    k->leg = (enum leg)leg;
    const json_t *atlas = json_object_get(o, "atlas");
    if (!json_is_array(atlas) || json_array_size(atlas) > BW_AGENT_CAP_ATLAS_MAX)
        return bw_cerr_fail(e, "%s.atlas must be an array of at most %d ATLAS technique ids", ctx, BW_AGENT_CAP_ATLAS_MAX);
    size_t i;
    json_t *x;
    json_array_foreach(atlas, i, x) {
        if (!json_is_string(x) || !is_atlas_id(json_string_value(x)))
            return bw_cerr_fail(e, "%s.atlas[%zu] must be an ATLAS technique id (AML.Tnnnn or AML.Tnnnn.nnn)", ctx, i);
        if (!(k->atlas[k->natlas] = strdup(json_string_value(x))))
            return lfail_oom(e);
        k->natlas++;
    }
    return true;
}

static int cap_index(const struct catalog *c, const char *id)
{
    for (size_t i = 0; i < c->ncap; i++)
        if (strcmp(c->cap[i].id, id) == 0)
            return (int)i;
    return -1;
}

static bool load_framework(const json_t *fw, int type, struct catalog *c, struct bw_cerr *e)
{
    static const char *const FW_KEYS[] = {"tools", "tools_from", NULL};
    static const char *const TOOL_KEYS[] = {"name", "capabilities", "sandbox", NULL};
    static const char *const SANDBOX[] = {"", "default", "provider", NULL};
    char ctx[64];
    snprintf(ctx, sizeof ctx, "frameworks.%s", AGENT_TYPES[type]);
    if (!json_is_object(fw))
        return bw_cerr_fail(e, "%s is missing or not an object", ctx);
    if (!bw_cerr_only_keys(fw, FW_KEYS, false, ctx, e))
        return false;
    const json_t *tools = json_object_get(fw, "tools"), *from = json_object_get(fw, "tools_from");
    if (!json_is_array(tools))
        return bw_cerr_fail(e, "%s.tools must be an array", ctx);
    c->tools_from[type] = -1;
    if (from && (c->tools_from[type] = json_is_string(from) ? index_of(json_string_value(from), AGENT_TYPES) : -1) < 0)
        return bw_cerr_fail(e, "%s.tools_from must name another agent type", ctx);
    c->known[type] = calloc(json_array_size(tools) + 1, sizeof *c->known[type]);
    if (!c->known[type])
        return lfail_oom(e);
    size_t i;
    json_t *t;
    json_array_foreach(tools, i, t) {
        char tctx[96];
        snprintf(tctx, sizeof tctx, "%s.tools[%zu]", ctx, i);
        if (!json_is_object(t))
            return bw_cerr_fail(e, "%s must be an object", tctx);
        if (!bw_cerr_only_keys(t, TOOL_KEYS, false, tctx, e))
            return false;
        const json_t *name = json_object_get(t, "name");
        if (!json_is_string(name) || json_string_length(name) == 0 || json_string_length(name) > BW_AGENT_TOOL_CHARS_MAX)
            return bw_cerr_fail(e, "%s.name must be a string of 1 to %d characters", tctx, BW_AGENT_TOOL_CHARS_MAX);
        struct known *k = &c->known[type][c->nknown[type]++];
        if (!(k->norm = normalise(json_string_value(name), json_string_length(name))))
            return lfail_oom(e);
        if (strcmp(k->norm, " ") == 0)
            return bw_cerr_fail(e, "%s.name has no letters or digits", tctx);
        for (size_t j = 0; j + 1 < c->nknown[type]; j++)
            if (strcmp(c->known[type][j].norm, k->norm) == 0)
                return bw_cerr_fail(e, "%s.name \"%s\" repeats an earlier name", tctx, json_string_value(name));
        const json_t *caps = json_object_get(t, "capabilities");
        if (!json_is_array(caps))
            return bw_cerr_fail(e, "%s.capabilities must be an array", tctx);
        size_t j;
        json_t *id;
        json_array_foreach(caps, j, id) {
            int ci = json_is_string(id) ? cap_index(c, json_string_value(id)) : -1;
            if (ci < 0)
                return bw_cerr_fail(e, "%s.capabilities[%zu] is not a capability id", tctx, j);
            k->caps |= UINT32_C(1) << ci;
        }
        if (json_object_get(t, "sandbox")) {
            int s;
            if (!get_enum(t, "sandbox", tctx, SANDBOX, &s, e) || s == 0)
                return bw_cerr_fail(e, "%s.sandbox must be \"default\" or \"provider\"", tctx);
            k->sandbox = (enum known_sandbox)s;
        }
    }
    return true;
}

/* Parses and validates catalog text; NULL with the reason in e when it is malformed. */
static struct catalog *catalog_parse(const char *text, size_t len, struct bw_cerr *e)
{
    static const char *const ROOT[] = {"version", "tool_words", "capabilities", "frameworks", NULL};
    static const char *const TOOL_WORDS[] = {"read_only", "read", "write", "negation", "wildcard", "sandbox", NULL};
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        bw_cerr_fail(e, "invalid JSON at line %d: %s", je.line, je.text);
        return NULL;
    }
    struct catalog *c = calloc(1, sizeof *c);
    bool ok = c != NULL || lfail_oom(e);
    ok = ok && (json_is_object(doc) || bw_cerr_fail(e, "the document must be an object"));
    ok = ok && bw_cerr_only_keys(doc, ROOT, false, "catalog", e);
    ok = ok && (json_is_string(json_object_get(doc, "version")) || bw_cerr_fail(e, "version must be a string"));
    const json_t *tw = json_object_get(doc, "tool_words");
    ok = ok && (json_is_object(tw) || bw_cerr_fail(e, "tool_words must be an object"));
    ok = ok && bw_cerr_only_keys(tw, TOOL_WORDS, false, "tool_words", e);
    ok = ok && get_words(tw, "read_only", "tool_words", false, &c->read_only, e);
    ok = ok && get_words(tw, "read", "tool_words", false, &c->read, e);
    ok = ok && get_words(tw, "write", "tool_words", false, &c->write, e);
    ok = ok && get_words(tw, "negation", "tool_words", true, &c->tool_neg, e);
    ok = ok && get_words(tw, "wildcard", "tool_words", false, &c->wildcard, e);
    ok = ok && get_words(tw, "sandbox", "tool_words", false, &c->sandbox, e);

    const json_t *caps = json_object_get(doc, "capabilities");
    ok = ok && ((json_is_array(caps) && json_array_size(caps) > 0 && json_array_size(caps) <= BW_AGENT_CAPS_MAX) ||
                bw_cerr_fail(e, "capabilities must be an array of 1 to %d items", BW_AGENT_CAPS_MAX));
    for (size_t i = 0; ok && i < json_array_size(caps); i++)
        ok = load_cap(json_array_get(caps, i), i, c, e);
    /* every agent-wide check needs its ingredients, or it would silently never fire */
    for (int leg = LEG_PRIVATE; ok && leg < LEG_COUNT; leg++) {
        bool found = false;
        for (size_t i = 0; i < c->ncap; i++)
            found = found || c->cap[i].leg == (enum leg)leg;
        ok = found || bw_cerr_fail(e, "no capability has trifecta \"%s\"", LEGS[leg]);
    }
    bool exec = false, persists = false;
    for (size_t i = 0; ok && i < c->ncap; i++) {
        exec = exec || c->cap[i].executes;
        persists = persists || c->cap[i].persists;
    }
    ok = ok && (exec || bw_cerr_fail(e, "no capability has executes_code"));
    ok = ok && (persists || bw_cerr_fail(e, "no capability persists"));

    const json_t *fws = json_object_get(doc, "frameworks");
    ok = ok && (json_is_object(fws) || bw_cerr_fail(e, "frameworks must be an object"));
    ok = ok && bw_cerr_only_keys(fws, AGENT_TYPES, false, "frameworks", e);
    for (int t = 0; ok && t < AT_COUNT; t++)
        ok = load_framework(json_object_get(fws, AGENT_TYPES[t]), t, c, e);
    for (int t = 0; ok && t < AT_COUNT; t++) {
        int f = c->tools_from[t];
        ok = f < 0 || (f != t && c->tools_from[f] < 0) ||
             bw_cerr_fail(e, "frameworks.%s.tools_from must name an agent type that has no tools_from of its own",
                   AGENT_TYPES[t]);
    }
    json_decref(doc);
    if (!ok) {
        catalog_free(c);
        return NULL;
    }
    return c;
}

/* The embedded catalog, parsed once; it lives as long as the process. */
static pthread_once_t catalog_once = PTHREAD_ONCE_INIT;
static struct catalog *catalog_embedded;

/* The capability ids of a catalog, for the instruction catalog's scopes to name. */
static size_t cap_ids(const struct catalog *c, const char *ids[BW_AGENT_CAPS_MAX])
{
    for (size_t i = 0; i < c->ncap; i++)
        ids[i] = c->cap[i].id;
    return c->ncap;
}

static void catalog_load_embedded(void)
{
    char why[256] = "not embedded in the binary";
    struct bw_cerr e = {why, sizeof why};
    const char *name = BW_AGENT_CATALOG;
    const struct bw_embedded *f = bw_embedded_find(name);
    if (f)
        catalog_embedded = catalog_parse((const char *)f->data, f->len, &e);
    if (catalog_embedded) {
        const char *ids[BW_AGENT_CAPS_MAX];
        size_t n = cap_ids(catalog_embedded, ids);
        name = BW_AGENT_INSTRUCTIONS;
        f = bw_embedded_find(name);
        snprintf(why, sizeof why, "not embedded in the binary");
        if (f && !(catalog_embedded->prompt = bw_ap_catalog_parse((const char *)f->data, f->len, ids, n, why, sizeof why))) {
            catalog_free(catalog_embedded);
            catalog_embedded = NULL;
        }
    }
    if (!catalog_embedded || !catalog_embedded->prompt) {
        /* stderr directly: the buffered log would be lost by abort() */
        fprintf(stderr, "bulwark: fatal: agent catalog %s: %s\n", name, why);
        abort();
    }
}

static const struct catalog *catalog(void)
{
    pthread_once(&catalog_once, catalog_load_embedded);
    return catalog_embedded;
}

void bw_agent_catalog_init(void) { (void)catalog(); }

int bw_agent_catalog_check(const char *text, size_t len, char *why, size_t why_len)
{
    char none[1];
    struct bw_cerr e = {why_len ? why : none, why_len ? why_len : sizeof none};
    e.buf[0] = '\0';
    struct catalog *c = catalog_parse(text, len, &e);
    catalog_free(c);
    return c ? 0 : -1;
}

size_t bw_agent_capability_count(void) { return catalog()->ncap; }

const struct bw_ap_catalog *bw_agent_instructions(void) { return catalog()->prompt; }

json_t *bw_agent_prompt_readings(const char *prompt, size_t len)
{
    static const char *const VERDICT[] = {"none", "unsafe", "guard"};
    static const char *const RISK[] = {"injection", "safety", "agency", "disclosure", "approval"};
    const struct bw_ap_catalog *pc = catalog()->prompt;
    struct bw_ap_reading *rd;
    size_t n;
    if (bw_ap_read(pc, prompt, len, &rd, &n) != 0)
        return NULL;
    json_t *out = json_array();
    for (size_t i = 0; out && i < n; i++) {
        const struct bw_ap_instr *in = bw_ap_instr_at(pc, rd[i].instr);
        json_t *risks = json_array(), *scopes = json_array();
        for (size_t k = 0; risks && k < sizeof RISK / sizeof RISK[0]; k++)
            if (in->risks & (1u << k))
                json_array_append_new(risks, json_string(RISK[k]));
        for (size_t k = 0; scopes && !rd[i].all && k < bw_ap_scope_count(pc); k++)
            if (rd[i].scopes & (UINT32_C(1) << k))
                json_array_append_new(scopes, json_string(bw_ap_scope_id(pc, k)));
        json_t *o = risks && scopes ? json_pack("{s:s,s:s,s:o,s:o,s:s%}", "instruction", in->id, "verdict",
                                                VERDICT[rd[i].verdict], "risks", risks, "scopes", scopes, "clause",
                                                prompt + rd[i].clause_off, rd[i].clause_len)
                                    : NULL;
        if (!o || json_array_append_new(out, o) != 0) {
            if (!o) {
                json_decref(risks);
                json_decref(scopes);
            }
            json_decref(out);
            out = NULL;
        }
    }
    free(rd);
    return out;
}

const char *bw_agent_capability_id(size_t i)
{
    const struct catalog *c = catalog();
    return i < c->ncap ? c->cap[i].id : NULL;
}

/* ---- secrets in the system prompt ---- */

/* Characters a token value is made of. */
static bool tokc(unsigned char c) { return c < 0x80 && (isalnum(c) || c == '-' || c == '_'); }

static bool prefix_ci(const char *s, size_t n, const char *p)
{
    size_t l = strlen(p);
    if (l > n)
        return false;
    for (size_t i = 0; i < l; i++)
        if (tolower((unsigned char)s[i]) != p[i])
            return false;
    return true;
}

/* A recognisable key format at s[i..]: prefix then at least min characters of the key alphabet. */
static bool key_at(const char *s, size_t n, size_t i, const char *prefix, size_t min, bool upper_only)
{
    size_t l = strlen(prefix);
    if (n - i < l || memcmp(s + i, prefix, l) != 0)
        return false;
    if (i > 0 && tokc((unsigned char)s[i - 1]))
        return false; /* inside a longer word */
    size_t k = 0;
    for (size_t j = i + l; j < n; j++, k++) {
        unsigned char c = (unsigned char)s[j];
        if (upper_only ? !(isupper(c) || isdigit(c)) : !tokc(c))
            break;
    }
    return k >= min;
}

/* "password: S3cret!", "API_KEY=abc123...", "token = '...'" with a value that looks real: at least
 * 6 characters with a digit or a symbol, or at least 16 characters. Placeholders ("<key>", "{KEY}",
 * "${KEY}", "****") do not count. */
static bool assignment_at(const char *s, size_t n, size_t i)
{
    static const char *const KW[] = {"password", "passwd", "pwd", "passphrase", "secret", "token", "api_key",
                                     "api-key", "apikey", "api key", "access_key", "access key", "private_key",
                                     NULL};
    if (i > 0 && isalnum((unsigned char)s[i - 1]))
        return false;
    size_t j = n;
    for (size_t k = 0; KW[k]; k++)
        if (prefix_ci(s + i, n - i, KW[k])) {
            j = i + strlen(KW[k]);
            break;
        }
    if (j == n)
        return false;
    /* secret_access_key, tokens, ...; bounded so "token-token-token..." stays linear */
    for (size_t k = 0; k < 32 && j < n && (isalpha((unsigned char)s[j]) || s[j] == '_' || s[j] == '-'); k++)
        j++;
    if (j < n && (s[j] == '"' || s[j] == '\''))
        j++;
    while (j < n && (s[j] == ' ' || s[j] == '\t'))
        j++;
    if (j >= n || (s[j] != ':' && s[j] != '='))
        return false;
    j++;
    while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '"' || s[j] == '\'' || s[j] == '`'))
        j++;
    if (j >= n || strchr("<{[($*%", s[j]))
        return false;
    size_t v = j, len = 0;
    bool digit_or_symbol = false, all_same = true;
    /* 64 characters are enough to decide; the bound keeps repeated keywords linear */
    while (v < n && len < 64 && !isspace((unsigned char)s[v]) && !strchr("\"'`,;", s[v])) {
        unsigned char c = (unsigned char)s[v];
        if (isdigit(c) || (c < 0x80 && ispunct(c) && c != '-' && c != '_' && c != '.'))
            digit_or_symbol = true;
        if (s[v] != s[j])
            all_same = false;
        v++;
        len++;
    }
    if (all_same)
        return false; /* "xxxxxxxx", "********" */
    return (len >= 6 && digit_or_symbol) || len >= 16;
}

int bw_agent_prompt_has_secret(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (key_at(s, n, i, "sk-", 20, false) || key_at(s, n, i, "AKIA", 16, true) ||
            key_at(s, n, i, "ASIA", 16, true) || key_at(s, n, i, "ghp_", 30, false) ||
            key_at(s, n, i, "gho_", 30, false) || key_at(s, n, i, "ghs_", 30, false) ||
            key_at(s, n, i, "github_pat_", 20, false) || key_at(s, n, i, "xoxb-", 10, false) ||
            key_at(s, n, i, "xoxp-", 10, false) || key_at(s, n, i, "AIza", 30, false) ||
            key_at(s, n, i, "glpat-", 20, false) || assignment_at(s, n, i))
            return 1;
        if (prefix_ci(s + i, n - i, "bearer ")) {
            size_t k = 0;
            for (size_t j = i + 7; j < n && (tokc((unsigned char)s[j]) || s[j] == '.'); j++)
                k++;
            if (k >= 20)
                return 1;
        }
        if (n - i >= 16 && memcmp(s + i, "PRIVATE KEY-----", 16) == 0)
            return 1;
    }
    return 0;
}


/* ---- tools ---- */

struct tool {
    const char *name; /* borrowed from the request body */
    size_t len;
    char *norm;                /* owned */
    uint32_t caps;             /* capability bit set */
    const char *why[BW_AGENT_CAPS_MAX]; /* the phrase that matched each capability (NULL for known tools) */
    const struct known *known; /* the framework's entry for this name, or NULL */
    bool wildcard;             /* a grant of every tool */
    bool sandbox_hint;         /* its name says it runs in a sandbox (docker, e2b, ...) */
};

/* "*", "**", or a whole name from the catalog's wildcard list ("all", "all tools", "everything"). */
static bool is_wildcard(const struct catalog *cat, const char *raw, size_t len, const char *norm)
{
    size_t stars = 0, other = 0;
    for (size_t i = 0; i < len; i++) {
        if (raw[i] == '*')
            stars++;
        else if (raw[i] != ' ' && raw[i] != '\t' && raw[i] != '.')
            other++;
    }
    if (stars > 0 && other == 0)
        return true;
    for (size_t i = 0; i < cat->wildcard.n; i++)
        if (strcmp(norm, cat->wildcard.v[i]) == 0)
            return true;
    return false;
}

/* Gives t (name and len set) its capabilities for an agent of the given type. False when out of
 * memory. */
static bool analyse_tool(const struct catalog *cat, int type, struct tool *t)
{
    if (!(t->norm = normalise(t->name, t->len)))
        return false;
    t->sandbox_hint = find_unnegated(t->norm, &cat->sandbox, &cat->tool_neg) != NULL;
    for (int pass = 0, tt = type; pass < 2 && tt >= 0; pass++, tt = cat->tools_from[type])
        for (size_t k = 0; k < cat->nknown[tt]; k++)
            if (strcmp(cat->known[tt][k].norm, t->norm) == 0) {
                t->known = &cat->known[tt][k];
                t->caps = t->known->caps;
                return true;
            }
    if (is_wildcard(cat, t->name, t->len, t->norm)) {
        t->wildcard = true;
        return true;
    }
    /* "read_file" only reads; "send_email" only writes; "gmail" may do both. A negated write verb
     * ("cannot delete") does not make a writer. */
    bool explicit_ro = find_any(t->norm, &cat->read_only) != NULL;
    bool reads = find_any(t->norm, &cat->read) != NULL;
    bool writes = find_unnegated(t->norm, &cat->write, &cat->tool_neg) != NULL;
    bool read_only = explicit_ro || (reads && !writes);
    bool write_only = !explicit_ro && writes && !reads;
    for (size_t k = 0; k < cat->ncap; k++) {
        const struct cap *c = &cat->cap[k];
        if ((c->applies == AP_WRITERS && read_only) || (c->applies == AP_READERS && write_only))
            continue;
        const char *p = find_unnegated(t->norm, &c->phrases, &cat->tool_neg);
        if (p) {
            t->caps |= UINT32_C(1) << k;
            t->why[k] = p;
        }
    }
    return true;
}

static int agent_type_index(const char *s)
{
    for (int i = 0; i < AT_COUNT; i++)
        if (strcmp(s, AGENT_TYPES[i]) == 0)
            return i;
    return -1;
}

json_t *bw_agent_tool_capabilities(const char *agent_type, const char *name)
{
    const struct catalog *cat = catalog();
    int type = agent_type ? agent_type_index(agent_type) : -1;
    if (type < 0 || !name)
        return NULL;
    struct tool t = {.name = name, .len = strlen(name)};
    json_t *out = analyse_tool(cat, type, &t) ? json_array() : NULL;
    for (size_t k = 0; out && k < cat->ncap; k++)
        if (t.caps & (UINT32_C(1) << k))
            json_array_append_new(out, json_string(cat->cap[k].id));
    free(t.norm);
    return out;
}

/* ---- framework options (config) ---- */

enum { UNSET = -1 };

/* Parsed config; every member UNSET unless given. Tri-states are 0/1. */
struct cfg {
    int sandbox, human_approval;
    int require_approval;             /* openai: 0 never, 1 always */
    int dangerous_requests, dangerous_code; /* langchain */
    int delegation, code_execution, human_input, code_mode; /* crewai; code_mode 0 unsafe, 1 safe */
    int code_config;                  /* autogen: 0 false, 1 an object */
    int use_docker;                   /* autogen: 0 false, 1 true or an image name */
    int human_input_mode;             /* autogen: 0 ALWAYS, 1 TERMINATE, 2 NEVER */
    const json_t *servers;            /* mcp: borrowed from the body */
};

static const struct cfg CFG_UNSET = {
    .sandbox = UNSET, .human_approval = UNSET, .require_approval = UNSET, .dangerous_requests = UNSET,
    .dangerous_code = UNSET, .delegation = UNSET, .code_execution = UNSET, .human_input = UNSET,
    .code_mode = UNSET, .code_config = UNSET, .use_docker = UNSET, .human_input_mode = UNSET, .servers = NULL};

enum opt_kind { OK_BOOL, OK_ENUM, OK_CODE_CONFIG, OK_SERVERS };

static const char *const REQUIRE_APPROVAL[] = {"never", "always", NULL};
static const char *const CODE_MODES[] = {"unsafe", "safe", NULL};
static const char *const HUMAN_INPUT_MODES[] = {"ALWAYS", "TERMINATE", "NEVER", NULL};
static const char *const TRANSPORTS[] = {"stdio", "sse", "http", "streamable_http", "websocket", NULL};
static const char *const AUTHS[] = {"none", "api_key", "bearer", "oauth", "oauth2", "mtls", "basic", NULL};

struct opt {
    const char *name;
    unsigned types; /* AT_BIT of the agent_types it applies to, 0 for any */
    enum opt_kind kind;
    const char *const *values; /* OK_ENUM */
    size_t field;              /* offsetof the int in struct cfg (OK_BOOL, OK_ENUM) */
};

#define CFG_FIELD(m) offsetof(struct cfg, m)
/* LangGraph agents run LangChain's tools, with their options; the Agents SDK's hosted MCP tool
 * takes require_approval as the Responses API does. */
#define AT_OPENAI_ANY (AT_BIT(AT_OPENAI) | AT_BIT(AT_OPENAI_AGENTS))
#define AT_LANGCHAIN_ANY (AT_BIT(AT_LANGCHAIN) | AT_BIT(AT_LANGGRAPH))
static const struct opt OPTS[] = {
    {"sandbox", 0, OK_BOOL, NULL, CFG_FIELD(sandbox)},
    {"human_approval", 0, OK_BOOL, NULL, CFG_FIELD(human_approval)},
    {"require_approval", AT_OPENAI_ANY, OK_ENUM, REQUIRE_APPROVAL, CFG_FIELD(require_approval)},
    {"allow_dangerous_requests", AT_LANGCHAIN_ANY, OK_BOOL, NULL, CFG_FIELD(dangerous_requests)},
    {"allow_dangerous_code", AT_LANGCHAIN_ANY, OK_BOOL, NULL, CFG_FIELD(dangerous_code)},
    {"allow_delegation", AT_BIT(AT_CREWAI), OK_BOOL, NULL, CFG_FIELD(delegation)},
    {"allow_code_execution", AT_BIT(AT_CREWAI), OK_BOOL, NULL, CFG_FIELD(code_execution)},
    {"code_execution_mode", AT_BIT(AT_CREWAI), OK_ENUM, CODE_MODES, CFG_FIELD(code_mode)},
    {"human_input", AT_BIT(AT_CREWAI), OK_BOOL, NULL, CFG_FIELD(human_input)},
    {"code_execution_config", AT_BIT(AT_AUTOGEN), OK_CODE_CONFIG, NULL, 0},
    {"human_input_mode", AT_BIT(AT_AUTOGEN), OK_ENUM, HUMAN_INPUT_MODES, CFG_FIELD(human_input_mode)},
    {"servers", AT_BIT(AT_MCP), OK_SERVERS, NULL, 0},
};

static void verr(json_t *errors, const char *field, const char *msg)
{
    if (json_array_size(errors) < BW_MAX_ERRORS)
        json_array_append_new(errors, json_pack("{s:s,s:s}", "field", field, "message", msg));
}

/* "must be one of a, b, c" into buf. */
static const char *one_of(char *buf, size_t len, const char *const *values)
{
    size_t n = (size_t)snprintf(buf, len, "must be one of");
    for (size_t i = 0; values[i] && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s %s", i ? "," : "", values[i]);
    return buf;
}

static bool string_chars_in(const json_t *v, size_t min, size_t max)
{
    if (!json_is_string(v))
        return false;
    size_t c = bw_utf8_chars(json_string_value(v), json_string_length(v));
    return c >= min && c <= max;
}

static bool has_url_scheme(const char *s)
{
    static const char *const SCHEMES[] = {"http://", "https://", "ws://", "wss://", NULL};
    for (size_t i = 0; SCHEMES[i]; i++)
        if (strncasecmp(s, SCHEMES[i], strlen(SCHEMES[i])) == 0 && s[strlen(SCHEMES[i])] != '\0')
            return true;
    return false;
}

static void validate_servers(const json_t *v, json_t *errs)
{
    static const char *const KEYS[] = {"name", "transport", "url", "auth", NULL};
    char field[96], msg[160];
    if (!json_is_array(v)) {
        verr(errs, "config.servers", "must be an array of objects");
        return;
    }
    if (json_array_size(v) > BW_AGENT_SERVERS_MAX) {
        snprintf(msg, sizeof msg, "must have at most %d items", BW_AGENT_SERVERS_MAX);
        verr(errs, "config.servers", msg);
        return;
    }
    size_t i;
    json_t *s;
    json_array_foreach(v, i, s) {
        if (!json_is_object(s)) {
            snprintf(field, sizeof field, "config.servers[%zu]", i);
            verr(errs, field, "must be an object");
            continue;
        }
        const char *key;
        json_t *m;
        json_object_foreach(s, key, m) {
            if (index_of(key, KEYS) >= 0)
                continue;
            if (strlen(key) <= 32)
                snprintf(field, sizeof field, "config.servers[%zu].%s", i, key);
            else
                snprintf(field, sizeof field, "config.servers[%zu]", i);
            verr(errs, field, "is not a known member (name, transport, url, auth)");
        }
        snprintf(field, sizeof field, "config.servers[%zu].name", i);
        if (!string_chars_in(json_object_get(s, "name"), 1, BW_AGENT_SERVER_NAME_CHARS_MAX)) {
            snprintf(msg, sizeof msg, "is required: a string of 1 to %d characters", BW_AGENT_SERVER_NAME_CHARS_MAX);
            verr(errs, field, msg);
        }
        snprintf(field, sizeof field, "config.servers[%zu].transport", i);
        const json_t *tr = json_object_get(s, "transport");
        if (!json_is_string(tr) || index_of(json_string_value(tr), TRANSPORTS) < 0)
            verr(errs, field, one_of(msg, sizeof msg, TRANSPORTS));
        const json_t *url = json_object_get(s, "url");
        if (url && !json_is_null(url)) {
            snprintf(field, sizeof field, "config.servers[%zu].url", i);
            if (!string_chars_in(url, 1, BW_AGENT_URL_CHARS_MAX) || !has_url_scheme(json_string_value(url))) {
                snprintf(msg, sizeof msg, "must be an http, https, ws or wss URL of at most %d characters",
                         BW_AGENT_URL_CHARS_MAX);
                verr(errs, field, msg);
            }
        }
        const json_t *auth = json_object_get(s, "auth");
        if (auth && !json_is_null(auth) && (!json_is_string(auth) || index_of(json_string_value(auth), AUTHS) < 0)) {
            snprintf(field, sizeof field, "config.servers[%zu].auth", i);
            verr(errs, field, one_of(msg, sizeof msg, AUTHS));
        }
    }
}

/* Validates config (an object or absent) into errs and parses it into out. type is the agent_type
 * index, or -1 when that is itself invalid (then options are checked for their own shape only). */
static void read_config(const json_t *cfg, int type, json_t *errs, struct cfg *out)
{
    *out = CFG_UNSET;
    if (!cfg || json_is_null(cfg))
        return;
    if (!json_is_object(cfg)) {
        verr(errs, "config", "must be an object");
        return;
    }
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)cfg, key, v) {
        char field[96], msg[160];
        /* a long or odd key is not echoed into the field name */
        if (strlen(key) <= 48)
            snprintf(field, sizeof field, "config.%s", key);
        else
            snprintf(field, sizeof field, "config");
        const struct opt *o = NULL;
        for (size_t i = 0; i < sizeof OPTS / sizeof OPTS[0] && !o; i++)
            if (strcmp(key, OPTS[i].name) == 0)
                o = &OPTS[i];
        if (!o) {
            verr(errs, field, "is not a known option");
            continue;
        }
        if (o->types && type >= 0 && !(o->types & AT_BIT(type))) {
            size_t n = (size_t)snprintf(msg, sizeof msg, "applies only to agent_type");
            for (int t = 0, k = 0; t < AT_COUNT && n < sizeof msg; t++)
                if (o->types & AT_BIT(t))
                    n += (size_t)snprintf(msg + n, sizeof msg - n, "%s %s", k++ ? " or" : "", AGENT_TYPES[t]);
            verr(errs, field, msg);
            continue;
        }
        if (json_is_null(v))
            continue; /* null = absent */
        int *slot = o->kind == OK_BOOL || o->kind == OK_ENUM ? (int *)((char *)out + o->field) : NULL;
        switch (o->kind) {
        case OK_BOOL:
            if (json_is_boolean(v))
                *slot = json_is_true(v);
            else
                verr(errs, field, "must be a boolean");
            break;
        case OK_ENUM: {
            int i = json_is_string(v) ? index_of(json_string_value(v), o->values) : -1;
            if (i >= 0)
                *slot = i;
            else
                verr(errs, field, one_of(msg, sizeof msg, o->values));
            break;
        }
        case OK_CODE_CONFIG:
            if (json_is_false(v)) {
                out->code_config = 0;
            } else if (json_is_object(v)) {
                /* AutoGen's other members (work_dir, timeout, last_n_messages, executor) pass through */
                out->code_config = 1;
                const json_t *d = json_object_get(v, "use_docker");
                if (json_is_boolean(d))
                    out->use_docker = json_is_true(d);
                else if (string_chars_in(d, 1, BW_AGENT_TOOL_CHARS_MAX))
                    out->use_docker = 1; /* an image name: Docker */
                else if (d && !json_is_null(d))
                    verr(errs, "config.code_execution_config.use_docker",
                         "must be a boolean or a Docker image name of 1 to 256 characters");
            } else {
                verr(errs, field, "must be false or an object");
            }
            break;
        case OK_SERVERS:
            validate_servers(v, errs);
            out->servers = v;
            break;
        }
    }
}

/* ---- issues ---- */

enum subj { SUBJ_NONE, SUBJ_TOOL, SUBJ_SERVER, SUBJ_OPTION };

struct issue {
    enum bw_agent_check check;
    enum sev sev;
    enum subj kind;
    const char *subj; /* tool, server or option name (borrowed), NULL for agent-wide issues */
    size_t subj_len;
    char *message; /* owned */
    size_t message_len;
    const char *remediation; /* static or catalog-owned */
    const char *atlas[BW_AGENT_ISSUE_ATLAS_MAX];
    size_t natlas;
    json_t *tools; /* owned: the `tools` member (LETHAL_TRIFECTA, MISSING_HUMAN_APPROVAL), or NULL */
    json_t *caps;  /* owned: the `capabilities` member (OVER_PRIVILEGED_TOOL), or NULL */
    const struct bw_ap_reading *reading; /* the prompt clause the verdict read (`clause`, `instruction`), or NULL */
};

/* Messages are built in a struct bw_sb (common/sbuf.h); on allocation failure it stays failed and
 * the scan reports out of memory. */

/* A tool, server or option name in quotes. */
static void sb_name(struct bw_sb *b, const char *s, size_t n)
{
    bw_sb_putn(b, "'", 1);
    bw_sb_putn(b, s, n);
    bw_sb_putn(b, "'", 1);
}

/* A catalog phrase without its padding spaces, in double quotes. */
static void sb_phrase(struct bw_sb *b, const char *padded)
{
    bw_sb_putn(b, "\"", 1);
    bw_sb_putn(b, padded + 1, strlen(padded) - 2);
    bw_sb_putn(b, "\"", 1);
}

struct ctx {
    const struct catalog *cat;
    int type;
    struct tool *tools;
    size_t ntools;
    struct cfg cfg;
    const char *prompt; /* NULL when absent */
    size_t prompt_len;
    struct bw_ap_reading *rd; /* owned: what the prompt says, clause by clause */
    size_t nrd;
    struct issue *v;
    size_t n, cap;
    bool oom;
};

/* A reading's clause as quoted: whitespace runs as one space, at most BW_AGENT_CLAUSE_QUOTE_MAX
 * bytes, cut before a UTF-8 continuation byte and marked with "..." when cut. */
static void sb_clause_text(struct bw_sb *b, const struct ctx *c, const struct bw_ap_reading *r)
{
    const char *s = c->prompt + r->clause_off;
    size_t n = r->clause_len, out = 0;
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            space = true;
            continue;
        }
        if (out + (space ? 1 : 0) + 1 > BW_AGENT_CLAUSE_QUOTE_MAX - 3 && (ch & 0xc0) != 0x80) {
            bw_sb_puts(b, "...");
            return;
        }
        if (space)
            bw_sb_putc(b, ' '), out++;
        space = false;
        bw_sb_putc(b, (char)ch);
        out++;
    }
}

/* The clause in double quotes. */
static void sb_clause(struct bw_sb *b, const struct ctx *c, const struct bw_ap_reading *r)
{
    bw_sb_putc(b, '"');
    sb_clause_text(b, c, r);
    bw_sb_putc(b, '"');
}

/* Appends an issue and takes the message from b (which is reset). Returns the issue (valid until
 * the next add) or NULL when out of memory. */
static struct issue *add(struct ctx *c, enum bw_agent_check check, enum sev sev, enum subj kind, const char *subj,
                         size_t subj_len, struct bw_sb *b)
{
    if (b->oom || !b->p)
        c->oom = true;
    if (!c->oom && !BW_VEC_RESERVE(c->v, c->cap, c->n + 1, BW_VEC_UNBOUNDED))
        c->oom = true;
    if (c->oom) {
        free(b->p);
        *b = (struct bw_sb){0};
        return NULL;
    }
    struct issue *is = &c->v[c->n++];
    *is = (struct issue){.check = check, .sev = sev, .kind = kind, .subj = subj, .subj_len = subj_len,
                         .message = b->p, .message_len = b->len, .remediation = CHECKS[check].remediation};
    for (size_t i = 0; i < BW_AGENT_CHECK_ATLAS_MAX && CHECKS[check].atlas[i]; i++)
        is->atlas[is->natlas++] = CHECKS[check].atlas[i];
    *b = (struct bw_sb){0};
    return is;
}

static void add_atlas(struct issue *is, const char *id)
{
    for (size_t i = 0; i < is->natlas; i++)
        if (strcmp(is->atlas[i], id) == 0)
            return;
    if (is->natlas < BW_AGENT_ISSUE_ATLAS_MAX)
        is->atlas[is->natlas++] = id;
}

static void add_cap_atlas(const struct catalog *cat, struct issue *is, uint32_t caps)
{
    for (size_t k = 0; k < cat->ncap; k++)
        if (caps & (UINT32_C(1) << k))
            for (size_t i = 0; i < cat->cap[k].natlas; i++)
                add_atlas(is, cat->cap[k].atlas[i]);
}

/* Why a tool has capability k: the phrase that matched, or the framework's table. */
static void sb_why(struct bw_sb *b, const struct ctx *c, const struct tool *t, size_t k)
{
    if (t->why[k]) {
        bw_sb_puts(b, "matched ");
        sb_phrase(b, t->why[k]);
    } else {
        bw_sb_puts(b, "known ");
        bw_sb_puts(b, AGENT_TYPES[c->type]);
        bw_sb_puts(b, " tool");
    }
}

static void issue_free(struct issue *is)
{
    free(is->message);
    json_decref(is->tools);
    json_decref(is->caps);
}

/* ---- sandboxes and approval ---- */

enum sbx { SBX_NO_SIGNAL, SBX_FW_OFF, SBX_CFG_OFF, SBX_PROVIDER, SBX_FW_ON, SBX_CFG_ON, SBX_DEFAULT_ON, SBX_NAME };

static bool sandboxed(enum sbx s) { return s >= SBX_PROVIDER; }

/* Where a code or shell tool runs: provider-hosted, the framework's own option (crewai
 * code_execution_mode for its CodeInterpreterTool), config.sandbox, the framework's default, a
 * sandbox word in the name, in that order. */
static enum sbx tool_sandbox(const struct ctx *c, const struct tool *t)
{
    if (t->known && t->known->sandbox == KS_PROVIDER)
        return SBX_PROVIDER;
    if (t->known && t->known->sandbox == KS_DEFAULT && c->type == AT_CREWAI && c->cfg.code_mode != UNSET)
        return c->cfg.code_mode ? SBX_FW_ON : SBX_FW_OFF;
    if (c->cfg.sandbox != UNSET)
        return c->cfg.sandbox ? SBX_CFG_ON : SBX_CFG_OFF;
    if (t->known && t->known->sandbox == KS_DEFAULT)
        return SBX_DEFAULT_ON;
    return t->sandbox_hint ? SBX_NAME : SBX_NO_SIGNAL;
}

static const char *sbx_reason(const struct ctx *c, enum sbx s)
{
    switch (s) {
    case SBX_FW_OFF:
        return c->type == AT_AUTOGEN ? "code_execution_config.use_docker is false" : "code_execution_mode is \"unsafe\"";
    case SBX_CFG_OFF:
        return "config.sandbox is false";
    case SBX_PROVIDER:
        return "it runs in the provider's hosted sandbox";
    case SBX_FW_ON:
        return c->type == AT_AUTOGEN ? "code_execution_config.use_docker is set" : "code_execution_mode is \"safe\"";
    case SBX_CFG_ON:
        return "config.sandbox is true";
    case SBX_DEFAULT_ON:
        return "the framework runs it in Docker by default";
    case SBX_NAME:
        return "its name says it runs in a sandbox";
    case SBX_NO_SIGNAL:
        break;
    }
    return "nothing shows it runs in a sandbox (no sandbox option, no docker or sandbox word in its name)";
}

/* Code execution switched on by a framework option rather than a tool. */
struct exec_option {
    const char *option; /* the config member */
    const char *what;   /* the start of the message */
    enum sbx sbx;
};

static bool exec_option(const struct ctx *c, struct exec_option *x)
{
    const struct cfg *f = &c->cfg;
    if (c->type == AT_AUTOGEN && f->code_config == 1) {
        *x = (struct exec_option){"code_execution_config",
                                  "AutoGen code execution is on (code_execution_config): code blocks in model "
                                  "messages are executed",
                                  f->use_docker != UNSET ? (f->use_docker ? SBX_FW_ON : SBX_FW_OFF)
                                  : f->sandbox != UNSET  ? (f->sandbox ? SBX_CFG_ON : SBX_CFG_OFF)
                                                         : SBX_NO_SIGNAL};
        return true;
    }
    bool listed = false; /* CrewAI's CodeInterpreterTool is how allow_code_execution runs code */
    for (size_t i = 0; i < c->ntools && !listed; i++)
        listed = c->tools[i].known && c->tools[i].known->sandbox == KS_DEFAULT;
    if (c->type == AT_CREWAI && f->code_execution == 1 && !listed) {
        *x = (struct exec_option){"allow_code_execution",
                                  "CrewAI allow_code_execution is on: the agent executes the Python it writes",
                                  f->code_mode != UNSET ? (f->code_mode ? SBX_FW_ON : SBX_FW_OFF)
                                  : f->sandbox != UNSET ? (f->sandbox ? SBX_CFG_ON : SBX_CFG_OFF)
                                                        : SBX_DEFAULT_ON};
        return true;
    }
    if ((AT_BIT(c->type) & AT_LANGCHAIN_ANY) && f->dangerous_code == 1) {
        *x = (struct exec_option){"allow_dangerous_code",
                                  "LangChain allow_dangerous_code is on: model-written Python runs inside the "
                                  "application process",
                                  f->sandbox != UNSET ? (f->sandbox ? SBX_CFG_ON : SBX_CFG_OFF) : SBX_NO_SIGNAL};
        return true;
    }
    return false;
}

/* The capabilities of t that need a human to approve each use (executing ones only when not
 * sandboxed); wildcards need it for everything. */
static uint32_t approval_caps(const struct ctx *c, const struct tool *t, bool *any)
{
    uint32_t need = 0;
    bool box = sandboxed(tool_sandbox(c, t));
    for (size_t k = 0; k < c->cat->ncap; k++) {
        const struct cap *cp = &c->cat->cap[k];
        if ((t->caps & (UINT32_C(1) << k)) && cp->needs_approval && !(cp->executes && box))
            need |= UINT32_C(1) << k;
    }
    *any = need != 0 || t->wildcard;
    return need;
}

enum appr { APPR_UNKNOWN, APPR_NO, APPR_YES };

struct approval {
    enum appr state;     /* APPR_UNKNOWN: no option says; the prompt is read per tool */
    bool enforced;       /* by a framework or config option, not only asked for in the prompt */
    const char *reason;  /* static text */
};

/* Whether a framework option or config.human_approval makes a human approve risky calls. */
static struct approval approval(const struct ctx *c)
{
    const struct cfg *f = &c->cfg;
    if (c->type == AT_AUTOGEN && f->human_input_mode != UNSET) {
        static const char *const WHY[] = {"human_input_mode is \"ALWAYS\"",
                                          "human_input_mode is \"TERMINATE\" (a human is asked only at the end)",
                                          "human_input_mode is \"NEVER\""};
        return (struct approval){f->human_input_mode == 0 ? APPR_YES : APPR_NO, true, WHY[f->human_input_mode]};
    }
    if (c->type == AT_CREWAI && f->human_input != UNSET)
        return (struct approval){f->human_input ? APPR_YES : APPR_NO, true,
                                 f->human_input ? "human_input is true" : "human_input is false"};
    if ((AT_BIT(c->type) & AT_OPENAI_ANY) && f->require_approval != UNSET)
        return (struct approval){f->require_approval ? APPR_YES : APPR_NO, true,
                                 f->require_approval ? "require_approval is \"always\"" : "require_approval is \"never\""};
    if (f->human_approval != UNSET)
        return (struct approval){f->human_approval ? APPR_YES : APPR_NO, true,
                                 f->human_approval ? "config.human_approval is true" : "config.human_approval is false"};
    return (struct approval){APPR_UNKNOWN, false, NULL};
}

/* What the prompt says about approving an action (a tool's capabilities caps needing approval;
 * norm its normalised name, NULL for a framework option): the first unsafe approval reading that
 * covers it ("never ask for confirmation"), else the first guard that does ("always ask before
 * running commands"), else NULL. *guarded: a guard decided it. A guard for payments does not
 * cover shell execution; an unsafe reading wins over a guard. */
static const struct bw_ap_reading *prompt_approval(const struct ctx *c, uint32_t caps, const char *norm, bool wildcard,
                                                   bool *guarded)
{
    const struct bw_ap_reading *guard = NULL;
    *guarded = false;
    for (size_t i = 0; i < c->nrd; i++) {
        const struct bw_ap_reading *r = &c->rd[i];
        if (!(bw_ap_instr_at(c->cat->prompt, r->instr)->risks & BW_AP_APPROVAL) ||
            !bw_ap_covers(c->cat->prompt, r, caps, norm, wildcard))
            continue;
        if (r->verdict == BW_AP_UNSAFE)
            return r;
        if (!guard)
            guard = r;
    }
    *guarded = guard != NULL;
    return guard;
}

/* Names up to BW_AGENT_TOOLS_NAMED tools from list (a JSON array of strings): "'a', 'b' and 3 more". */
static void sb_tool_list(struct bw_sb *b, const json_t *list)
{
    size_t n = json_array_size(list), shown = n < BW_AGENT_TOOLS_NAMED ? n : BW_AGENT_TOOLS_NAMED;
    for (size_t i = 0; i < shown; i++) {
        if (i > 0)
            bw_sb_puts(b, i + 1 == shown && shown == n ? " and " : ", ");
        const json_t *s = json_array_get(list, i);
        sb_name(b, json_string_value(s), json_string_length(s));
    }
    if (shown < n) {
        bw_sb_puts(b, " and ");
        bw_sb_printf(b, "%zu", n - shown);
        bw_sb_puts(b, " more");
    }
}

/* Appends a tool name to a JSON list unless it is already there. */
static bool list_add_tool(json_t *list, const struct tool *t)
{
    size_t i;
    json_t *s;
    json_array_foreach(list, i, s) {
        if (json_string_length(s) == t->len && memcmp(json_string_value(s), t->name, t->len) == 0)
            return true;
    }
    return json_array_append_new(list, json_stringn(t->name, t->len)) == 0;
}

/* ---- the checks ---- */

static void check_secret(struct ctx *c)
{
    if (!c->prompt || !bw_agent_prompt_has_secret(c->prompt, c->prompt_len))
        return;
    struct bw_sb b = {0};
    bw_sb_puts(&b, "The system prompt contains what looks like a credential (an API key, token, password or private "
                   "key). System prompts can be extracted by users and end up in logs and traces, so treat it as "
                   "exposed (also LLM02).");
    add(c, BW_AC_SECRET_IN_SYSTEM_PROMPT, SEV_CRITICAL, SUBJ_NONE, NULL, 0, &b);
}

static void check_trifecta(struct ctx *c, const struct approval *ap)
{
    /* per leg the first tool (request order) not already named for an earlier leg, else the first */
    const struct tool *leg[LEG_COUNT] = {0};
    size_t legcap[LEG_COUNT] = {0};
    for (int l = LEG_PRIVATE; l < LEG_COUNT; l++)
        for (int pass = 0; pass < 2 && !leg[l]; pass++)
            for (size_t i = 0; i < c->ntools && !leg[l]; i++) {
                const struct tool *t = &c->tools[i];
                if (pass == 0 && ((l > LEG_PRIVATE && leg[LEG_PRIVATE] == t) || (l > LEG_UNTRUSTED && leg[LEG_UNTRUSTED] == t)))
                    continue;
                for (size_t k = 0; k < c->cat->ncap && !leg[l]; k++)
                    if (c->cat->cap[k].leg == (enum leg)l && (t->caps & (UINT32_C(1) << k))) {
                        leg[l] = t;
                        legcap[l] = k;
                    }
            }
    if (!leg[LEG_PRIVATE] || !leg[LEG_UNTRUSTED] || !leg[LEG_EXFIL])
        return;
    static const char *const ROLE[LEG_COUNT] = {"", " reads private data (", " brings untrusted content into the context (",
                                                " can send data out ("};
    struct bw_sb b = {0};
    for (int l = LEG_PRIVATE; l < LEG_COUNT; l++) {
        bw_sb_puts(&b, l == LEG_PRIVATE ? "" : l == LEG_EXFIL ? " and " : ", ");
        sb_name(&b, leg[l]->name, leg[l]->len);
        bw_sb_puts(&b, ROLE[l]);
        bw_sb_puts(&b, c->cat->cap[legcap[l]].name);
        bw_sb_puts(&b, ", ");
        sb_why(&b, c, leg[l], legcap[l]);
        bw_sb_puts(&b, ")");
    }
    bw_sb_puts(&b, ": one instruction hidden in that content can make the agent read private data and send it to an "
                   "attacker, with no vulnerability in any single tool.");
    enum sev sev = SEV_CRITICAL;
    if (ap->state == APPR_YES && ap->enforced) {
        sev = SEV_HIGH; /* each outbound call waits for a person, who can still be misled */
        bw_sb_puts(&b, " Human approval is enforced (");
        bw_sb_puts(&b, ap->reason);
        bw_sb_puts(&b, "), which stops it only if approvers read what is being sent.");
    }
    json_t *tools = json_array();
    for (int l = LEG_PRIVATE; tools && l < LEG_COUNT; l++)
        if (json_array_append_new(tools, json_stringn(leg[l]->name, leg[l]->len)) != 0) {
            json_decref(tools);
            tools = NULL;
        }
    if (!tools)
        b.oom = true;
    struct issue *is = add(c, BW_AC_LETHAL_TRIFECTA, sev, SUBJ_NONE, NULL, 0, &b);
    if (!is) {
        json_decref(tools);
        return;
    }
    is->tools = tools;
    for (int l = LEG_PRIVATE; l < LEG_COUNT; l++)
        add_cap_atlas(c->cat, is, UINT32_C(1) << legcap[l]);
}

static void check_execution(struct ctx *c)
{
    for (size_t i = 0; i < c->ntools; i++) {
        const struct tool *t = &c->tools[i];
        size_t k = 0;
        while (k < c->cat->ncap && !((t->caps & (UINT32_C(1) << k)) && c->cat->cap[k].executes))
            k++;
        if (k == c->cat->ncap)
            continue;
        enum sbx s = tool_sandbox(c, t);
        if (sandboxed(s))
            continue;
        struct bw_sb b = {0};
        sb_name(&b, t->name, t->len);
        bw_sb_puts(&b, " executes model-written code or commands (");
        bw_sb_puts(&b, c->cat->cap[k].name);
        bw_sb_puts(&b, ", ");
        sb_why(&b, c, t, k);
        bw_sb_puts(&b, ") and ");
        bw_sb_puts(&b, sbx_reason(c, s));
        bw_sb_puts(&b, ": it runs with the host's files, network and credentials, so an injected instruction becomes "
                       "code execution on the host.");
        struct issue *is = add(c, BW_AC_CODE_EXECUTION_WITHOUT_SANDBOX, SEV_CRITICAL, SUBJ_TOOL, t->name, t->len, &b);
        if (is)
            add_cap_atlas(c->cat, is, UINT32_C(1) << k);
    }
    struct exec_option x;
    if (exec_option(c, &x) && !sandboxed(x.sbx)) {
        struct bw_sb b = {0};
        bw_sb_puts(&b, x.what);
        bw_sb_puts(&b, " and ");
        bw_sb_puts(&b, sbx_reason(c, x.sbx));
        bw_sb_puts(&b, ": the code runs with the host's files, network and credentials.");
        add(c, BW_AC_CODE_EXECUTION_WITHOUT_SANDBOX, SEV_CRITICAL, SUBJ_OPTION, x.option, strlen(x.option), &b);
    }
}

static void check_privileges(struct ctx *c)
{
    for (size_t i = 0; i < c->ntools; i++) {
        const struct tool *t = &c->tools[i];
        if (t->wildcard) {
            struct bw_sb b = {0};
            sb_name(&b, t->name, t->len);
            bw_sb_puts(&b, " grants every tool the runtime offers: the agent's capabilities are unbounded and cannot "
                           "be reviewed.");
            add(c, BW_AC_WILDCARD_TOOL_GRANT, SEV_HIGH, SUBJ_TOOL, t->name, t->len, &b);
            continue;
        }
        enum sbx s = tool_sandbox(c, t);
        enum sev worst = SEV_NONE;
        size_t wk = 0;
        uint32_t over = 0;
        for (size_t k = 0; k < c->cat->ncap; k++) {
            const struct cap *cp = &c->cat->cap[k];
            if (!(t->caps & (UINT32_C(1) << k)) || !cp->over_privileged)
                continue;
            over |= UINT32_C(1) << k;
            /* a sandbox contains an executing capability but does not make it narrow */
            enum sev sv = cp->executes && sandboxed(s) && cp->sev > SEV_LOW ? (enum sev)(cp->sev - 1) : cp->sev;
            if (sv > worst) {
                worst = sv;
                wk = k;
            }
        }
        if (!over)
            continue;
        struct bw_sb b = {0};
        sb_name(&b, t->name, t->len);
        bw_sb_puts(&b, " grants ");
        json_t *ids = json_array();
        size_t shown = 0;
        for (size_t k = 0; k < c->cat->ncap; k++) {
            if (!(over & (UINT32_C(1) << k)))
                continue;
            bw_sb_puts(&b, shown++ ? "; " : "");
            bw_sb_puts(&b, c->cat->cap[k].name);
            bw_sb_puts(&b, " (");
            sb_why(&b, c, t, k);
            bw_sb_puts(&b, ")");
            if (ids && json_array_append_new(ids, json_string(c->cat->cap[k].id)) != 0) {
                json_decref(ids);
                ids = NULL;
            }
        }
        bw_sb_puts(&b, shown > 1 ? ". The worst, " : ": ");
        if (shown > 1) {
            bw_sb_puts(&b, c->cat->cap[wk].name);
            bw_sb_puts(&b, ": ");
        }
        bw_sb_puts(&b, c->cat->cap[wk].risk);
        bw_sb_puts(&b, ".");
        if (c->cat->cap[wk].executes && sandboxed(s)) {
            bw_sb_puts(&b, " It runs in a sandbox (");
            bw_sb_puts(&b, sbx_reason(c, s));
            bw_sb_puts(&b, "), which contains the damage but does not narrow what it can do.");
        }
        if (!ids)
            b.oom = true;
        struct issue *is = add(c, BW_AC_OVER_PRIVILEGED_TOOL, worst, SUBJ_TOOL, t->name, t->len, &b);
        if (!is) {
            json_decref(ids);
            continue;
        }
        is->remediation = c->cat->cap[wk].remediation;
        is->caps = ids;
        add_cap_atlas(c->cat, is, over);
    }
}

static void check_approval(struct ctx *c, const struct approval *ap)
{
    if (ap->state == APPR_YES)
        return;
    json_t *tools = json_array();
    uint32_t caps = 0;
    bool any = false;
    const struct bw_ap_reading *said = NULL; /* the unsafe clause that cited, or a guard that did not cover */
    for (size_t i = 0; tools && i < c->ntools; i++) {
        const struct tool *t = &c->tools[i];
        bool need, guarded = false;
        uint32_t tc = approval_caps(c, t, &need);
        if (!need)
            continue;
        const struct bw_ap_reading *r =
            ap->state == APPR_NO ? NULL : prompt_approval(c, tc, t->norm, t->wildcard, &guarded);
        if (guarded)
            continue;
        if (r && (!said || said->verdict != BW_AP_UNSAFE))
            said = r;
        caps |= tc;
        any = true;
        if (!list_add_tool(tools, t)) {
            json_decref(tools);
            tools = NULL;
        }
    }
    struct exec_option x;
    bool opt = exec_option(c, &x) && !sandboxed(x.sbx);
    if (opt && ap->state != APPR_NO) {
        /* code execution through an option is covered by what covers code */
        uint32_t code = 0;
        for (size_t k = 0; k < c->cat->ncap; k++)
            if (c->cat->cap[k].executes)
                code |= UINT32_C(1) << k;
        bool guarded;
        const struct bw_ap_reading *r = prompt_approval(c, code, NULL, false, &guarded);
        opt = !guarded;
        if (opt && r && (!said || said->verdict != BW_AP_UNSAFE))
            said = r;
    }
    if (!tools) {
        c->oom = true;
        return;
    }
    if (!any && !opt) {
        json_decref(tools);
        return;
    }
    if (!said) /* a guard elsewhere in the prompt that covers none of these */
        for (size_t i = 0; i < c->nrd && !said && ap->state != APPR_NO; i++)
            if ((bw_ap_instr_at(c->cat->prompt, c->rd[i].instr)->risks & BW_AP_APPROVAL) &&
                c->rd[i].verdict == BW_AP_GUARD)
                said = &c->rd[i];
    struct bw_sb b = {0};
    if (any) {
        sb_tool_list(&b, tools);
        bw_sb_puts(&b, " can");
        if (opt) {
            bw_sb_puts(&b, ", and code execution through ");
            bw_sb_puts(&b, x.option);
            bw_sb_puts(&b, " can,");
        }
    } else {
        bw_sb_puts(&b, "Code execution through ");
        bw_sb_puts(&b, x.option);
        bw_sb_puts(&b, " can");
    }
    bw_sb_puts(&b, " take destructive or irreversible actions");
    size_t shown = 0;
    for (size_t k = 0; k < c->cat->ncap; k++)
        if (caps & (UINT32_C(1) << k)) {
            bw_sb_puts(&b, shown++ ? ", " : " (");
            bw_sb_puts(&b, c->cat->cap[k].name);
        }
    bw_sb_puts(&b, shown ? ")" : "");
    bw_sb_puts(&b, " and nothing requires a human to approve them: ");
    if (ap->state == APPR_NO) {
        bw_sb_puts(&b, ap->reason);
    } else if (said && said->verdict == BW_AP_UNSAFE) {
        bw_sb_puts(&b, "the system prompt says ");
        sb_clause(&b, c, said);
    } else if (said) {
        char scopes[128];
        bw_ap_scope_names(c->cat->prompt, said, scopes, sizeof scopes);
        bw_sb_puts(&b, "the system prompt asks for approval only for ");
        bw_sb_puts(&b, scopes);
        bw_sb_puts(&b, " (");
        sb_clause(&b, c, said);
        bw_sb_puts(&b, ")");
    } else {
        bw_sb_puts(&b, "no approval option is set and the system prompt never asks for confirmation");
    }
    bw_sb_puts(&b, ".");
    struct issue *is = add(c, BW_AC_MISSING_HUMAN_APPROVAL, SEV_HIGH, SUBJ_NONE, NULL, 0, &b);
    if (!is) {
        json_decref(tools);
        return;
    }
    is->reading = ap->state == APPR_NO ? NULL : said;
    if (json_array_size(tools) > 0)
        is->tools = tools;
    else
        json_decref(tools);
    add_cap_atlas(c->cat, is, caps);
}

static void check_mcp_servers(struct ctx *c)
{
    if (c->type != AT_MCP)
        return;
    size_t i;
    json_t *s;
    json_array_foreach(c->cfg.servers, i, s) {
        const char *tr = json_string_value(json_object_get(s, "transport"));
        const json_t *auth = json_object_get(s, "auth");
        bool none = !json_is_string(auth) || strcmp(json_string_value(auth), "none") == 0;
        if (!tr || strcmp(tr, "stdio") == 0 || !none)
            continue; /* a stdio server is a child process: there is no network peer to authenticate */
        const json_t *name = json_object_get(s, "name");
        struct bw_sb b = {0};
        bw_sb_puts(&b, "MCP server ");
        sb_name(&b, json_string_value(name), json_string_length(name));
        bw_sb_puts(&b, " is reached over ");
        bw_sb_puts(&b, tr);
        bw_sb_puts(&b, json_is_string(auth) ? " with auth \"none\"" : " with no auth configured");
        bw_sb_puts(&b, ": anyone who can reach it can call its tools, and the agent cannot tell it from an impostor "
                       "serving poisoned tool descriptions.");
        add(c, BW_AC_UNAUTHENTICATED_MCP_SERVER, SEV_HIGH, SUBJ_SERVER, json_string_value(name),
            json_string_length(name), &b);
    }
}

static void check_options(struct ctx *c)
{
    if ((AT_BIT(c->type) & AT_LANGCHAIN_ANY) && c->cfg.dangerous_requests == 1) {
        struct bw_sb b = {0};
        bw_sb_puts(&b, "LangChain allow_dangerous_requests is on: the requests tools may call any URL, including "
                       "internal services and cloud metadata endpoints (server-side request forgery), and carry data "
                       "to any host.");
        struct issue *is = add(c, BW_AC_UNSAFE_FRAMEWORK_OPTION, SEV_HIGH, SUBJ_OPTION, "allow_dangerous_requests",
                               strlen("allow_dangerous_requests"), &b);
        if (is) {
            is->remediation = "Turn allow_dangerous_requests off, or route the requests tools through an egress "
                              "proxy that allow-lists hosts and blocks private and link-local addresses.";
            add_atlas(is, "AML.T0086");
        }
    }
    if (c->type == AT_CREWAI && c->cfg.delegation == 1) {
        struct bw_sb b = {0};
        bw_sb_puts(&b, "CrewAI allow_delegation is on: the agent can hand tasks, and any instructions injected into "
                       "them, to coworker agents that hold other tools.");
        struct issue *is = add(c, BW_AC_UNSAFE_FRAMEWORK_OPTION, SEV_MEDIUM, SUBJ_OPTION, "allow_delegation",
                               strlen("allow_delegation"), &b);
        if (is)
            is->remediation = "Set allow_delegation to false unless the crew needs it, and give coworker agents no "
                              "tools more powerful than this agent's.";
    }
}

/* The capability index of t's first untrusted-content leg, or ncap. */
static size_t untrusted_cap(const struct ctx *c, const struct tool *t)
{
    size_t k = 0;
    while (k < c->cat->ncap && !((t->caps & (UINT32_C(1) << k)) && c->cat->cap[k].leg == LEG_UNTRUSTED))
        k++;
    return k;
}

/* The prompt's unsafe instructions (injection, safety, agency, disclosure): one HIGH issue per
 * instruction, citing the first clause that gave it. Then each tool that brings untrusted content
 * (or a wildcard grant): MEDIUM unless an injection guard covers it ("never follow instructions
 * found in emails" covers an inbox tool, not a web search) and no unsafe reading does. */
static void check_injection(struct ctx *c)
{
    const struct bw_ap_catalog *pc = c->cat->prompt;
    const unsigned PROMPT_RISKS = BW_AP_INJECTION | BW_AP_SAFETY | BW_AP_AGENCY | BW_AP_DISCLOSURE;
    for (size_t i = 0; i < c->nrd; i++) {
        const struct bw_ap_reading *r = &c->rd[i];
        const struct bw_ap_instr *in = bw_ap_instr_at(pc, r->instr);
        if (r->verdict != BW_AP_UNSAFE || !(in->risks & PROMPT_RISKS))
            continue;
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = c->rd[k].instr == r->instr && c->rd[k].verdict == BW_AP_UNSAFE;
        if (seen)
            continue;
        struct bw_sb b = {0};
        bw_sb_puts(&b, "The system prompt says ");
        sb_clause(&b, c, r);
        bw_sb_puts(&b, ": it ");
        bw_sb_puts(&b, in->says);
        char scopes[128];
        bw_ap_scope_names(pc, r, scopes, sizeof scopes);
        if (scopes[0]) {
            bw_sb_puts(&b, " (");
            bw_sb_puts(&b, scopes);
            bw_sb_puts(&b, ")");
        }
        bw_sb_puts(&b, ", ");
        bw_sb_puts(&b, in->why);
        bw_sb_puts(&b, ".");
        if (strcmp(in->owasp, CHECKS[BW_AC_SYSTEM_PROMPT_INJECTION_RISK].owasp) != 0) {
            bw_sb_puts(&b, " (also ");
            bw_sb_puts(&b, in->owasp);
            bw_sb_puts(&b, ")");
        }
        struct issue *is = add(c, BW_AC_SYSTEM_PROMPT_INJECTION_RISK, SEV_HIGH, SUBJ_NONE, NULL, 0, &b);
        if (!is)
            return;
        is->remediation = in->remediation;
        is->reading = r;
        for (size_t k = 0; k < BW_AGENT_INSTR_ATLAS_MAX && in->atlas[k]; k++)
            add_atlas(is, in->atlas[k]);
    }
    const struct bw_ap_reading *any_guard = NULL;
    for (size_t i = 0; i < c->nrd && !any_guard; i++)
        if ((bw_ap_instr_at(pc, c->rd[i].instr)->risks & BW_AP_INJECTION) && c->rd[i].verdict == BW_AP_GUARD)
            any_guard = &c->rd[i];
    for (size_t i = 0; i < c->ntools; i++) {
        const struct tool *t = &c->tools[i];
        size_t k = untrusted_cap(c, t);
        if (k == c->cat->ncap && !t->wildcard)
            continue;
        const struct bw_ap_reading *guard = NULL, *unsafe = NULL;
        for (size_t j = 0; j < c->nrd; j++) {
            const struct bw_ap_reading *r = &c->rd[j];
            if (!(bw_ap_instr_at(pc, r->instr)->risks & BW_AP_INJECTION) || !bw_ap_covers(pc, r, t->caps, t->norm, t->wildcard))
                continue;
            if (r->verdict == BW_AP_UNSAFE && !unsafe)
                unsafe = r;
            if (r->verdict == BW_AP_GUARD && !guard)
                guard = r;
        }
        if (guard && !unsafe)
            continue;
        struct bw_sb b = {0};
        sb_name(&b, t->name, t->len);
        if (t->wildcard) {
            bw_sb_puts(&b, " grants every tool, including ones that read untrusted content,");
        } else {
            bw_sb_puts(&b, " brings untrusted content into the context (");
            sb_why(&b, c, t, k);
            bw_sb_puts(&b, ")");
        }
        const struct bw_ap_reading *cite = unsafe ? unsafe : any_guard;
        if (unsafe) {
            bw_sb_puts(&b, " and the system prompt tells the agent to act on instructions in it (");
            sb_clause(&b, c, unsafe);
            bw_sb_puts(&b, "): indirect prompt injection by design.");
        } else if (any_guard) {
            char scopes[128];
            bw_ap_scope_names(pc, any_guard, scopes, sizeof scopes);
            bw_sb_puts(&b, " and the system prompt's guard against instructions in data (");
            sb_clause(&b, c, any_guard);
            bw_sb_puts(&b, ") covers ");
            bw_sb_puts(&b, scopes);
            bw_sb_puts(&b, " only: indirect prompt injection.");
        } else {
            bw_sb_puts(&b, c->prompt_len ? " and the system prompt never says to treat tool output as data rather than "
                                           "instructions: indirect prompt injection."
                                         : " and there is no system prompt to say that tool output is data rather "
                                           "than instructions: indirect prompt injection.");
        }
        enum sev sev = k < c->cat->ncap ? c->cat->cap[k].sev : SEV_MEDIUM;
        const struct cap *uc = k < c->cat->ncap ? &c->cat->cap[k] : NULL;
        if (!uc) /* a wildcard: explain with the catalog's untrusted-content capability */
            for (size_t j = 0; j < c->cat->ncap && !uc; j++)
                if (c->cat->cap[j].leg == LEG_UNTRUSTED)
                    uc = &c->cat->cap[j];
        struct issue *is = add(c, BW_AC_SYSTEM_PROMPT_INJECTION_RISK, sev, SUBJ_TOOL, t->name, t->len, &b);
        if (is) {
            is->reading = cite;
            if (uc) {
                is->remediation = uc->remediation;
                for (size_t j = 0; j < uc->natlas; j++)
                    add_atlas(is, uc->atlas[j]);
            }
        }
    }
}

static void check_memory(struct ctx *c)
{
    const struct tool *src = NULL;
    for (size_t i = 0; i < c->ntools && !src; i++)
        if (c->tools[i].wildcard || untrusted_cap(c, &c->tools[i]) < c->cat->ncap)
            src = &c->tools[i];
    if (!src)
        return;
    for (size_t i = 0; i < c->ntools; i++) {
        const struct tool *t = &c->tools[i];
        size_t k = 0;
        while (k < c->cat->ncap && !((t->caps & (UINT32_C(1) << k)) && c->cat->cap[k].persists))
            k++;
        if (k == c->cat->ncap)
            continue;
        struct bw_sb b = {0};
        sb_name(&b, t->name, t->len);
        bw_sb_puts(&b, " writes to ");
        bw_sb_puts(&b, c->cat->cap[k].name);
        bw_sb_puts(&b, " (");
        sb_why(&b, c, t, k);
        bw_sb_puts(&b, ") while ");
        sb_name(&b, src->name, src->len);
        bw_sb_puts(&b, " brings untrusted content into the context: ");
        bw_sb_puts(&b, c->cat->cap[k].risk);
        bw_sb_puts(&b, ", so an injected instruction saved there keeps acting in later sessions.");
        struct issue *is = add(c, BW_AC_MEMORY_POISONING_RISK, c->cat->cap[k].sev, SUBJ_TOOL, t->name, t->len, &b);
        if (is) {
            is->remediation = c->cat->cap[k].remediation;
            add_cap_atlas(c->cat, is, UINT32_C(1) << k);
        }
    }
}

static void check_size(struct ctx *c)
{
    if (c->ntools > BW_AGENT_TOOLS_EXCESSIVE) {
        struct bw_sb b = {0};
        bw_sb_puts(&b, "The agent has ");
        bw_sb_printf(&b, "%zu", c->ntools);
        bw_sb_puts(&b, " tools (more than ");
        bw_sb_printf(&b, "%d", BW_AGENT_TOOLS_EXCESSIVE);
        bw_sb_puts(&b, "): excessive agency, and an attack surface too large to review.");
        add(c, BW_AC_EXCESSIVE_TOOLS, SEV_MEDIUM, SUBJ_NONE, NULL, 0, &b);
    }
    bool missing = true; /* absent, empty or whitespace only */
    for (size_t i = 0; c->prompt && i < c->prompt_len && missing; i++)
        missing = isspace((unsigned char)c->prompt[i]) != 0;
    if (missing) {
        struct bw_sb b = {0};
        bw_sb_puts(&b, "No system prompt: the agent has no stated scope, refusal rules or guidance on untrusted "
                       "content, which makes prompt injection easier.");
        add(c, BW_AC_MISSING_SYSTEM_PROMPT, SEV_MEDIUM, SUBJ_NONE, NULL, 0, &b);
    }
    if (c->prompt_len > BW_AGENT_PROMPT_LONG_BYTES) {
        struct bw_sb b = {0};
        bw_sb_puts(&b, "The system prompt is ");
        bw_sb_printf(&b, "%zu", c->prompt_len);
        bw_sb_puts(&b, " bytes (over 16 KiB): every call pays for it, and rules buried in a long prompt are followed "
                       "less reliably.");
        add(c, BW_AC_LONG_SYSTEM_PROMPT, SEV_LOW, SUBJ_NONE, NULL, 0, &b);
    }
}

/* ---- ordering and rendering ---- */

static int cmp_bytes(const char *a, size_t al, const char *b, size_t bl)
{
    int r = memcmp(a, b, al < bl ? al : bl);
    return r ? r : (al > bl) - (al < bl);
}

static int cmp_issue(const void *x, const void *y)
{
    const struct issue *a = x, *b = y;
    if (a->sev != b->sev)
        return a->sev > b->sev ? -1 : 1;
    if (a->check != b->check)
        return a->check < b->check ? -1 : 1;
    if (!a->subj || !b->subj) {
        if (a->subj || b->subj)
            return a->subj ? 1 : -1; /* agent-wide first */
    } else {
        int r = cmp_bytes(a->subj, a->subj_len, b->subj, b->subj_len);
        if (r)
            return r;
    }
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return cmp_bytes(a->message, a->message_len, b->message, b->message_len);
}

static json_t *render(struct ctx *c)
{
    if (c->n > 1)
        qsort(c->v, c->n, sizeof c->v[0], cmp_issue);
    json_t *items = json_array();
    int score = 0;
    for (size_t i = 0; items && i < c->n; i++) {
        const struct issue *x = &c->v[i];
        if (i > 0 && cmp_issue(x, &c->v[i - 1]) == 0)
            continue; /* the same tool listed twice */
        score += SEV_WEIGHT[x->sev];
        json_t *atlas = json_array();
        for (size_t j = 0; atlas && j < x->natlas; j++)
            if (json_array_append_new(atlas, json_string(x->atlas[j])) != 0) {
                json_decref(atlas);
                atlas = NULL;
            }
        json_t *o = atlas ? json_pack("{s:s,s:s}", "type", CHECKS[x->check].type, "severity", SEV_NAME[x->sev]) : NULL;
        bool ok = o != NULL;
        if (ok && x->kind == SUBJ_TOOL)
            ok = json_object_set_new(o, "tool", json_stringn(x->subj, x->subj_len)) == 0;
        ok = ok && json_object_set_new(o, "message", json_stringn(x->message, x->message_len)) == 0;
        ok = ok && json_object_set_new(o, "owasp_llm", json_string(CHECKS[x->check].owasp)) == 0;
        ok = ok && json_object_set_new(o, "remediation", json_string(x->remediation)) == 0;
        ok = ok && json_object_set(o, "atlas", atlas) == 0;
        if (ok && x->kind == SUBJ_SERVER)
            ok = json_object_set_new(o, "server", json_stringn(x->subj, x->subj_len)) == 0;
        if (ok && x->kind == SUBJ_OPTION)
            ok = json_object_set_new(o, "option", json_stringn(x->subj, x->subj_len)) == 0;
        if (ok && x->tools)
            ok = json_object_set(o, "tools", x->tools) == 0;
        if (ok && x->caps)
            ok = json_object_set(o, "capabilities", x->caps) == 0;
        if (ok && x->reading) {
            struct bw_sb cl = {0};
            sb_clause_text(&cl, c, x->reading);
            ok = !cl.oom && json_object_set_new(o, "clause", json_string(bw_sb_str(&cl))) == 0 &&
                 json_object_set_new(o, "instruction",
                                     json_string(bw_ap_instr_at(c->cat->prompt, x->reading->instr)->id)) == 0;
            free(cl.p);
        }
        json_decref(atlas);
        if (!ok || json_array_append_new(items, o) != 0) {
            if (!ok)
                json_decref(o);
            json_decref(items);
            items = NULL;
        }
    }
    if (score > 100)
        score = 100;
    return items ? json_pack("{s:i,s:s,s:o}", "risk_score", (json_int_t)score, "risk_level",
                             bw_agent_risk_level(score), "issues", items)
                 : NULL;
}

static json_t *scan(int type, const json_t *tools, const char *prompt, size_t prompt_len, const struct cfg *cfg)
{
    struct ctx c = {.cat = catalog(), .type = type, .cfg = *cfg, .prompt = prompt, .prompt_len = prompt_len};
    c.ntools = json_array_size(tools);
    c.tools = calloc(c.ntools ? c.ntools : 1, sizeof *c.tools);
    c.oom = !c.tools || bw_ap_read(c.cat->prompt, prompt, prompt_len, &c.rd, &c.nrd) != 0;
    for (size_t i = 0; !c.oom && i < c.ntools; i++) {
        const json_t *t = json_array_get(tools, i);
        c.tools[i].name = json_string_value(t);
        c.tools[i].len = json_string_length(t);
        c.oom = !analyse_tool(c.cat, type, &c.tools[i]);
    }
    json_t *out = NULL;
    if (!c.oom) {
        struct approval ap = approval(&c);
        check_secret(&c);
        check_trifecta(&c, &ap);
        check_execution(&c);
        check_privileges(&c);
        check_approval(&c, &ap);
        check_mcp_servers(&c);
        check_options(&c);
        check_injection(&c);
        check_memory(&c);
        check_size(&c);
    }
    if (!c.oom)
        out = render(&c);
    for (size_t i = 0; i < c.n; i++)
        issue_free(&c.v[i]);
    free(c.v);
    for (size_t i = 0; c.tools && i < c.ntools; i++)
        free(c.tools[i].norm);
    free(c.tools);
    free(c.rd);
    return out;
}

/* ---- request validation ---- */

json_t *bw_agentscan_body(const json_t *body, json_t **errors)
{
    *errors = NULL;
    json_t *errs = json_array();
    if (!errs)
        return NULL;
    int type = -1;
    const json_t *at = json_is_object(body) ? json_object_get(body, "agent_type") : NULL;
    if (!at || json_is_null(at)) {
        verr(errs, "agent_type", "is required");
    } else if (!json_is_string(at)) {
        verr(errs, "agent_type", "must be a string");
    } else {
        type = agent_type_index(json_string_value(at));
        if (type < 0)
            verr(errs, "agent_type", "must be one of openai, langchain, langgraph, crewai, autogen, openai_agents, mcp");
    }

    const json_t *tools = json_is_object(body) ? json_object_get(body, "tools") : NULL;
    if (json_is_null(tools))
        tools = NULL; /* null = absent = no tools */
    if (tools && !json_is_array(tools)) {
        verr(errs, "tools", "must be an array of strings");
    } else if (json_array_size(tools) > BW_AGENT_TOOLS_MAX) {
        verr(errs, "tools", "must have at most 200 items");
    } else {
        size_t i;
        const json_t *t;
        json_array_foreach(tools, i, t) {
            if (!json_is_string(t)) {
                verr(errs, "tools", "items must be strings");
                break;
            }
            if (!string_chars_in(t, 1, BW_AGENT_TOOL_CHARS_MAX)) {
                verr(errs, "tools", "items must be 1 to 256 characters");
                break;
            }
        }
    }

    const json_t *sp = json_is_object(body) ? json_object_get(body, "system_prompt") : NULL;
    if (json_is_null(sp))
        sp = NULL;
    if (sp && !json_is_string(sp))
        verr(errs, "system_prompt", "must be a string");
    else if (sp && bw_utf8_chars(json_string_value(sp), json_string_length(sp)) > BW_AGENT_PROMPT_CHARS_MAX)
        verr(errs, "system_prompt", "must be at most 32768 characters");

    struct cfg cfg;
    read_config(json_is_object(body) ? json_object_get(body, "config") : NULL, type, errs, &cfg);

    if (json_array_size(errs) > 0) {
        *errors = errs;
        return NULL;
    }
    json_decref(errs);
    return scan(type, tools, sp ? json_string_value(sp) : NULL, sp ? json_string_length(sp) : 0, &cfg);
}
