/* Checking members of untrusted JSON documents (request bodies), so that every validator words
 * its messages the same way: the HTTP layer's body helpers and the engines that validate their
 * own input. Messages are lowercase and name no field: the caller adds the field. */
#ifndef BW_COMMON_JSONCHECK_H
#define BW_COMMON_JSONCHECK_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The string member key of obj (obj may be NULL). true with *out the string, or NULL when the
 * member is absent or null and not required. false with the reason in msg ("is required", "must
 * be a string", "must not be empty", "must be at most N characters"; 64 bytes always hold it) and
 * *out NULL. Characters are UTF-8 code points. *out is borrowed from obj. */
bool bw_json_check_string(const json_t *obj, const char *key, bool required, bool nonempty, size_t max_chars,
                          const char **out, char *msg, size_t msg_cap);

/* Loading the embedded catalogs (the JSON files of data/), which are checked member by member at load: the
 * error is a message written into the caller's buffer, and every check returns false after
 * writing it, so a loader reads `ok = ok && check(...)`. */
struct bw_cerr {
    char *buf; /* NUL-terminated, truncated to len */
    size_t len;
};

/* Writes the message (printf format) into e; returns false. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
bool bw_cerr_fail(struct bw_cerr *e, const char *fmt, ...);

/* o is an object and every member of it is one of allowed (NULL-terminated): a typo in a catalog
 * must not silently switch a rule off. With all_required, every allowed member must also be
 * present. ctx names o in the message. */
bool bw_cerr_only_keys(const json_t *o, const char *const *allowed, bool all_required, const char *ctx,
                       struct bw_cerr *e);

/* The earlier entries of a catalog array, to refuse an id used twice: entry i's id is the char *
 * member at byte offset `at` of the i-th element (`stride` bytes each) of v, so each catalog keeps
 * its own entry struct. */
struct bw_cerr_ids {
    const void *v;
    size_t n, stride, at;
};

/* The checks that open every catalog entry: o has only the members of keys (each of them with
 * all_required; ctx names o in messages), and its member "id" is a non-empty string, made of the
 * characters of id_chars when given ("must be lower_snake_case"), that no entry of earlier has.
 * *id gets a copy of it as soon as it is read (the caller's to free, also when a later check
 * fails). */
bool bw_cerr_entry(const json_t *o, const char *const *keys, bool all_required, const char *ctx, const char *id_chars,
                   const struct bw_cerr_ids *earlier, char **id, struct bw_cerr *e);

#endif
