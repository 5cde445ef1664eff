/* Phrase lists of the word catalogs that read prose (engine/agentprompt.c: system prompts;
 * engine/usecase.c: AI use cases): parsing a catalog's phrases and matching them against a text
 * its reader has already split into lower-case words. Pure.
 *
 * A phrase is written as the readers' words are: lower-case ASCII letters and digits, words
 * separated by single spaces. Two options widen it, each catalog choosing its own:
 *   BW_PHRASE_GAPS    a word "*" is a gap of up to BW_AGENT_PATTERN_GAP words (not first, not
 *                     last, not next to another gap);
 *   BW_PHRASE_PREFIX  a word ending in "*" after at least two characters matches every word
 *                     starting with it ("recruit*" matches "recruiting"). */
#ifndef BW_ENGINE_PHRASE_H
#define BW_ENGINE_PHRASE_H
#include "common/limits.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h> /* SIZE_MAX */

_Static_assert(BW_AGENT_PATTERN_WORDS_MAX <= BW_PHRASE_WORDS_MAX, "agent patterns fit a phrase");
_Static_assert(BW_UC_PHRASE_WORDS_MAX <= BW_PHRASE_WORDS_MAX, "use-case phrases fit a phrase");

enum { BW_PHRASE_GAPS = 1u, BW_PHRASE_PREFIX = 2u };

struct bw_phrase {
    char *buf;                            /* the words, NUL-separated; w[] points into it */
    const char *w[BW_PHRASE_WORDS_MAX];   /* NULL: a gap */
    size_t wl[BW_PHRASE_WORDS_MAX];       /* strlen(w[k]), without a prefix's "*" */
    bool prefix[BW_PHRASE_WORDS_MAX];
    size_t n;                             /* words, gaps included */
    size_t fixed;                         /* words that are not gaps */
};

struct bw_plist {
    struct bw_phrase *v;
    size_t n;
};

/* s as a phrase of at most max_words words and BW_AGENT_PHRASE_MAX bytes. false when it is not
 * one (or out of memory); out->buf is then NULL or owned by out, to be freed. */
bool bw_phrase_parse(const char *s, unsigned flags, size_t max_words, struct bw_phrase *out);

/* The JSON array a (its shape and size are the caller's to check) as phrases. false with *bad the
 * index of the first entry that is not a phrase, or SIZE_MAX when out of memory; out holds the
 * phrases read before it either way, for bw_plist_free. */
bool bw_plist_parse(const json_t *a, unsigned flags, size_t max_words, struct bw_plist *out, size_t *bad);
void bw_plist_free(struct bw_plist *l);

/* A reader's words: word i is buf + the size_t member at byte offset `at` of the i-th element
 * (`stride` bytes each) of tok, so each reader keeps its own token struct. */
struct bw_words {
    const char *buf;
    const void *tok;
    size_t stride, at;
};

static inline const char *bw_word(const struct bw_words *x, size_t i)
{
    return x->buf + *(const size_t *)(const void *)((const char *)x->tok + i * x->stride + x->at);
}

/* The end (exclusive, > i) of a match of p whose first word is word i, using no word at or past
 * end, gaps as short as possible; 0 when p does not match there. pos, when given, gets the index
 * of the word each fixed word of p matched (pos[k] for p->w[k] != NULL). */
size_t bw_phrase_match(const struct bw_phrase *p, const struct bw_words *x, size_t i, size_t end, size_t *pos);

/* Whether a phrase of l matches at word i (within end). */
bool bw_plist_any_at(const struct bw_plist *l, const struct bw_words *x, size_t i, size_t end);

/* Whether l holds the one-word phrase w (an exact word, not a prefix). */
bool bw_plist_has_word(const struct bw_plist *l, const char *w);

#endif
