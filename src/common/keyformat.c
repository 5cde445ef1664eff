#include "common/keyformat.h"

#include <string.h>
#include <zlib.h>

static const char B62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

void bw_apikey_checksum(const char *head, char out[BW_KEY_CHECK_LEN])
{
    unsigned long crc = crc32(0L, (const Bytef *)head, 4 + BW_KEY_RANDOM_LEN);
    for (int i = BW_KEY_CHECK_LEN - 1; i >= 0; i--) { /* fixed width, most significant first */
        out[i] = B62[crc % 62];
        crc /= 62;
    }
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
    bw_apikey_checksum(s, want);
    return memcmp(want, s + 4 + BW_KEY_RANDOM_LEN, BW_KEY_CHECK_LEN) == 0;
}

bool bw_apikey_wellformed(const char *s) { return s && bw_apikey_wellformed_n(s, strlen(s)); }
