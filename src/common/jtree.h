/* Write-only JSON trees in an arena, for documents built member by member and then written once
 * (the playbook generator, engine/intel/playbook.c). Against a jansson tree, a node is one bump
 * allocation instead of a malloc per value plus a hash table per object, nothing is freed one
 * by one, and writing walks plain linked lists: building and writing a playbook (~20 KB, ~600
 * values) cost about half of its jansson equivalent (docs/architecture.md).
 *
 * Object members keep their insertion order and keys are not checked for duplicates: the caller
 * sets each key once. A node belongs to one parent. Every constructor returns NULL when the arena
 * cannot grow, and every function taking a node accepts NULL (it fails or answers "empty"), so a
 * builder can chain calls and check the arena's oom flag once at the end. Strings must be UTF-8;
 * they are copied into the arena, keys are not (string literals, or bw_jt_setn_copy). */
#ifndef BW_COMMON_JTREE_H
#define BW_COMMON_JTREE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bw_sb;
struct bw_jt_chunk;

struct bw_jt_arena {
    struct bw_jt_chunk *chunks;
    char *p;     /* next free byte of the newest chunk */
    size_t left; /* bytes free after p */
    bool oom;    /* an allocation failed */
};

enum bw_jt_kind { BW_JT_NULL, BW_JT_TRUE, BW_JT_FALSE, BW_JT_INT, BW_JT_REAL, BW_JT_STRING, BW_JT_ARRAY, BW_JT_OBJECT };

struct bw_jt {
    struct bw_jt *next; /* the next element or member of the parent */
    const char *key;    /* as an object member */
    size_t klen;
    enum bw_jt_kind kind;
    union {
        int64_t i;
        double d;
        struct {
            const char *s;
            size_t n;
        } str;
        struct {
            struct bw_jt *first, *last;
            size_t n;
        } kids;
    } u;
};

/* Frees every chunk; the arena is empty again afterwards. */
void bw_jt_arena_free(struct bw_jt_arena *a);

struct bw_jt *bw_jt_object(struct bw_jt_arena *a);
struct bw_jt *bw_jt_array(struct bw_jt_arena *a);
struct bw_jt *bw_jt_null(struct bw_jt_arena *a);
struct bw_jt *bw_jt_bool(struct bw_jt_arena *a, bool v);
struct bw_jt *bw_jt_int(struct bw_jt_arena *a, int64_t v);
struct bw_jt *bw_jt_real(struct bw_jt_arena *a, double v);
struct bw_jt *bw_jt_string(struct bw_jt_arena *a, const char *s);
struct bw_jt *bw_jt_stringn(struct bw_jt_arena *a, const char *s, size_t n);

/* Adds v as the last member or element; false (v dropped) when o or v is NULL or of the wrong kind. */
bool bw_jt_set(struct bw_jt *o, const char *key, struct bw_jt *v);
bool bw_jt_setn_copy(struct bw_jt_arena *a, struct bw_jt *o, const char *key, size_t klen, struct bw_jt *v);
bool bw_jt_append(struct bw_jt *arr, struct bw_jt *v);

/* Reading back what was built: the member named key (first match) or NULL; the number of
 * elements or members; the text of a string node or NULL. */
struct bw_jt *bw_jt_get(const struct bw_jt *o, const char *key);
size_t bw_jt_size(const struct bw_jt *v);
const char *bw_jt_str(const struct bw_jt *v);

/* Appends the compact text of v to b, as bw_json_write writes the same tree built with jansson
 * (reals with `precision` significant digits, 0 meaning 17). False: a real that is not finite,
 * nesting past BW_JSON_DUMP_MAX_DEPTH, or out of memory. */
bool bw_jt_write(struct bw_sb *b, const struct bw_jt *v, int precision);

#endif
