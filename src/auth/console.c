#include "auth/console.h"

#include <sodium.h>
#include <string.h>

static bool cookie_octet(unsigned char c)
{
    /* %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E: no control, space, '"', ',', ';' or '\\' */
    return c >= 0x21 && c <= 0x7e && c != '"' && c != ',' && c != ';' && c != '\\';
}

bool bw_cookie_value(const char *h, const char *name, char *out, size_t cap)
{
    if (cap)
        out[0] = '\0';
    if (!h || !name || !name[0] || cap == 0 || strnlen(h, BW_COOKIE_HEADER_MAX + 1) > BW_COOKIE_HEADER_MAX)
        return false;
    size_t nlen = strlen(name);
    const char *p = h;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ';')
            p++;
        const char *end = strchr(p, ';');
        if (!end)
            end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        if (eq) {
            const char *ne = eq; /* the name, without whitespace before '=' */
            while (ne > p && (ne[-1] == ' ' || ne[-1] == '\t'))
                ne--;
            if ((size_t)(ne - p) == nlen && memcmp(p, name, nlen) == 0) {
                const char *v = eq + 1, *ve = end;
                while (v < ve && (*v == ' ' || *v == '\t'))
                    v++;
                while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
                    ve--;
                if (ve - v >= 2 && *v == '"' && ve[-1] == '"')
                    v++, ve--;
                size_t n = (size_t)(ve - v);
                if (n == 0 || n >= cap)
                    return false;
                for (size_t i = 0; i < n; i++)
                    if (!cookie_octet((unsigned char)v[i]))
                        return false;
                memcpy(out, v, n);
                out[n] = '\0';
                return true; /* the first one: a browser sends the most specific path first */
            }
        }
        p = end;
    }
    return false;
}

bool bw_console_token_wellformed(const char *s)
{
    if (!s)
        return false;
    size_t n = strnlen(s, BW_CONSOLE_ID_LEN + 1);
    if (n != BW_CONSOLE_ID_LEN)
        return false;
    return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == n;
}

void bw_console_new_id(char out[BW_CONSOLE_ID_LEN + 1])
{
    unsigned char b[32];
    randombytes_buf(b, sizeof b);
    sodium_bin2base64(out, BW_CONSOLE_ID_LEN + 1, b, sizeof b, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    sodium_memzero(b, sizeof b);
}

void bw_console_id_hash(const char *id, char out[65])
{
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)id, strlen(id));
    sodium_bin2hex(out, 65, h, sizeof h);
}

static const char CSRF_LABEL[] = "bulwark console csrf v1"; /* the NUL is hashed too: a separator */

void bw_console_csrf(const unsigned char *key, size_t key_len, const char *id, char out[BW_CONSOLE_CSRF_LEN + 1])
{
    crypto_auth_hmacsha256_state st;
    unsigned char mac[crypto_auth_hmacsha256_BYTES];
    crypto_auth_hmacsha256_init(&st, key, key_len);
    crypto_auth_hmacsha256_update(&st, (const unsigned char *)CSRF_LABEL, sizeof CSRF_LABEL);
    crypto_auth_hmacsha256_update(&st, (const unsigned char *)id, strlen(id));
    crypto_auth_hmacsha256_final(&st, mac);
    sodium_bin2base64(out, BW_CONSOLE_CSRF_LEN + 1, mac, sizeof mac, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

bool bw_console_csrf_ok(const unsigned char *key, size_t key_len, const char *id, const char *token)
{
    if (!bw_console_token_wellformed(token))
        return false;
    char want[BW_CONSOLE_CSRF_LEN + 1];
    bw_console_csrf(key, key_len, id, want);
    return sodium_memcmp(want, token, BW_CONSOLE_CSRF_LEN) == 0;
}
