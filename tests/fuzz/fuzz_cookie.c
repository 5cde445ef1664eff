/* libFuzzer target: the Cookie header parser and the CSRF check of the web console
 * (src/auth/console.c) and the Accept-Encoding reading (src/common/gzip.c). Input: a header value.
 * Invariants: never a crash or a read past the input; a value found is non-empty, fits, is made of
 * cookie-octets and occurs in the header; a token that is not well formed never passes the check. */
#include "auth/console.h"
#include "common/gzip.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > BW_COOKIE_HEADER_MAX + 64)
        return 0;
    char *h = malloc(size + 1);
    if (!h)
        return 0;
    memcpy(h, data, size);
    h[size] = '\0';
    char v[BW_CONSOLE_ID_LEN + 2];
    if (bw_cookie_value(h, BW_CONSOLE_COOKIE, v, sizeof v)) {
        size_t n = strlen(v);
        if (n == 0 || n >= sizeof v || !strstr(h, v))
            abort();
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)v[i] <= 0x20 || (unsigned char)v[i] >= 0x7f || strchr("\";,\\", v[i]))
                abort();
        static const unsigned char key[] = "fuzz key";
        char t[BW_CONSOLE_CSRF_LEN + 1];
        bw_console_csrf(key, sizeof key, v, t);
        if (!bw_console_csrf_ok(key, sizeof key, v, t))
            abort();
        if (!bw_console_token_wellformed(v) ? bw_console_csrf_ok(key, sizeof key, v, v) : false)
            abort();
    }
    char small[4];
    (void)bw_cookie_value(h, "a", small, sizeof small);
    (void)bw_accepts_gzip(h);
    free(h);
    return 0;
}
