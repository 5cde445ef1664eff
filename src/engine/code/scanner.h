/* The code scanner: a rule catalog (data/rules, one JSON file per category) compiled once into one Hyperscan
 * database per language, used as a prefilter; the rules whose patterns fired are then confirmed
 * and located with PCRE2 (JIT). Matches in comments or strings are dropped for scope "code"
 * rules, secrets are checked for entropy, placeholders and checksums, and `bulwark-ignore`
 * comments suppress findings. Rules with a syntax form (tree-sitter queries per language,
 * engine/code/syntax.h) are confirmed on the syntax tree instead: a file is parsed only when a
 * syntax rule's prefilter fired in it, at most once per scan (in windows around the hits when it
 * is large), and the tree is shared by every such rule. Scanning is thread-safe; per-thread
 * scratch (Hyperscan, PCRE2, parsers) is kept in TLS. */
#ifndef BW_ENGINE_CODE_SCANNER_H
#define BW_ENGINE_CODE_SCANNER_H
#include "common/limits.h"
#include "engine/code/lang.h"
#include "engine/risk.h" /* enum bw_sev, bw_sev_name, bw_sev_parse */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bw_rule {
    const char *id, *title, *category, *cwe, *description, *remediation, *owasp_llm; /* owasp may be NULL */
    int severity;
    unsigned langs; /* bit per enum bw_lang */
    bool scope_any;
    const char *secret_group; /* NULL unless a secrets rule */
    bool secret_generic;      /* a generic rule (any password-named literal): a specific rule's finding of
                               * the same secret replaces its own */
    const char *code_group;   /* a capture group that must start in code, not in a string or comment */
    double min_entropy;
    bool checksum_svc;
    size_t npat, nnot;
    void **pat, **nots;    /* pcre2_code* */
    json_t *examples;      /* {"positive":[{lang,code}],"negative":[...]} (borrowed from the catalog) */
    unsigned syntax_langs; /* bit per language confirmed on the syntax tree (a query or taint); patterns serve the others */
    const char *syntax[BW_LANG_COUNT]; /* the query per language, or NULL (borrowed from the catalog) */
    struct bw_taint_spec *taint[BW_LANG_COUNT]; /* sinks, sanitizers and guard per language, or NULL */
};

struct bw_scanner;

/* Loads the catalog documents (each {"category":..,"rules":[..]}) and compiles everything.
 * On error returns NULL with a message naming the rule in err. */
struct bw_scanner *bw_scanner_new(const char *const *docs, const size_t *lens, size_t ndocs, char *err,
                                  size_t errlen);
/* The same, using prebuilt Hyperscan databases (bw_scanner_serialize's output) when they were
 * built from this very catalog and suit this CPU; otherwise compiles them. */
struct bw_scanner *bw_scanner_new_prebuilt(const char *const *docs, const size_t *lens, size_t ndocs,
                                           const void *blob, size_t blob_len, char *err, size_t errlen);
/* The catalog embedded in the binary (data/rules, one JSON file per category), with databases
 * compiled at build time (tools/hsgen.c) when they are usable. */
struct bw_scanner *bw_scanner_new_embedded(char *err, size_t errlen);
/* Loads every language's database now rather than on first use (the server does, at start). */
int bw_scanner_load_all(struct bw_scanner *sc);
/* Whether the databases came prebuilt (false: compiled at start). */
bool bw_scanner_is_prebuilt(const struct bw_scanner *sc);
/* The compiled databases as a blob for bw_scanner_new_prebuilt; *out is malloc'ed. */
int bw_scanner_serialize(const struct bw_scanner *sc, unsigned char **out, size_t *len);
/* Provided by the build: the prebuilt blob for the embedded catalog, or NULL. */
const void *bw_prebuilt_blob(size_t *len);
void bw_scanner_free(struct bw_scanner *sc);
/* The time one bw_scan may spend confirming matches (default BW_SCAN_TIME_BUDGET_MS); past it the
 * result is marked time_limited and truncated. Set before the scanner is shared. */
void bw_scanner_set_budget(struct bw_scanner *sc, long ms);

size_t bw_scanner_rule_count(const struct bw_scanner *sc);
const struct bw_rule *bw_scanner_rule(const struct bw_scanner *sc, size_t i);
/* The catalog as the API shows it: {total_rules, categories, patterns:[...]} (borrowed). */
const char *bw_scanner_catalog_json(const struct bw_scanner *sc, size_t *len);

struct bw_taint_spec;

/* A step of a taint finding's trace: where the data came from (the first), where it went, the
 * sink (the last). */
struct bw_trace_step {
    uint32_t line, column, end_line;
    uint8_t kind; /* enum bw_step_kind (engine/code/taint.h): 1 source, 2 propagation, 3 sink */
};

struct bw_finding {
    const struct bw_rule *rule;
    int severity; /* after context adjustment */
    uint32_t line, column, end_line;
    size_t offset; /* byte offset of the match in the scanned text */
    size_t secret_start, secret_end; /* the secret's bytes [start, end) (secrets rules), else 0, 0 */
    char snippet[208];
    /* the OWASP Top 10 for LLM Applications id: the rule's, or LLM05 (improper output handling)
     * when a taint finding's data is a language model's reply; NULL for none */
    const char *owasp_llm;
    uint8_t ntrace; /* taint findings: the flow from source to sink; 0 otherwise */
    struct bw_trace_step trace[BW_TAINT_MAX_STEPS];
};

/* At most BW_SCAN_MAX_FINDINGS findings are kept, each a distinct (rule, line), and one per
 * secret: where secrets rules find the same secret on a line, one finding is kept (a specific
 * rule's over a generic one's, then the most severe, then the catalog's first) at the most severe
 * of their severities. truncated: there were more; worst: the most severe finding seen, kept or
 * not, so the grade sees past the cap. */
struct bw_findings {
    struct bw_finding *v;
    size_t n, cap;
    bool truncated;
    bool time_limited; /* confirmation stopped at BW_SCAN_TIME_BUDGET_MS (truncated is set too) */
    bool parsed;       /* a syntax tree was built: a syntax or taint rule's prefilter fired */
    int worst; /* enum bw_sev, 0 without findings */
};

/* A taint finding's trace as the API and the CLI show it: [{"kind": "source"|"step"|"sink",
 * "line", "column", "end_line"}, ...] from the source to the sink; NULL when the finding has
 * none (or out of memory). */
json_t *bw_finding_trace_json(const struct bw_finding *x);
/* The kind's name: "source", "step" or "sink". */
const char *bw_trace_kind_name(uint8_t kind);

/* Whether v[0..n) could be a real secret: not a documentation placeholder or template
 * ("your-key-here", "xxxx", "${X}", "changeme", a run of one character) and, when min_entropy > 0,
 * of at least that Shannon entropy (bits per byte). The check every secrets rule applies. */
bool bw_secret_plausible(const char *v, size_t n, double min_entropy);

/* Context words that mark code as a test or an example: secrets findings drop one level. */
bool bw_context_is_test(const char *context);

/* Scans code[0..len) as language l. Findings come sorted by severity (worst first), then line,
 * column and rule id. 0, or -1 on an internal error (out of memory, scan failure). */
int bw_scan(const struct bw_scanner *sc, enum bw_lang l, const char *code, size_t len, bool test_context,
            struct bw_findings *out);
void bw_findings_free(struct bw_findings *f);

/* What bw_scan did since the scanner was made, per language (for /metrics): calls, input bytes
 * and microseconds spent, whatever their outcome. */
struct bw_scan_stats {
    uint64_t scans, bytes, us;
};
void bw_scanner_stats(const struct bw_scanner *sc, enum bw_lang l, struct bw_scan_stats *out);

/* risk_score 0..100 (higher is riskier) and letter grade from all findings, those past the cap
 * included (the kept ones alone reach the top score when there are more). */
int bw_scan_score(const struct bw_findings *f);
char bw_scan_grade(const struct bw_findings *f);

#endif
