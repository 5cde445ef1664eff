/* Whole-buffer gzip decompression (gzip.h). */
#include "common/gzip.h"

#include "common/sbuf.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

bool bw_is_gzip(const void *buf, size_t len)
{
    const unsigned char *b = buf;
    return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

int bw_gunzip(const void *in, size_t in_len, size_t max_out, char **out, size_t *out_len, char *why, size_t cap)
{
    *out = NULL;
    *out_len = 0;
    if (in_len > UINT_MAX) { /* zlib counts input in uInt */
        snprintf(why, cap, "gzip data larger than %u bytes", UINT_MAX);
        return -1;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    /* 16 + MAX_WBITS: a gzip header and trailer (CRC-32 and length checked), not zlib or raw */
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    /* inflate writes into the buffer's free room; at most max_out + 1 bytes are ever let out, the
     * one past the limit telling "too large" */
    size_t first = in_len * 4 + 4096;
    if (first > max_out + 1)
        first = max_out + 1;
    struct bw_sb buf = {0};
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)in_len;
    int zr = Z_OK;
    const char *fail = bw_sb_grow(&buf, first) ? NULL : "out of memory";
    while (!fail) {
        size_t left = max_out + 1 - buf.len; /* >= 1: len <= max_out here */
        if (buf.len + 1 == buf.cap && !bw_sb_grow(&buf, buf.len < left ? buf.len : left)) {
            fail = "out of memory";
            break;
        }
        size_t room = buf.cap - 1 - buf.len; /* the last byte is the NUL's */
        if (room > left)
            room = left;
        z.next_out = (Bytef *)buf.p + buf.len;
        z.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
        uInt before = z.avail_out;
        zr = inflate(&z, Z_NO_FLUSH);
        buf.len += before - z.avail_out;
        if (buf.len > max_out) {
            fail = "too large";
        } else if (zr == Z_STREAM_END) {
            if (z.avail_in == 0)
                break;
            /* another member follows (concatenated gzip), or trailing garbage: only a member is
             * accepted */
            if (!bw_is_gzip(z.next_in, z.avail_in) || inflateReset(&z) != Z_OK)
                fail = "corrupt gzip data (bytes after the end of the stream)";
        } else if (zr == Z_BUF_ERROR && z.avail_in == 0) {
            fail = "truncated gzip data";
        } else if (zr == Z_MEM_ERROR) {
            fail = "out of memory";
        } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            fail = "corrupt gzip data";
        }
    }
    inflateEnd(&z);
    if (fail) {
        if (strcmp(fail, "too large") == 0)
            snprintf(why, cap, "larger than %zu bytes once decompressed", max_out);
        else
            snprintf(why, cap, "%s", fail);
        free(buf.p);
        return -1;
    }
    buf.p[buf.len] = '\0';
    *out_len = buf.len;
    *out = buf.p;
    return 0;
}

/* The weight of one list element's parameters (after its coding): 0 when "q=0" (0, 0.0, 0.000),
 * else 1 (any other weight accepts). */
static bool weight_nonzero(const char *p, const char *end)
{
    while (p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ';'))
            p++;
        if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
            p += 2;
            if (p < end && *p == '0') {
                p++;
                if (p < end && *p == '.')
                    p++;
                while (p < end && *p == '0')
                    p++;
                while (p < end && (*p == ' ' || *p == '\t'))
                    p++;
                return !(p == end || *p == ';');
            }
            return true;
        }
        while (p < end && *p != ';')
            p++;
    }
    return true;
}

bool bw_accepts_gzip(const char *ae)
{
    if (!ae)
        return false;
    int gz = -1, star = -1; /* -1 unnamed, 0 refused, 1 accepted */
    const char *p = ae;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *end = p;
        while (*end && *end != ',')
            end++;
        const char *t = p;
        while (t < end && *t != ';' && *t != ' ' && *t != '\t')
            t++;
        size_t n = (size_t)(t - p);
        int w = weight_nonzero(t, end) ? 1 : 0;
        if ((n == 4 && strncasecmp(p, "gzip", 4) == 0) || (n == 6 && strncasecmp(p, "x-gzip", 6) == 0))
            gz = gz == 1 ? 1 : w;
        else if (n == 1 && *p == '*')
            star = w;
        p = end;
    }
    return gz == 1 || (gz == -1 && star == 1);
}
