/* Keyset cursors (cursor.h): a compact encoding, a keyed BLAKE2b tag, base64url. */
#include "common/cursor.h"

#include <sodium.h>
#include <string.h>

enum {
    VERSION = 1,
    FP_BYTES = 8,
    TAG_BYTES = 16,
    HEAD_BYTES = 3 + FP_BYTES + 1,                                    /* version list sort fp kind */
    BIN_MAX = HEAD_BYTES + 1 + BW_CURSOR_TEXT_MAX + 1 + BW_CURSOR_ID_MAX + TAG_BYTES,
};
_Static_assert(BIN_MAX == 222, "BW_CURSOR_MAX's comment names the largest cursor");
_Static_assert(((BIN_MAX + 2) / 3) * 4 <= BW_CURSOR_MAX, "BW_CURSOR_MAX holds the largest cursor");
_Static_assert(crypto_generichash_KEYBYTES == BW_CURSOR_KEY_BYTES, "the cursor key is a generichash key");

/* The fingerprint of (list, sort, filters): binds a cursor to the request that made it. Not keyed:
 * the tag over the whole cursor is what makes it unforgeable. */
static void fingerprint(uint8_t list, uint8_t sort, const char *filters, unsigned char fp[FP_BYTES])
{
    crypto_generichash_state st;
    unsigned char head[2] = {list, sort};
    crypto_generichash_init(&st, NULL, 0, FP_BYTES);
    crypto_generichash_update(&st, head, sizeof head);
    crypto_generichash_update(&st, (const unsigned char *)filters, strlen(filters));
    crypto_generichash_final(&st, fp, FP_BYTES);
}

static void tag(const unsigned char key[BW_CURSOR_KEY_BYTES], const unsigned char *msg, size_t n,
                unsigned char out[TAG_BYTES])
{
    crypto_generichash(out, TAG_BYTES, msg, n, key, BW_CURSOR_KEY_BYTES);
}

/* 1..max bytes and no NUL (a C string of that length) */
static bool field_ok(const char *s, size_t max, size_t *len)
{
    *len = strnlen(s, max + 1);
    return *len >= 1 && *len <= max;
}

int bw_cursor_encode(const unsigned char key[BW_CURSOR_KEY_BYTES], const struct bw_cursor *c, const char *filters,
                     char *out, size_t cap)
{
    unsigned char bin[BIN_MAX];
    size_t n = 0, idlen, tlen = 0;
    if (!field_ok(c->id, BW_CURSOR_ID_MAX, &idlen) || (c->text && !field_ok(c->key_text, BW_CURSOR_TEXT_MAX, &tlen)))
        return -1;
    bin[n++] = VERSION;
    bin[n++] = c->list;
    bin[n++] = c->sort;
    fingerprint(c->list, c->sort, filters ? filters : "", bin + n);
    n += FP_BYTES;
    bin[n++] = c->text ? 1 : 0;
    if (c->text) {
        bin[n++] = (unsigned char)tlen;
        memcpy(bin + n, c->key_text, tlen);
        n += tlen;
    } else {
        uint64_t v = (uint64_t)c->key_int;
        for (int i = 7; i >= 0; i--)
            bin[n++] = (unsigned char)(v >> (i * 8));
    }
    bin[n++] = (unsigned char)idlen;
    memcpy(bin + n, c->id, idlen);
    n += idlen;
    tag(key, bin, n, bin + n);
    n += TAG_BYTES;
    size_t need = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    if (cap < need)
        return -1;
    sodium_bin2base64(out, cap, bin, n, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return (int)strlen(out);
}

/* Reads a length-prefixed field of 1..max bytes without NUL at bin[*at] into dst. */
static bool read_field(const unsigned char *bin, size_t end, size_t *at, size_t max, char *dst)
{
    if (*at >= end)
        return false;
    size_t len = bin[(*at)++];
    if (len < 1 || len > max || len > end - *at || memchr(bin + *at, 0, len))
        return false;
    memcpy(dst, bin + *at, len);
    dst[len] = '\0';
    *at += len;
    return true;
}

static enum bw_cursor_rc parse(const unsigned char key[BW_CURSOR_KEY_BYTES], const char *text, uint8_t list,
                               uint8_t sort, const char *filters, struct bw_cursor *out)
{
    unsigned char bin[BIN_MAX];
    size_t n = 0, tlen = strnlen(text, BW_CURSOR_MAX + 1);
    /* the alphabet first: libsodium 1.0.18 decodes some bytes above 0x7f as if they were '_' (found
     * by fuzz_cursor), which would give one cursor several spellings */
    if (tlen > BW_CURSOR_MAX || strspn(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != tlen ||
        sodium_base642bin(bin, sizeof bin, text, tlen, NULL, &n, NULL, sodium_base64_VARIANT_URLSAFE_NO_PADDING) !=
            0 ||
        n < HEAD_BYTES + 2 + TAG_BYTES)
        return BW_CURSOR_INVALID;
    size_t end = n - TAG_BYTES;
    unsigned char want[TAG_BYTES];
    tag(key, bin, end, want);
    if (crypto_verify_16(want, bin + end) != 0)
        return BW_CURSOR_INVALID;
    /* from here on the bytes are ours; still read them as if they were not */
    if (bin[0] != VERSION)
        return BW_CURSOR_INVALID;
    unsigned char fp[FP_BYTES];
    fingerprint(list, sort, filters ? filters : "", fp);
    if (bin[1] != list || bin[2] != sort || sodium_memcmp(fp, bin + 3, FP_BYTES) != 0)
        return BW_CURSOR_OTHER_QUERY;
    out->list = list;
    out->sort = sort;
    size_t at = HEAD_BYTES;
    unsigned char kind = bin[at - 1];
    if (kind == 1) {
        out->text = true;
        if (!read_field(bin, end, &at, BW_CURSOR_TEXT_MAX, out->key_text))
            return BW_CURSOR_INVALID;
    } else if (kind == 0) {
        if (end - at < 8)
            return BW_CURSOR_INVALID;
        uint64_t v = 0;
        for (int i = 0; i < 8; i++)
            v = (v << 8) | bin[at++];
        out->key_int = (int64_t)v;
    } else {
        return BW_CURSOR_INVALID;
    }
    if (!read_field(bin, end, &at, BW_CURSOR_ID_MAX, out->id) || at != end)
        return BW_CURSOR_INVALID;
    return BW_CURSOR_OK;
}

enum bw_cursor_rc bw_cursor_decode(const unsigned char key[BW_CURSOR_KEY_BYTES], const char *text, uint8_t list,
                                   uint8_t sort, const char *filters, struct bw_cursor *out)
{
    memset(out, 0, sizeof *out);
    enum bw_cursor_rc rc = parse(key, text, list, sort, filters, out);
    if (rc != BW_CURSOR_OK)
        memset(out, 0, sizeof *out);
    return rc;
}
