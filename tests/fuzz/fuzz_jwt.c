/* Bearer token verification with a fixed secret and clock. */
#include "auth/jwt.h"
#include "common/ids.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const unsigned char SECRET[] = "fuzz-secret-0123456789abcdefghij";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct bw_jwt_claims c;
    memset(&c, 0, sizeof c);
    const int64_t now = 1767225600;
    if (bw_jwt_verify(SECRET, sizeof SECRET - 1, (const char *)data, size, now, &c) == 0) {
        /* a random input passing the HMAC is not expected; if it does, the claims must be sane */
        if (!bw_id_valid(c.sub, "usr_") || c.exp <= now || (unsigned)c.tier >= BW_TIER__COUNT ||
            (unsigned)c.role >= BW_ROLE__COUNT || c.gen < 0)
            abort();
    }
    return 0;
}
