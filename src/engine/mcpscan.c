/* MCP configuration scanner: validation of the request body, then the checks listed in
 * mcpscan.h. Everything here is a pure function of the input (no I/O, no clock). */
#include "engine/mcpscan.h"

#include "common/jsoncheck.h"
#include "common/limits.h"
#include "common/utf8.h"
#include "common/vec.h"
#include "engine/mcppin.h"
#include "engine/mcpprobe.h"
#include "engine/risk.h"
#include "net/url.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------------------------------ */
/* the checks                                                                                  */

enum { S_LOW = 1, S_MEDIUM, S_HIGH, S_CRITICAL };

static const int WEIGHT[5] = {0, 3, 10, 25, 40};
static const char *const SEV_NAME[5] = {"", "LOW", "MEDIUM", "HIGH", "CRITICAL"};

/* The checks in their fixed order (findings of equal severity are listed in this order); each is
 * the entry of data/mcp/checks.json whose "check" is its name here in lower case. */
#define MCP_CHECKS(X)                                                                                          \
    X(AUTH_NONE_REMOTE) X(AUTH_OPEN_REMOTE) X(AUTH_NONE_LOCAL) X(AUTH_OPEN_LOCAL) X(AUTH_CLEAR)                \
    X(AUTH_UNKNOWN) X(AUTH_OPEN_CONFIRMED) X(TRANSPORT_PLAIN) X(TRANSPORT_CERT) X(TRANSPORT_STDIO)             \
    X(NET_WILDCARD) X(NET_PRIVATE) X(NET_PUBLIC) X(POISON) X(POISON_ENC_HIDDEN) X(POISON_ENC)                  \
    X(POISON_SECRET) X(POISON_SERVER) X(POISON_SERVER_ENC_HIDDEN) X(POISON_SERVER_ENC) X(POISON_SERVER_SECRET) X(PIN_CHANGED) X(PIN_ADDED_DANGEROUS) X(PIN_ADDED) X(PIN_REMOVED) X(FLOW_TRIFECTA)        \
    X(FLOW_EXFIL) X(FLOW_ACTION) X(TOOL_SHELL) X(TOOL_FILE) X(TOOL_DB) X(TOOL_SEND) X(TOOL_FETCH)              \
    X(SHADOW_DUP) X(SHADOW_KNOWN) X(PROBE_NEW) X(PROBE_CHANGED) X(SCHEMA_MISSING) X(SCHEMA_FREEFORM)           \
    X(SCHEMA_ADDL) X(TOOLS_MANY) X(PROBE_MISSING) X(PROBE_UNREACHABLE) X(PROBE_PROTOCOL)

enum check {
#define X(name) C_##name,
    MCP_CHECKS(X)
#undef X
    C_COUNT
};

static const char *const CHECK_NAME[C_COUNT] = {
#define X(name) #name,
    MCP_CHECKS(X)
#undef X
};

/* What a finding of one check says; the strings belong to the catalog's document. owasp: the
 * OWASP Top 10 for LLM Applications 2025 id, NULL where none applies (bind addresses, an unknown
 * auth method, a probe that could not run: facts about the deployment, not LLM risks). */
struct check_def {
    const char *id, *type;
    int sev;
    const char *owasp;
    const char *title, *detail, *remediation;
};

struct bw_mcp_checks {
    json_t *doc;
    struct check_def def[C_COUNT];
};

/* ------------------------------------------------------------------------------------------ */
/* the catalog (data/mcp/checks.json)                                                          */

static const char *const ENTRY_MEMBERS[] = {"check", "id",     "type",        "severity", "owasp_llm",
                                            "title", "detail", "remediation", NULL};

/* A check's name in the catalog: its name here in lower case. */
static void check_name(size_t k, char out[32])
{
    size_t n = 0;
    for (; CHECK_NAME[k][n] && n < 31; n++)
        out[n] = (char)tolower((unsigned char)CHECK_NAME[k][n]);
    out[n] = '\0';
}

/* "MCP-", an upper-case word, "-" and three digits, as every finding id reads. */
static bool id_ok(const char *s)
{
    if (strncmp(s, "MCP-", 4) != 0)
        return false;
    s += 4;
    size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    return n > 0 && s[n] == '-' && strspn(s + n + 1, "0123456789") == 3 && s[n + 4] == '\0';
}

/* "LLM01" to "LLM10", the OWASP Top 10 for LLM Applications. */
static bool owasp_ok(const char *s)
{
    return strncmp(s, "LLM", 3) == 0 && strspn(s + 3, "0123456789") == 2 && s[5] == '\0' && atoi(s + 3) >= 1 &&
           atoi(s + 3) <= 10;
}

/* A finding's type: a category in lower_snake_case ("tool_poisoning"), or an event a pin
 * comparison reports in UPPER_SNAKE_CASE ("TOOL_ADDED"), the way agent scan issue types read. */
static bool type_ok(const char *s)
{
    size_t n = strlen(s);
    return n > 0 && (strspn(s, "abcdefghijklmnopqrstuvwxyz_") == n || strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == n);
}

/* The string member key of e when it is non-empty and at most BW_MCP_CHECK_TEXT_MAX bytes (a
 * finding's detail buffer holds that and the case's own words), else NULL. */
static const char *text_of(const json_t *e, const char *key)
{
    const char *s = json_string_value(json_object_get(e, key));
    return s && *s && strlen(s) <= BW_MCP_CHECK_TEXT_MAX ? s : NULL;
}

/* Checks entry i of the catalog and files it under its check in c. 0, or -1 with err naming it. */
static int load_entry(json_t *e, size_t i, struct bw_mcp_checks *c, char *err, size_t errlen)
{
    const char *name = json_string_value(json_object_get(e, "check"));
    char at[64];
    snprintf(at, sizeof at, "checks[%zu]%s%.32s%s", i, name ? " (" : "", name ? name : "", name ? ")" : "");
    if (!json_is_object(e)) {
        snprintf(err, errlen, "%s: not an object", at);
        return -1;
    }
    const char *key;
    json_t *v;
    json_object_foreach(e, key, v) {
        size_t m = 0;
        while (ENTRY_MEMBERS[m] && strcmp(ENTRY_MEMBERS[m], key) != 0)
            m++;
        if (!ENTRY_MEMBERS[m]) {
            snprintf(err, errlen, "%s: unknown member \"%.32s\"", at, key);
            return -1;
        }
    }
    size_t k = 0;
    for (char lower[32]; k < C_COUNT; k++) {
        check_name(k, lower);
        if (name && strcmp(lower, name) == 0)
            break;
    }
    const char *sev = json_string_value(json_object_get(e, "severity"));
    const json_t *owasp = json_object_get(e, "owasp_llm");
    struct check_def d = {.id = text_of(e, "id"), .type = text_of(e, "type"), .owasp = json_string_value(owasp),
                          .title = text_of(e, "title"), .detail = text_of(e, "detail"),
                          .remediation = text_of(e, "remediation")};
    for (int s = S_LOW; sev && s <= S_CRITICAL; s++)
        if (strcmp(sev, SEV_NAME[s]) == 0)
            d.sev = s;
    char why[128] = "";
    if (k == C_COUNT)
        snprintf(why, sizeof why, "check names no check of the scan");
    else if (c->def[k].id)
        snprintf(why, sizeof why, "is listed twice");
    else if (!d.id || !id_ok(d.id))
        snprintf(why, sizeof why, "id must read MCP-WORD-000");
    else if (!d.type || !type_ok(d.type))
        snprintf(why, sizeof why, "type must be lower_snake_case, or UPPER_SNAKE_CASE for a change event");
    else if (!d.sev)
        snprintf(why, sizeof why, "severity must be LOW, MEDIUM, HIGH or CRITICAL");
    else if (!json_is_null(owasp) && !(d.owasp && owasp_ok(d.owasp)))
        snprintf(why, sizeof why, "owasp_llm must be an OWASP LLM Top 10 id (LLM01 to LLM10) or null");
    else if (!d.title || !d.detail || !d.remediation)
        snprintf(why, sizeof why, "%s must be a non-empty string of at most %d bytes",
                 !d.title ? "title" : !d.detail ? "detail" : "remediation", BW_MCP_CHECK_TEXT_MAX);
    if (why[0]) {
        snprintf(err, errlen, "%s: %s", at, why);
        return -1;
    }
    c->def[k] = d;
    return 0;
}

int bw_mcp_checks_load(const struct bw_embedded *f, struct bw_mcp_checks **out, char *err, size_t errlen)
{
    struct bw_mcp_checks *c = calloc(1, sizeof *c);
    json_error_t je;
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (!f) {
        snprintf(err, errlen, "not embedded in the binary");
        goto fail;
    }
    if (!(c->doc = json_loadb((const char *)f->data, f->len, JSON_REJECT_DUPLICATES, &je))) {
        snprintf(err, errlen, "line %d: %s", je.line, je.text);
        goto fail;
    }
    const json_t *checks = json_object_get(c->doc, "checks");
    if (json_integer_value(json_object_get(c->doc, "version")) != 1 || !json_is_array(checks)) {
        snprintf(err, errlen, "expected {\"version\": 1, \"checks\": [...]}");
        goto fail;
    }
    for (size_t i = 0; i < json_array_size(checks); i++)
        if (load_entry(json_array_get(checks, i), i, c, err, errlen) != 0)
            goto fail;
    for (size_t k = 0; k < C_COUNT; k++)
        if (!c->def[k].id) {
            char name[32];
            check_name(k, name);
            snprintf(err, errlen, "check %s is missing", name);
            goto fail;
        }
    *out = c;
    return 0;
fail:
    bw_mcp_checks_free(c);
    return -1;
}

void bw_mcp_checks_free(struct bw_mcp_checks *c)
{
    if (c)
        json_decref(c->doc);
    free(c);
}

const char *bw_mcp_risk_level(int score) { return bw_risk_level(score); }

/* ------------------------------------------------------------------------------------------ */
/* findings                                                                                    */

struct finding {
    enum check c;
    int sev;          /* the catalog's, for sorting */
    size_t tool;      /* index+1 in the scanned tools, then the declared-only ones; 0: configuration-wide */
    const char *name; /* the tool's name (borrowed from the input), NULL when configuration-wide */
    const char *source; /* NULL: name is a tool's; else "instructions", "prompt" or "resource" (static) */
    size_t seq;       /* insertion order, for a total (deterministic) sort */
    char extra[512];
    json_t *changes;  /* owned: a changed definition's {field, old, new} items, else NULL */
};

struct findings {
    struct finding *v;
    size_t n, cap;
    bool oom;
};

static struct finding *add(struct findings *f, enum check c, size_t tool, const char *name)
{
    if (!BW_VEC_RESERVE(f->v, f->cap, f->n + 1, BW_VEC_UNBOUNDED)) {
        f->oom = true;
        return NULL;
    }
    struct finding *x = &f->v[f->n];
    x->c = c;
    x->tool = tool;
    x->name = name;
    x->source = NULL;
    x->seq = f->n;
    x->extra[0] = '\0';
    x->changes = NULL;
    f->n++;
    return x;
}

static int cmp_finding(const void *pa, const void *pb)
{
    const struct finding *a = pa, *b = pb;
    int sa = a->sev, sb = b->sev;
    if (sa != sb)
        return sb - sa;
    if (a->c != b->c)
        return (int)a->c - (int)b->c;
    if (a->tool != b->tool)
        return a->tool < b->tool ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* ------------------------------------------------------------------------------------------ */
/* text helpers                                                                                */

/* A JSON string of s with every byte that is not well-formed UTF-8 as '?': details and probe
 * texts are assembled with snprintf, which may cut a character, and jansson refuses such text. */
static json_t *json_text(const char *s)
{
    size_t n = strlen(s);
    char *t = malloc(n + 1);
    if (!t)
        return NULL;
    for (size_t i = 0; i < n;) {
        size_t len = bw_utf8_seq((const unsigned char *)s + i, n - i);
        if (!len) {
            t[i++] = '?';
            continue;
        }
        memcpy(t + i, s + i, len);
        i += len;
    }
    t[n] = '\0';
    json_t *j = json_string(t);
    free(t);
    return j;
}

/* Copies at most max bytes of s into out (cap bytes), cutting at a UTF-8 character boundary. */
static void copy_trunc(char *out, size_t cap, const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max)
        n = max;
    if (n >= cap)
        n = cap - 1;
    while (n > 0 && n < strlen(s) && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* The words of a text: lower-cased runs of ASCII letters and digits. Everything else (punctuation,
 * non-ASCII, so also no-break spaces) separates words; with camel, "readFile" is "read file". */
struct words {
    char *buf;
    const char **w;
    size_t n;
};

static bool words_init(struct words *ws, const char *s, bool camel)
{
    size_t len = strlen(s);
    ws->n = 0;
    ws->buf = malloc(2 * len + 1); /* camel splits can add one separator per byte */
    ws->w = malloc((len + 1) * sizeof *ws->w); /* at most one word per byte */
    if (!ws->buf || !ws->w) {
        free(ws->buf);
        free(ws->w);
        ws->buf = NULL;
        ws->w = NULL;
        return false;
    }
    size_t o = 0;
    bool in = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        bool al = c < 0x80 && isalnum(c);
        bool split = camel && in && isupper(c) && i > 0 && islower((unsigned char)s[i - 1]);
        if (in && (!al || split)) {
            ws->buf[o++] = '\0';
            in = false;
        }
        if (al) {
            if (!in) {
                ws->w[ws->n++] = ws->buf + o;
                in = true;
            }
            ws->buf[o++] = (char)tolower(c);
        }
    }
    ws->buf[o] = '\0';
    return true;
}

static void words_free(struct words *ws)
{
    free(ws->buf);
    free(ws->w);
}

static bool in_set(const char *w, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(w, *set) == 0)
            return true;
    return false;
}

static bool has_any(const struct words *ws, const char *const *set)
{
    for (size_t i = 0; i < ws->n; i++)
        if (in_set(ws->w[i], set))
            return true;
    return false;
}

/* A word of set a followed within window words by a word of set b. */
static bool near(const struct words *ws, const char *const *a, const char *const *b, size_t window)
{
    for (size_t i = 0; i < ws->n; i++) {
        if (!in_set(ws->w[i], a))
            continue;
        for (size_t j = i + 1; j < ws->n && j <= i + window; j++)
            if (in_set(ws->w[j], b))
                return true;
    }
    return false;
}

/* Lower-cased copy with every run of ASCII white space turned into one space. */
static char *squeeze(const char *s)
{
    size_t len = strlen(s), o = 0;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    bool sp = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80 && isspace(c)) {
            if (!sp)
                out[o++] = ' ';
            sp = true;
            continue;
        }
        sp = false;
        out[o++] = c < 0x80 ? (char)tolower(c) : (char)c;
    }
    out[o] = '\0';
    return out;
}

/* ------------------------------------------------------------------------------------------ */
/* dangerous capabilities                                                                      */

enum { D_SHELL = 1, D_FILE = 2, D_FETCH = 4, D_DB = 8, D_SEND = 16 };

static const char *const SHELL_NAME[] = {"shell", "bash", "sh", "zsh", "powershell", "pwsh", "cmd", "command",
                                         "commands", "terminal", "exec", "subprocess", "spawn", "eval", NULL};
static const char *const RUN_VERB[] = {"run", "runs", "execute", "executes", "exec", "evaluate", "evaluates", "eval",
                                       NULL};
static const char *const RUN_OBJ[] = {"command", "commands", "code", "script", "scripts", "python", "javascript",
                                      "shell", "bash", "process", "program", "binary", NULL};
static const char *const SHELL_DESC[] = {"shell", "bash", "powershell", "terminal", "subprocess", "zsh", NULL};

static const char *const FILE_VERB[] = {"write", "writes", "writing", "delete", "deletes", "deleting", "remove",
                                        "removes", "rm", "unlink", "edit", "edits", "move", "moves", "rename",
                                        "renames", "overwrite", "overwrites", "append", "appends", "create", "creates",
                                        "truncate", "chmod", "chown", "save", "saves", "upload", "put", "modify",
                                        "modifies", "patch", NULL};
static const char *const FILE_NOUN[] = {"file", "files", "dir", "dirs", "directory", "directories", "folder",
                                        "folders", "path", "fs", "filesystem", NULL};
static const char *const FILE_ALONE[] = {"mkdir", "rmdir", "rm", "unlink", "chmod", "chown", NULL};

static const char *const FETCH_NAME[] = {"fetch", "http", "https", "browse", "browser", "url", "urls", "uri",
                                         "curl", "wget", "download", "scrape", "crawl", "navigate", "webpage",
                                         "proxy", NULL};
static const char *const FETCH_DESC[] = {"fetch", "fetches", "browse", "browses", "download", "downloads", "scrape",
                                         "scrapes", "crawl", "crawls", "curl", "wget", "webpage", NULL};
static const char *const FETCH_VERB[] = {"http", "https", "any", "arbitrary", "given", "web", "retrieve",
                                         "retrieves", "get", "gets", "load", "loads", "open", "opens", NULL};
static const char *const FETCH_OBJ[] = {"url", "urls", "request", "requests", "page", "pages", "website", NULL};

static const char *const DB_NAME[] = {"sql", "database", "db", "postgres", "postgresql", "mysql", "sqlite",
                                      "mongo", "mongodb", "redis", "query", "tables", NULL};
static const char *const DB_DESC[] = {"sql", "database", "databases", "postgres", "postgresql", "mysql", "sqlite",
                                      "mongodb", "redis", NULL};

static const char *const SEND_NAME[] = {"pay", "payment", "payments", "charge", "refund", "transfer", "invoice",
                                        "stripe", "paypal", "checkout", "purchase", "buy", "email", "emails",
                                        "mail", "smtp", "send", "sms", "tweet", "wire", NULL};
static const char *const SEND_VERB[] = {"send", "sends", "sending", "email", "emails", "post", "posts", "transfer",
                                        "transfers", "wire", "make", "makes", NULL};
static const char *const SEND_OBJ[] = {"email", "emails", "mail", "message", "messages", "sms", "text",
                                       "notification", "notifications", "funds", "money", "payment", "payments",
                                       NULL};
static const char *const SEND_DESC[] = {"payment", "payments", "refund", "refunds", "purchase", "purchases",
                                        "smtp", "stripe", "paypal", NULL};

static unsigned dangerous(const char *name, const char *desc)
{
    unsigned d = 0;
    struct words n, w = {0};
    if (!words_init(&n, name, true))
        return 0;
    bool have_desc = desc && words_init(&w, desc, false);
    if (has_any(&n, SHELL_NAME) || near(&n, RUN_VERB, RUN_OBJ, 2) ||
        (have_desc && (has_any(&w, SHELL_DESC) || near(&w, RUN_VERB, RUN_OBJ, 3))))
        d |= D_SHELL;
    if (has_any(&n, FILE_ALONE) || near(&n, FILE_VERB, FILE_NOUN, 3) || near(&n, FILE_NOUN, FILE_VERB, 2) ||
        (have_desc && near(&w, FILE_VERB, FILE_NOUN, 6)))
        d |= D_FILE;
    if (has_any(&n, FETCH_NAME) ||
        (have_desc && (has_any(&w, FETCH_DESC) || near(&w, FETCH_VERB, FETCH_OBJ, 2))))
        d |= D_FETCH;
    if (has_any(&n, DB_NAME) || (have_desc && has_any(&w, DB_DESC)))
        d |= D_DB;
    if (has_any(&n, SEND_NAME) || (have_desc && (has_any(&w, SEND_DESC) || near(&w, SEND_VERB, SEND_OBJ, 3))))
        d |= D_SEND;
    words_free(&n);
    if (have_desc)
        words_free(&w);
    return d;
}

/* ------------------------------------------------------------------------------------------ */
/* tool poisoning                                                                              */

/* Phrases (lower case, single spaces) that address the model rather than the user, or point it at
 * secrets. Matched as substrings of the squeezed description. */
static const char *const POISON[] = {
    "ignore previous", "ignore all previous", "ignore the previous", "ignore any previous", "ignore prior",
    "ignore all prior", "ignore the above", "disregard previous", "disregard all previous",
    "disregard the previous", "disregard prior", "forget previous", "forget all previous",
    "do not tell the user", "don't tell the user", "dont tell the user", "do not tell user",
    "do not inform the user", "do not mention", "don't mention", "do not reveal", "don't reveal",
    "without telling the user", "without informing the user", "without the user knowing",
    "the user must not know", "hide this from the user", "not visible to the user", "<important>",
    "</important>", "<system>", "</system>", "<instructions>", "[system]", "<!--", "system prompt",
    "~/.ssh", ".ssh/", "id_rsa", "id_ed25519", "~/.aws", ".aws/credentials", "mcp.json", "/etc/passwd",
    "/etc/shadow", "credentials.json", "credentials file", "read the credentials", "read credentials",
    "private key", "before using this tool", "before calling this tool", "before using any other tool",
    /* concealment beyond "do not tell" */
    "no need to tell the user", "need not tell the user", "not be surfaced", "do not surface", "keep this to yourself",
    "keep quiet about", "the user already knows", "never inform the user", "never tell the user",
    /* overriding the client's safeguards */
    "ignore any earlier", "ignore earlier", "ignore any prior", "never ask for confirmation",
    "do not ask for confirmation", "don't ask for confirmation", "without asking for confirmation", "pre-approved",
    "developer mode", "no longer apply",
    /* conditioning what the model does everywhere else (line jumping) */
    "after every reply", "after every answer", "after every response", "after each reply", "after each response",
    "before answering any", "before responding to any", "every time you respond", "every time you reply",
    "each time you respond", "in every response", "in every reply", "when the user says", "whenever the user says",
    "when the user mentions", "any question in this conversation", "every shell command", "before running any command",
    "any command you run", NULL};

static const char *const CALL_VERB[] = {"call", "calls", "invoke", "invokes", "calling", "invoking", "use",
                                        NULL};
static const char *const TOOL_WORD[] = {"tool", "tools", NULL};

/* The first invisible character in s, or 0: control characters (ESC above all), zero-width characters, bidi controls, word joiners
 * and invisible operators, the BOM, the Mongolian vowel separator, the soft hyphen (it splits a
 * phrase so that keyword checks miss it), Unicode tags (ASCII smuggling) and the supplementary
 * variation selectors (used to smuggle bytes after an emoji). */
static unsigned long hidden_char(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++) {
        /* terminal control (ESC sequences conceal or erase text in a terminal client), other C0
           controls but tab and line breaks, DEL and the C1 controls */
        if ((p[0] < 0x20 && p[0] != '\t' && p[0] != '\n' && p[0] != '\r') || p[0] == 0x7F)
            return p[0];
        if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
            return p[1];
        if (p[0] == 0xC2 && p[1] == 0xAD)
            return 0xADul;
        if (p[0] == 0xE1 && p[1] == 0xA0 && p[2] == 0x8E)
            return 0x180Eul;
        if (p[0] == 0xF3 && p[1] == 0xA0 && p[2] >= 0x84 && p[2] <= 0x87 && p[3] >= 0x80 && p[3] <= 0xBF)
            return 0xE0000ul + ((p[2] - 0x80u) << 6) + (p[3] - 0x80u);
        if (p[0] == 0xE2 && p[1] == 0x80 && ((p[2] >= 0x8B && p[2] <= 0x8F) || (p[2] >= 0xAA && p[2] <= 0xAE)))
            return 0x2000ul + (p[2] - 0x80u);
        if (p[0] == 0xE2 && p[1] == 0x81 && ((p[2] >= 0xA0 && p[2] <= 0xA4) || (p[2] >= 0xA6 && p[2] <= 0xA9)))
            return 0x2040ul + (p[2] - 0x80u);
        if (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
            return 0xFEFFul;
        if (p[0] == 0xF3 && p[1] == 0xA0 && (p[2] == 0x80 || p[2] == 0x81) && p[3] >= 0x80 && p[3] <= 0xBF)
            return 0xE0000ul + ((p[2] - 0x80u) << 6) + (p[3] - 0x80u);
        /* the tests above read p[1..3] only while the previous bytes matched non-NUL values */
    }
    return 0;
}

/* A pipe into a shell ("curl ... | sh", "|bash"): a remote script run as it arrives. */
static bool pipes_to_shell(const char *sq)
{
    for (const char *p = strchr(sq, '|'); p; p = strchr(p + 1, '|')) {
        const char *q = p + 1;
        while (*q == ' ')
            q++;
        if (strncmp(q, "sudo ", 5) == 0)
            q += 5;
        size_t n = strncmp(q, "bash", 4) == 0 ? 4 : strncmp(q, "sh", 2) == 0 ? 2 : strncmp(q, "zsh", 3) == 0 ? 3 : 0;
        if (n && !(isalnum((unsigned char)q[n]) || q[n] == '_' || q[n] == '-'))
            return true;
    }
    return false;
}

/* ".env" as a file name: not inside a word (process.env, .environment). */
static bool has_dotenv(const char *sq)
{
    for (const char *p = strstr(sq, ".env"); p; p = strstr(p + 1, ".env")) {
        unsigned char after = (unsigned char)p[4];
        unsigned char before = p > sq ? (unsigned char)p[-1] : ' ';
        if (!(isalnum(after) || after == '_') && !(isalnum(before) || before == '_'))
            return true;
    }
    return false;
}

/* An instruction to call another tool: "call/invoke/use ... tool" within 4 words, not "this tool". */
static bool calls_other_tool(const struct words *ws)
{
    for (size_t i = 0; i < ws->n; i++) {
        if (!in_set(ws->w[i], CALL_VERB))
            continue;
        for (size_t j = i + 1; j < ws->n && j <= i + 4; j++) {
            if (strcmp(ws->w[j], "this") == 0)
                break;
            if (in_set(ws->w[j], TOOL_WORD)) {
                /* "use this tool"/"use the tool" are self references; a named other tool sits between */
                if (j > i + 1 && !(j == i + 2 && (strcmp(ws->w[i + 1], "the") == 0 || strcmp(ws->w[i + 1], "a") == 0)))
                    return true;
                break;
            }
        }
    }
    return false;
}

static const char *const WHEN_WORD[] = {"when", "whenever", "once", "after", "before", NULL};
static const char *const CALLED_WORD[] = {"used", "called", "invoked", "run", "executed", NULL};

/* A rule for another tool: "when(ever) the X tool is used/called/invoked" with a named tool, not
 * "this tool" or "the tool" (those describe the tool itself). */
static bool rules_other_tool(const struct words *ws)
{
    for (size_t i = 0; i + 3 < ws->n; i++) {
        if (!in_set(ws->w[i], WHEN_WORD))
            continue;
        for (size_t j = i + 1; j < ws->n && j <= i + 5; j++) {
            if (!in_set(ws->w[j], TOOL_WORD))
                continue;
            bool named = j >= i + 2 && strcmp(ws->w[j - 1], "this") != 0 && strcmp(ws->w[j - 1], "the") != 0 &&
                         strcmp(ws->w[j - 1], "a") != 0 && strcmp(ws->w[j - 1], "any") != 0 &&
                         strcmp(ws->w[j - 1], "that") != 0;
            if (named && j + 2 < ws->n && (strcmp(ws->w[j + 1], "is") == 0 || strcmp(ws->w[j + 1], "gets") == 0) &&
                in_set(ws->w[j + 2], CALLED_WORD))
                return true;
            break;
        }
    }
    return false;
}

static const char *const HAND_VERB[] = {"pass", "include", "send", "append", "paste", "copy", "attach", "forward",
                                        "upload", "post", "put", "add", "provide", NULL};
static const char *const TALK_NOUN[] = {"conversation", "transcript", "history", "chat", NULL};
static const char *const TALK_SCOPE[] = {"entire", "whole", "full", "complete", "so", "far", "previous", "earlier",
                                         "all", "verbatim", NULL};

/* An instruction to hand over the conversation: a verb of handing over followed within 6 words
 * by the conversation, history or transcript, itself qualified as whole or earlier ("the entire
 * conversation history", "the conversation so far") within 3 words either side. */
static bool hands_over_talk(const struct words *ws)
{
    for (size_t i = 0; i < ws->n; i++) {
        if (!in_set(ws->w[i], HAND_VERB))
            continue;
        for (size_t j = i + 1; j < ws->n && j <= i + 6; j++) {
            if (!in_set(ws->w[j], TALK_NOUN))
                continue;
            for (size_t k = j > i + 3 ? j - 3 : i + 1; k < ws->n && k <= j + 3; k++)
                if (k != j && in_set(ws->w[k], TALK_SCOPE))
                    return true;
        }
    }
    return false;
}

/* Whether text carries a poisoning indicator; describes it in why. */
static bool poisoned(const char *text, char *why, size_t cap)
{
    unsigned long h = hidden_char(text);
    if (h) {
        snprintf(why, cap, "Indicator: invisible Unicode character U+%04lX.", h);
        return true;
    }
    char *sq = squeeze(text);
    if (!sq)
        return false;
    bool hit = false;
    for (size_t i = 0; POISON[i] && !hit; i++) {
        if (strstr(sq, POISON[i])) {
            snprintf(why, cap, "Indicator: \"%s\".", POISON[i]);
            hit = true;
        }
    }
    if (!hit && has_dotenv(sq)) {
        snprintf(why, cap, "Indicator: \".env\".");
        hit = true;
    }
    if (!hit && pipes_to_shell(sq)) {
        snprintf(why, cap, "Indicator: a script piped into a shell.");
        hit = true;
    }
    free(sq);
    if (!hit) {
        struct words ws;
        if (words_init(&ws, text, false)) {
            if (calls_other_tool(&ws)) {
                snprintf(why, cap, "Indicator: an instruction to call another tool.");
                hit = true;
            } else if (rules_other_tool(&ws)) {
                snprintf(why, cap, "Indicator: a rule for how another tool is used.");
                hit = true;
            } else if (hands_over_talk(&ws)) {
                snprintf(why, cap, "Indicator: an instruction to hand over the conversation.");
                hit = true;
            }
            words_free(&ws);
        }
    }
    return hit;
}

/* ------------------------------------------------------------------------------------------ */
/* secret files                                                                                */

/* Places where credentials live, as descriptions name them (lower case, matched as substrings of
 * the squeezed text; ".env" separately, as a file name only). Of overlapping matches the one
 * listed first is reported, so the more specific spelling comes first. */
static const char *const SECRET_REFS[] = {
    "~/.ssh", ".ssh/", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "authorized_keys", ".aws/credentials",
    "~/.aws", ".azure/", ".config/gcloud", "application_default_credentials", ".kube/config",
    "kubeconfig", ".docker/config.json", ".netrc", "_netrc", ".pgpass", ".git-credentials", ".npmrc", ".pypirc",
    ".gnupg", "secring.gpg", "/etc/shadow", ".htpasswd", "credentials.json", "service-account.json",
    "wallet.dat", "cookies.sqlite", "mcp.json", "claude_desktop_config.json", NULL};

/* Lists the secret locations text names into out ("\"~/.ssh\", \".env\""). Returns how many. */
static size_t secret_refs(const char *text, char *out, size_t cap)
{
    out[0] = '\0';
    char *sq = squeeze(text);
    if (!sq)
        return 0;
    size_t n = 0, used = 0;
    size_t from[sizeof SECRET_REFS / sizeof SECRET_REFS[0]], to[sizeof SECRET_REFS / sizeof SECRET_REFS[0]];
    for (size_t i = 0; SECRET_REFS[i]; i++) {
        const char *at = strstr(sq, SECRET_REFS[i]);
        if (!at)
            continue;
        /* "~/.ssh/id_rsa" names "~/.ssh" and "id_rsa"; ".ssh/" overlaps the first and adds nothing */
        size_t a = (size_t)(at - sq), b = a + strlen(SECRET_REFS[i]);
        bool overlap = false;
        for (size_t k = 0; k < n && !overlap; k++)
            overlap = a < to[k] && from[k] < b;
        if (overlap)
            continue;
        from[n] = a;
        to[n] = b;
        if (n < 4) {
            int w = snprintf(out + used, cap - used, "%s\"%s\"", n ? ", " : "", SECRET_REFS[i]);
            if (w > 0 && (size_t)w < cap - used)
                used += (size_t)w;
        }
        n++;
    }
    if (has_dotenv(sq)) {
        if (n < 4) {
            int w = snprintf(out + used, cap - used, "%s\".env\"", n ? ", " : "");
            if (w > 0 && (size_t)w < cap - used)
                used += (size_t)w;
        }
        n++;
    }
    if (n > 4 && used + 16 < cap)
        snprintf(out + used, cap - used, " (+%zu more)", n - 4);
    free(sq);
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* encoded payloads                                                                            */

/* lengths and depth: BW_MCP_ENC_* in common/limits.h */

struct enc {
    bool hit, hidden; /* an encoded run; its decoded text carries a poisoning indicator */
    char what[400];
};

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int b64val(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62; /* '-' and '_': the URL-safe alphabet */
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

/* Decodes n base64 characters (no padding) into out (at least n*3/4 bytes). */
static size_t b64_decode(const char *s, size_t n, unsigned char *out)
{
    size_t o = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        acc = (acc << 6) | (unsigned)b64val((unsigned char)s[i]);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    return o;
}

/* Whether the bytes are well-formed UTF-8 text: no control characters but tab and newlines. */
static bool utf8_text(const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = b[i];
        if (c < 0x80 && ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F))
            return false;
        size_t len = bw_utf8_seq(b + i, n - i);
        if (!len)
            return false;
        i += len;
    }
    return true;
}

/* Mostly ASCII letters, digits and spaces: what someone encodes to hide words. */
static bool wordy(const unsigned char *b, size_t n)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += (b[i] < 0x80 && (isalnum(b[i]) || b[i] == ' '));
    return n > 0 && 2 * w >= n;
}

static bool is_text(const unsigned char *b, size_t n)
{
    return n >= BW_MCP_ENC_TEXT_MIN && utf8_text(b, n) && wordy(b, n);
}

/* Appends a UTF-8 encoding of code point cp (no surrogates) to out. */
static size_t put_utf8(unsigned long cp, unsigned char *out)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The run of escapes of one kind starting at s ('u': \uXXXX, 'x': \xHH, '%': %HH): its length in
 * bytes, the count, and the decoded bytes in out (room for 4 bytes per escape). */
static size_t escape_run(const char *s, char kind, size_t *count, unsigned char *out, size_t *olen)
{
    size_t i = 0, o = 0;
    *count = 0;
    unsigned long high = 0; /* a pending high surrogate */
    for (;;) {
        const unsigned char *p = (const unsigned char *)s + i;
        if (kind == '%' && p[0] == '%' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
            out[o++] = (unsigned char)(hexval(p[1]) * 16 + hexval(p[2]));
            i += 3;
        } else if (kind == 'x' && p[0] == '\\' && p[1] == 'x' && hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
            out[o++] = (unsigned char)(hexval(p[2]) * 16 + hexval(p[3]));
            i += 4;
        } else if (kind == 'u' && p[0] == '\\' && p[1] == 'u' && hexval(p[2]) >= 0 && hexval(p[3]) >= 0 &&
                   hexval(p[4]) >= 0 && hexval(p[5]) >= 0) {
            unsigned long cp = (unsigned long)(hexval(p[2]) << 12 | hexval(p[3]) << 8 | hexval(p[4]) << 4 | hexval(p[5]));
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (high)
                    out[o++] = '?';
                high = cp;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                o += high ? put_utf8(0x10000 + ((high - 0xD800) << 10) + (cp - 0xDC00), out + o) : 0;
                if (!high)
                    out[o++] = '?';
                high = 0;
            } else {
                if (high)
                    out[o++] = '?';
                high = 0;
                o += put_utf8(cp, out + o);
            }
            i += 6;
        } else {
            break;
        }
        (*count)++;
    }
    if (high)
        out[o++] = '?';
    *olen = o;
    return i;
}

/* A short, single-line excerpt of decoded bytes for the finding's detail. */
static void excerpt(const unsigned char *b, size_t n, char *out, size_t cap)
{
    size_t max = n < 60 ? n : 60;
    while (max > 0 && max < n && (b[max] & 0xC0) == 0x80)
        max--;
    size_t o = 0;
    for (size_t i = 0; i < max && o + 4 < cap; i++)
        out[o++] = (b[i] < 0x20 || b[i] == 0x7F || b[i] == '"') ? ' ' : (char)b[i];
    if (max < n && o + 4 < cap) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

static void find_encoded_depth(const char *text, struct enc *e, int depth);

/* Judges one decoded run: always reported when `always` (escape sequences, long blobs), else only
 * when it decodes to text. The decoded text is checked for poisoning (and searched again). */
static void judge(struct enc *e, const char *kind, size_t run, const unsigned char *dec, size_t dn, bool always,
                  int depth)
{
    bool text = is_text(dec, dn) || (dn > 0 && utf8_text(dec, dn) && hidden_char((const char *)dec));
    if (!text && !always)
        return;
    if (e->hidden)
        return; /* the worst kind is already reported */
    char why[160] = "", ex[80] = "";
    bool hidden = false;
    if (text) {
        /* dec is NUL-terminated by the caller; hidden characters count as an indicator too */
        hidden = poisoned((const char *)dec, why, sizeof why);
        if (!hidden && depth < BW_MCP_ENC_DEPTH) {
            struct enc inner = {0};
            find_encoded_depth((const char *)dec, &inner, depth + 1);
            if (inner.hidden) {
                hidden = true;
                snprintf(why, sizeof why, "Indicator: it is encoded twice, and the inner text carries one.");
            }
        }
        excerpt(dec, dn, ex, sizeof ex);
    }
    if (e->hit && !hidden)
        return; /* keep the first plain hit */
    e->hit = true;
    e->hidden = hidden;
    if (text)
        snprintf(e->what, sizeof e->what, "Found: a %s run of %zu characters that decodes to \"%s\".%s%s", kind, run, ex,
                 hidden ? " In the decoded text, " : "",
                 !hidden ? "" : strncmp(why, "Indicator: ", 11) == 0 ? why + 11 : why);
    else
        snprintf(e->what, sizeof e->what, "Found: a %s run of %zu characters that does not decode to readable text.",
                 kind, run);
}

static void find_encoded_depth(const char *text, struct enc *e, int depth)
{
    size_t n = strlen(text);
    unsigned char *dec = malloc(n + 8); /* every encoding here decodes to fewer bytes than it takes */
    if (!dec)
        return;
    for (size_t i = 0; i < n && !e->hidden;) {
        unsigned char c = (unsigned char)text[i];
        char kind = 0;
        if (c == '\\' && (text[i + 1] == 'u' || text[i + 1] == 'x'))
            kind = text[i + 1];
        else if (c == '%')
            kind = '%';
        if (kind) {
            size_t count, dn;
            size_t len = escape_run(text + i, kind, &count, dec, &dn);
            if (count >= BW_MCP_ENC_ESC_MIN) {
                dec[dn] = '\0';
                /* escapes of non-ASCII text (a percent-encoded URL in another script) are normal;
                   escaping plain ASCII words is not */
                bool plain = wordy(dec, dn) || hidden_char((const char *)dec);
                if (plain)
                    judge(e, kind == 'u' ? "\\u-escape" : kind == 'x' ? "\\x-escape" : "percent-encoded", len, dec,
                          dn, true, depth);
            }
            i += len ? len : 1;
            continue;
        }
        bool boundary = i == 0 || !(isalnum((unsigned char)text[i - 1]) || strchr("+/-_=", text[i - 1]));
        if (!boundary || b64val(c) < 0) {
            i++;
            continue;
        }
        size_t start = i;
        if (c == '0' && (text[i + 1] == 'x' || text[i + 1] == 'X'))
            start = i + 2;
        size_t j = start, hexlen = 0;
        while (j < n && hexval((unsigned char)text[j]) >= 0)
            j++;
        hexlen = j - start;
        bool hex_end = j >= n || !(isalnum((unsigned char)text[j]) || text[j] == '_');
        if (hexlen >= BW_MCP_ENC_HEX_MIN && hex_end) {
            size_t dn = hexlen / 2;
            for (size_t k = 0; k < dn; k++)
                dec[k] = (unsigned char)(hexval((unsigned char)text[start + 2 * k]) * 16 +
                                         hexval((unsigned char)text[start + 2 * k + 1]));
            dec[dn] = '\0';
            judge(e, "hex", hexlen, dec, dn, false, depth);
            i = j;
            continue;
        }
        j = i;
        bool up = false, low = false, digit = false;
        while (j < n && b64val((unsigned char)text[j]) >= 0) {
            up |= isupper((unsigned char)text[j]) != 0;
            low |= islower((unsigned char)text[j]) != 0;
            digit |= isdigit((unsigned char)text[j]) != 0;
            j++;
        }
        size_t len = j - i;
        while (j < n && text[j] == '=' && j - i < len + 2)
            j++;
        if (len >= BW_MCP_ENC_B64_MIN) {
            size_t dn = b64_decode(text + i, len, dec);
            dec[dn] = '\0';
            judge(e, "base64", len, dec, dn, len >= BW_MCP_ENC_B64_BLOB && up && low && digit, depth);
        }
        i = j > i ? j : i + 1;
    }
    free(dec);
}

/* Looks for encoded runs in text; *e says what was found (the worst: decoded instructions). */
static void find_encoded(const char *text, struct enc *e)
{
    find_encoded_depth(text, e, 1);
}

/* ------------------------------------------------------------------------------------------ */
/* toxic flows                                                                                 */

/* The roles a tool can play in a flow across tools, judged from its name and description. */
enum { R_PRIVATE = 1, R_SINK = 2, R_UNTRUSTED = 4, R_ACTION = 8 };

static const char *const READ_VERB[] = {"read", "reads", "reading", "get", "gets", "open", "opens", "cat", "view",
                                        "views", "load", "loads", "list", "lists", "search", "searches", "grep",
                                        "find", "finds", "query", "queries", "export", "exports", "dump", "dumps",
                                        "retrieve", "retrieves", "access", "accesses", "fetch", "fetches", NULL};
static const char *const PRIVATE_NOUN[] = {
    "file", "files", "document", "documents", "doc", "docs", "folder", "folders", "directory", "directories",
    "dir", "fs", "filesystem", "email", "emails", "mail", "mails", "inbox", "mailbox", "message", "messages", "dm",
    "dms", "chat", "chats", "database", "db", "table", "tables", "record", "records", "row", "rows", "secret",
    "secrets", "credential", "credentials", "password", "passwords", "token", "tokens", "vault", "keychain",
    "env", "contacts", "contact", "calendar", "notes", "note", "drive", "repo", "repos", "repository",
    "repositories", "customer", "customers", "patient", "patients", "account", "accounts", "history",
    "clipboard", "photos", "transactions", "orders", NULL};
static const char *const SECRET_NAME[] = {"secret", "secrets", "credential", "credentials", "password", "passwords",
                                          "vault", "keychain", "apikey", "apikeys", NULL};
static const char *const SINK_NAME[] = {"webhook", "webhooks", "upload", "publish", "post", "tweet", "share",
                                        "push", "slack", "discord", "telegram", "notify", "forward", "submit",
                                        "comment", "reply", "gist", "paste", NULL};
static const char *const SINK_VERB[] = {"send", "sends", "post", "posts", "upload", "uploads", "publish",
                                        "publishes", "share", "shares", "forward", "forwards", "submit", "submits",
                                        "transmit", "transmits", "push", "pushes", NULL};
static const char *const SINK_OBJ[] = {"email", "emails", "mail", "message", "messages", "data", "file", "files",
                                       "url", "webhook", "server", "endpoint", "channel", "slack", "internet",
                                       "web", "remote", "external", "recipient", "recipients", "anyone", "api",
                                       NULL};
static const char *const WEBHOOK[] = {"webhook", "webhooks", NULL};
static const char *const UNTRUSTED_NAME[] = {"browse", "browser", "scrape", "crawl", "web", "webpage", "rss",
                                             "feed", "feeds", "inbox", "news", "reddit", "twitter", "tweets",
                                             "issue", "issues", "comments", "ticket", "tickets", "reviews", NULL};
static const char *const INCOMING_NOUN[] = {"email", "emails", "mail", "mails", "inbox", "message", "messages",
                                            "issue", "issues", "comment", "comments", "ticket", "tickets",
                                            "review", "reviews", "tweets", "webpage", "website", "web", NULL};
static const char *const UNTRUSTED_DESC[] = {"webpage", "webpages", "website", "websites", "internet", "rss",
                                             "inbox", "scrape", "scrapes", "crawl", "crawls", NULL};

static unsigned flow_roles(const char *name, const char *desc, unsigned d)
{
    unsigned r = 0;
    struct words n, w = {0};
    if (!words_init(&n, name, true))
        return 0;
    bool have_desc = desc && words_init(&w, desc, false);
    if ((d & D_DB) || has_any(&n, SECRET_NAME) || near(&n, READ_VERB, PRIVATE_NOUN, 3) ||
        (have_desc && near(&w, READ_VERB, PRIVATE_NOUN, 4)))
        r |= R_PRIVATE;
    /* a shell reaches the network as well as anything else can */
    if ((d & (D_SEND | D_FETCH | D_SHELL)) || has_any(&n, SINK_NAME) ||
        (have_desc && (near(&w, SINK_VERB, SINK_OBJ, 4) || has_any(&w, WEBHOOK))))
        r |= R_SINK;
    if ((d & D_FETCH) || has_any(&n, UNTRUSTED_NAME) || near(&n, READ_VERB, INCOMING_NOUN, 3) ||
        (have_desc && (has_any(&w, UNTRUSTED_DESC) || near(&w, READ_VERB, INCOMING_NOUN, 4))))
        r |= R_UNTRUSTED;
    if (d & (D_SHELL | D_FILE | D_SEND))
        r |= R_ACTION;
    words_free(&n);
    if (have_desc)
        words_free(&w);
    return r;
}

/* ------------------------------------------------------------------------------------------ */
/* shadowing                                                                                   */

/* Names of the reference servers' tools (filesystem, fetch, shell, git, github, sqlite,
 * puppeteer, email...) that other servers should not re-declare. */
static const char *const KNOWN_TOOLS[] = {
    "read_file", "read_text_file", "read_multiple_files", "write_file", "edit_file", "create_directory",
    "list_directory", "directory_tree", "move_file", "search_files", "get_file_info", "list_allowed_directories",
    "fetch", "execute_command", "run_command", "bash", "shell", "send_email", "read_query", "write_query",
    "list_tables", "describe_table", "create_issue", "get_file_contents", "create_or_update_file",
    "search_repositories", "push_files", "browser_navigate", "puppeteer_navigate", "git_status", "git_commit",
    "git_diff", NULL};

/* Lower case, '-' and '.' as '_': "Read-File" and "read_file" are the same name to a model. */
static void name_key(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    for (; *s && o + 1 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        out[o++] = (c == '-' || c == '.' || c == ' ') ? '_' : (c < 0x80 ? (char)tolower(c) : (char)c);
    }
    out[o] = '\0';
}

/* ------------------------------------------------------------------------------------------ */
/* input schema                                                                                */

static const char *const RISKY_PARAM[] = {"command", "cmd", "script", "query", "path", "url", "uri", "sql",
                                          "filepath", "filename", "code", NULL};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool freeform_string(const json_t *p)
{
    if (!json_is_object(p))
        return false;
    const json_t *t = json_object_get(p, "type");
    bool str = !t; /* untyped accepts strings */
    if (json_is_string(t))
        str = strcmp(json_string_value(t), "string") == 0;
    else if (json_is_array(t)) {
        size_t i;
        const json_t *x;
        json_array_foreach(t, i, x) str |= json_is_string(x) && strcmp(json_string_value(x), "string") == 0;
    }
    if (!str)
        return false;
    return !json_object_get(p, "pattern") && !json_object_get(p, "enum") && !json_object_get(p, "const") &&
           !json_object_get(p, "maxLength");
}

/* The unconstrained sensitive parameters of schema, sorted, listed into out. Returns their count. */
static size_t risky_params(const json_t *schema, char *out, size_t cap)
{
    const json_t *props = json_object_get(schema, "properties");
    out[0] = '\0';
    if (!json_is_object(props))
        return 0;
    size_t n = 0, cap_names = json_object_size(props);
    const char **names = malloc((cap_names ? cap_names : 1) * sizeof *names);
    if (!names)
        return 0;
    const char *key;
    const json_t *p;
    json_object_foreach((json_t *)props, key, p) {
        if (!freeform_string(p))
            continue;
        struct words ws;
        if (!words_init(&ws, key, true))
            continue;
        if (has_any(&ws, RISKY_PARAM) && n < cap_names)
            names[n++] = key;
        words_free(&ws);
    }
    qsort(names, n, sizeof *names, cmp_str); /* object iteration order is not part of the contract */
    size_t used = 0;
    int w = snprintf(out, cap, "Parameters:");
    used = w > 0 ? (size_t)w : 0;
    for (size_t i = 0; i < n && i < 5 && used + 80 < cap; i++) {
        char nm[65];
        copy_trunc(nm, sizeof nm, names[i], 64);
        w = snprintf(out + used, cap - used, "%s %s", i ? "," : "", nm);
        if (w > 0 && (size_t)w < cap - used)
            used += (size_t)w;
    }
    if (n > 5 && used + 16 < cap)
        snprintf(out + used, cap - used, " (+%zu more)", n - 5);
    if (used + 2 < cap && n <= 5)
        snprintf(out + used, cap - used, ".");
    free(names);
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* server_url                                                                                  */

enum scheme { SC_HTTP, SC_HTTPS, SC_WS, SC_WSS, SC_STDIO };
static const char *const SCHEME_NAME[] = {"http", "https", "ws", "wss", "stdio"};

bool bw_mcp_host_is_loopback(const char *host)
{
    struct bw_host h;
    return bw_host_parse(host, &h) && h.cls == BW_ADDR_LOOPBACK;
}

/* Parses server_url. Returns NULL when valid (*sc set, and *host read by the shared URL model,
 * net/url.h; no host for stdio), else the validation message. */
static const char *parse_url(const char *u, enum scheme *sc, struct bw_host *host)
{
    static const char *const not_url = "must be a URL (http, https, ws, wss or stdio://)";
    char name[64];
    memset(host, 0, sizeof *host);
    if (!bw_url_scheme(u, name, sizeof name))
        return not_url;
    int found = -1;
    for (int i = 0; i < 5; i++)
        if (strcmp(name, SCHEME_NAME[i]) == 0)
            found = i;
    if (found < 0)
        return "scheme must be one of http, https, ws, wss, stdio";
    *sc = (enum scheme)found;
    if (*sc == SC_STDIO) {
        const char *rest = u + strlen(name) + 3;
        /* stdio://<command line>: a command, spaces allowed, no control characters */
        if (!*rest)
            return "must name a command after stdio://";
        for (const unsigned char *p = (const unsigned char *)rest; *p; p++)
            if (*p < 0x20 || *p == 0x7F)
                return not_url;
        return NULL;
    }
    struct bw_url url;
    if (!bw_url_read(&url, u))
        return not_url;
    *host = url.host;
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* auth_method                                                                                 */

static const char *const KNOWN_AUTH[] = {"none", "api_key", "bearer", "oauth", "oauth2", "mtls", "basic", NULL};

/* Trimmed, lower-cased, '-' and ' ' as '_'; "" is "none", "apikey" is "api_key". cap holds 4x
 * the 64-character limit, so nothing is cut. */
static void normalise_auth(const char *s, char *out, size_t cap)
{
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        out[o++] = (c == '-' || c == ' ') ? '_' : (c < 0x80 ? (char)tolower(c) : (char)c);
    }
    out[o] = '\0';
    if (o == 0)
        snprintf(out, cap, "none");
    else if (strcmp(out, "apikey") == 0)
        snprintf(out, cap, "api_key");
}

/* ------------------------------------------------------------------------------------------ */
/* validation                                                                                  */

struct tool {
    const char *name, *desc;
    const json_t *schema;
    const char *title;         /* the protocol's display title, which the model may read too */
    const json_t *annotations; /* the protocol's hints (readOnlyHint, destructiveHint...): pinned, not judged */
};

static void add_err(json_t *errs, const char *field, const char *msg)
{
    if (json_array_size(errs) < BW_MCP_MAX_ERRORS)
        json_array_append_new(errs, json_pack("{s:s,s:s}", "field", field, "message", msg));
}

/* Checks an optional/required string member; returns it (NULL when absent or invalid). */
static const char *str_field(const json_t *obj, const char *key, const char *field, bool required, bool nonempty,
                             size_t max, json_t *errs, bool *bad)
{
    const char *s;
    char m[64];
    if (!bw_json_check_string(obj, key, required, nonempty, max, &s, m, sizeof m)) {
        add_err(errs, field, m);
        *bad = true;
    }
    return s;
}

static void validate_tools(const json_t *tools, struct tool *out, json_t *errs)
{
    size_t i;
    const json_t *t;
    char field[96], m[64];
    json_array_foreach(tools, i, t) {
        out[i] = (struct tool){0};
        bool bad = false;
        if (json_is_string(t)) {
            const char *s = json_string_value(t);
            snprintf(field, sizeof field, "mcp_config.tools[%zu]", i);
            if (!*s) {
                add_err(errs, field, "must not be empty");
            } else if (bw_utf8_chars(s, strlen(s)) > BW_MCP_TOOL_NAME_MAX) {
                snprintf(m, sizeof m, "must be at most %d characters", BW_MCP_TOOL_NAME_MAX);
                add_err(errs, field, m);
            } else if (bw_has_control(s)) {
                add_err(errs, field, "must not contain control characters");
            } else {
                out[i].name = s;
            }
        } else if (json_is_object(t)) {
            snprintf(field, sizeof field, "mcp_config.tools[%zu].name", i);
            const char *name = str_field(t, "name", field, true, true, BW_MCP_TOOL_NAME_MAX, errs, &bad);
            if (name && bw_has_control(name)) {
                add_err(errs, field, "must not contain control characters");
                name = NULL;
            }
            snprintf(field, sizeof field, "mcp_config.tools[%zu].description", i);
            const char *desc = str_field(t, "description", field, false, false, BW_MCP_DESCRIPTION_MAX, errs, &bad);
            snprintf(field, sizeof field, "mcp_config.tools[%zu].title", i);
            const char *title = str_field(t, "title", field, false, false, BW_MCP_TOOL_NAME_MAX, errs, &bad);
            static const char *const OBJECTS[] = {"input_schema", "annotations"};
            const json_t *obj[2];
            for (size_t k = 0; k < 2; k++) {
                obj[k] = json_object_get(t, OBJECTS[k]);
                if (obj[k] && !json_is_null(obj[k]) && !json_is_object(obj[k])) {
                    snprintf(field, sizeof field, "mcp_config.tools[%zu].%s", i, OBJECTS[k]);
                    add_err(errs, field, "must be an object");
                    bad = true;
                }
            }
            if (name && !bad)
                out[i] = (struct tool){.name = name, .desc = desc, .title = title,
                                       .schema = json_is_object(obj[0]) ? obj[0] : NULL,
                                       .annotations = json_is_object(obj[1]) ? obj[1] : NULL};
        } else {
            snprintf(field, sizeof field, "mcp_config.tools[%zu]", i);
            add_err(errs, field, "must be a string or an object with a name");
        }
    }
}

/* The checks one kind of text is reported under. */
struct poison_checks {
    enum check poison, enc_hidden, enc, secret;
};
static const struct poison_checks TOOL_POISON = {C_POISON, C_POISON_ENC_HIDDEN, C_POISON_ENC, C_POISON_SECRET};
static const struct poison_checks SERVER_POISON = {C_POISON_SERVER, C_POISON_SERVER_ENC_HIDDEN, C_POISON_SERVER_ENC,
                                                   C_POISON_SERVER_SECRET};

/* The poisoning checks of one item's texts (nt of them) and its name (NULL: none): hidden
 * instructions or invisible characters, encoded payloads, secret files; a finding per kind at
 * most, each at slot with source, its detail starting with where ("" or "In prompt ...: "). */
static void judge_poison(const char *const *texts, size_t nt, const char *name, const struct poison_checks *pc,
                         size_t slot, const char *source, const char *where, struct findings *f)
{
    struct finding *x;
    char why[160];
    bool p = false;
    for (size_t k = 0; k < nt && !p; k++)
        p = poisoned(texts[k], why, sizeof why);
    if (!p && name && hidden_char(name)) {
        snprintf(why, sizeof why, "Indicator: invisible Unicode character U+%04lX in the name.", hidden_char(name));
        p = true;
    }
    if (p && (x = add(f, pc->poison, slot, name))) {
        x->source = source;
        snprintf(x->extra, sizeof x->extra, "%s%s", where, why);
    }
    struct enc e = {0};
    for (size_t k = 0; k < nt && !e.hidden; k++)
        find_encoded(texts[k], &e);
    if (e.hit && (x = add(f, e.hidden ? pc->enc_hidden : pc->enc, slot, name))) {
        x->source = source;
        snprintf(x->extra, sizeof x->extra, "%s%s", where, e.what);
    }
    char refs[200];
    for (size_t k = 0; k < nt; k++) {
        if (secret_refs(texts[k], refs, sizeof refs) > 0) {
            if ((x = add(f, pc->secret, slot, name))) {
                x->source = source;
                snprintf(x->extra, sizeof x->extra, "%sNamed: %s.", where, refs);
            }
            break;
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* the scan                                                                                    */

/* The texts of a tool that the model reads: description, title, parameter descriptions and
 * names (a name can tell the model what to fill in: "content_of_id_rsa"). */
static size_t tool_texts(const struct tool *t, const char **out)
{
    size_t n = 0;
    if (t->desc)
        out[n++] = t->desc;
    if (t->title)
        out[n++] = t->title;
    const json_t *props = json_object_get(t->schema, "properties");
    if (json_is_object(props)) {
        const char *k;
        const json_t *pv;
        /* iteration order only decides which indicator is quoted when several parameters carry one */
        json_object_foreach((json_t *)props, k, pv) {
            const json_t *d = json_object_get(pv, "description");
            if (json_is_string(d) && n < 2 * BW_MCP_PARAM_TEXTS + 2)
                out[n++] = json_string_value(d);
            if (n < 2 * BW_MCP_PARAM_TEXTS + 2)
                out[n++] = k;
        }
    }
    return n;
}

static void scan_tools(const struct tool *tools, size_t n, struct findings *f, size_t *ndangerous, unsigned *roles)
{
    char key[4 * BW_MCP_TOOL_NAME_MAX + 1], other[4 * BW_MCP_TOOL_NAME_MAX + 1];
    struct finding *x;
    *ndangerous = 0;
    for (size_t i = 0; i < n; i++) {
        const struct tool *t = &tools[i];
        size_t ti = i + 1;
        const char *nm = t->name;
        const char *texts[2 * BW_MCP_PARAM_TEXTS + 2];
        size_t nt = tool_texts(t, texts);

        judge_poison(texts, nt, nm, &TOOL_POISON, ti, NULL, "", f);

        unsigned d = dangerous(t->name, t->desc);
        static const struct {
            unsigned bit;
            enum check c;
        } DMAP[] = {{D_SHELL, C_TOOL_SHELL}, {D_FILE, C_TOOL_FILE}, {D_DB, C_TOOL_DB}, {D_SEND, C_TOOL_SEND},
                    {D_FETCH, C_TOOL_FETCH}};
        for (size_t k = 0; k < sizeof DMAP / sizeof DMAP[0]; k++)
            if (d & DMAP[k].bit)
                add(f, DMAP[k].c, ti, nm);
        if (d)
            (*ndangerous)++;
        roles[i] = flow_roles(t->name, t->desc, d);

        /* shadowing: a later declaration of an earlier name, and re-declared well-known names */
        name_key(t->name, key, sizeof key);
        for (size_t j = 0; j < i; j++) {
            name_key(tools[j].name, other, sizeof other);
            if (strcmp(key, other) == 0) {
                if ((x = add(f, C_SHADOW_DUP, ti, nm)))
                    snprintf(x->extra, sizeof x->extra, "First declared as tools[%zu].", j);
                break;
            }
        }
        for (size_t k = 0; KNOWN_TOOLS[k]; k++)
            if (strcmp(key, KNOWN_TOOLS[k]) == 0)
                add(f, C_SHADOW_KNOWN, ti, nm);

        /* schema */
        if (!t->schema) {
            if (d)
                add(f, C_SCHEMA_MISSING, ti, nm);
            continue;
        }
        char list[320];
        if (risky_params(t->schema, list, sizeof list) > 0 && (x = add(f, C_SCHEMA_FREEFORM, ti, nm)))
            snprintf(x->extra, sizeof x->extra, "%s", list);
        if (json_is_true(json_object_get(t->schema, "additionalProperties")))
            add(f, C_SCHEMA_ADDL, ti, nm);
    }
}

/* Appends "label: a, b, c (+N more). " for the tools having a role in mask. */
static void list_role(char *out, size_t cap, const char *label, const struct tool *tools, const unsigned *roles,
                      size_t n, unsigned mask)
{
    size_t used = strlen(out), shown = 0, total = 0;
    int w = snprintf(out + used, cap - used, "%s%s:", used ? " " : "", label);
    if (w < 0 || (size_t)w >= cap - used)
        return;
    used += (size_t)w;
    for (size_t i = 0; i < n; i++) {
        if (!(roles[i] & mask))
            continue;
        total++;
        if (shown == 3)
            continue;
        char nm[48];
        copy_trunc(nm, sizeof nm, tools[i].name, 40);
        w = snprintf(out + used, cap - used, "%s %s", shown ? "," : "", nm);
        if (w < 0 || (size_t)w >= cap - used)
            return;
        used += (size_t)w;
        shown++;
    }
    if (total > shown)
        w = snprintf(out + used, cap - used, " (+%zu more).", total - shown);
    else
        w = snprintf(out + used, cap - used, ".");
    (void)w; /* a cut list is still a true one */
}

/* Flows across tools: every role is judged per tool, the flow needs each role somewhere on the
 * server (one tool may play several). */
static void scan_flows(const struct tool *tools, size_t n, const unsigned *roles, struct findings *f)
{
    unsigned any = 0;
    for (size_t i = 0; i < n; i++)
        any |= roles[i];
    struct finding *x;
    if ((any & R_PRIVATE) && (any & R_SINK)) {
        bool trifecta = any & R_UNTRUSTED;
        if ((x = add(f, trifecta ? C_FLOW_TRIFECTA : C_FLOW_EXFIL, 0, NULL))) {
            if (trifecta)
                list_role(x->extra, sizeof x->extra, "Untrusted input", tools, roles, n, R_UNTRUSTED);
            list_role(x->extra, sizeof x->extra, "Private data", tools, roles, n, R_PRIVATE);
            list_role(x->extra, sizeof x->extra, "Outbound", tools, roles, n, R_SINK);
        }
    }
    if ((any & R_UNTRUSTED) && (any & R_ACTION) && (x = add(f, C_FLOW_ACTION, 0, NULL))) {
        list_role(x->extra, sizeof x->extra, "Untrusted input", tools, roles, n, R_UNTRUSTED);
        list_role(x->extra, sizeof x->extra, "Actions", tools, roles, n, R_ACTION);
    }
}

/* Whether two tool names are the same to a model (name_key equality, without the copies). */
static bool same_name(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        x = (x == '-' || x == '.' || x == ' ') ? '_' : (x < 0x80 ? (unsigned char)tolower(x) : x);
        y = (y == '-' || y == '.' || y == ' ') ? '_' : (y < 0x80 ? (unsigned char)tolower(y) : y);
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

/* A validated request. */
struct parsed {
    const char *url, *auth;
    enum scheme sc;
    struct tool *tv; /* malloc'ed; borrowed strings from the body */
    size_t nt;
    bool probe;
    bool tools_given;         /* mcp_config.tools is an array (perhaps empty): a declared tool list */
    enum bw_mcp_pin_mode pin; /* the request's `pin` */
};

/* The tools the live probe listed, in the scanner's shape (strings borrowed from live->tools). */
static struct tool *live_tools(const struct bw_mcp_live *live, size_t *n)
{
    size_t m = json_array_size(live->tools);
    struct tool *tv = calloc(m ? m : 1, sizeof *tv);
    if (!tv)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        const json_t *t = json_array_get(live->tools, i);
        const json_t *name = json_object_get(t, "name"), *d = json_object_get(t, "description");
        const json_t *title = json_object_get(t, "title"), *schema = json_object_get(t, "input_schema");
        const json_t *ann = json_object_get(t, "annotations");
        if (!json_is_string(name))
            continue; /* bw_mcp_rpc_tools never lists one; a hand-made result might */
        tv[k++] = (struct tool){.name = json_string_value(name),
                                .desc = json_is_string(d) ? json_string_value(d) : NULL,
                                .title = json_is_string(title) ? json_string_value(title) : NULL,
                                .schema = json_is_object(schema) ? schema : NULL,
                                .annotations = json_is_object(ann) ? ann : NULL};
    }
    *n = k;
    return tv;
}

static bool live_listed(const struct bw_mcp_live *live)
{
    return live && live->performed && live->status == BW_MCP_PROBE_LISTED && live->tools;
}

/* Findings of the probe itself, and the drift between declared and listed tools. */
static void scan_live(const struct parsed *q, const struct bw_mcp_live *live, const struct tool *tools, size_t n,
                      bool remote, const char *auth, struct findings *f)
{
    struct finding *x;
    if (live->status == BW_MCP_PROBE_UNREACHABLE) {
        if ((x = add(f, C_PROBE_UNREACHABLE, 0, NULL)))
            snprintf(x->extra, sizeof x->extra, "Egress outcome: %s (%.200s).", bw_egress_outcome_name(live->outcome),
                     live->error);
        return;
    }
    if (live->reachable && live->tls && !live->tls_verify_ok && (x = add(f, C_TRANSPORT_CERT, 0, NULL)))
        snprintf(x->extra, sizeof x->extra, "%s%.120s", live->tls_error[0] ? "Reason: " : "", live->tls_error);
    if (live->status == BW_MCP_PROBE_PROTOCOL || (live->status == BW_MCP_PROBE_LISTED && live->error[0])) {
        if ((x = add(f, C_PROBE_PROTOCOL, 0, NULL)))
            snprintf(x->extra, sizeof x->extra, "What happened: %.240s.", live->error);
    }
    if (!live_listed(live))
        return;
    /* tools listed without any credential: the server is open, whatever the configuration says */
    bool none = strcmp(auth, "none") == 0;
    x = add(f, none ? C_AUTH_OPEN_CONFIRMED : remote ? C_AUTH_OPEN_REMOTE : C_AUTH_OPEN_LOCAL, 0, NULL);
    if (x)
        snprintf(x->extra, sizeof x->extra, "Declared auth_method: %.64s; tools listed: %zu.", auth, n);
    if (q->nt == 0)
        return; /* nothing declared: nothing to drift from */
    for (size_t i = 0; i < n; i++) {
        const struct tool *d = NULL;
        for (size_t j = 0; j < q->nt && !d; j++)
            if (same_name(tools[i].name, q->tv[j].name))
                d = &q->tv[j];
        if (!d)
            add(f, C_PROBE_NEW, i + 1, tools[i].name);
        else if (d->desc && strcmp(d->desc, tools[i].desc ? tools[i].desc : "") != 0)
            add(f, C_PROBE_CHANGED, i + 1, tools[i].name);
    }
    if (live->truncated)
        return; /* unlisted pages may hold the declared tools */
    for (size_t j = 0; j < q->nt; j++) {
        bool seen = false;
        for (size_t i = 0; i < n && !seen; i++)
            seen = same_name(tools[i].name, q->tv[j].name);
        if (!seen)
            add(f, C_PROBE_MISSING, n + j + 1, q->tv[j].name);
    }
}

/* The server's instructions, prompts and resources, read for the poisoning tool descriptions are
 * read for: the client hands all of them to the model. A prompt's texts are its description,
 * title and its arguments' descriptions and titles; a resource's its name, description and
 * title (its URI names what it serves, not what the model is told: only invisible characters
 * count there). Reported as MCP-POISON-004..006 with `source`, and `prompt` (the name) or
 * `resource` (the URI) naming the item. */
static void scan_server_texts(const struct bw_mcp_live *live, struct findings *f)
{
    const char *texts[2 * BW_MCP_PARAM_TEXTS + 2];
    char where[BW_MCP_TOOL_NAME_MAX + BW_MCP_URL_MAX / 8 + 48];
    if (json_is_string(live->instructions)) {
        texts[0] = json_string_value(live->instructions);
        judge_poison(texts, 1, NULL, &SERVER_POISON, 1, "instructions", "In the server's instructions: ", f);
    }
    size_t i;
    const json_t *it;
    json_array_foreach(live->prompts.items, i, it) {
        size_t nt = 0, k;
        const json_t *a;
        static const char *const KEYS[] = {"description", "title"};
        for (size_t j = 0; j < 2; j++)
            if (json_is_string(json_object_get(it, KEYS[j])))
                texts[nt++] = json_string_value(json_object_get(it, KEYS[j]));
        json_array_foreach(json_object_get(it, "arguments"), k, a) {
            for (size_t j = 0; j < 2 && nt < sizeof texts / sizeof texts[0]; j++)
                if (json_is_string(json_object_get(a, KEYS[j])))
                    texts[nt++] = json_string_value(json_object_get(a, KEYS[j]));
        }
        const char *name = json_string_value(json_object_get(it, "name"));
        if (!name)
            continue; /* bw_mcp_rpc_list never lists one; a hand-made result might */
        snprintf(where, sizeof where, "In prompt \"%.64s\": ", name);
        judge_poison(texts, nt, name, &SERVER_POISON, 2 + i, "prompt", where, f);
    }
    json_array_foreach(live->resources.items, i, it) {
        size_t nt = 0;
        static const char *const KEYS[] = {"name", "description", "title"};
        for (size_t j = 0; j < 3; j++)
            if (json_is_string(json_object_get(it, KEYS[j])))
                texts[nt++] = json_string_value(json_object_get(it, KEYS[j]));
        const char *uri = json_string_value(json_object_get(it, "uri"));
        const char *name = json_string_value(json_object_get(it, "name"));
        if (!uri || !name)
            continue;
        snprintf(where, sizeof where, "In resource \"%.64s\" (%.120s): ", name, uri);
        judge_poison(texts, nt, uri, &SERVER_POISON, 2 + BW_MCP_LIVE_ITEMS_MAX + i, "resource", where, f);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* tool pins                                                                                   */

/* Whether tools[i] is the first of its name: a namesake after it is MCP-SHADOW-001's business,
 * the first is the one pinned. */
static bool first_of_name(const struct tool *tools, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (strcmp(tools[j].name, tools[i].name) == 0)
            return false;
    return true;
}

static const struct bw_mcp_pinned *held_pin(const struct bw_mcp_pins_held *h, const char *name)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->v[i].tool, name) == 0)
            return &h->v[i];
    return NULL;
}

static struct bw_mcp_tooldef tooldef(const struct tool *t)
{
    return (struct bw_mcp_tooldef){t->desc, t->title, t->schema, t->annotations};
}

/* "Changed: description, input_schema. description was "...", now "..."." for a changed tool. */
static void describe_change(char *out, size_t cap, const char *pinned_at, const json_t *changes)
{
    size_t used = 0, i;
    const json_t *c;
    int w = snprintf(out, cap, "Pinned %s. Changed:", pinned_at);
    used = w > 0 && (size_t)w < cap ? (size_t)w : 0;
    json_array_foreach(changes, i, c) {
        w = snprintf(out + used, cap - used, "%s %s", i ? "," : "", json_string_value(json_object_get(c, "field")));
        if (w > 0 && (size_t)w < cap - used)
            used += (size_t)w;
    }
    const json_t *c0 = json_array_get(changes, 0);
    const char *was = json_string_value(json_object_get(c0, "old")), *now = json_string_value(json_object_get(c0, "new"));
    char qw[160] = "absent", qn[160] = "absent";
    if (was)
        snprintf(qw, sizeof qw, "\"%.150s\"", was);
    if (now)
        snprintf(qn, sizeof qn, "\"%.150s\"", now);
    snprintf(out + used, cap - used, ". %s was %s, now %s.", json_string_value(json_object_get(c0, "field")), qw, qn);
}

/* Appends {tool, change, fields?} to the accepted list. */
static bool accepted_item(json_t *list, const char *tool, const char *change, const json_t *changes)
{
    json_t *o = json_pack("{s:s,s:s}", "tool", tool, "change", change);
    if (o && changes) {
        json_t *fields = json_array();
        size_t i;
        const json_t *c;
        json_array_foreach(changes, i, c) json_array_append(fields, json_object_get(c, "field"));
        json_object_set_new(o, "fields", fields);
    }
    return o && json_array_append_new(list, o) == 0;
}

/* Compares the scanned tools with the server's pins: reports each change as a finding (pin on),
 * or lists what was accepted (pin "accept"), and says what to save in *save. Returns the
 * response's `pins` object, NULL when out of memory. truncated: the tools are a cut listing, so a
 * pinned tool missing from it is not removed. */
static json_t *scan_pins(const struct tool *tools, size_t n, bool truncated, const struct bw_mcp_pin_plan *plan,
                         const struct bw_mcp_pins_held *held, struct findings *f, struct bw_mcp_pins_new *save)
{
    if (plan->mode == BW_MCP_PIN_OFF)
        return json_pack("{s:s}", "state", "off");
    if (!plan->applies || !held)
        return json_pack("{s:s,s:s}", "state", "skipped", "reason", plan->skip ? plan->skip : "the pins were not read");
    json_t *out = json_pack("{s:o}", "server", json_text(plan->server));
    struct bw_mcp_pin *cur = calloc(n ? n : 1, sizeof *cur);
    bool ok = out && cur;
    size_t ncur = 0;
    for (size_t i = 0; ok && i < n; i++) {
        struct bw_mcp_tooldef d = tooldef(&tools[i]);
        if (first_of_name(tools, i)) {
            ok = bw_mcp_pin_make(&d, &cur[i]) == 0;
            ncur++;
        }
    }
    size_t changed = 0, added = 0, removed = 0;
    const bool accept = plan->mode == BW_MCP_PIN_ACCEPT;
    json_t *accepted = accept ? json_array() : NULL;
    ok = ok && (!accept || accepted);
    char when[32];
    snprintf(when, sizeof when, "%.24s", held->exists ? held->pinned_at : held->now);
    for (size_t i = 0; ok && held->exists && i < n; i++) {
        if (!cur[i].doc)
            continue; /* a namesake */
        const struct bw_mcp_pinned *h = held_pin(held, tools[i].name);
        struct finding *x = NULL;
        if (!h) {
            added++;
            bool danger = dangerous(tools[i].name, tools[i].desc) != 0;
            if (accept)
                ok = accepted_item(accepted, tools[i].name, "added", NULL);
            else if ((x = add(f, danger ? C_PIN_ADDED_DANGEROUS : C_PIN_ADDED, i + 1, tools[i].name)))
                snprintf(x->extra, sizeof x->extra, "Pinned %s with %zu tools; this one was not among them.", when,
                         held->n);
        } else if (strcmp(h->hash, cur[i].hash) != 0) {
            changed++;
            struct bw_mcp_tooldef d = tooldef(&tools[i]);
            json_t *changes = bw_mcp_pin_diff(h->doc, &d);
            ok = changes != NULL;
            if (ok && accept)
                ok = accepted_item(accepted, tools[i].name, "changed", changes);
            else if (ok && (x = add(f, C_PIN_CHANGED, i + 1, tools[i].name))) {
                describe_change(x->extra, sizeof x->extra, when, changes);
                x->changes = json_incref(changes);
            }
            json_decref(changes);
        }
    }
    /* pinned tools the scan no longer sees; not when the listing was cut short */
    bool *seen = calloc(held->n ? held->n : 1, sizeof *seen);
    ok = ok && seen;
    for (size_t j = 0; ok && held->exists && j < held->n; j++) {
        for (size_t i = 0; i < n && !seen[j]; i++)
            seen[j] = strcmp(tools[i].name, held->v[j].tool) == 0;
        if (seen[j] || truncated)
            continue;
        removed++;
        struct finding *x;
        if (accept)
            ok = accepted_item(accepted, held->v[j].tool, "removed", NULL);
        else if ((x = add(f, C_PIN_REMOVED, n + j + 1, held->v[j].tool)))
            snprintf(x->extra, sizeof x->extra, "Pinned %s; the scan no longer finds the tool.", when);
    }
    const size_t total = changed + added + removed;
    const char *state = !held->exists ? (held->room ? "new" : "not_pinned")
                        : accept && total ? "accepted"
                        : total          ? "changed"
                                         : "unchanged";
    bool write = !held->exists ? held->room : accept && total;
    if (ok && write) {
        /* the scanned definitions, and (after a cut listing) the pins it did not reach */
        save->action = held->exists ? BW_MCP_PINS_REPLACE : BW_MCP_PINS_RECORD;
        save->v = calloc(ncur + held->n + 1, sizeof *save->v);
        ok = save->v != NULL;
        for (size_t i = 0; ok && i < n; i++)
            if (cur[i].doc)
                save->v[save->n++] = (struct bw_mcp_pinned){tools[i].name, cur[i].hash, cur[i].doc};
        for (size_t j = 0; ok && truncated && held->exists && j < held->n && save->n < BW_MCP_TOOLS_MAX; j++)
            if (!seen[j])
                save->v[save->n++] = held->v[j];
        save->own = cur;
        save->nown = n;
        cur = NULL;
    }
    free(seen);
    if (ok) {
        json_object_set_new(out, "state", json_string(state));
        if (!held->exists && !held->room) {
            char why[128];
            snprintf(why, sizeof why, "the account pins %d servers, the most it may: this one was scanned unpinned",
                     BW_MCP_PIN_SERVERS_MAX);
            json_object_set_new(out, "reason", json_string(why));
        } else {
            json_object_set_new(out, "tools_pinned", json_integer((json_int_t)(write ? save->n : held->n)));
            json_object_set_new(out, "pinned_at", json_string(write ? held->now : held->pinned_at));
        }
        if (held->exists && !accept)
            json_object_set_new(out, "changes", json_pack("{s:I,s:I,s:I}", "changed", (json_int_t)changed, "added",
                                                          (json_int_t)added, "removed", (json_int_t)removed));
        if (accept && held->exists)
            json_object_set(out, "accepted", accepted);
    }
    json_decref(accepted);
    for (size_t i = 0; cur && i < n; i++)
        bw_mcp_pin_clear(&cur[i]);
    free(cur);
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

void bw_mcp_pins_new_free(struct bw_mcp_pins_new *s)
{
    for (size_t i = 0; s->own && i < s->nown; i++)
        bw_mcp_pin_clear(&s->own[i]);
    free(s->own);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* The response's `probe` object. */
static json_t *probe_json(const struct parsed *q, const struct bw_mcp_live *live)
{
    if (!live || !live->performed) {
        json_t *o = json_pack("{s:b}", "performed", 0);
        if (o && q->probe)
            json_object_set_new(o, "error",
                                json_string(q->sc == SC_HTTP || q->sc == SC_HTTPS
                                                ? "the live probe was not run"
                                                : "the live probe speaks streamable HTTP: server_url must be http or https"));
        return o;
    }
    bool listed = live_listed(live);
    const struct bw_mcp_server_info *in = &live->info;
    json_t *o = json_pack("{s:b,s:b,s:s,s:o,s:o,s:o,s:o,s:o,s:s,s:i,s:b,s:I,s:b,s:o,s:b,s:i,s:I}", "performed", 1,
                          "reachable", live->reachable, "outcome", bw_egress_outcome_name(live->outcome),
                          "http_status", live->http_status ? json_integer(live->http_status) : json_null(),
                          "protocol_version", in->protocol_version[0] ? json_text(in->protocol_version) : json_null(),
                          "server_name", in->name[0] ? json_text(in->name) : json_null(), "server_version",
                          in->version[0] ? json_text(in->version) : json_null(), "tools_listed",
                          listed ? json_integer((json_int_t)json_array_size(live->tools)) : json_null(),
                          "tools_source", listed ? "server" : "declared", "pages", live->pages, "truncated",
                          live->truncated, "invalid_tools", (json_int_t)live->invalid_tools, "session", live->session,
                          "format", !live->reachable || !live->initialized ? json_null()
                                    : json_string(live->sse ? "sse" : "json"),
                          "auth_required", live->status == BW_MCP_PROBE_AUTH, "requests", live->requests,
                          "elapsed_ms", (json_int_t)live->elapsed_ms);
    if (o && live->initialized) {
        json_object_set_new(o, "instructions", json_boolean(live->instructions != NULL));
        json_object_set_new(o, "prompts_listed", live->prompts.items
                                                     ? json_integer((json_int_t)json_array_size(live->prompts.items))
                                                     : json_null());
        json_object_set_new(o, "resources_listed",
                            live->resources.items ? json_integer((json_int_t)json_array_size(live->resources.items))
                                                  : json_null());
    }
    if (o && live->error[0])
        json_object_set_new(o, "error", json_text(live->error));
    return o;
}

static void findings_free(struct findings *f)
{
    for (size_t i = 0; i < f->n; i++)
        json_decref(f->v[i].changes);
    free(f->v);
}

static json_t *scan(const struct bw_mcp_checks *checks, const struct parsed *q, const struct bw_mcp_live *live,
                    const struct bw_mcp_pin_plan *plan, const struct bw_mcp_pins_held *held, struct bw_mcp_pins_new *save)
{
    struct bw_host host;
    enum scheme sc = q->sc;
    if (parse_url(q->url, &sc, &host) != NULL)
        return NULL; /* validated before */
    char auth[4 * BW_MCP_AUTH_MAX + 8];
    normalise_auth(q->auth ? q->auth : "", auth, sizeof auth);
    bool known = false;
    for (size_t i = 0; KNOWN_AUTH[i]; i++)
        known |= strcmp(auth, KNOWN_AUTH[i]) == 0;

    struct findings f = {0};
    const enum bw_addr_class hc = host.cls;
    const bool literal = sc != SC_STDIO && host.family != AF_UNSPEC;
    bool remote = sc != SC_STDIO && hc != BW_ADDR_LOOPBACK; /* a wildcard bind is reachable from outside */
    bool plain = sc == SC_HTTP || sc == SC_WS;
    bool none = strcmp(auth, "none") == 0;

    if (sc != SC_STDIO && none)
        add(&f, remote ? C_AUTH_NONE_REMOTE : C_AUTH_NONE_LOCAL, 0, NULL);
    if (plain && remote && (strcmp(auth, "basic") == 0 || strcmp(auth, "api_key") == 0 || strcmp(auth, "bearer") == 0))
        add(&f, C_AUTH_CLEAR, 0, NULL);
    if (!known)
        add(&f, C_AUTH_UNKNOWN, 0, NULL);
    if (plain && remote)
        add(&f, C_TRANSPORT_PLAIN, 0, NULL);
    if (sc == SC_STDIO)
        add(&f, C_TRANSPORT_STDIO, 0, NULL);
    /* an IP literal: internal ones (not routed on the internet) apart from the rest */
    if (literal && hc == BW_ADDR_UNSPECIFIED)
        add(&f, C_NET_WILDCARD, 0, NULL);
    else if (literal && (hc == BW_ADDR_PRIVATE || hc == BW_ADDR_LINK_LOCAL || hc == BW_ADDR_METADATA ||
                         hc == BW_ADDR_CGNAT))
        add(&f, C_NET_PRIVATE, 0, NULL);
    else if (literal && hc != BW_ADDR_LOOPBACK)
        add(&f, C_NET_PUBLIC, 0, NULL);

    /* live tools, when listed, replace the declared ones: they are what an agent will see */
    const struct tool *tools = q->tv;
    size_t ntools = q->nt;
    struct tool *ltv = NULL;
    if (live_listed(live)) {
        ltv = live_tools(live, &ntools);
        if (!ltv)
            return NULL;
        tools = ltv;
    }
    unsigned *roles = calloc(ntools ? ntools : 1, sizeof *roles);
    if (!roles) {
        free(ltv);
        return NULL;
    }
    size_t ndangerous = 0;
    scan_tools(tools, ntools, &f, &ndangerous, roles);
    scan_flows(tools, ntools, roles, &f);
    free(roles);
    if (ntools > BW_MCP_MANY_TOOLS)
        add(&f, C_TOOLS_MANY, 0, NULL);
    if (live && live->performed)
        scan_live(q, live, tools, ntools, remote, auth, &f);
    if (live && live->performed && live->initialized)
        scan_server_texts(live, &f);
    json_t *pins = NULL;
    if (plan && !(pins = scan_pins(tools, ntools, live_listed(live) && live->truncated, plan, held, &f, save)))
        f.oom = true;
    if (f.oom) {
        findings_free(&f);
        free(ltv);
        return NULL;
    }

    for (size_t i = 0; i < f.n; i++)
        f.v[i].sev = checks->def[f.v[i].c].sev;
    if (f.n > 1)
        qsort(f.v, f.n, sizeof *f.v, cmp_finding);
    int score = 0;
    for (size_t i = 0; i < f.n; i++) {
        score += WEIGHT[f.v[i].sev];
        if (score > 100)
            score = 100;
    }
    json_t *items = json_array();
    for (size_t i = 0; i < f.n && i < BW_MCP_MAX_FINDINGS; i++) {
        const struct finding *x = &f.v[i];
        const struct check_def *c = &checks->def[x->c];
        char detail[BW_MCP_CHECK_TEXT_MAX + 1 + sizeof x->extra];
        snprintf(detail, sizeof detail, "%s%s%s", c->detail, x->extra[0] ? " " : "", x->extra);
        json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:o}", "id", c->id, "type", c->type, "severity", SEV_NAME[c->sev],
                              "title", c->title, "detail", json_text(detail));
        if (o && x->source)
            json_object_set_new(o, "source", json_string(x->source));
        if (o && x->name) /* a prompt's name or a resource's URI, else a tool's name */
            json_object_set_new(o, x->source ? x->source : "tool", json_text(x->name));
        if (o) {
            json_object_set_new(o, "remediation", json_string(c->remediation));
            json_object_set_new(o, "owasp_llm", c->owasp ? json_string(c->owasp) : json_null());
            if (x->changes)
                json_object_set(o, "changes", x->changes);
        }
        json_array_append_new(items, o);
    }
    findings_free(&f);
    json_t *summary = json_pack("{s:I,s:I,s:s,s:s}", "tools", (json_int_t)ntools, "dangerous_tools",
                                (json_int_t)ndangerous, "auth", auth, "transport", SCHEME_NAME[sc]);
    json_t *out = json_pack("{s:b,s:i,s:s,s:o,s:o,s:o}", "ok", 1, "risk_score", score, "risk_level",
                            bw_mcp_risk_level(score), "findings", items, "summary", summary, "probe", probe_json(q, live));
    if (out && pins)
        json_object_set_new(out, "pins", pins);
    else
        json_decref(pins);
    free(ltv); /* after rendering: findings borrowed the live tool names */
    return out;
}

/* Validates body into q (q->tv to free). 0, or -1 with *errors set (NULL only when out of memory). */
static int parse_body(const json_t *body, struct parsed *q, json_t **errors)
{
    memset(q, 0, sizeof *q);
    *errors = NULL;
    json_t *errs = json_array();
    if (!errs)
        return -1;
    const json_t *cfg = json_is_object(body) ? json_object_get(body, "mcp_config") : NULL;
    if (!cfg || json_is_null(cfg)) {
        add_err(errs, "mcp_config", "is required");
        *errors = errs;
        return -1;
    }
    if (!json_is_object(cfg)) {
        add_err(errs, "mcp_config", "must be an object");
        *errors = errs;
        return -1;
    }
    bool bad = false;
    q->url = str_field(cfg, "server_url", "mcp_config.server_url", true, true, BW_MCP_URL_MAX, errs, &bad);
    if (q->url) {
        struct bw_host host;
        const char *why = parse_url(q->url, &q->sc, &host);
        if (why)
            add_err(errs, "mcp_config.server_url", why);
    }
    q->auth = str_field(cfg, "auth_method", "mcp_config.auth_method", false, false, BW_MCP_AUTH_MAX, errs, &bad);
    const json_t *probe = json_object_get(body, "probe");
    if (probe && !json_is_null(probe) && !json_is_boolean(probe))
        add_err(errs, "probe", "must be a boolean");
    q->probe = json_is_true(probe);
    const json_t *pin = json_object_get(body, "pin");
    q->pin = json_is_false(pin) ? BW_MCP_PIN_OFF : BW_MCP_PIN_ON;
    if (json_is_string(pin) && strcmp(json_string_value(pin), "accept") == 0)
        q->pin = BW_MCP_PIN_ACCEPT;
    else if (pin && !json_is_null(pin) && !json_is_boolean(pin))
        add_err(errs, "pin", "must be true, false or \"accept\"");
    const json_t *tools = json_object_get(cfg, "tools");
    q->tools_given = json_is_array(tools);
    if (tools && !json_is_null(tools)) {
        if (!json_is_array(tools)) {
            add_err(errs, "mcp_config.tools", "must be an array");
        } else if (json_array_size(tools) > BW_MCP_TOOLS_MAX) {
            add_err(errs, "mcp_config.tools", "must have at most 500 items");
        } else {
            q->nt = json_array_size(tools);
            q->tv = calloc(q->nt ? q->nt : 1, sizeof *q->tv);
            if (!q->tv) {
                json_decref(errs);
                return -1;
            }
            validate_tools(tools, q->tv, errs);
        }
    }
    if (json_array_size(errs) > 0) {
        free(q->tv);
        q->tv = NULL;
        *errors = errs;
        return -1;
    }
    json_decref(errs);
    return 0;
}

json_t *bw_mcp_scan_body_pinned(const struct bw_mcp_checks *checks, const json_t *body,
                                const struct bw_mcp_live *live, const struct bw_mcp_pin_plan *plan,
                                const struct bw_mcp_pins_held *held, struct bw_mcp_pins_new *save, json_t **errors)
{
    if (save)
        memset(save, 0, sizeof *save);
    struct parsed q;
    if (parse_body(body, &q, errors) != 0)
        return NULL;
    struct bw_mcp_pins_new none = {0};
    json_t *out = scan(checks, &q, live, plan, held, save ? save : &none);
    bw_mcp_pins_new_free(&none);
    free(q.tv);
    return out;
}

json_t *bw_mcp_scan_body_live(const struct bw_mcp_checks *checks, const json_t *body, const struct bw_mcp_live *live,
                              json_t **errors)
{
    return bw_mcp_scan_body_pinned(checks, body, live, NULL, NULL, NULL, errors);
}

json_t *bw_mcp_scan_body(const struct bw_mcp_checks *checks, const json_t *body, json_t **errors)
{
    return bw_mcp_scan_body_live(checks, body, NULL, errors);
}

int bw_mcp_pin_plan(const json_t *body, const struct bw_mcp_live *live, struct bw_mcp_pin_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    struct parsed q;
    json_t *errs = NULL;
    if (parse_body(body, &q, &errs) != 0) {
        json_decref(errs);
        return -1;
    }
    free(q.tv);
    plan->mode = q.pin;
    if (q.pin == BW_MCP_PIN_OFF)
        return 0;
    if (live && live->performed && !live_listed(live))
        plan->skip = "the live probe listed no tools, and the declared ones are not what the server serves";
    else if (!live_listed(live) && !q.tools_given)
        plan->skip = "no tool list to pin: mcp_config.tools declares none and no probe listed any";
    else if (!bw_mcp_server_identity(q.url, plan->server_key, plan->server, sizeof plan->server))
        plan->skip = "the server's identity could not be read";
    else
        plan->applies = true;
    return 0;
}

const char *bw_mcp_probe_target(const json_t *body)
{
    struct parsed q;
    json_t *errs = NULL;
    if (parse_body(body, &q, &errs) != 0) {
        json_decref(errs);
        return NULL;
    }
    free(q.tv);
    return q.probe && (q.sc == SC_HTTP || q.sc == SC_HTTPS) ? q.url : NULL;
}
