/* Resource ids: the spec's prefix ("usr_", "key_", ...) followed by random base62. */
#ifndef BW_COMMON_IDS_H
#define BW_COMMON_IDS_H
#include <stdbool.h>
#include <stddef.h>

#define BW_ID_RANDOM_LEN 22 /* ~131 bits */
#define BW_ID_MAX 48        /* buffer size that holds any id with its NUL */

/* Writes prefix + 22 random base62 characters into out (BW_ID_MAX bytes). The prefix must be
 * shorter than 16 characters. */
void bw_id_new(const char *prefix, char out[BW_ID_MAX]);

/* Whether s looks like an id with this prefix (prefix + 1..40 base62 characters). */
bool bw_id_valid(const char *s, const char *prefix);

/* Request id: echoes `incoming` when it matches [A-Za-z0-9._-]{1,64}, else "req_" + 20 hex.
 * out must hold 65 bytes. */
void bw_request_id(const char *incoming, char out[65]);

#endif
