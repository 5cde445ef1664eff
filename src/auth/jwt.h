/* JWT, HS256 only. Verification rejects every other `alg` (none included) before looking at the
 * signature, compares the MAC in constant time and checks iss, exp, iat and nbf. `gen` is the
 * account's token generation: the caller compares it with the account's (src/auth/auth.c). */
#ifndef BW_AUTH_JWT_H
#define BW_AUTH_JWT_H
#include "common/config.h"
#include "common/ids.h"
#include "common/limits.h"

#include <stddef.h>
#include <stdint.h>

#define BW_JWT_ISSUER "bulwark"

struct bw_jwt_claims {
    char sub[BW_ID_MAX];
    enum bw_tier tier;
    enum bw_role role;
    int64_t iat, exp;
    char jti[BW_ID_MAX];
    int64_t gen; /* claim `gen`: the account's token generation when issued (absent: 0) */
};

/* Signs claims; *out is a malloc'ed token (caller frees). 0 or -1. */
int bw_jwt_sign(const unsigned char *secret, size_t slen, const struct bw_jwt_claims *c, char **out);

#define BW_JWT_EXPIRED (-2)
/* Verifies token[0..len) at time `now`; fills *out. 0 when valid, BW_JWT_EXPIRED when everything
 * but the expiry holds (signature, issuer, claims), -1 otherwise. */
int bw_jwt_verify(const unsigned char *secret, size_t slen, const char *token, size_t len,
                  int64_t now, struct bw_jwt_claims *out);

#endif
