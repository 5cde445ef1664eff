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

struct bw_sb {
    char *p;
    size_t len, cap;
    bool oom;
};

/* Room for `more` bytes plus the NUL (also: reserves a size up front); false once out of memory. */
bool bw_sb_grow(struct bw_sb *b, size_t more);
void bw_sb_putn(struct bw_sb *b, const char *s, size_t n);
void bw_sb_puts(struct bw_sb *b, const char *s);
void bw_sb_putc(struct bw_sb *b, char c);
void bw_sb_printf(struct bw_sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Empties the string, keeping its memory. */
void bw_sb_reset(struct bw_sb *b);
/* The text so far, or "" when nothing was appended or memory ran out. */
const char *bw_sb_str(const struct bw_sb *b);
/* Hands the text over: malloc'ed (free it; "" when nothing was appended), or NULL when memory ran
 * out. The buffer is empty afterwards. */
char *bw_sb_take(struct bw_sb *b);

#endif
