/* The nine languages the code scanner knows, and a small lexer that finds comments and string
 * literals so that rules with scope "code" ignore matches inside them. The lexer is deliberately
 * forgiving: on code it does not understand it errs towards "code" (more findings, never fewer). */
#ifndef BW_ENGINE_CODE_LANG_H
#define BW_ENGINE_CODE_LANG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bw_lang { BW_LANG_JS, BW_LANG_TS, BW_LANG_PY, BW_LANG_GO, BW_LANG_JAVA,
               BW_LANG_PHP, BW_LANG_RB, BW_LANG_CS, BW_LANG_RS, BW_LANG_COUNT };

/* "js" -> BW_LANG_JS; -1 when unknown. */
int bw_lang_parse(const char *name);
const char *bw_lang_name(enum bw_lang l);
/* The language of a file name by its extension; -1 when none. */
int bw_lang_from_path(const char *path);

/* Non-code regions of a source text, sorted and disjoint. */
enum bw_region_kind { BW_REGION_COMMENT = 1, BW_REGION_STRING = 2 };
struct bw_region {
    size_t start, end; /* [start, end) */
    int kind;
};
struct bw_regions {
    struct bw_region *v;
    size_t n, cap;
};

/* Fills r (reset first) with the comments and string literals of src. 0, or -1 on OOM. */
int bw_lex_regions(enum bw_lang l, const char *src, size_t len, struct bw_regions *r);
/* The region kind containing offset off, or 0 for code. */
int bw_region_at(const struct bw_regions *r, size_t off);
void bw_regions_free(struct bw_regions *r);

/* Compiles PCRE2 (8-bit) pattern pat with flags; NULL with "PCRE2: <message> at offset <n>" in
 * err. Returns a pcre2_code * (void * so that this header needs no pcre2.h). */
void *bw_re_compile(const char *pat, uint32_t flags, char *err, size_t errlen);

#endif
