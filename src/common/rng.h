/* Randomness. Secrets and ids come from libsodium's CSPRNG; request ids, which are not secret
 * and are made per request, from a per-thread xoshiro256** seeded from the CSPRNG so the hot
 * path makes no syscall. */
#ifndef BW_COMMON_RNG_H
#define BW_COMMON_RNG_H
#include <stddef.h>
#include <stdint.h>

/* Fills out[0..n) with uniformly random base62 characters from the CSPRNG and NUL-terminates
 * it (out must hold n+1 bytes). */
void bw_random_base62(char *out, size_t n);

/* A fast non-cryptographic 64-bit value (per-thread state). */
uint64_t bw_fast_u64(void);

#endif
