#define PCRE2_CODE_UNIT_WIDTH 8
#include "engine/code/lang.h"

#include "common/vec.h"

#include <ctype.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const NAMES[BW_LANG_COUNT] = {"js", "ts", "py", "go", "java", "php", "rb", "cs", "rs"};

int bw_lang_parse(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < BW_LANG_COUNT; i++)
        if (strcmp(name, NAMES[i]) == 0)
            return i;
    return -1;
}

const char *bw_lang_name(enum bw_lang l) { return (unsigned)l < BW_LANG_COUNT ? NAMES[l] : "?"; }

int bw_lang_from_path(const char *path)
{
    static const struct {
        const char *ext;
        enum bw_lang l;
    } map[] = {
        {"js", BW_LANG_JS},   {"mjs", BW_LANG_JS},  {"cjs", BW_LANG_JS},   {"jsx", BW_LANG_JS},
        {"ts", BW_LANG_TS},   {"tsx", BW_LANG_TS},  {"mts", BW_LANG_TS},   {"cts", BW_LANG_TS},
        {"py", BW_LANG_PY},   {"pyw", BW_LANG_PY},  {"go", BW_LANG_GO},    {"java", BW_LANG_JAVA},
        {"php", BW_LANG_PHP}, {"rb", BW_LANG_RB},   {"rake", BW_LANG_RB},  {"cs", BW_LANG_CS},
        {"rs", BW_LANG_RS},
    };
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base)
        return -1;
    if (strstr(base, ".min.js")) /* minified bundles are not code anyone wrote */
        return -1;
    if (strlen(dot) >= 5 && strcmp(dot, ".d.ts") == 0)
        return -1;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcasecmp(dot + 1, map[i].ext) == 0)
            return (int)map[i].l;
    return -1;
}

static int push(struct bw_regions *r, size_t start, size_t end, int kind)
{
    if (end <= start)
        return 0;
    if (!BW_VEC_RESERVE(r->v, r->cap, r->n + 1, BW_VEC_UNBOUNDED))
        return -1;
    r->v[r->n++] = (struct bw_region){start, end, kind};
    return 0;
}

/* End of a quoted string starting at s[i] == q (backslash escapes); returns the index after the
 * closing quote, or the end of the line for an unterminated single-line string. */
static size_t skip_quoted(const char *s, size_t len, size_t i, char q, bool multiline)
{
    size_t j = i + 1;
    while (j < len) {
        char c = s[j];
        if (c == '\\') {
            j += 2;
            continue;
        }
        if (c == q)
            return j + 1;
        if (c == '\n' && !multiline)
            return j;
        j++;
    }
    return len;
}

static bool has(const char *s, size_t len, size_t i, const char *lit)
{
    size_t n = strlen(lit);
    return i + n <= len && memcmp(s + i, lit, n) == 0;
}

static size_t find_lit(const char *s, size_t len, size_t from, const char *lit)
{
    size_t n = strlen(lit);
    if (n == 0 || from >= len)
        return len;
    const char *p = memmem(s + from, len - from, lit, n);
    return p ? (size_t)(p - s) + n : len;
}

static size_t line_end(const char *s, size_t len, size_t i)
{
    const char *p = memchr(s + i, '\n', len - i);
    return p ? (size_t)(p - s) : len;
}

/* JS/TS template literal: the text is string, ${...} parts are code (lexed recursively by depth). */
static int lex_template(const char *s, size_t len, size_t *pi, struct bw_regions *r)
{
    size_t i = *pi, start = i;
    i++;
    while (i < len) {
        if (s[i] == '\\') {
            i += 2;
            continue;
        }
        if (s[i] == '`') {
            i++;
            break;
        }
        if (s[i] == '$' && i + 1 < len && s[i + 1] == '{') {
            if (push(r, start, i, BW_REGION_STRING) != 0)
                return -1;
            int depth = 1;
            i += 2;
            while (i < len && depth > 0) { /* expressions: strings inside are rare, count braces */
                if (s[i] == '{')
                    depth++;
                else if (s[i] == '}')
                    depth--;
                i++;
            }
            start = i;
            continue;
        }
        i++;
    }
    if (i > len)
        i = len;
    *pi = i;
    return push(r, start, i, BW_REGION_STRING);
}

int bw_lex_regions(enum bw_lang l, const char *s, size_t len, struct bw_regions *r)
{
    r->n = 0;
    bool slash_comments = l != BW_LANG_PY && l != BW_LANG_RB;
    bool hash_comments = l == BW_LANG_PY || l == BW_LANG_RB || l == BW_LANG_PHP;
    /* the bytes that can start a comment or a string here; everything else is skipped fast */
    bool start_byte[256] = {0};
    start_byte['"'] = start_byte['\''] = true;
    start_byte['/'] = slash_comments;
    start_byte['#'] = hash_comments;
    start_byte['`'] = l == BW_LANG_JS || l == BW_LANG_TS || l == BW_LANG_GO;
    start_byte['r'] = l == BW_LANG_RS;
    start_byte['='] = l == BW_LANG_RB;
    size_t i = 0;
    while (i < len) {
        while (i < len && !start_byte[(unsigned char)s[i]])
            i++;
        if (i >= len)
            break;
        char c = s[i];
        size_t start = i;
        bool line_start = i == 0 || s[i - 1] == '\n';
        if (slash_comments && c == '/' && i + 1 < len && s[i + 1] == '/') {
            i = line_end(s, len, i);
            if (push(r, start, i, BW_REGION_COMMENT) != 0)
                return -1;
            continue;
        }
        if (slash_comments && c == '/' && i + 1 < len && s[i + 1] == '*') {
            i = find_lit(s, len, i + 2, "*/");
            if (push(r, start, i, BW_REGION_COMMENT) != 0)
                return -1;
            continue;
        }
        if (hash_comments && c == '#' && !(l == BW_LANG_RB && i + 1 < len && s[i + 1] == '{')) {
            if (l == BW_LANG_PHP && i + 1 < len && s[i + 1] == '[') { /* PHP 8 attribute */
                i++;
                continue;
            }
            i = line_end(s, len, i);
            if (push(r, start, i, BW_REGION_COMMENT) != 0)
                return -1;
            continue;
        }
        if (l == BW_LANG_RB && line_start && has(s, len, i, "=begin")) {
            i = find_lit(s, len, i, "\n=end");
            if (push(r, start, i, BW_REGION_COMMENT) != 0)
                return -1;
            continue;
        }
        if (l == BW_LANG_PY && (c == '"' || c == '\'')) {
            if (i + 2 < len && s[i + 1] == c && s[i + 2] == c) {
                const char q3[4] = {c, c, c, 0};
                i = find_lit(s, len, i + 3, q3);
            } else {
                i = skip_quoted(s, len, i, c, false);
            }
            if (push(r, start, i, BW_REGION_STRING) != 0)
                return -1;
            continue;
        }
        if (c == '"' || (c == '\'' && l != BW_LANG_RS)) {
            if (l == BW_LANG_CS && i > 0 && s[i - 1] == '@') { /* verbatim: "" escapes a quote */
                size_t j = i + 1;
                while (j < len) {
                    if (s[j] == '"' && j + 1 < len && s[j + 1] == '"')
                        j += 2;
                    else if (s[j] == '"')
                        break;
                    else
                        j++;
                }
                i = j < len ? j + 1 : len;
            } else if (l == BW_LANG_JAVA && c == '"' && has(s, len, i, "\"\"\"")) {
                i = find_lit(s, len, i + 3, "\"\"\"");
            } else {
                bool ml = l == BW_LANG_RB || l == BW_LANG_PHP || l == BW_LANG_RS;
                i = skip_quoted(s, len, i, c, ml);
            }
            if (push(r, start, i, BW_REGION_STRING) != 0)
                return -1;
            continue;
        }
        if (l == BW_LANG_RS && c == '\'') {
            /* a char literal ('a', '\n', '\u{1F600}'); otherwise a lifetime, which is code */
            size_t j = i + 1;
            if (j < len && s[j] == '\\') {
                const char *q = memchr(s + j, '\'', len - j < 12 ? len - j : 12);
                i = q ? (size_t)(q - s) + 1 : i + 1;
            } else if (j + 1 < len && s[j + 1] == '\'') {
                i = j + 2;
            } else {
                i++;
                continue;
            }
            if (push(r, start, i, BW_REGION_STRING) != 0)
                return -1;
            continue;
        }
        if (l == BW_LANG_RS && c == 'r' && i + 1 < len && (s[i + 1] == '"' || s[i + 1] == '#') &&
            (i == 0 || !(s[i - 1] == '_' || isalnum((unsigned char)s[i - 1])))) {
            size_t j = i + 1, hashes = 0;
            while (j < len && s[j] == '#')
                hashes++, j++;
            if (j < len && s[j] == '"') {
                char close[40] = "\"";
                for (size_t h = 0; h < hashes && h < 30; h++)
                    close[h + 1] = '#';
                i = find_lit(s, len, j + 1, close);
                if (push(r, start, i, BW_REGION_STRING) != 0)
                    return -1;
                continue;
            }
        }
        if (c == '`' && (l == BW_LANG_JS || l == BW_LANG_TS)) {
            if (lex_template(s, len, &i, r) != 0)
                return -1;
            continue;
        }
        if (c == '`' && l == BW_LANG_GO) {
            i = find_lit(s, len, i + 1, "`");
            if (push(r, start, i, BW_REGION_STRING) != 0)
                return -1;
            continue;
        }
        i++;
    }
    return 0;
}

int bw_region_at(const struct bw_regions *r, size_t off)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->v[mid].end <= off)
            lo = mid + 1;
        else if (r->v[mid].start > off)
            hi = mid;
        else
            return r->v[mid].kind;
    }
    return 0;
}

void bw_regions_free(struct bw_regions *r)
{
    free(r->v);
    r->v = NULL;
    r->n = r->cap = 0;
}

void *bw_re_compile(const char *pat, uint32_t flags, char *err, size_t errlen)
{
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *c = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, flags, &ec, &eo, NULL);
    if (!c) {
        PCRE2_UCHAR msg[160];
        pcre2_get_error_message(ec, msg, sizeof msg);
        snprintf(err, errlen, "PCRE2: %s at offset %zu", (const char *)msg, (size_t)eo);
    }
    return c;
}
