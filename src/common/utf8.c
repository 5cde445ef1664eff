#include "common/utf8.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

size_t bw_utf8_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

size_t bw_utf8_seq(const unsigned char *p, size_t left)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (left < len || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if ((p[k] & 0xC0) != 0x80)
            return 0;
    return len;
}

bool bw_has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7F)
            return true;
    return false;
}

bool bw_utf8_valid(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        /* eight ASCII bytes at a time (most text, JSON above all): no high bit among them */
        uint64_t w;
        while (i + 8 <= n && (memcpy(&w, s + i, 8), (w & 0x8080808080808080ull) == 0))
            i += 8;
        if (i >= n)
            break;
        size_t len = bw_utf8_seq((const unsigned char *)s + i, n - i);
        if (!len)
            return false;
        i += len;
    }
    return true;
}

json_t *bw_utf8_json(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s);
    if (bw_utf8_valid(s, n))
        return json_stringn_nocheck(s, n);
    char *t = malloc(3 * n + 1); /* each bad byte becomes three: EF BF BD */
    if (!t)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t len = bw_utf8_seq((const unsigned char *)s + i, n - i);
        if (len) {
            memcpy(t + o, s + i, len);
            o += len;
            i += len;
        } else {
            memcpy(t + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i++;
        }
    }
    json_t *j = json_stringn_nocheck(t, o);
    free(t);
    return j;
}
