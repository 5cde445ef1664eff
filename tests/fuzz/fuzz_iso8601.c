/* ISO 8601 parsing; what parses must format and parse back to the same instant. */
#include "common/timeutil.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64)
        return 0;
    char s[65];
    memcpy(s, data, size);
    s[size] = '\0';
    int64_t t = 0;
    if (bw_parse_iso8601(s, &t) != 0)
        return 0;
    if (strlen(s) != 20)
        abort();
    if (t >= 0 && t <= 253402300799LL) { /* years 1970..9999 format to 20 characters */
        char out[21];
        memset(out, 0, sizeof out);
        bw_iso8601(t, out);
        int64_t back = -1;
        if (strlen(out) != 20 || bw_parse_iso8601(out, &back) != 0 || back != t)
            abort();
    }
    return 0;
}
