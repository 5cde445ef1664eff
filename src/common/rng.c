#include "common/rng.h"

#include <sodium.h>
#include <string.h>

static const char B62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

void bw_random_base62(char *out, size_t n)
{
    unsigned char buf[64];
    size_t have = 0, pos = 0, i = 0;
    while (i < n) {
        if (pos == have) {
            randombytes_buf(buf, sizeof buf);
            have = sizeof buf;
            pos = 0;
        }
        unsigned char b = buf[pos++];
        if (b < 248) /* 248 = 4*62: rejection keeps the distribution uniform */
            out[i++] = B62[b % 62];
    }
    out[n] = '\0';
    sodium_memzero(buf, sizeof buf);
}

static _Thread_local uint64_t xs[4];
static _Thread_local int xs_seeded;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t bw_fast_u64(void)
{
    if (!xs_seeded) {
        do
            randombytes_buf(xs, sizeof xs);
        while (!(xs[0] | xs[1] | xs[2] | xs[3]));
        xs_seeded = 1;
    }
    uint64_t r = rotl(xs[1] * 5, 7) * 9;
    uint64_t t = xs[1] << 17;
    xs[2] ^= xs[0];
    xs[3] ^= xs[1];
    xs[1] ^= xs[2];
    xs[0] ^= xs[3];
    xs[2] ^= t;
    xs[3] = rotl(xs[3], 45);
    return r;
}
