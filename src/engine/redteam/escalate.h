/* Adaptive attacks without an attacker model (issue 20): when an attack as written is refused, a
 * deterministic best-first search escalates it along a tree of transformations, guided by how near
 * each reply came to the goal (bw_rt_closeness).
 *
 * A node is a path of at most BW_RT_ESC_DEPTH transformations. Text transformations wrap or encode
 * the attack's last user message in path order (refusal suppression, persona, fiction frames;
 * base64, rot13, hex, leetspeak, homoglyphs, zero-width splitting: at most one encoding); a turn
 * transformation (split over three turns, crescendo) comes last and spreads the result over
 * BW_RT_ESC_TURNS_MAX user turns, each sent with the real history (the target's own replies).
 *
 * The search: the root's children wait with the root's closeness; the branch whose parent came
 * closest is tried first, ties in transformation order then insertion order. A node that fails
 * puts its children in with its own closeness. Same replies, same order: no randomness, no clock.
 * Pure: no I/O (the driver that speaks to the target is bw_rt_attack_adaptive, redteam.h). */
#ifndef BW_ENGINE_REDTEAM_ESCALATE_H
#define BW_ENGINE_REDTEAM_ESCALATE_H
#include "common/limits.h"

#include <stdbool.h>
#include <stddef.h>

enum bw_rt_op {
    BW_RT_OP_SUPPRESS,  /* refusal-suppression rules before the request */
    BW_RT_OP_PERSONA,   /* "you are DAN" role-play */
    BW_RT_OP_FICTION,   /* a novel's unrestricted character answers */
    BW_RT_OP_BASE64,
    BW_RT_OP_ROT13,
    BW_RT_OP_HEX,
    BW_RT_OP_LEET,
    BW_RT_OP_HOMOGLYPH,
    BW_RT_OP_ZEROWIDTH,
    BW_RT_OP_SPLIT,     /* the request in three parts over three turns, joined at the end */
    BW_RT_OP_CRESCENDO, /* two harmless turns approaching the topic, then the request */
    BW_RT_OP__COUNT
};

/* "suppress", "persona", "fiction", "base64", "rot13", "hex", "leet", "homoglyph", "zerowidth",
 * "split3", "crescendo"; "unknown" otherwise. */
const char *bw_rt_op_name(int op);
int bw_rt_op_parse(const char *s, size_t len); /* -1 when unknown */

struct bw_rt_path {
    unsigned char op[BW_RT_ESC_DEPTH];
    int n; /* 0: the attack as written */
};

/* Whether op may extend p: depth left, not already in p, at most one encoding, nothing after a
 * turn transformation. */
bool bw_rt_path_can_extend(const struct bw_rt_path *p, int op);
/* User turns the path spreads the attack over: BW_RT_ESC_TURNS_MAX with split3 or crescendo, else 1. */
int bw_rt_path_turns(const struct bw_rt_path *p);
/* The path as text ("persona+base64"; "" for the root) into out (cap bytes, cut when short). */
void bw_rt_path_text(const struct bw_rt_path *p, char *out, size_t cap);
/* Parses bw_rt_path_text's form back; -1 when it is not one (unknown name, too deep, an order
 * bw_rt_path_can_extend refuses). */
int bw_rt_path_parse(const char *s, struct bw_rt_path *out);

/* The user turns of the node for the attack's last user message text: out[0..k-1] malloc'ed,
 * k = bw_rt_path_turns(p) returned; -1 when out of memory (nothing left allocated). canary is kept
 * whole by the letter-wise encodings; topic (the attack's technique, may be NULL) opens a crescendo. */
int bw_rt_escalate_turns(const struct bw_rt_path *p, const char *text, const char *canary, const char *topic,
                         char *out[BW_RT_ESC_TURNS_MAX]);

/* ---- the search ---- */

struct bw_rt_search_node {
    struct bw_rt_path path;
    double prio;  /* the parent's closeness */
    unsigned seq; /* insertion order */
};

struct bw_rt_search {
    struct bw_rt_search_node frontier[BW_RT_ESC_FRONTIER_MAX];
    size_t n;
    unsigned seq;
    size_t dropped; /* branches left out because the frontier was full (the lowest priority go) */
};

/* Starts a search whose root (the attack as written) came root_closeness near the goal. */
void bw_rt_search_init(struct bw_rt_search *s, double root_closeness);
/* Takes the next node to try into *out; false when the tree is exhausted. */
bool bw_rt_search_next(struct bw_rt_search *s, struct bw_rt_path *out);
/* p was tried and failed, closeness near the goal: its children wait with that priority. */
void bw_rt_search_expand(struct bw_rt_search *s, const struct bw_rt_path *p, double closeness);

#endif
