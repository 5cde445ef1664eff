/* KQL text pieces (kql.h). */
#include "engine/intel/kql.h"

void bw_kql_str(struct bw_sb *b, const char *s)
{
    bw_sb_putc(b, '"');
    for (; *s; s++) {
        char c = *s;
        if (c == '"' || c == '\\') {
            bw_sb_putc(b, '\\');
            bw_sb_putc(b, c);
        } else if (c == '\n' || c == '\r' || c == '\t') {
            bw_sb_putc(b, '\\');
            bw_sb_putc(b, c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
        } else {
            bw_sb_putc(b, (unsigned char)c < 0x20 ? ' ' : c);
        }
    }
    bw_sb_putc(b, '"');
}

void bw_kql_verbatim(struct bw_sb *b, const char *s)
{
    bw_sb_puts(b, "@\"");
    for (; *s; s++) {
        if (*s == '"')
            bw_sb_putc(b, '"');
        bw_sb_putc(b, (unsigned char)*s < 0x20 ? ' ' : *s);
    }
    bw_sb_putc(b, '"');
}

void bw_kql_list(struct bw_sb *b, const char *const *items, size_t n)
{
    bw_sb_putc(b, '(');
    for (size_t i = 0; i < n; i++) {
        if (i)
            bw_sb_puts(b, ", ");
        bw_kql_str(b, items[i]);
    }
    bw_sb_putc(b, ')');
}

void bw_kql_any(struct bw_sb *b, const char *const *cols, size_t ncols, const char *const *vals, size_t nvals)
{
    bw_sb_putc(b, '(');
    const char *sep = "";
    for (size_t i = 0; i < nvals; i++)
        for (size_t k = 0; k < ncols; k++) {
            bw_sb_printf(b, "%s%s contains ", sep, cols[k]);
            bw_kql_str(b, vals[i]);
            sep = " or ";
        }
    bw_sb_putc(b, ')');
}

void bw_kql_comment(struct bw_sb *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        /* U+0085 is C2 85, U+2028 and U+2029 are E2 80 A8 and E2 80 A9 */
        if ((p[0] == 0xC2 && p[1] == 0x85) || (p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9))) {
            bw_sb_putc(b, ' ');
            p += p[0] == 0xC2 ? 1 : 2;
        } else {
            bw_sb_putc(b, *p < 0x20 ? ' ' : (char)*p);
        }
    }
}

void bw_kql_from(struct bw_sb *b, const char *table, const char *timecol, const char *span, int indent)
{
    bw_sb_puts(b, table);
    if (timecol)
        bw_sb_printf(b, "\n%*s| where %s > ago(%s)", indent, "", timecol, span);
}
