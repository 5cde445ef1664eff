/* Internal to src/engine/intel: the building blocks the KEV, OSV and ATLAS normalisers share (record
 * construction, text classification, typed access to source trees with positions). */
#ifndef BW_ENGINE_INTEL_NORMALIZE_H
#define BW_ENGINE_INTEL_NORMALIZE_H
#include "engine/intel/intel.h"
#include "engine/intel/sources.h"
#include "engine/intel/yaml.h"

#include <jansson.h>
#include <stdbool.h>

/* ---- records under construction ---- */

/* A record with every member present at its empty value. */
json_t *bw_rec_new(const char *id, const char *type, const char *source);
void bw_rec_str(json_t *rec, const char *member, const char *value);
/* Adds value to the string set `member` (sorted and de-duplicated by bw_rec_normalise). */
void bw_rec_add(json_t *rec, const char *member, const char *value);
void bw_rec_add_ref(json_t *rec, const char *url, const char *kind);
void bw_rec_add_affected(json_t *rec, const char *vendor, const char *product, const char *ecosystem,
                         const char *package, const char *introduced, const char *fixed);
/* Sorts and de-duplicates every array member. */
void bw_rec_normalise(json_t *rec);
/* Adds an AI impact ("agentic", "tool_execution", ...) to the record's set. */
#define bw_rec_impact(rec, name) bw_rec_add((rec), "ai_impact", (name))

/* ---- severities ---- */
int bw_sev_rank(const char *sev); /* LOW 0 .. CRITICAL 3; -1 when not a severity */
const char *bw_sev_max(const char *a, const char *b);
const char *bw_sev_up(const char *sev); /* one level higher, CRITICAL stays */

/* ---- advisory text ---- */
struct bw_text_class {
    const char *label;    /* "path traversal"; "vulnerability" when nothing matched */
    const char *sentence; /* one sentence on what an attacker gains */
};
/* Classifies advisory text: adds the ATT&CK and ATLAS techniques and AI impacts of every class
 * that matches to rec and returns the first (primary) one; *severity gets the highest estimate
 * among the matches (MEDIUM when none). */
struct bw_text_class bw_classify(json_t *rec, const char *text, const char **severity);
bool bw_text_has(const char *text, const char *needle); /* case-insensitive substring */
/* Whether the flaw is reached through a model artifact (see sources.h). */
bool bw_model_artifact(const char *text, const char *package);
/* Whether a package or product is an LLM orchestration framework (flaws reachable from model
 * output: agentic). */
bool bw_llm_framework(const char *name);
/* The first code name quoted in backticks in text (a dotted, underscored, called or CamelCase
 * identifier of up to 60 characters), for
 * titles; "" when none. */
void bw_text_symbol(const char *text, char *out, size_t cap);

/* ---- source trees ---- */
struct bw_src {
    const struct bw_tree *t;
    struct bw_intel_reject *rej;
};
/* Fills rej (message built from fmt) at node's position, else container's; returns -1. */
int bw_src_fail(struct bw_src *s, const json_t *node, const json_t *container, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Member `key` of obj with a type check: 0 with *out (NULL when absent and !required), -1 after
 * bw_src_fail. `where` names obj in messages ("vulnerabilities[3]"). A JSON null counts as
 * absent. */
int bw_src_str(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
               const char **out);
int bw_src_arr(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
               json_t **out);
int bw_src_obj(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
               json_t **out);
/* Item i of list, which must be a mapping; where gets "prefix[i]" for later messages. 0, or -1
 * after bw_src_fail. */
int bw_src_item(struct bw_src *s, const json_t *list, size_t i, const char *prefix, char *where, size_t cap);
/* A date member, normalised by bw_intel_date; "" when absent and !required. */
int bw_src_date(struct bw_src *s, const json_t *obj, const char *key, bool required, const char *where,
                char out[21]);

#endif
