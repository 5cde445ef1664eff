/* Reading members of parsed JSON documents whose shape was checked elsewhere, and parsing
 * request bodies with the depth limit (json.c). */
#ifndef BW_COMMON_JSONX_H
#define BW_COMMON_JSONX_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The string member k of o, or "" when it is missing or not a string. */
static inline const char *bw_json_str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

/* Parses a request body into a JSON object with the depth limit (BW_JSON_MAX_DEPTH). On failure
 * returns NULL and sets *why (a literal). The caller owns the object. */
json_t *bw_json_parse_body(const char *body, size_t len, const char **why);
/* Whether the nesting of arrays/objects in text stays within max_depth (strings skipped). */
bool bw_json_depth_ok(const char *s, size_t n, int max_depth);

/* Compact JSON text of v, byte for byte what json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(p))
 * writes (members in insertion order, '/' and non-ASCII as they are), several times faster: no
 * cycle check (the documents written here are trees built by us or parsed) and no call per token.
 * precision 0 means 17, as jansson's. bw_json_write appends to b (false: a real that is not
 * finite, nesting past BW_JSON_DUMP_MAX_DEPTH, or out of memory); bw_json_dump returns malloc'ed
 * text and its length, or NULL. */
struct bw_sb;
bool bw_json_write(struct bw_sb *b, const json_t *v, int precision);
char *bw_json_dump(const json_t *v, int precision, size_t *len);
/* The pieces of bw_json_write, for writers of other trees (jtree.c): a string with JSON's escapes
 * (the bytes are taken as they are, so they must be UTF-8), and a real as jansson writes it
 * (false when it is not finite). */
void bw_json_put_string(struct bw_sb *b, const char *s, size_t n);
bool bw_json_put_real(struct bw_sb *b, double v, int precision);

#endif
