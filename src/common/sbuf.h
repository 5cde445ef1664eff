/* The one growable byte buffer: a NUL-terminated string for code that builds text piece by piece
 * (playbooks, hunt rules, messages, prompts, response bodies), grown by vec.h's rule. Appends
 * never fail loudly: the first allocation failure sets oom, later appends are no-ops and
 * bw_sb_str answers "", so callers check once at the end.
 * Ownership: p is malloc'ed; free(b.p) when done, or take it with bw_sb_take. A zeroed struct is
 * an empty string. */
#ifndef BW_COMMON_SBUF_H
#define BW_COMMON_SBUF_H
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct bw_sb {
    char *p;
    size_t len, cap;
    bool oom;
};

/* Room for `more` bytes plus the NUL (also: reserves a size up front); false once out of memory. */
bool bw_sb_grow(struct bw_sb *b, size_t more);
/* Appends that must grow the buffer first (or find it out of memory): the out-of-line half of
 * bw_sb_putn. */
void bw_sb_putn_grow(struct bw_sb *b, const char *s, size_t n);

/* Appends are inline while the buffer has room: writers such as the playbook's make hundreds of
 * small ones per document, where a call per byte or per word showed in profiles. */
static inline void bw_sb_putn(struct bw_sb *b, const char *s, size_t n)
{
    if (b->cap - b->len > n && !b->oom) { /* room for n bytes and the NUL (cap is 0 while p is NULL) */
        memcpy(b->p + b->len, s, n);
        b->len += n;
        b->p[b->len] = '\0';
        return;
    }
    bw_sb_putn_grow(b, s, n);
}

static inline void bw_sb_puts(struct bw_sb *b, const char *s) { bw_sb_putn(b, s, strlen(s)); }

static inline void bw_sb_putc(struct bw_sb *b, char c)
{
    if (b->cap - b->len > 1 && !b->oom) {
        b->p[b->len++] = c;
        b->p[b->len] = '\0';
        return;
    }
    bw_sb_putn_grow(b, &c, 1);
}

void bw_sb_printf(struct bw_sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Empties the string, keeping its memory. */
void bw_sb_reset(struct bw_sb *b);
/* The text so far, or "" when nothing was appended or memory ran out. */
const char *bw_sb_str(const struct bw_sb *b);
/* Hands the text over: malloc'ed (free it; "" when nothing was appended), or NULL when memory ran
 * out. The buffer is empty afterwards. */
char *bw_sb_take(struct bw_sb *b);

#endif
