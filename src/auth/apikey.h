/* API keys: issued in the format of src/common/keyformat.h (whose checks this header passes on);
 * only the SHA-256 of the key is stored. */
#ifndef BW_AUTH_APIKEY_H
#define BW_AUTH_APIKEY_H
#include "common/keyformat.h"

#define BW_KEY_SHOWN_PREFIX 12 /* key_prefix length */

/* A new key into out (BW_KEY_LEN + 1 bytes). */
void bw_apikey_generate(char out[BW_KEY_LEN + 1]);
/* Hex SHA-256 of the key (65 bytes with NUL). */
void bw_apikey_hash(const char *key, char out[65]);
/* A new admin key "adm_" + 40 base62 characters, and the hex SHA-256 that is stored of it (the
 * server compares SHA-256 of what is sent with it). */
#define BW_ADMIN_KEY_LEN 44
void bw_admin_key_generate(char key[BW_ADMIN_KEY_LEN + 1], char hash_hex[65]);
/* The first 12 characters (13 bytes with NUL). */
void bw_apikey_prefix(const char *key, char out[BW_KEY_SHOWN_PREFIX + 1]);

#endif
