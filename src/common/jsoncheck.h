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

#endif
