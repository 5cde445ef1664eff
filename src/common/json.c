/* Request bodies as JSON: the nesting pre-check and the object-only parse (common/jsonx.h). */
#include "common/jsonx.h"

#include "common/limits.h"
#include "common/sbuf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool bw_json_depth_ok(const char *s, size_t n, int max_depth)
{
    int depth = 0;
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth)
                return false;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return true;
}

json_t *bw_json_parse_body(const char *body, size_t len, const char **why)
{
    /* jansson's own nesting limit is 2048; ours is far lower and checked before parsing */
    if (!bw_json_depth_ok(body, len, BW_JSON_MAX_DEPTH)) {
        *why = "JSON nesting is deeper than 32 levels";
        return NULL;
    }
    json_error_t e;
    /* DECODE_ANY: `null` or `"x"` is JSON, only not an object, and is told so */
    json_t *j = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);
    if (!j) {
        switch (json_error_code(&e)) {
        case json_error_null_character:
            *why = "body has a string containing \\u0000 (NUL), which is not accepted";
            break;
        case json_error_duplicate_key:
            *why = "body has an object with the same member twice";
            break;
        case json_error_invalid_utf8:
            *why = "body is not valid UTF-8";
            break;
        default:
            *why = "body is not valid JSON";
        }
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        *why = "body must be a JSON object";
        return NULL;
    }
    return j;
}

/* ---- writing ------------------------------------------------------------------------------------ */

/* Bytes that a JSON string cannot hold as they are: '"', '\\' and the controls below 0x20. */
static const unsigned char needs_escape[256] = {
    [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1, [0x07] = 1,
    [0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1, [0x0c] = 1, [0x0d] = 1, [0x0e] = 1, [0x0f] = 1,
    [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1, [0x15] = 1, [0x16] = 1, [0x17] = 1,
    [0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1, [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1,
    ['"'] = 1,  ['\\'] = 1,
};

/* Whether any of the 8 bytes at p is below 0x20, '"' or '\\' (the classic zero-byte tests on a
 * word: x - 0x20 borrows into the top bit of a byte below 0x20, and a byte equal to c is a zero
 * byte of x ^ c; bytes >= 0x80 are masked out by ~x). */
static bool has_escape8(const char *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t q = x ^ (ones * '"'), bs = x ^ (ones * '\\');
    uint64_t lt = (x - ones * 0x20) & ~x;
    uint64_t zq = (q - ones) & ~q, zb = (bs - ones) & ~bs;
    return ((lt | zq | zb) & high) != 0;
}

void bw_json_put_string(struct bw_sb *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    bw_sb_putc(b, '"');
    size_t run = 0; /* bytes since the last escape, copied at once */
    for (size_t i = 0; i < n; i++) {
        /* eight bytes at a time while none is a control, '"' or '\\' (most text) */
        while (i + 8 <= n && !has_escape8(s + i))
            i += 8;
        if (i >= n)
            break;
        unsigned char c = (unsigned char)s[i];
        if (!needs_escape[c])
            continue;
        bw_sb_putn(b, s + run, i - run);
        run = i + 1;
        char esc[7] = {'\\', 0};
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            bw_sb_putn(b, esc, 6);
            continue;
        }
        bw_sb_putn(b, esc, 2);
    }
    bw_sb_putn(b, s + run, n - run);
    bw_sb_putc(b, '"');
}

/* A real as jansson writes it: %.*g, a ".0" when that reads as an integer, the exponent without
 * its '+' and leading zeros. */
bool bw_json_put_real(struct bw_sb *b, double v, int precision)
{
    if (!isfinite(v))
        return false;
    char buf[64];
    int len = snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (len < 0 || (size_t)len >= sizeof buf - 3)
        return false;
    if (!strchr(buf, '.') && !strchr(buf, 'e')) {
        memcpy(buf + len, ".0", 3);
        len += 2;
    }
    char *e = strchr(buf, 'e');
    if (e) {
        char *start = e + 1, *end = start + 1;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, (size_t)(buf + len - end) + 1);
            len -= (int)(end - start);
        }
    }
    bw_sb_putn(b, buf, (size_t)len);
    return true;
}

static bool put_value(struct bw_sb *b, const json_t *v, int precision, int depth)
{
    if (depth > BW_JSON_DUMP_MAX_DEPTH)
        return false;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        bw_sb_putc(b, '{');
        bool first = true;
        const char *k;
        size_t klen;
        json_t *m;
        /* insertion order, as json_dumps writes it without JSON_SORT_KEYS */
        json_object_keylen_foreach((json_t *)v, k, klen, m) {
            if (!first)
                bw_sb_putc(b, ',');
            first = false;
            bw_json_put_string(b, k, klen);
            bw_sb_putc(b, ':');
            if (!put_value(b, m, precision, depth + 1))
                return false;
        }
        bw_sb_putc(b, '}');
        return true;
    }
    case JSON_ARRAY: {
        bw_sb_putc(b, '[');
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n; i++) {
            if (i)
                bw_sb_putc(b, ',');
            if (!put_value(b, json_array_get(v, i), precision, depth + 1))
                return false;
        }
        bw_sb_putc(b, ']');
        return true;
    }
    case JSON_STRING:
        bw_json_put_string(b, json_string_value(v), json_string_length(v));
        return true;
    case JSON_INTEGER: {
        char buf[24];
        int len = snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        bw_sb_putn(b, buf, (size_t)len);
        return true;
    }
    case JSON_REAL:
        return bw_json_put_real(b, json_real_value(v), precision);
    case JSON_TRUE:
        bw_sb_putn(b, "true", 4);
        return true;
    case JSON_FALSE:
        bw_sb_putn(b, "false", 5);
        return true;
    case JSON_NULL:
        bw_sb_putn(b, "null", 4);
        return true;
    }
    return false;
}

bool bw_json_write(struct bw_sb *b, const json_t *v, int precision)
{
    if (!v)
        return false;
    return put_value(b, v, precision > 0 && precision <= 17 ? precision : 17, 0) && !b->oom;
}

char *bw_json_dump(const json_t *v, int precision, size_t *len)
{
    struct bw_sb b = {0};
    (void)bw_sb_grow(&b, 4096); /* most bodies fit: no growth by doubling from a few bytes */
    if (!bw_json_write(&b, v, precision)) {
        free(b.p);
        return NULL;
    }
    if (len)
        *len = b.len;
    return bw_sb_take(&b);
}
