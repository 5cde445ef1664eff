/* API keys: "svc_" + 32 random base62 + 6 base62 of the CRC32 of the first 36 characters.
 * The checksum lets the server (and secret scanners) reject a mistyped or made-up key without a
 * database lookup; only the SHA-256 of the key is stored. */
#ifndef BW_AUTH_APIKEY_H
#define BW_AUTH_APIKEY_H
#include <stdbool.h>
#include <stddef.h>

#define BW_KEY_PREFIX "svc_"
#define BW_KEY_RANDOM_LEN 32
#define BW_KEY_CHECK_LEN 6
#define BW_KEY_LEN (4 + BW_KEY_RANDOM_LEN + BW_KEY_CHECK_LEN) /* 42 */
#define BW_KEY_SHOWN_PREFIX 12                                /* key_prefix length */

/* A new key into out (BW_KEY_LEN + 1 bytes). */
void bw_apikey_generate(char out[BW_KEY_LEN + 1]);
/* Whether s has the format and a correct checksum. */
bool bw_apikey_wellformed(const char *s);
bool bw_apikey_wellformed_n(const char *s, size_t n);
/* Hex SHA-256 of the key (65 bytes with NUL). */
void bw_apikey_hash(const char *key, char out[65]);
/* The first 12 characters (13 bytes with NUL). */
void bw_apikey_prefix(const char *key, char out[BW_KEY_SHOWN_PREFIX + 1]);

#endif
