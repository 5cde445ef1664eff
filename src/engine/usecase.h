/* Classifying AI use cases for governance assessments: which EU AI Act Art. 5 practices, Annex III
 * areas, Art. 50 transparency cases and general-purpose-model roles a use case describes, and
 * which system traits it has (an LLM, generative, agentic, retrieval, personal data, decisions
 * about people, a third-party model, own training, a public body), each with the words that
 * decided it. Pure and deterministic; the catalog (data/frameworks/usecases.json, format in
 * data/frameworks/README.md) is parsed once into an immutable struct shared by threads.
 *
 * The reading: words are runs of ASCII letters and digits (Latin-1 letters folded: "résumé" is
 * "resume"), lower-cased; clauses end at . , ; : ! ? ( ) [ ] a line break or the word "but". A
 * phrase matches whole words ("cv" is not "cvs"); a word ending in "*" matches words starting
 * with it ("recruit*": recruiting, recruiters). A match is negated when a negation phrase starts
 * at most BW_UC_NEGATION_WINDOW words before it in its clause ("no crime prediction", "without
 * emotion recognition", "we do not use ..."). A category holds when one of its alternatives does:
 * every group of the alternative has a match in the text. It is affirmed when every group has an
 * un-negated match, ruled out when the text names it only negated. */
#ifndef BW_ENGINE_USECASE_H
#define BW_ENGINE_USECASE_H
#include "common/limits.h"

#include <stdbool.h>
#include <stddef.h>

enum bw_uc_kind {
    BW_UC_PRACTICE,     /* EU AI Act Art. 5: the use case is unacceptable */
    BW_UC_HIGH_RISK,    /* Annex III area or Annex I product: high */
    BW_UC_TRANSPARENCY, /* Art. 50: limited */
    BW_UC_GPAI,         /* a general-purpose model's provider (Chapter V; no tier of its own) */
    BW_UC_TRAIT,        /* a system trait (no tier) */
};

struct bw_uc_category {
    const char *id, *title, *ref;
    enum bw_uc_kind kind;
};

/* What one text says about one category. */
struct bw_uc_hit {
    bool affirmed, ruled_out;
    size_t nwords;                                 /* quoted phrases that decided it */
    char words[BW_UC_WORDS_MAX][BW_UC_QUOTE_MAX];  /* as written in the text, whitespace runs as one space */
};

struct bw_uc_catalog;

/* Parses and checks catalog text. NULL with the reason in why (truncated to why_len) when it is
 * malformed or memory runs out. Free with bw_uc_catalog_free. */
struct bw_uc_catalog *bw_uc_catalog_parse(const char *text, size_t len, char *why, size_t why_len);
void bw_uc_catalog_free(struct bw_uc_catalog *c);

size_t bw_uc_count(const struct bw_uc_catalog *c);
const struct bw_uc_category *bw_uc_at(const struct bw_uc_catalog *c, size_t i);
/* The catalog's example use cases of category i: those it must affirm (match) or must not
 * (no_match), *n of them. Run by the unit tests; the engine never reads them. */
const char *const *bw_uc_examples(const struct bw_uc_catalog *c, size_t i, bool match, size_t *n);
/* The index of a category id, or -1. */
int bw_uc_find(const struct bw_uc_catalog *c, const char *id);

/* Classifies a text: out[i] (bw_uc_count entries, caller-provided) gets what it says about
 * category i. 0, or -1 when memory runs out. */
int bw_uc_classify(const struct bw_uc_catalog *c, const char *text, size_t len, struct bw_uc_hit *out);

/* The text's words outside negated spans, normalised and space-separated with a space at both
 * ends (" we log every decision "), so that what a statement rules out ("we have no risk
 * management") is not read as practised. Negated: the words from a negation phrase to the end of
 * its clause, at most BW_UC_NEGATION_WINDOW + BW_UC_PHRASE_WORDS_MAX words. A new string the
 * caller frees, or NULL when memory runs out. */
char *bw_uc_affirmed_words(const struct bw_uc_catalog *c, const char *text, size_t len);

#endif
