#include "common/ids.h"

#include "common/rng.h"

#include <string.h>

void bw_id_new(const char *prefix, char out[BW_ID_MAX])
{
    size_t p = strlen(prefix);
    if (p > 15)
        p = 15;
    memcpy(out, prefix, p);
    bw_random_base62(out + p, BW_ID_RANDOM_LEN);
}

static bool is_b62(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

bool bw_id_valid(const char *s, const char *prefix)
{
    size_t p = strlen(prefix);
    if (strncmp(s, prefix, p) != 0)
        return false;
    size_t n = 0;
    for (const char *c = s + p; *c; c++, n++)
        if (!is_b62(*c) || n >= 40)
            return false;
    return n > 0;
}

void bw_request_id(const char *in, char out[65])
{
    if (in) {
        size_t n = 0;
        for (; in[n] && n <= 64; n++) {
            char c = in[n];
            if (!(is_b62(c) || c == '.' || c == '_' || c == '-'))
                break;
        }
        if (n >= 1 && n <= 64 && in[n] == '\0') {
            memcpy(out, in, n + 1);
            return;
        }
    }
    static const char hex[] = "0123456789abcdef";
    uint64_t a = bw_fast_u64(), b = bw_fast_u64();
    memcpy(out, "req_", 4);
    for (int i = 0; i < 16; i++)
        out[4 + i] = hex[(a >> (i * 4)) & 15];
    for (int i = 0; i < 4; i++)
        out[20 + i] = hex[(b >> (i * 4)) & 15];
    out[24] = '\0';
}
