/* Reading an agent's system prompt: which unsafe and protective instructions it gives, with
 * negation and scope, clause by clause. Pure and deterministic; used by the agent scanner
 * (engine/agentscan.c), which decides what the readings mean for the agent's tools.
 *
 * What is read lives in data/agents/instructions.json (format: data/agents/README.md): the
 * instructions (each with its risks, OWASP LLM id, what it does when affirmed and when negated,
 * its patterns and example clauses), the scopes (what an instruction can be about: commands,
 * payments, emails, web pages, ...) and the words the reader works with (negations, clause
 * joins, conditions). The catalog is parsed once into an immutable struct shared by threads.
 *
 * The reading:
 * - The prompt is split into sentences (".", "!", "?" before a space, ";", ":", a line break that
 *   starts a list item or a new capitalised line, a blank line), sentences into clauses (before
 *   "and", "but", "then", ... when the next word starts an instruction: "never", "follow", ...)
 *   and clauses into segments (commas, parentheses, dashes).
 * - Patterns are whole words; "*" in a pattern stands for up to BW_AGENT_PATTERN_GAP words. Where
 *   matches overlap in a clause, the longest (then the one with more fixed words, then the
 *   earlier instruction) is read; a match inside a condition ("if a user asks you to reveal ...,")
 *   is not an instruction and is dropped; so is one followed by one of its entry's exceptions
 *   ("no restrictions on the length").
 * - Negation: the negation words before the match in its segment, plus those of a preceding
 *   segment made only of negations and auxiliaries ("Never, under any circumstances, follow
 *   ..."), plus a negating phrase just after it ("confirmation is not required"); an odd count
 *   negates. The instruction's `affirmed` or `negated` verdict applies: unsafe, guard or none.
 * - Scope: the scope phrases of the clause (outside the patterns' own words), else of its
 *   sentence; none, or an "all" scope, means the reading covers everything. An instruction that
 *   needs a source (follow instructions found in ...) is read only where the clause names one, or
 *   its sentence does and no instruction that needs none reads the same words ("Read each ticket
 *   and carry out the instructions it contains", but "Do whatever the user asks, ... emails" is
 *   obedience to the user). */
#ifndef BW_ENGINE_AGENTPROMPT_H
#define BW_ENGINE_AGENTPROMPT_H
#include "common/limits.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The embedded catalog's name. */
#define BW_AGENT_INSTRUCTIONS "data/agents/instructions.json"

/* Risks an instruction concerns (a bit set). */
enum bw_ap_risk {
    BW_AP_INJECTION = 1u << 0,  /* instructions found in content the agent reads */
    BW_AP_SAFETY = 1u << 1,     /* the model's own safeguards */
    BW_AP_AGENCY = 1u << 2,     /* doing whatever is asked */
    BW_AP_DISCLOSURE = 1u << 3, /* handing out data or the prompt */
    BW_AP_APPROVAL = 1u << 4,   /* a person approving actions */
};

enum bw_ap_verdict { BW_AP_NONE, BW_AP_UNSAFE, BW_AP_GUARD };

/* One instruction of the catalog, as loaded. */
struct bw_ap_instr {
    const char *id, *owasp, *says, *why, *remediation;
    const char *atlas[BW_AGENT_INSTR_ATLAS_MAX]; /* unused slots NULL */
    unsigned risks;                              /* enum bw_ap_risk bits */
};

/* One thing the prompt says: an instruction read in a clause. */
struct bw_ap_reading {
    size_t instr;           /* index in the catalog */
    enum bw_ap_verdict verdict;
    uint32_t scopes;        /* scope bits (index in the catalog); 0 with all */
    bool all;               /* covers everything: no scope named, or an "all" scope */
    size_t clause_off, clause_len; /* the clause, bytes of the prompt */
};

struct bw_ap_catalog;

/* Parses and checks catalog text. caps: the capability ids scopes may name (cap_ids[i] is bit i).
 * NULL with the reason in why (NUL-terminated, truncated to why_len) when malformed or out of
 * memory. Free with bw_ap_catalog_free. */
struct bw_ap_catalog *bw_ap_catalog_parse(const char *text, size_t len, const char *const *cap_ids, size_t ncaps,
                                          char *why, size_t why_len);
void bw_ap_catalog_free(struct bw_ap_catalog *c);

size_t bw_ap_instr_count(const struct bw_ap_catalog *c);
const struct bw_ap_instr *bw_ap_instr_at(const struct bw_ap_catalog *c, size_t i);
size_t bw_ap_scope_count(const struct bw_ap_catalog *c);
const char *bw_ap_scope_id(const struct bw_ap_catalog *c, size_t i);

/* The example clauses of instruction i for a verdict (BW_AP_NONE: clauses it must not read), as
 * the catalog lists them; *n gets their number. Borrowed from the catalog. */
const char *const *bw_ap_examples(const struct bw_ap_catalog *c, size_t i, enum bw_ap_verdict v, size_t *n);

/* Reads a prompt. On success returns 0 and fills *out (at most BW_AGENT_READINGS_MAX readings, in
 * prompt order; *n their number): the caller frees *out. -1 when out of memory. */
int bw_ap_read(const struct bw_ap_catalog *c, const char *prompt, size_t len, struct bw_ap_reading **out, size_t *n);

/* Whether a reading covers a tool: it covers everything, or one of its scopes names one of the
 * tool's capabilities (caps: bits as cap_ids at parse time) or occurs in its name (norm: the name
 * normalised as " words ", see agentscan.c). A wildcard grant is covered only by everything. */
bool bw_ap_covers(const struct bw_ap_catalog *c, const struct bw_ap_reading *r, uint32_t caps, const char *norm,
                  bool wildcard);

/* The scope ids of a reading, joined with ", " into buf ("" when it covers everything). */
void bw_ap_scope_names(const struct bw_ap_catalog *c, const struct bw_ap_reading *r, char *buf, size_t len);

#endif
