/* Whole-buffer gzip decompression (gzip.h). */
#include "common/gzip.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    size_t cap_out = in_len * 4 + 4096, len = 0;
    if (cap_out > max_out + 1)
        cap_out = max_out + 1;
    char *buf = malloc(cap_out + 1);
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)in_len;
    int zr = Z_OK;
    const char *fail = buf ? NULL : "out of memory";
    while (!fail) {
        if (len == cap_out) {
            if (cap_out > max_out) {
                fail = "too large";
                break;
            }
            size_t next = cap_out * 2 > max_out + 1 ? max_out + 1 : cap_out * 2;
            char *nb = realloc(buf, next + 1);
            if (!nb) {
                fail = "out of memory";
                break;
            }
            buf = nb;
            cap_out = next;
        }
        size_t room = cap_out - len;
        z.next_out = (Bytef *)buf + len;
        z.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
        uInt before = z.avail_out;
        zr = inflate(&z, Z_NO_FLUSH);
        len += before - z.avail_out;
        if (len > max_out) {
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
        free(buf);
        return -1;
    }
    buf[len] = '\0';
    *out = buf;
    *out_len = len;
    return 0;
}
