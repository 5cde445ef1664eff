/* Ignore patterns in gitignore syntax (.bulwarkignore, --exclude, override paths in .bulwark.yml):
 * git's rules for anchoring, negation and folders, on a glob matcher of our own because fnmatch
 * has no '**'. The matcher backtracks, so its steps are counted and bounded. */
#include "cli/scan.h"
#include "common/limits.h"
#include "common/vec.h"

#include <stdlib.h>
#include <string.h>

/* Matches [..] at *pp against c; advances *pp past the class. -1 when the class is unterminated
 * (then '[' is an ordinary character, as git treats it). */
static int class_match(const char **pp, char c)
{
    const char *p = *pp + 1;
    bool neg = *p == '!' || *p == '^';
    if (neg)
        p++;
    bool hit = false, first = true;
    while (*p && (*p != ']' || first)) {
        first = false;
        char lo = *p;
        if (lo == '\\' && p[1])
            lo = *++p;
        if (p[1] == '-' && p[2] && p[2] != ']') {
            hit |= c >= lo && c <= p[2];
            p += 3;
        } else {
            hit |= c == lo;
            p++;
        }
    }
    if (*p != ']')
        return -1;
    *pp = p + 1;
    return hit != neg;
}

static bool match(const char *p, const char *s, long *steps)
{
    while (*p) {
        if (--*steps <= 0)
            return false;
        if (p[0] == '*' && p[1] == '*') {
            while (*p == '*')
                p++;
            bool slash = *p == '/';
            if (slash) /* "**" + "/": zero or more whole folders */
                p++;
            for (const char *t = s;; t++) {
                if ((!slash || t == s || t[-1] == '/') && match(p, t, steps))
                    return true;
                if (!*t || *steps <= 0)
                    return false;
            }
        }
        if (*p == '*') {
            p++;
            for (const char *t = s;; t++) {
                if (match(p, t, steps))
                    return true;
                if (!*t || *t == '/' || *steps <= 0)
                    return false;
            }
        }
        if (!*s)
            return false;
        if (*p == '?') {
            if (*s == '/')
                return false;
            p++, s++;
            continue;
        }
        if (*p == '[') {
            const char *q = p;
            int r = *s == '/' ? 0 : class_match(&q, *s);
            if (r == 0)
                return false;
            if (r == 1) {
                p = q, s++;
                continue;
            }
        }
        if (*p == '\\' && p[1])
            p++;
        if (*p != *s)
            return false;
        p++, s++;
    }
    return *s == '\0';
}

bool bw_glob_match(const char *glob, const char *s)
{
    long steps = BW_CLI_SCAN_GLOB_STEPS;
    return match(glob, s, &steps);
}

int bw_ignore_add(struct bw_ignore *ig, const char *pat)
{
    size_t n = strlen(pat);
    while (n > 0 && (pat[n - 1] == ' ' || pat[n - 1] == '\r') && !(n > 1 && pat[n - 2] == '\\'))
        n--; /* trailing spaces, unless escaped */
    if (n == 0 || pat[0] == '#')
        return 0;
    if (n > BW_CLI_SCAN_MAX_PATTERN)
        return -1;
    struct bw_ignore_pat p = {0};
    if (pat[0] == '!') {
        p.negate = true;
        pat++, n--;
    } else if (pat[0] == '\\' && (pat[1] == '#' || pat[1] == '!')) {
        pat++, n--;
    }
    if (n > 0 && pat[n - 1] == '/') {
        p.dir_only = true;
        n--;
    }
    if (n == 0)
        return 0;
    p.anchored = memchr(pat, '/', n) != NULL;
    if (pat[0] == '/')
        pat++, n--;
    if (!BW_VEC_RESERVE(ig->v, ig->cap, ig->n + 1, BW_CLI_SCAN_MAX_PATTERNS))
        return -1;
    if (!(p.glob = strndup(pat, n)))
        return -1;
    ig->v[ig->n++] = p;
    return 0;
}

int bw_ignore_add_text(struct bw_ignore *ig, const char *text, size_t len)
{
    char line[BW_CLI_SCAN_MAX_PATTERN + 2];
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        size_t n = e - i;
        if (n < sizeof line && !memchr(text + i, '\0', n)) { /* longer lines are no path anyone has */
            memcpy(line, text + i, n);
            line[n] = '\0';
            if (bw_ignore_add(ig, line) != 0)
                return -1;
        }
        i = e + 1;
    }
    return 0;
}

int bw_ignore_verdict(const struct bw_ignore *ig, const char *rel, bool is_dir)
{
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    for (size_t i = ig->n; i-- > 0;) { /* the last matching pattern decides */
        const struct bw_ignore_pat *p = &ig->v[i];
        if (p->dir_only && !is_dir)
            continue;
        if (bw_glob_match(p->glob, p->anchored ? rel : base))
            return !p->negate;
    }
    return -1;
}

bool bw_ignore_match(const struct bw_ignore *ig, const char *rel, bool is_dir)
{
    if (!ig || ig->n == 0)
        return false;
    char buf[4096];
    size_t n = strlen(rel);
    if (n >= sizeof buf)
        return false;
    memcpy(buf, rel, n + 1);
    /* each parent folder first: once one is excluded nothing under it comes back */
    for (char *s = strchr(buf, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        int v = bw_ignore_verdict(ig, buf, true);
        *s = '/';
        if (v == 1)
            return true;
    }
    return bw_ignore_verdict(ig, buf, is_dir) == 1;
}

void bw_ignore_free(struct bw_ignore *ig)
{
    for (size_t i = 0; i < ig->n; i++)
        free(ig->v[i].glob);
    free(ig->v);
    ig->v = NULL;
    ig->n = ig->cap = 0;
}
