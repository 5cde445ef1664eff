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

#endif
