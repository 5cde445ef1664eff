/* Reading imported lists of existing package names (pkgindex.h). */
#include "engine/pkgindex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const ECO_NAMES[BW_PKG_ECO_COUNT] = {"npm", "pypi"};
static const char *const FORMAT_NAMES[BW_PKGF_COUNT] = {"auto",      "lines",          "pypi-simple-html",
                                                         "pypi-simple-json", "npm-names", "npm-all-docs"};

const char *bw_pkg_eco_name(int eco) { return eco >= 0 && eco < BW_PKG_ECO_COUNT ? ECO_NAMES[eco] : NULL; }

int bw_pkg_eco_parse(const char *s)
{
    for (int i = 0; s && i < BW_PKG_ECO_COUNT; i++)
        if (strcmp(s, ECO_NAMES[i]) == 0)
            return i;
    return -1;
}

const char *bw_pkg_format_name(int format)
{
    return format >= 0 && format < BW_PKGF_COUNT ? FORMAT_NAMES[format] : NULL;
}

int bw_pkg_format_parse(const char *s)
{
    for (int i = 0; s && i < BW_PKGF_COUNT; i++)
        if (strcmp(s, FORMAT_NAMES[i]) == 0)
            return i;
    return -1;
}

static bool alnum(unsigned char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* what encodeURIComponent leaves as it is: the characters of an npm name (validate-npm-package-name) */
static bool npm_char(unsigned char c) { return alnum(c) || (c && strchr("-._~!*'()", c) != NULL); }

size_t bw_pkg_normalise(int eco, const char *s, size_t n, char *out, size_t cap)
{
    if (n == 0 || n > BW_PKG_NAME_MAX || cap <= n)
        return 0;
    size_t k = 0;
    if (eco == BW_PKG_PYPI) {
        if (!alnum((unsigned char)s[0]) || !alnum((unsigned char)s[n - 1]))
            return 0;
        for (size_t i = 0; i < n; i++) {
            char c = s[i];
            if (c == '-' || c == '_' || c == '.') {
                if (out[k - 1] != '-') /* s[0] is alphanumeric, so k > 0 */
                    out[k++] = '-';
            } else if (alnum((unsigned char)c)) {
                out[k++] = lower(c);
            } else {
                return 0;
            }
        }
    } else if (eco == BW_PKG_NPM) {
        size_t i = 0;
        if (s[0] == '@') { /* "@scope/name": both parts non-empty */
            const char *slash = memchr(s, '/', n);
            if (!slash || slash == s + 1 || (size_t)(slash - s) + 1 == n)
                return 0;
            out[k++] = '@';
            for (i = 1; s + i < slash; i++) {
                if (!npm_char((unsigned char)s[i]))
                    return 0;
                out[k++] = lower(s[i]);
            }
            out[k++] = '/';
            i++;
        }
        for (; i < n; i++) {
            if (!npm_char((unsigned char)s[i]))
                return 0;
            out[k++] = lower(s[i]);
        }
    } else {
        return 0;
    }
    out[k] = '\0';
    return k;
}

/* ---- the input as a cursor with line and column ---- */

struct in {
    const char *buf, *p, *end;
    int eco;
    bw_pkg_name_fn fn;
    void *arg;
    struct bw_pkg_reject *rej;
    size_t names;
};

__attribute__((format(printf, 3, 4))) static int fail_at(struct in *in, const char *at, const char *fmt, ...)
{
    /* the line of at, counted from the start: only a refusal pays for it */
    int line = 1;
    const char *ls = in->buf;
    for (const char *q = in->buf; q < at && q < in->end; q++)
        if (*q == '\n')
            line++, ls = q + 1;
    in->rej->line = line;
    in->rej->column = (int)(at - ls) + 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->rej->msg, sizeof in->rej->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* Hands name s (n bytes, as written in the file at `at`) to the callback once normalised. */
static int emit(struct in *in, const char *at, const char *s, size_t n)
{
    char norm[BW_PKG_NAME_MAX + 1];
    if (bw_pkg_normalise(in->eco, s, n, norm, sizeof norm) == 0)
        return fail_at(in, at, "'%.*s' is not %s package name", (int)(n > 64 ? 64 : n), s,
                       in->eco == BW_PKG_PYPI ? "a PyPI" : "an npm");
    in->names++;
    if (in->fn(in->arg, norm, strlen(norm), in->rej) != 0) {
        char why[sizeof in->rej->msg];
        snprintf(why, sizeof why, "%s", in->rej->msg);
        return fail_at(in, at, "%s", why);
    }
    return 0;
}

/* ---- lines ---- */

static bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static int parse_lines(struct in *in)
{
    while (in->p < in->end) {
        const char *e = memchr(in->p, '\n', (size_t)(in->end - in->p));
        if (!e)
            e = in->end;
        const char *s = in->p, *t = e;
        while (s < t && space(*s))
            s++;
        while (t > s && space(t[-1]))
            t--;
        if (s < t && *s != '#' && emit(in, s, s, (size_t)(t - s)) != 0)
            return -1;
        in->p = e < in->end ? e + 1 : e;
    }
    return 0;
}

/* ---- PEP 503 HTML: the text of each <a ...>...</a> ---- */

static int parse_html(struct in *in)
{
    const char *p = in->p, *end = in->end;
    while (p < end) {
        /* an anchor's start tag: "<a" then white space or '>' */
        if (*p != '<' || end - p < 3 || (p[1] != 'a' && p[1] != 'A') || !(p[2] == '>' || space(p[2]) || p[2] == '\n')) {
            p++;
            continue;
        }
        const char *tag = p;
        while (p < end && *p != '>') {
            p++;
        }
        if (p == end)
            return fail_at(in, tag, "an <a> tag is not closed");
        const char *s = ++p;
        while (p < end && *p != '<') {
            p++;
        }
        if (end - p < 4 || strncasecmp(p, "</a>", 4) != 0)
            return fail_at(in, s, "expected the project name and </a> after <a ...>");
        const char *a = s, *b = p;
        while (a < b && (space(*a) || *a == '\n'))
            a++;
        while (b > a && (space(b[-1]) || b[-1] == '\n'))
            b--;
        if (emit(in, a, a, (size_t)(b - a)) != 0)
            return -1;
        p += 4;
    }
    return 0;
}

/* ---- JSON, as a stream: the names at one place in the document ---- */

#define KEY_MAX 16

struct frame {
    bool object;
    char key[KEY_MAX]; /* this container's member name in its parent ("" in an array or at the top) */
    char member[KEY_MAX]; /* an object: the member being read */
};

struct json {
    struct in *in;
    int format;
    struct frame st[BW_PKG_JSON_DEPTH];
    int depth;
    bool saw_list; /* the array that holds the names was seen */
};

static void ws(struct json *j)
{
    struct in *in = j->in;
    while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' || *in->p == '\r' || *in->p == '\n')) {
        in->p++;
    }
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Reads a string at in->p (on its opening quote). Its ASCII decoding goes into out (cap bytes,
 * *n; *ascii false when it held anything else or did not fit). */
static int string(struct json *j, char *out, size_t cap, size_t *n, bool *ascii)
{
    struct in *in = j->in;
    const char *start = in->p++;
    *n = 0;
    *ascii = true;
    while (in->p < in->end) {
        unsigned char c = (unsigned char)*in->p;
        if (c == '"') {
            in->p++;
            return 0;
        }
        if (c < 0x20)
            return fail_at(in, in->p, "a control character in a string");
        int v = c;
        if (c == '\\') {
            if (in->end - in->p < 2)
                break;
            char e = in->p[1];
            static const char ESC[] = "\"\\/bfnrt", DECODED[] = "\"\\/\b\f\n\r\t";
            const char *esc = strchr(ESC, e);
            if (e == 'u') {
                if (in->end - in->p < 6)
                    break;
                v = 0;
                for (int i = 2; i < 6; i++) {
                    int h = hexval(in->p[i]);
                    if (h < 0)
                        return fail_at(in, in->p, "a \\u escape needs four hexadecimal digits");
                    v = v * 16 + h;
                }
                in->p += 6;
            } else if (e && esc) {
                v = DECODED[esc - ESC];
                in->p += 2;
            } else {
                return fail_at(in, in->p, "an unknown escape in a string");
            }
        } else {
            in->p++;
        }
        if (v >= 0x80 || *n + 1 >= cap)
            *ascii = false;
        else
            out[(*n)++] = (char)v;
    }
    return fail_at(in, start, "a string is not closed");
}

/* Skips a run of digits; whether there was one. */
static bool digits(struct in *in)
{
    const char *d = in->p;
    while (in->p < in->end && *in->p >= '0' && *in->p <= '9')
        in->p++;
    return in->p > d;
}

static int literal(struct json *j)
{
    struct in *in = j->in;
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(words[i]);
        if ((size_t)(in->end - in->p) >= l && memcmp(in->p, words[i], l) == 0) {
            in->p += l;
            return 0;
        }
    }
    /* a number: -?digits(.digits)?([eE][+-]?digits)? */
    const char *s = in->p;
    if (in->p < in->end && *in->p == '-')
        in->p++;
    if (!digits(in))
        return fail_at(in, s, "expected a value");
    if (in->p < in->end && *in->p == '.') {
        in->p++;
        if (!digits(in))
            return fail_at(in, s, "a number needs digits after its '.'");
    }
    if (in->p < in->end && (*in->p == 'e' || *in->p == 'E')) {
        in->p++;
        if (in->p < in->end && (*in->p == '+' || *in->p == '-'))
            in->p++;
        if (!digits(in))
            return fail_at(in, s, "a number needs digits in its exponent");
    }
    return 0;
}

/* Whether a string value read now is a name: npm-names, an element of the top array;
 * npm-all-docs, the "id" of an object in the top object's "rows"; pypi-simple-json, the "name"
 * of an object in the top object's "projects". */
static bool at_name(const struct json *j)
{
    if (j->format == BW_PKGF_NPM_NAMES)
        return j->depth == 1 && !j->st[0].object;
    const char *list = j->format == BW_PKGF_NPM_ALL_DOCS ? "rows" : "projects";
    const char *field = j->format == BW_PKGF_NPM_ALL_DOCS ? "id" : "name";
    return j->depth == 3 && j->st[0].object && !j->st[1].object && strcmp(j->st[1].key, list) == 0 &&
           j->st[2].object && strcmp(j->st[2].member, field) == 0;
}

static int value(struct json *j);

static int push(struct json *j, bool object)
{
    struct in *in = j->in;
    if (j->depth == BW_PKG_JSON_DEPTH)
        return fail_at(in, in->p, "nested deeper than %d levels", BW_PKG_JSON_DEPTH);
    struct frame *f = &j->st[j->depth];
    memset(f, 0, sizeof *f);
    f->object = object;
    if (j->depth > 0 && j->st[j->depth - 1].object)
        memcpy(f->key, j->st[j->depth - 1].member, KEY_MAX);
    j->depth++;
    if (!object && ((j->format == BW_PKGF_NPM_NAMES && j->depth == 1) ||
                    (j->format != BW_PKGF_NPM_NAMES && j->depth == 2 && j->st[0].object &&
                     strcmp(f->key, j->format == BW_PKGF_NPM_ALL_DOCS ? "rows" : "projects") == 0)))
        j->saw_list = true;
    in->p++;
    return 0;
}

/* A container's members or elements after its opening bracket, up to and past its closing one.
 * Iterative over siblings; recursion only into nested containers (bounded by the depth). */
static int container(struct json *j)
{
    struct in *in = j->in;
    struct frame *f = &j->st[j->depth - 1];
    char close = f->object ? '}' : ']';
    ws(j);
    if (in->p < in->end && *in->p == close) {
        in->p++;
        j->depth--;
        return 0;
    }
    for (;;) {
        ws(j);
        if (f->object) {
            if (in->p >= in->end || *in->p != '"')
                return fail_at(in, in->p, "expected a member name in quotes");
            char key[KEY_MAX];
            size_t n;
            bool ascii;
            if (string(j, key, sizeof key, &n, &ascii) != 0)
                return -1;
            key[n] = '\0';
            snprintf(f->member, sizeof f->member, "%s", ascii ? key : "");
            ws(j);
            if (in->p >= in->end || *in->p != ':')
                return fail_at(in, in->p, "expected ':' after a member name");
            in->p++;
            ws(j);
        }
        if (value(j) != 0)
            return -1;
        ws(j);
        if (in->p < in->end && *in->p == ',') {
            in->p++;
            continue;
        }
        if (in->p < in->end && *in->p == close) {
            in->p++;
            j->depth--;
            return 0;
        }
        return fail_at(in, in->p, "expected ',' or '%c'", close);
    }
}

static int value(struct json *j)
{
    struct in *in = j->in;
    if (in->p >= in->end)
        return fail_at(in, in->p, "the document ends early");
    if (*in->p == '{' || *in->p == '[')
        return push(j, *in->p == '{') != 0 ? -1 : container(j);
    if (*in->p != '"')
        return literal(j);
    const char *at = in->p + 1;
    char s[BW_PKG_NAME_MAX + 2];
    size_t n;
    bool ascii;
    if (string(j, s, sizeof s, &n, &ascii) != 0)
        return -1;
    if (!at_name(j))
        return 0;
    /* CouchDB's listing has rows that are no package: the empty id and design documents */
    if (j->format == BW_PKGF_NPM_ALL_DOCS && ascii && (n == 0 || (n > 8 && memcmp(s, "_design/", 8) == 0)))
        return 0;
    if (!ascii)
        return fail_at(in, at, "a name that is not %s package name (non-ASCII or longer than %d bytes)",
                       in->eco == BW_PKG_PYPI ? "a PyPI" : "an npm", BW_PKG_NAME_MAX);
    return emit(in, at, s, n);
}

static int parse_json(struct in *in, int format)
{
    struct json j = {.in = in, .format = format};
    ws(&j);
    if (in->p >= in->end || *in->p != (format == BW_PKGF_NPM_NAMES ? '[' : '{'))
        return fail_at(in, in->p, "expected %s", format == BW_PKGF_NPM_NAMES ? "a JSON array of names" : "a JSON object");
    if (value(&j) != 0)
        return -1;
    ws(&j);
    if (in->p < in->end)
        return fail_at(in, in->p, "unexpected text after the JSON document");
    if (!j.saw_list)
        return fail_at(in, in->p, "no \"%s\" array in the document",
                       format == BW_PKGF_NPM_ALL_DOCS ? "rows" : format == BW_PKGF_SIMPLE_JSON ? "projects" : "names");
    return 0;
}

int bw_pkg_format_detect(const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    while (p < end && (space(*p) || *p == '\n'))
        p++;
    if (p == end)
        return BW_PKGF_LINES;
    if (*p == '[')
        return BW_PKGF_NPM_NAMES;
    if (*p == '<')
        return BW_PKGF_SIMPLE_HTML;
    if (*p != '{')
        return BW_PKGF_LINES;
    /* the first of the members that tell them apart (a member name is a quoted word; a value
     * that happens to be "rows" is no member, but neither form has one before its list) */
    for (const char *q = p; q + 6 <= end; q++) {
        if (memcmp(q, "\"rows\"", 6) == 0)
            return BW_PKGF_NPM_ALL_DOCS;
        if (q + 10 <= end && memcmp(q, "\"projects\"", 10) == 0)
            return BW_PKGF_SIMPLE_JSON;
    }
    return BW_PKGF_SIMPLE_JSON; /* which then says it has no "projects" */
}

int bw_pkg_parse(int eco, int format, const char *buf, size_t len, bw_pkg_name_fn fn, void *arg, int *used,
                 struct bw_pkg_reject *rej)
{
    memset(rej, 0, sizeof *rej);
    struct in in = {.buf = buf, .p = buf, .end = buf + len, .eco = eco, .fn = fn, .arg = arg, .rej = rej};
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        in.p += 3;
    if (format == BW_PKGF_AUTO)
        format = bw_pkg_format_detect(buf, len);
    if (used)
        *used = format;
    if (!bw_pkg_eco_name(eco) || format <= BW_PKGF_AUTO || format >= BW_PKGF_COUNT) {
        snprintf(rej->msg, sizeof rej->msg, "unknown ecosystem or format");
        return -1;
    }
    if (memchr(buf, '\0', len))
        return fail_at(&in, memchr(buf, '\0', len), "a NUL byte: not a text file");
    int rc = format == BW_PKGF_LINES         ? parse_lines(&in)
             : format == BW_PKGF_SIMPLE_HTML ? parse_html(&in)
                                             : parse_json(&in, format);
    if (rc == 0 && in.names == 0) {
        rej->line = 1;
        rej->column = 1;
        snprintf(rej->msg, sizeof rej->msg, "no package names in the file (read as %s)", bw_pkg_format_name(format));
        return -1;
    }
    return rc;
}
