#include "auth/password.h"

#include <sodium.h>
#include <string.h>

int bw_password_hash(const char *pw, char out[BW_PWHASH_MAX])
{
    _Static_assert(crypto_pwhash_STRBYTES <= BW_PWHASH_MAX, "hash buffer");
    return crypto_pwhash_str_alg(out, pw, strlen(pw), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                 crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13);
}

bool bw_password_verify(const char *hash, const char *pw)
{
    return crypto_pwhash_str_verify(hash, pw, strlen(pw)) == 0;
}
