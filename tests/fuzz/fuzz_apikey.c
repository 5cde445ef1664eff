/* API key format check on arbitrary bytes. */
#include "auth/apikey.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    bool ok = bw_apikey_wellformed_n(s, size);
    if (ok) {
        if (size != BW_KEY_LEN || memcmp(s, BW_KEY_PREFIX, 4) != 0)
            abort();
        /* the NUL-terminated form agrees */
        char buf[BW_KEY_LEN + 1];
        memcpy(buf, s, BW_KEY_LEN);
        buf[BW_KEY_LEN] = '\0';
        if (!bw_apikey_wellformed(buf))
            abort();
        char h[65], p[BW_KEY_SHOWN_PREFIX + 1];
        bw_apikey_hash(buf, h);
        bw_apikey_prefix(buf, p);
        if (strlen(h) != 64 || strlen(p) != BW_KEY_SHOWN_PREFIX)
            abort();
    }
    return 0;
}
