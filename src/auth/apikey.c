#include "auth/apikey.h"

#include "common/rng.h"

#include <sodium.h>
#include <string.h>
#include <zlib.h>

static const char B62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

static void checksum(const char *head, char out[BW_KEY_CHECK_LEN])
{
    unsigned long crc = crc32(0L, (const Bytef *)head, 4 + BW_KEY_RANDOM_LEN);
    for (int i = BW_KEY_CHECK_LEN - 1; i >= 0; i--) { /* fixed width, most significant first */
        out[i] = B62[crc % 62];
        crc /= 62;
    }
}

void bw_apikey_generate(char out[BW_KEY_LEN + 1])
{
    memcpy(out, BW_KEY_PREFIX, 4);
    bw_random_base62(out + 4, BW_KEY_RANDOM_LEN);
    checksum(out, out + 4 + BW_KEY_RANDOM_LEN);
    out[BW_KEY_LEN] = '\0';
}

static bool b62(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

bool bw_apikey_wellformed_n(const char *s, size_t n)
{
    if (n != BW_KEY_LEN || memcmp(s, BW_KEY_PREFIX, 4) != 0)
        return false;
    for (size_t i = 4; i < BW_KEY_LEN; i++)
        if (!b62(s[i]))
            return false;
    char want[BW_KEY_CHECK_LEN];
    checksum(s, want);
    return memcmp(want, s + 4 + BW_KEY_RANDOM_LEN, BW_KEY_CHECK_LEN) == 0;
}

bool bw_apikey_wellformed(const char *s) { return s && bw_apikey_wellformed_n(s, strlen(s)); }

void bw_apikey_hash(const char *key, char out[65])
{
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)key, strlen(key));
    sodium_bin2hex(out, 65, h, sizeof h);
}

void bw_apikey_prefix(const char *key, char out[BW_KEY_SHOWN_PREFIX + 1])
{
    size_t n = strnlen(key, BW_KEY_SHOWN_PREFIX);
    memcpy(out, key, n);
    out[n] = '\0';
}
