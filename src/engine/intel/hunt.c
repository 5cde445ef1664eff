/* Hunt pack generator: a record document in, Sigma/KQL/YARA content out (contract in hunt.h).
 *
 * facts_read() reduces the record's facts (facts.h) to bounded, cleaned values (text clipped on
 * UTF-8 boundaries, control characters made spaces) and a set of weakness/behaviour classes;
 * each artefact is then written from those facts alone by its own function. Every artefact
 * escapes for its own language at the point where text is written (sigma_value, bw_kql_str,
 * yara_str, yaml_scalar), so the facts stay raw text. Nothing iterates over a hash table of the
 * input, reads the clock or the locale. */
#include "engine/intel/hunt.h"
#include "common/jsonx.h"

#include "common/sbuf.h"

#include "common/limits.h"
#include "common/timeutil.h"
#include "engine/intel/attack.h"
#include "engine/intel/facts.h"
#include "engine/intel/ids.h"
#include "engine/intel/intel.h"
#include "engine/intel/kql.h"

#include <sodium.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- text helpers ----------------------------------------------------------------------- */

/* Copies s into dst (size n) as one clean line: control characters and Unicode line separators
 * become spaces, invisible format characters (zero-width, bidi overrides, BOM) go, surrounding
 * spaces go, and a cut never splits a UTF-8 sequence (jansson strings are valid UTF-8, so the
 * result is too). */
static void clip(char *dst, size_t n, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t o = 0;
    while (*p) {
        size_t len = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1;
        for (size_t k = 1; k < len; k++)
            if ((p[k] & 0xC0) != 0x80)
                len = 1; /* not UTF-8: taken byte by byte (jansson never lets it through) */
        bool space = *p < 0x20 || *p == 0x7f || (len == 2 && p[0] == 0xC2 && p[1] < 0xA0) ||
                     (len == 3 && p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9));
        bool drop = len == 3 && ((p[0] == 0xE2 && p[1] == 0x80 && ((p[2] >= 0x8B && p[2] <= 0x8F) ||
                                                                   (p[2] >= 0xAA && p[2] <= 0xAE))) ||
                                 (p[0] == 0xE2 && p[1] == 0x81 && (p[2] == 0xA0 || (p[2] >= 0xA6 && p[2] <= 0xA9))) ||
                                 (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF));
        if (space || *p == ' ') {
            if (o > 0 && dst[o - 1] != ' ' && o + 1 < n)
                dst[o++] = ' ';
        } else if (!drop) {
            if (o + len >= n)
                break;
            memcpy(dst + o, p, len);
            o += len;
        }
        p += len;
    }
    while (o > 0 && dst[o - 1] == ' ')
        o--;
    dst[o] = '\0';
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool ieq(const char *a, const char *b)
{
    for (; *a && lower(*a) == lower(*b); a++, b++)
        ;
    return *a == '\0' && *b == '\0';
}

/* ASCII case-insensitive substring search, locale-free */
static bool icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (!n)
        return true;
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && lower(hay[i]) == lower(needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

static bool alnum(char c)
{
    c = lower(c);
    return (c >= 'a' && c <= 'z') || is_digit(c);
}

/* Whether needle occurs in hay as a whole word (ignoring ASCII case): "tensorflow" in
 * "tensorflow-gpu", but not "ray" in "Array". */
static bool icontains_word(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *h = hay; n && *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && lower(h[i]) == lower(needle[i]))
            i++;
        if (i == n && (h == hay || !alnum(h[-1]) || !alnum(needle[0])) && (!alnum(h[n]) || !alnum(needle[n - 1])))
            return true;
    }
    return false;
}

/* ---- classes ------------------------------------------------------------------------------ */

/* In priority order: when a record has more classes than BW_HUNT_MAX_CLASSES, the first ones
 * (payloads that travel in requests, the most specific to look for) win. */
enum hclass { HC_TRAVERSAL, HC_SSRF, HC_SQLI, HC_XSS, HC_CMDI, HC_CODEI, HC_DESER, HC_PROMPT, HC_TOOL,
              HC_MODEL, HC_SECRETS, HC_CRASH, HC_GENERIC, HC_COUNT };

enum web { WEB_NEVER, WEB_FACING, WEB_ALWAYS };

struct hclass_info {
    const char *name;  /* selection suffix */
    const char *label; /* for descriptions */
    enum web web;      /* whether its payloads show in web server logs */
    bool exec;         /* code runs: processes started by the product are worth hunting */
    int cwes[20];      /* 0-terminated */
    const char *words[8]; /* title words, ignoring case */
    const char *markers[BW_HUNT_MAX_MARKERS]; /* at least 3 bytes each (YARA atoms) */
};

static const struct hclass_info HC[HC_COUNT] = {
    [HC_TRAVERSAL] = {"path_traversal", "path traversal", WEB_ALWAYS, false,
                      {22, 23, 24, 29, 35, 36, 73, 0},
                      {"path traversal", "directory traversal", "traversal", "zipslip", "tarslip"},
                      {"../", "..%2f", "%2e%2e%2f", "..\\", "/etc/passwd"}},
    [HC_SSRF] = {"ssrf", "server-side request forgery", WEB_ALWAYS, false, {918, 0},
                 {"server-side request forgery", "server side request forgery", "ssrf"},
                 {"169.254.169.254", "metadata.google.internal", "100.100.100.200", "file://", "gopher://"}},
    [HC_SQLI] = {"sql_injection", "SQL injection", WEB_ALWAYS, false, {89, 564, 943, 0},
                 {"sql injection"},
                 {"union select", "union%20select", "union+select", "information_schema", "sleep("}},
    [HC_XSS] = {"xss", "cross-site scripting", WEB_ALWAYS, false, {79, 80, 83, 87, 0},
                {"cross-site scripting", "cross site scripting", "xss"},
                {"<script", "%3cscript", "javascript:", "onerror=", "onload="}},
    [HC_CMDI] = {"command_injection", "OS command injection", WEB_FACING, true, {77, 78, 88, 0},
                 {"command injection", "os command", "shell command"},
                 {";curl", "%3bcurl", "|bash", "%7cbash", "%24%28"}},
    [HC_CODEI] = {"code_injection", "code injection", WEB_FACING, true, {94, 95, 96, 917, 1336, 0},
                  {"code injection", "template injection"},
                  {"__import__", "eval(", "exec(", "os.system", "subprocess"}},
    [HC_DESER] = {"deserialization", "unsafe deserialisation", WEB_FACING, true, {502, 0},
                  {"deserializ", "deserialis", "unpickl", "pickle"},
                  {".pkl", ".pickle", "__reduce__", "rO0AB", "!!python/"}},
    [HC_PROMPT] = {"prompt_injection", "prompt injection", WEB_NEVER, false, {1427, 0},
                   {"prompt injection", "prompt-injection", "jailbreak"},
                   {"ignore previous instructions", "ignore all previous instructions",
                    "disregard previous instructions", "reveal your system prompt", "developer mode"}},
    [HC_TOOL] = {"tool_execution", "code execution through tools", WEB_NEVER, true, {0},
                 {"code execution", "remote code", "arbitrary code", "execute arbitrary"},
                 {"os.system", "subprocess", "/bin/sh", "powershell", "cmd.exe"}},
    [HC_MODEL] = {"model_loading", "malicious model loading", WEB_NEVER, true, {0},
                  {"model file", "malicious model", "crafted model"},
                  {"torch.load", "pickle.load", "joblib.load", "trust_remote_code", "__reduce__"}},
    [HC_SECRETS] = {"credential_exposure", "credential exposure", WEB_NEVER, false,
                    {256, 259, 312, 321, 522, 532, 798, 0},
                    {"credential", "api key", "secret key", "access token", "password"},
                    {"api_key", "secret_key", "access_token", "Authorization: Bearer", "PRIVATE KEY"}},
    [HC_CRASH] = {"crash", "crash or resource exhaustion", WEB_NEVER, false,
                  {119, 120, 121, 122, 125, 190, 369, 400, 416, 476, 617, 674, 770, 787, 824, 835, 1333, 0},
                  {"memory corruption", "out-of-bounds", "out of bounds", "buffer overflow", "use after free",
                   "use-after-free", "denial of service", "null pointer"},
                  {"Segmentation fault", "core dumped", "Check failed", "MemoryError", "out of memory"}},
    [HC_GENERIC] = {"exploitation", "exploitation", WEB_NEVER, false, {0}, {NULL},
                    {"Traceback (most recent call last)", "exploit", "payload", "unauthorized", "exception"}},
};

/* Weaknesses that are reached over the network without credentials: they make a record
 * web-facing without bringing markers of their own. */
static const int AUTH_CWES[] = {284, 285, 287, 288, 290, 306, 425, 639, 862, 863, 1390};
static const char *const AUTH_WORDS[] = {"missing authentication", "authentication bypass", "unauthenticated",
                                         "without authentication", "missing authorization"};
/* Techniques of exploitation over the network. */
static const char *const FACING_TECHNIQUES[] = {"T1190", "T1133", "T1210"};

/* Product names that name nothing in particular. */
static const char *const GENERIC_TERMS[] = {"multiple products", "n/a", "unknown", "various", "none", "other"};

/* Processes an exploited service should never start. */
static const char *const SHELLS[] = {"sh", "bash", "dash", "zsh", "cmd.exe", "powershell.exe", "pwsh", "pwsh.exe",
                                     "curl", "wget", "nc", "ncat", "whoami", "whoami.exe"};

/* Package ecosystems -> the Sigma logsource product of their applications. */
static const char *const ECOSYSTEMS[][2] = {
    {"PyPI", "python"},    {"npm", "nodejs"}, {"Maven", "java"},   {"Go", "go"},
    {"crates.io", "rust"}, {"RubyGems", "ruby"}, {"NuGet", "dotnet"}, {"Packagist", "php"},
};

/* ---- record facts ---------------------------------------------------------------------- */

#define TERM_CAP (BW_HUNT_MAX_TERM_LEN + 1)

struct facts {
    char id[BW_INTEL_ID_MAX + 1];
    char title[BW_HUNT_MAX_TITLE + 1];
    char summary[BW_HUNT_MAX_SUMMARY + 1];
    const char *severity; /* static */
    const char *level;    /* Sigma level, static */
    const char *cves[BW_HUNT_MAX_CVES]; /* borrowed from the record, as are cwes, techniques, refs */
    size_t ncve;
    char products[BW_HUNT_MAX_TERMS][TERM_CAP];
    size_t nproduct;
    char packages[BW_HUNT_MAX_TERMS][TERM_CAP];
    size_t npackage;
    char terms[BW_HUNT_MAX_TERMS][TERM_CAP]; /* what the rules search for */
    size_t nterm;
    char ecosystem[32]; /* of the first package */
    const char *cwes[BW_HUNT_MAX_CWES];
    size_t ncwe;
    const char *techniques[BW_HUNT_MAX_TECHNIQUES];
    size_t ntech;
    const char *refs[BW_HUNT_MAX_REFERENCES];
    size_t nref;
    char date[11], modified[11];
    bool facing;   /* exploitable over the network */
    bool artifact; /* reached through a model or data file, not a request */
    unsigned classes;
    enum hclass sel[BW_HUNT_MAX_CLASSES];
    size_t nsel;
    bool web; /* the Sigma rule reads web server logs */
    unsigned char hash[16];
};

static bool has_class(const struct facts *f, enum hclass c)
{
    return (f->classes >> c) & 1u;
}

static void add_class(struct facts *f, enum hclass c)
{
    f->classes |= 1u << c;
}

/* Whether class c's payloads show in web server logs for this record. */
static bool class_web(const struct facts *f, enum hclass c)
{
    if (HC[c].web == WEB_ALWAYS)
        return c != HC_TRAVERSAL || !f->artifact; /* a crafted model's paths never reach a URL */
    return HC[c].web == WEB_FACING && f->facing;
}

static bool generic_term(const char *s)
{
    for (size_t i = 0; i < NELEM(GENERIC_TERMS); i++)
        if (ieq(s, GENERIC_TERMS[i]))
            return true;
    return false;
}

/* Adds a name to list (for basis) and, when specific enough, to the search terms: a name that
 * contains a term already there as a word adds nothing (that term matches it), and a name
 * contained in one replaces it. */
static void add_name(struct facts *f, char list[][TERM_CAP], size_t *n, const char *raw)
{
    char name[TERM_CAP];
    clip(name, sizeof name, raw);
    if (!name[0] || generic_term(name))
        return;
    bool seen = false;
    for (size_t i = 0; i < *n && !seen; i++)
        seen = ieq(list[i], name);
    if (!seen && *n < BW_HUNT_MAX_TERMS)
        memcpy(list[(*n)++], name, sizeof name);
    if (strlen(name) < BW_HUNT_MIN_TERM_LEN)
        return;
    for (size_t i = 0; i < f->nterm; i++) {
        if (icontains_word(name, f->terms[i]))
            return;
        if (icontains_word(f->terms[i], name)) {
            memcpy(f->terms[i], name, sizeof name);
            /* the new, shorter term may also cover later ones */
            for (size_t j = i + 1; j < f->nterm;) {
                if (icontains_word(f->terms[j], name)) {
                    memmove(f->terms[j], f->terms[j + 1], (f->nterm - j - 1) * TERM_CAP);
                    f->nterm--;
                } else {
                    j++;
                }
            }
            return;
        }
    }
    if (f->nterm < BW_HUNT_MAX_TERMS)
        memcpy(f->terms[f->nterm++], name, sizeof name);
}

static bool technique_is(const char *t, const char *parent)
{
    size_t n = strlen(parent);
    return strncmp(t, parent, n) == 0 && (t[n] == '\0' || t[n] == '.');
}

static void classes_read(struct facts *f, const struct bw_facts *r)
{
    bool exec = false, data = false;

    f->artifact = r->type == BW_FACTS_MODEL_ADVISORY || (r->impacts & BW_IMPACT_SUPPLY);
    for (size_t k = 0; k < f->ntech; k++)
        if (technique_is(f->techniques[k], "T1204"))
            f->artifact = true;

    /* CWEs first: the most precise statement of the flaw */
    for (size_t k = 0; k < f->ncwe; k++) {
        int n = bw_cwe_number(f->cwes[k]);
        for (int c = 0; c < HC_COUNT; c++)
            for (size_t j = 0; j < NELEM(HC[c].cwes) && HC[c].cwes[j]; j++)
                if (HC[c].cwes[j] == n)
                    add_class(f, (enum hclass)c);
        for (size_t j = 0; j < NELEM(AUTH_CWES); j++)
            if (AUTH_CWES[j] == n)
                f->facing = true;
    }
    /* the title names the flaw class for most advisories (OSV records carry no CWE) */
    for (int c = 0; c < HC_COUNT; c++)
        for (size_t j = 0; j < NELEM(HC[c].words) && HC[c].words[j]; j++)
            if (icontains(f->title, HC[c].words[j]))
                add_class(f, (enum hclass)c);
    for (size_t j = 0; j < NELEM(AUTH_WORDS); j++)
        if (icontains(f->title, AUTH_WORDS[j]))
            f->facing = true;
    for (size_t k = 0; k < f->ntech; k++) {
        const char *t = f->techniques[k];
        for (size_t j = 0; j < NELEM(FACING_TECHNIQUES); j++)
            if (technique_is(t, FACING_TECHNIQUES[j]))
                f->facing = true;
        if (technique_is(t, "T1059"))
            exec = true;
        else if (technique_is(t, "T1203") || technique_is(t, "T1499"))
            add_class(f, HC_CRASH);
        else if (technique_is(t, "T1204") || technique_is(t, "T1195"))
            add_class(f, HC_MODEL);
        else if (technique_is(t, "T1552"))
            add_class(f, HC_SECRETS);
    }
    if (r->impacts & BW_IMPACT_PROMPT)
        add_class(f, HC_PROMPT);
    if (r->impacts & BW_IMPACT_TOOL)
        exec = true;
    if (r->impacts & BW_IMPACT_SUPPLY)
        add_class(f, HC_MODEL);
    if (r->impacts & BW_IMPACT_AVAIL)
        add_class(f, HC_CRASH);
    if (r->impacts & BW_IMPACT_DATA)
        data = true;
    /* "code execution" in a request-facing product is injected through requests; elsewhere it
     * happens through tools, loaders or agents */
    if (has_class(f, HC_TOOL) && f->facing) {
        f->classes &= ~(1u << HC_TOOL);
        exec = true;
    }
    if (exec && !has_class(f, HC_CMDI) && !has_class(f, HC_CODEI) && !has_class(f, HC_DESER))
        add_class(f, f->facing ? HC_CODEI : HC_TOOL);
    if (!f->classes && data)
        add_class(f, HC_SECRETS);
    if (!f->classes) {
        if (r->type == BW_FACTS_MODEL_ADVISORY)
            add_class(f, HC_MODEL);
        else if (r->type == BW_FACTS_PROMPT_ATTACK)
            add_class(f, HC_PROMPT);
        else if (r->type == BW_FACTS_AGENT_THREAT)
            add_class(f, HC_TOOL);
        else
            add_class(f, HC_GENERIC);
    }
    for (int c = 0; c < HC_COUNT && f->nsel < BW_HUNT_MAX_CLASSES; c++)
        if (has_class(f, (enum hclass)c))
            f->sel[f->nsel++] = (enum hclass)c;
    for (size_t k = 0; k < f->nsel; k++)
        if (class_web(f, f->sel[k]))
            f->web = f->nterm > 0; /* a web selection needs a product to anchor it */
}

/* A CWE id that names a weakness (CWE-0 names none). */
static bool cwe_named(const char *s)
{
    return bw_cwe_number(s) > 0;
}

static void facts_read(struct facts *f, const json_t *rec)
{
    struct bw_facts r;
    size_t i;
    const json_t *v;
    memset(f, 0, sizeof *f);
    bw_facts_read(&r, rec);
    snprintf(f->id, sizeof f->id, "%s", r.id);
    clip(f->title, sizeof f->title, r.title);
    clip(f->summary, sizeof f->summary, r.summary);

    static const char *const lvl[] = {"critical", "high", "medium", "low"};
    int sev = r.severity >= 0 ? r.severity : 2; /* MEDIUM when the record has none */
    f->severity = bw_intel_severities[sev];
    f->level = lvl[sev];

    f->ncve = bw_facts_ids(r.cve, bw_cve_valid, BW_HUNT_MAX_ITEMS, BW_HUNT_MAX_CVES, f->cves);

    /* packages first: they are what shows on command lines and in import errors */
    json_array_foreach(r.affected, i, v) {
        if (i >= BW_HUNT_MAX_ITEMS)
            break;
        const char *pkg = bw_json_str(v, "package");
        if (*pkg && !f->ecosystem[0] && f->npackage == 0)
            clip(f->ecosystem, sizeof f->ecosystem, bw_json_str(v, "ecosystem"));
        add_name(f, f->packages, &f->npackage, pkg);
    }
    json_array_foreach(r.affected, i, v) {
        if (i >= BW_HUNT_MAX_ITEMS)
            break;
        add_name(f, f->products, &f->nproduct, bw_json_str(v, "product"));
    }
    add_name(f, f->products, &f->nproduct, r.kev_product);

    f->ncwe = bw_facts_ids(r.cwe, cwe_named, BW_HUNT_MAX_ITEMS, BW_HUNT_MAX_CWES, f->cwes);
    f->ntech = bw_facts_ids(r.attack, bw_attack_id_valid, BW_HUNT_MAX_ITEMS, BW_HUNT_MAX_TECHNIQUES, f->techniques);
    json_array_foreach(r.references, i, v) {
        if (i >= BW_HUNT_MAX_ITEMS || f->nref >= BW_HUNT_MAX_REFERENCES)
            break;
        const char *u = bw_json_str(v, "url");
        size_t n = strlen(u);
        bool ok = (strncmp(u, "https://", 8) == 0 || strncmp(u, "http://", 7) == 0) && n <= BW_HUNT_MAX_URL_LEN;
        for (size_t k = 0; ok && k < n; k++)
            ok = (unsigned char)u[k] > 0x20 && u[k] != 0x7f;
        for (size_t k = 0; ok && k < f->nref; k++)
            ok = strcmp(f->refs[k], u) != 0;
        if (ok)
            f->refs[f->nref++] = u;
    }
    bw_iso_day(f->date, r.published); /* the Sigma schema's date pattern */
    bw_iso_day(f->modified, r.updated);
    if (!f->date[0] || strcmp(f->modified, f->date) <= 0)
        f->modified[0] = '\0';

    classes_read(f, &r);

    /* one hash of the id names both rules: stable across record versions */
    char key[BW_INTEL_ID_MAX + 32];
    int n = snprintf(key, sizeof key, "bulwark/hunt/%s", f->id);
    crypto_generichash(f->hash, sizeof f->hash, (const unsigned char *)key, (unsigned long long)n, NULL, 0);
}

/* The first search term, or the first CVE: what titles and descriptions name. */
static const char *subject(const struct facts *f)
{
    return f->nterm ? f->terms[0] : f->ncve ? f->cves[0] : f->id;
}

static void class_labels(struct bw_sb *b, const struct facts *f, bool web_only)
{
    size_t n = 0;
    for (size_t k = 0; k < f->nsel; k++) {
        if (web_only && !class_web(f, f->sel[k]))
            continue;
        bw_sb_puts(b, n++ ? ", " : "");
        bw_sb_puts(b, HC[f->sel[k]].label);
    }
}

/* ---- JSON building -------------------------------------------------------------------- */

struct ctx {
    struct facts f;
    bool fail; /* out of memory (or, impossibly, invalid UTF-8) */
};

static void set(struct ctx *c, json_t *o, const char *k, json_t *v)
{
    if (!v || json_object_set_new(o, k, v) != 0)
        c->fail = true;
}

static void append(struct ctx *c, json_t *a, json_t *v)
{
    if (!v || json_array_append_new(a, v) != 0)
        c->fail = true;
}

static json_t *str(struct ctx *c, const char *s)
{
    json_t *v = json_string(s);
    if (!v)
        c->fail = true;
    return v;
}

static json_t *str_list(struct ctx *c, const char (*items)[TERM_CAP], size_t n)
{
    json_t *a = json_array();
    if (!a)
        c->fail = true;
    for (size_t i = 0; a && i < n; i++)
        append(c, a, str(c, items[i]));
    return a;
}

/* ---- Sigma ----------------------------------------------------------------------------------- */

/* A Sigma value that means exactly s: \, * and ? are escaped (they are wildcards otherwise). */
static json_t *sigma_value(struct ctx *c, const char *s)
{
    struct bw_sb b = {0};
    bw_sb_puts(&b, "");
    for (; *s; s++) {
        if (*s == '\\' || *s == '*' || *s == '?')
            bw_sb_putc(&b, '\\');
        bw_sb_putc(&b, *s);
    }
    json_t *v = b.oom ? NULL : str(c, bw_sb_str(&b));
    if (b.oom)
        c->fail = true;
    free(b.p);
    return v;
}

/* How a product term shows in host names and URL paths: lower case, spaces as dashes. */
static void url_term(char *dst, size_t n, const char *term)
{
    size_t i = 0;
    for (; term[i] && i + 1 < n; i++)
        dst[i] = term[i] == ' ' ? '-' : lower(term[i]);
    dst[i] = '\0';
}

/* Sigma logsource identifiers: lower-case ASCII letters, digits and '_', or "" when none. */
static void slug(char *dst, size_t n, const char *s)
{
    size_t o = 0;
    bool gap = false;
    for (; *s && o + 1 < n; s++) {
        char c = lower(*s);
        if ((c >= 'a' && c <= 'z') || is_digit(c)) {
            if (gap && o)
                dst[o++] = '_';
            if (o + 1 < n)
                dst[o++] = c;
            gap = false;
        } else {
            gap = true;
        }
    }
    dst[o] = '\0';
}

static json_t *markers_json(struct ctx *c, enum hclass h)
{
    json_t *a = json_array();
    if (!a)
        c->fail = true;
    for (size_t i = 0; a && i < BW_HUNT_MAX_MARKERS && HC[h].markers[i]; i++)
        append(c, a, sigma_value(c, HC[h].markers[i]));
    return a;
}

static json_t *sigma_logsource(struct ctx *c)
{
    const struct facts *f = &c->f;
    json_t *ls = json_object();
    if (!ls) {
        c->fail = true;
        return NULL;
    }
    if (f->web) {
        set(c, ls, "category", str(c, "webserver"));
        return ls;
    }
    set(c, ls, "category", str(c, "application"));
    if (!f->nterm)
        return ls;
    char name[TERM_CAP];
    slug(name, sizeof name, f->terms[0]);
    const char *lang = NULL;
    for (size_t i = 0; i < NELEM(ECOSYSTEMS) && f->npackage; i++)
        if (ieq(f->ecosystem, ECOSYSTEMS[i][0]))
            lang = ECOSYSTEMS[i][1];
    if (lang) {
        set(c, ls, "product", str(c, lang));
        if (name[0])
            set(c, ls, "service", str(c, name));
    } else if (name[0]) {
        set(c, ls, "product", str(c, name));
    }
    return ls;
}

/* Fills detection; cond gets the condition. Every selection holds a term or a CVE id. */
static void sigma_detection(struct ctx *c, json_t *det, struct bw_sb *cond)
{
    const struct facts *f = &c->f;
    struct bw_sb name = {0};
    if (f->web) {
        /* product in host or path AND a payload marker in the query */
        for (size_t k = 0; k < f->nsel; k++) {
            enum hclass h = f->sel[k];
            if (!class_web(f, h))
                continue;
            json_t *hosts = json_array(), *paths = json_array();
            if (!hosts || !paths)
                c->fail = true;
            for (size_t t = 0; hosts && paths && t < f->nterm; t++) {
                char u[TERM_CAP + 1];
                url_term(u + 1, sizeof u - 1, f->terms[t]);
                u[0] = '/';
                append(c, hosts, sigma_value(c, u + 1));
                append(c, paths, sigma_value(c, u));
            }
            json_t *by_host = json_object(), *by_path = json_object(), *alts = json_array();
            if (!by_host || !by_path || !alts)
                c->fail = true;
            if (by_host) {
                set(c, by_host, "cs-host|contains", hosts);
                set(c, by_host, "cs-uri-query|contains", markers_json(c, h));
            } else {
                json_decref(hosts);
            }
            if (by_path) {
                set(c, by_path, "cs-uri-stem|contains", paths);
                set(c, by_path, "cs-uri-query|contains", markers_json(c, h));
            } else {
                json_decref(paths);
            }
            if (alts) {
                append(c, alts, by_host);
                append(c, alts, by_path);
            } else {
                json_decref(by_host);
                json_decref(by_path);
            }
            bw_sb_reset(&name);
            bw_sb_printf(&name, "selection_%s", HC[h].name);
            set(c, det, bw_sb_str(&name), alts);
            bw_sb_printf(cond, "%s%s", cond->len ? " or " : "", bw_sb_str(&name));
        }
    } else if (f->nterm) {
        /* application logs: the product term AND one marker per selection ('|all' keywords) */
        size_t per = BW_HUNT_MAX_SELECTIONS / (f->nsel ? f->nsel : 1);
        for (size_t k = 0; k < f->nsel; k++) {
            enum hclass h = f->sel[k];
            size_t nm = 0;
            while (nm < BW_HUNT_MAX_MARKERS && HC[h].markers[nm])
                nm++;
            if (nm > per)
                nm = per;
            for (size_t m = 0; m < nm; m++) {
                json_t *sel = json_object(), *all = json_array();
                if (!sel || !all) {
                    c->fail = true;
                    json_decref(sel);
                    json_decref(all);
                    continue;
                }
                append(c, all, sigma_value(c, f->terms[0]));
                append(c, all, sigma_value(c, HC[h].markers[m]));
                set(c, sel, "|all", all);
                bw_sb_reset(&name);
                if (nm > 1)
                    bw_sb_printf(&name, "keywords_%s_%zu", HC[h].name, m + 1);
                else
                    bw_sb_printf(&name, "keywords_%s", HC[h].name);
                set(c, det, bw_sb_str(&name), sel);
                bw_sb_printf(cond, "%s%s", cond->len ? " or " : "", bw_sb_str(&name));
            }
        }
    } else {
        /* no product to anchor on: the CVE ids themselves (security tools and scanners log them) */
        json_t *ids = json_array();
        for (size_t i = 0; ids && i < f->ncve; i++)
            append(c, ids, sigma_value(c, f->cves[i]));
        set(c, det, "keywords_cve", ids);
        bw_sb_printf(cond, "keywords_cve");
    }
    if (name.oom)
        c->fail = true;
    free(name.p);
}

static json_t *sigma_tags(struct ctx *c)
{
    const struct facts *f = &c->f;
    json_t *tags = json_array();
    if (!tags) {
        c->fail = true;
        return NULL;
    }
    /* tactics in matrix order, then techniques, then CVEs (SigmaHQ's order) */
    unsigned done = 0;
    for (size_t order = 0; order < 32; order++)
        for (size_t k = 0; k < f->ntech; k++) {
            const struct bw_attack_technique *t = bw_attack_technique_resolve(f->techniques[k]);
            for (size_t j = 0; t && j < t->n_tactics; j++) {
                const struct bw_attack_tactic *ta = t->tactics[j];
                if (ta->order != order || ta->order >= 32 || (done >> ta->order) & 1u)
                    continue;
                done |= 1u << ta->order;
                char tag[96];
                snprintf(tag, sizeof tag, "attack.%s", ta->shortname);
                append(c, tags, str(c, tag));
            }
        }
    for (size_t k = 0; k < f->ntech; k++) {
        char tag[32];
        snprintf(tag, sizeof tag, "attack.%s", f->techniques[k]);
        for (char *p = tag; *p; p++)
            *p = lower(*p);
        append(c, tags, str(c, tag));
    }
    for (size_t k = 0; k < f->ncve; k++) {
        char tag[32];
        snprintf(tag, sizeof tag, "cve.%s", f->cves[k] + 4);
        append(c, tags, str(c, tag));
    }
    if (f->ncve)
        append(c, tags, str(c, "detection.emerging-threats"));
    return tags;
}

static json_t *sigma_rule(struct ctx *c)
{
    const struct facts *f = &c->f;
    json_t *rule = json_object();
    if (!rule) {
        c->fail = true;
        return NULL;
    }
    struct bw_sb b = {0};

    if (f->ncve)
        bw_sb_printf(&b, "Possible exploitation of %s", f->cves[0]);
    else
        bw_sb_printf(&b, "Possible exploitation of %s", f->id);
    if (f->title[0])
        bw_sb_printf(&b, " (%s)", f->title);
    set(c, rule, "title", str(c, bw_sb_str(&b)));

    const unsigned char *h = f->hash;
    char uuid[37];
    snprintf(uuid, sizeof uuid, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", h[0], h[1],
             h[2], h[3], h[4], h[5], (h[6] & 0x0f) | 0x50, h[7], (h[8] & 0x3f) | 0x80, h[9], h[10], h[11], h[12],
             h[13], h[14], h[15]);
    set(c, rule, "id", str(c, uuid));
    set(c, rule, "status", str(c, "experimental"));

    bw_sb_reset(&b);
    bw_sb_puts(&b, "Hunts for ");
    class_labels(&b, f, f->web);
    bw_sb_printf(&b, " activity involving %s, related to %s (severity %s).", subject(f), f->id, f->severity);
    if (f->summary[0])
        bw_sb_printf(&b, " %s", f->summary);
    bw_sb_printf(&b, " Generated by bulwark from threat-intelligence record %s; review and tune it to your"
                  " environment before alerting on it.", f->id);
    set(c, rule, "description", str(c, bw_sb_str(&b)));

    if (f->nref) {
        json_t *refs = json_array();
        for (size_t i = 0; refs && i < f->nref; i++)
            append(c, refs, str(c, f->refs[i]));
        set(c, rule, "references", refs);
    }
    set(c, rule, "author", str(c, "bulwark"));
    if (f->date[0])
        set(c, rule, "date", str(c, f->date));
    if (f->modified[0])
        set(c, rule, "modified", str(c, f->modified));
    set(c, rule, "tags", sigma_tags(c));
    set(c, rule, "logsource", sigma_logsource(c));

    json_t *det = json_object();
    if (det) {
        bw_sb_reset(&b);
        sigma_detection(c, det, &b);
        set(c, det, "condition", str(c, bw_sb_str(&b)));
    }
    set(c, rule, "detection", det);

    json_t *fp = json_array();
    bw_sb_reset(&b);
    if (f->nterm) {
        bw_sb_printf(&b, "Authorised vulnerability scans and penetration tests of %s", f->terms[0]);
        append(c, fp, str(c, bw_sb_str(&b)));
        bw_sb_reset(&b);
        if (f->web)
            bw_sb_printf(&b, "Legitimate requests to %s whose parameters contain these sequences", f->terms[0]);
        else
            bw_sb_printf(&b, "Log lines of %s that mention these terms during normal debugging", f->terms[0]);
        append(c, fp, str(c, bw_sb_str(&b)));
    } else {
        bw_sb_printf(&b, "Vulnerability scanner and advisory-tracking output that names %s", f->cves[0]);
        append(c, fp, str(c, bw_sb_str(&b)));
    }
    set(c, rule, "falsepositives", fp);
    set(c, rule, "level", str(c, f->level));
    if (b.oom)
        c->fail = true;
    free(b.p);
    return rule;
}

/* ---- YAML ------------------------------------------------------------------------------------- */

/* A double-quoted YAML scalar: escapes for ", \, every C0/C1 control, DEL, and the characters
 * YAML treats as line breaks or byte-order marks (NEL, LS, PS, BOM), so the text reads back
 * unchanged. */
static void yaml_scalar(struct bw_sb *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    bw_sb_putc(b, '"');
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            bw_sb_putc(b, '\\');
            bw_sb_putc(b, (char)c);
            p++;
        } else if (c == '\n') {
            bw_sb_puts(b, "\\n");
            p++;
        } else if (c == '\t') {
            bw_sb_puts(b, "\\t");
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            bw_sb_printf(b, "\\x%02X", c);
            p++;
        } else if (c < 0x80) {
            bw_sb_putc(b, (char)c);
            p++;
        } else {
            size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            unsigned cp = c & (len == 4 ? 0x07u : len == 3 ? 0x0Fu : 0x1Fu);
            size_t k = 1;
            for (; k < len && (p[k] & 0xC0) == 0x80; k++)
                cp = (cp << 6) | (p[k] & 0x3Fu);
            if (k < len) { /* not UTF-8 (jansson never lets it through): keep the byte visible */
                bw_sb_printf(b, "\\x%02X", c);
                p++;
                continue;
            }
            if ((cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF || cp == 0xFFFE ||
                cp == 0xFFFF)
                bw_sb_printf(b, "\\u%04X", cp);
            else
                bw_sb_putn(b, (const char *)p, len);
            p += len;
        }
    }
    bw_sb_putc(b, '"');
}

/* Keys made only of these characters, not starting with an indicator and not a YAML 1.1 bool or
 * null word, read back as the same string unquoted. */
static bool yaml_plain_key(const char *k)
{
    static const char *const special[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"};
    if (!((k[0] >= 'a' && k[0] <= 'z') || (k[0] >= 'A' && k[0] <= 'Z') || k[0] == '_'))
        return false;
    for (const char *p = k; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || is_digit(*p) || strchr("_-.|", *p)))
            return false;
    for (size_t i = 0; i < NELEM(special); i++)
        if (ieq(k, special[i]))
            return false;
    return true;
}

static void yaml_pad(struct bw_sb *b, int n)
{
    for (int i = 0; i < n; i++)
        bw_sb_putc(b, ' ');
}

static void yaml_map(struct bw_sb *b, const json_t *o, int indent, bool inline_first);
static void yaml_seq(struct bw_sb *b, const json_t *a, int indent, bool inline_first);

static void yaml_leaf(struct bw_sb *b, const json_t *v)
{
    if (json_is_string(v))
        yaml_scalar(b, json_string_value(v));
    else if (json_is_integer(v))
        bw_sb_printf(b, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        bw_sb_printf(b, "%.17g", json_real_value(v));
    else if (json_is_true(v))
        bw_sb_puts(b, "true");
    else if (json_is_false(v))
        bw_sb_puts(b, "false");
    else if (json_is_array(v))
        bw_sb_puts(b, "[]");
    else if (json_is_object(v))
        bw_sb_puts(b, "{}");
    else
        bw_sb_puts(b, "null");
    bw_sb_putc(b, '\n');
}

static void yaml_map(struct bw_sb *b, const json_t *o, int indent, bool inline_first)
{
    const char *k;
    const json_t *v;
    bool first = true;
    json_object_foreach((json_t *)o, k, v) {
        if (!(first && inline_first))
            yaml_pad(b, indent);
        first = false;
        if (yaml_plain_key(k))
            bw_sb_puts(b, k);
        else
            yaml_scalar(b, k);
        bw_sb_putc(b, ':');
        if (json_is_object(v) && json_object_size(v)) {
            bw_sb_putc(b, '\n');
            yaml_map(b, v, indent + 2, false);
        } else if (json_is_array(v) && json_array_size(v)) {
            bw_sb_putc(b, '\n');
            yaml_seq(b, v, indent + 2, false);
        } else {
            bw_sb_putc(b, ' ');
            yaml_leaf(b, v);
        }
    }
}

static void yaml_seq(struct bw_sb *b, const json_t *a, int indent, bool inline_first)
{
    size_t i;
    const json_t *v;
    json_array_foreach(a, i, v) {
        if (!(i == 0 && inline_first))
            yaml_pad(b, indent);
        bw_sb_puts(b, "- ");
        if (json_is_object(v) && json_object_size(v))
            yaml_map(b, v, indent + 2, true);
        else if (json_is_array(v) && json_array_size(v))
            yaml_seq(b, v, indent + 2, true);
        else
            yaml_leaf(b, v);
    }
}

/* ---- KQL ------------------------------------------------------------------------------------- */

struct strs {
    const char *v[BW_HUNT_MAX_TERMS * 2 + BW_HUNT_MAX_CLASSES * BW_HUNT_MAX_MARKERS + BW_HUNT_MAX_CVES];
    size_t n;
};

static void strs_add(struct strs *s, const char *v)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], v) == 0)
            return;
    if (s->n < NELEM(s->v))
        s->v[s->n++] = v;
}

static void kql_part(struct bw_sb *b, bool *first, const char *table)
{
    bw_sb_puts(b, *first ? "\n    (" : ",\n    (");
    *first = false;
    bw_kql_from(b, table, "TimeGenerated", "lookback", 4);
}

static char *kql_query(const struct facts *f)
{
    struct bw_sb b = {0};
    struct strs terms = {0}, web = {0}, all = {0}, cves = {0};
    for (size_t i = 0; i < f->nterm; i++)
        strs_add(&terms, f->terms[i]);
    for (size_t i = 0; i < f->ncve; i++)
        strs_add(&cves, f->cves[i]);
    bool exec = false;
    for (size_t k = 0; k < f->nsel; k++) {
        enum hclass h = f->sel[k];
        exec = exec || HC[h].exec;
        for (size_t m = 0; m < BW_HUNT_MAX_MARKERS && HC[h].markers[m]; m++) {
            strs_add(&all, HC[h].markers[m]);
            if (class_web(f, h))
                strs_add(&web, HC[h].markers[m]);
        }
    }

    bw_sb_printf(&b, "// bulwark hunt for %s", f->id);
    if (f->title[0]) {
        bw_sb_puts(&b, ": ");
        bw_kql_comment(&b, f->title);
    }
    bw_sb_printf(&b, "\nlet lookback = %dd;\nunion isfuzzy=true", BW_HUNT_LOOKBACK_DAYS);
    bool first = true;
    if (terms.n && web.n) {
        static const char *const iis_where[] = {"csHost", "csUriStem"};
        static const char *const cef_where[] = {"DestinationHostName", "RequestURL"};
        static const char *const iis_url[] = {"Url"};
        static const char *const cef_url[] = {"RequestURL"};
        kql_part(&b, &first, "W3CIISLog");
        bw_sb_puts(&b, "\n    | where ");
        bw_kql_any(&b, iis_where, 2, terms.v, terms.n);
        bw_sb_puts(&b, "\n    | extend Url = strcat(csUriStem, \"?\", csUriQuery)\n    | where ");
        bw_kql_any(&b, iis_url, 1, web.v, web.n);
        bw_sb_puts(&b, "\n    | project TimeGenerated, Source = \"W3CIISLog\", Computer, Actor = cIP, Evidence = Url)");
        kql_part(&b, &first, "CommonSecurityLog");
        bw_sb_puts(&b, "\n    | where ");
        bw_kql_any(&b, cef_where, 2, terms.v, terms.n);
        bw_sb_puts(&b, "\n    | where ");
        bw_kql_any(&b, cef_url, 1, web.v, web.n);
        bw_sb_puts(&b, "\n    | project TimeGenerated, Source = \"CommonSecurityLog\", Computer, Actor = SourceIP,"
                    " Evidence = RequestURL)");
    }
    if (terms.n && all.n) {
        /* the product's own logs: a term and a marker on one line */
        static const char *const text[] = {"Text"};
        static const struct {
            const char *table, *computer, *text;
        } LOGS[] = {{"Syslog", "Computer", "SyslogMessage"},
                    {"ContainerLogV2", "Computer", "tostring(LogMessage)"},
                    {"AppTraces", "AppRoleInstance", "Message"}};
        for (size_t i = 0; i < NELEM(LOGS); i++) {
            kql_part(&b, &first, LOGS[i].table);
            bw_sb_printf(&b, "\n    | extend Text = %s\n    | where ", LOGS[i].text);
            bw_kql_any(&b, text, 1, terms.v, terms.n);
            bw_sb_puts(&b, "\n    | where ");
            bw_kql_any(&b, text, 1, all.v, all.n);
            bw_sb_printf(&b, "\n    | project TimeGenerated, Source = \"%s\", %s%s, Actor = \"\", Evidence = Text)",
                      LOGS[i].table, strcmp(LOGS[i].computer, "Computer") ? "Computer = " : "", LOGS[i].computer);
        }
    }
    if (terms.n && exec) {
        /* code ran: the product's processes starting shells and downloaders */
        static const char *const parent[] = {"InitiatingProcessCommandLine", "InitiatingProcessFolderPath"};
        kql_part(&b, &first, "DeviceProcessEvents");
        bw_sb_puts(&b, "\n    | where ");
        bw_kql_any(&b, parent, 2, terms.v, terms.n);
        bw_sb_puts(&b, "\n    | where FileName in~ ");
        bw_kql_list(&b, SHELLS, NELEM(SHELLS));
        bw_sb_puts(&b, "\n    | project TimeGenerated, Source = \"DeviceProcessEvents\", Computer = DeviceName,"
                    " Actor = AccountName, Evidence = ProcessCommandLine)");
    }
    if (cves.n) {
        /* WAF/IDS signatures and security alerts that name the CVE */
        static const char *const cef[] = {"Activity", "Message"};
        static const char *const alert[] = {"AlertName", "Description", "tostring(ExtendedProperties)"};
        kql_part(&b, &first, "CommonSecurityLog");
        bw_sb_puts(&b, "\n    | where ");
        bw_kql_any(&b, cef, 2, cves.v, cves.n);
        bw_sb_puts(&b, "\n    | project TimeGenerated, Source = \"CommonSecurityLog\", Computer, Actor = SourceIP,"
                    " Evidence = strcat(Activity, \" \", Message))");
        kql_part(&b, &first, "SecurityAlert");
        bw_sb_puts(&b, "\n    | where ");
        bw_kql_any(&b, alert, 3, cves.v, cves.n);
        bw_sb_puts(&b, "\n    | project TimeGenerated, Source = \"SecurityAlert\", Computer = CompromisedEntity,"
                    " Actor = ProviderName, Evidence = AlertName)");
    }
    bw_sb_puts(&b, "\n| order by TimeGenerated desc\n");
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ---- YARA ------------------------------------------------------------------------------------ */

/* A YARA text string: \" and \\ escaped, every other byte outside printable ASCII as \xNN. */
static void yara_str(struct bw_sb *b, const char *s)
{
    bw_sb_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            bw_sb_putc(b, '\\');
            bw_sb_putc(b, (char)*p);
        } else if (*p < 0x20 || *p >= 0x7f) {
            bw_sb_printf(b, "\\x%02x", *p);
        } else {
            bw_sb_putc(b, (char)*p);
        }
    }
    bw_sb_putc(b, '"');
}

static char *yara_rule(const struct facts *f, json_t *indicators, struct ctx *c)
{
    struct bw_sb b = {0};
    char name[BW_INTEL_ID_MAX + 32];
    size_t o = 0;
    o += (size_t)snprintf(name, sizeof name, "bulwark_");
    for (const char *p = f->id; *p && o + 1 < sizeof name - 10; p++)
        name[o++] = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || is_digit(*p)) ? *p : '_';
    snprintf(name + o, sizeof name - o, "_%02x%02x%02x%02x", f->hash[0], f->hash[1], f->hash[2], f->hash[3]);

    bw_sb_printf(&b, "rule %s : bulwark hunt\n{\n    meta:\n        description = ", name);
    struct bw_sb d = {0};
    bw_sb_puts(&d, "Hunts for ");
    class_labels(&d, f, false);
    bw_sb_printf(&d, " artefacts involving %s (%s)", subject(f), f->id);
    yara_str(&b, bw_sb_str(&d));
    free(d.p);
    bw_sb_puts(&b, "\n        threat_id = ");
    yara_str(&b, f->id);
    if (f->ncve) {
        struct bw_sb cv = {0};
        for (size_t i = 0; i < f->ncve; i++)
            bw_sb_printf(&cv, "%s%s", i ? ", " : "", f->cves[i]);
        bw_sb_puts(&b, "\n        cve = ");
        yara_str(&b, bw_sb_str(&cv));
        free(cv.p);
    }
    if (f->nref) {
        bw_sb_puts(&b, "\n        reference = ");
        yara_str(&b, f->refs[0]);
    }
    bw_sb_printf(&b, "\n        severity = \"%s\"\n        generated_by = \"bulwark\"\n    strings:", f->severity);

    for (size_t i = 0; i < f->ncve; i++) {
        bw_sb_printf(&b, "\n        $cve%zu = ", i + 1);
        yara_str(&b, f->cves[i]);
        bw_sb_puts(&b, " ascii wide nocase");
    }
    for (size_t i = 0; i < f->nterm; i++) {
        bw_sb_printf(&b, "\n        $p%zu = ", i + 1);
        yara_str(&b, f->terms[i]);
        bw_sb_puts(&b, " ascii wide nocase fullword");
    }
    /* markers only next to a product term: alone they are generic */
    size_t ni = 0;
    struct strs seen = {0};
    for (size_t k = 0; f->nterm && k < f->nsel; k++)
        for (size_t m = 0; m < BW_HUNT_MAX_MARKERS && HC[f->sel[k]].markers[m]; m++) {
            const char *mk = HC[f->sel[k]].markers[m];
            size_t before = seen.n;
            strs_add(&seen, mk);
            if (seen.n == before)
                continue;
            bw_sb_printf(&b, "\n        $i%zu = ", ++ni);
            yara_str(&b, mk);
            bw_sb_puts(&b, " ascii wide nocase");
            append(c, indicators, str(c, mk));
        }

    bw_sb_puts(&b, "\n    condition:\n        ");
    if (f->nterm && f->ncve && ni)
        bw_sb_printf(&b, "any of ($p*) and (any of ($cve*) or %zu of ($i*))", ni < 2 ? ni : 2);
    else if (f->nterm && ni)
        bw_sb_printf(&b, "any of ($p*) and %zu of ($i*)", ni < 2 ? ni : 2);
    else if (f->nterm && f->ncve)
        bw_sb_puts(&b, "any of ($p*) and any of ($cve*)");
    else
        bw_sb_puts(&b, "any of ($cve*)");
    bw_sb_puts(&b, "\n}\n");
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ---- the pack ------------------------------------------------------------------------------- */

int bw_hunt_build(const json_t *record, json_t **out, char *why, size_t cap)
{
    *out = NULL;
    if (!json_is_object(record)) {
        snprintf(why, cap, "record is not an object");
        return -1;
    }
    if (!bw_intel_id_valid(bw_json_str(record, "id"))) {
        snprintf(why, cap, "record has no valid id");
        return -1;
    }
    if (sodium_init() < 0) {
        snprintf(why, cap, "libsodium could not be initialised");
        return -1;
    }
    struct ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    struct facts *f = &c->f;
    facts_read(f, record);
    if (!f->nterm && !f->ncve) {
        snprintf(why, cap, "record %s has nothing specific to detect (no CVE, product or package)", f->id);
        free(c);
        return -1;
    }

    int rc = -1;
    char *yara = NULL, *kql = NULL;
    struct bw_sb yaml = {0};
    json_t *pack = json_object(), *basis = json_object(), *indicators = json_array(), *sigma = NULL;
    if (!pack || !basis || !indicators)
        goto out;

    set(c, pack, "threat_id", str(c, f->id));
    json_t *cves = json_array();
    for (size_t i = 0; cves && i < f->ncve; i++)
        append(c, cves, str(c, f->cves[i]));
    set(c, pack, "cve", cves);
    set(c, pack, "title", str(c, f->title));
    set(c, pack, "severity", str(c, f->severity));

    yara = yara_rule(f, indicators, c); /* also lists the indicators it used */
    kql = kql_query(f);
    sigma = sigma_rule(c);
    if (!yara || !kql || !sigma || c->fail)
        goto out;
    yaml_map(&yaml, sigma, 0, false);
    if (yaml.oom)
        goto out;

    set(c, basis, "products", str_list(c, (const char (*)[TERM_CAP])f->products, f->nproduct));
    set(c, basis, "packages", str_list(c, (const char (*)[TERM_CAP])f->packages, f->npackage));
    json_t *cwe = json_array(), *tech = json_array();
    for (size_t i = 0; cwe && i < f->ncwe; i++)
        append(c, cwe, str(c, f->cwes[i]));
    for (size_t i = 0; tech && i < f->ntech; i++)
        append(c, tech, str(c, f->techniques[i]));
    set(c, basis, "cwe", cwe);
    set(c, basis, "attack_techniques", tech);
    set(c, basis, "indicators", indicators);
    indicators = NULL;
    set(c, pack, "basis", basis);
    basis = NULL;
    set(c, pack, "sigma", sigma);
    sigma = NULL;
    set(c, pack, "sigma_yaml", str(c, bw_sb_str(&yaml)));
    set(c, pack, "kql", str(c, kql));
    set(c, pack, "yara", str(c, yara));
    if (c->fail)
        goto out;
    *out = pack;
    pack = NULL;
    rc = 0;
out:
    if (rc != 0)
        snprintf(why, cap, "out of memory");
    json_decref(pack);
    json_decref(basis);
    json_decref(indicators);
    json_decref(sigma);
    free(yaml.p);
    free(yara);
    free(kql);
    free(c);
    return rc;
}
