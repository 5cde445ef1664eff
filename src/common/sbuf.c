#include "common/sbuf.h"

#include "common/vec.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool bw_sb_grow(struct bw_sb *b, size_t more)
{
    if (b->oom)
        return false;
    if (more > SIZE_MAX - 1 - b->len || !BW_VEC_RESERVE(b->p, b->cap, b->len + more + 1, BW_VEC_UNBOUNDED)) {
        b->oom = true;
        return false;
    }
    return true;
}

void bw_sb_putn_grow(struct bw_sb *b, const char *s, size_t n)
{
    if (!bw_sb_grow(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void bw_sb_printf(struct bw_sb *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    /* Format once into the room left, which is nearly always enough; only a text longer than
     * that is formatted again after growing (measuring first doubled printf's cost). */
    size_t room = b->cap - b->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(room ? b->p + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0) {
        if (room)
            b->p[b->len] = '\0';
        return;
    }
    if ((size_t)n < room) {
        b->len += (size_t)n;
        return;
    }
    if (!bw_sb_grow(b, (size_t)n)) {
        if (room)
            b->p[b->len] = '\0'; /* the cut text written into the room is not part of the string */
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void bw_sb_reset(struct bw_sb *b)
{
    b->len = 0;
    if (b->p)
        b->p[0] = '\0';
}

const char *bw_sb_str(const struct bw_sb *b) { return b->p && !b->oom ? b->p : ""; }

char *bw_sb_take(struct bw_sb *b)
{
    char *s = b->oom ? NULL : b->p ? b->p : strdup("");
    if (b->oom)
        free(b->p);
    *b = (struct bw_sb){0};
    return s;
}
