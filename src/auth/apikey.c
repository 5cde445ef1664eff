#include "auth/apikey.h"

#include "common/rng.h"

#include <sodium.h>
#include <string.h>

void bw_apikey_generate(char out[BW_KEY_LEN + 1])
{
    memcpy(out, BW_KEY_PREFIX, 4);
    bw_random_base62(out + 4, BW_KEY_RANDOM_LEN);
    bw_apikey_checksum(out, out + 4 + BW_KEY_RANDOM_LEN);
    out[BW_KEY_LEN] = '\0';
}

void bw_apikey_hash(const char *key, char out[65])
{
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)key, strlen(key));
    sodium_bin2hex(out, 65, h, sizeof h);
}

void bw_admin_key_generate(char key[BW_ADMIN_KEY_LEN + 1], char hash_hex[65])
{
    memcpy(key, "adm_", 4);
    bw_random_base62(key + 4, BW_ADMIN_KEY_LEN - 4);
    key[BW_ADMIN_KEY_LEN] = '\0';
    bw_apikey_hash(key, hash_hex);
}

void bw_apikey_prefix(const char *key, char out[BW_KEY_SHOWN_PREFIX + 1])
{
    size_t n = strnlen(key, BW_KEY_SHOWN_PREFIX);
    memcpy(out, key, n);
    out[n] = '\0';
}
