/* The EPSS CSV and the records' EPSS members (epss.h). */
#include "engine/intel/epss.h"

#include "common/limits.h"
#include "common/vec.h"
#include "engine/intel/ids.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t bw_epss_decimal(const char *s, size_t len)
{
    if (len == 0 || len > 64)
        return -1;
    /* digits (with the point skipped) and where the point falls among them */
    char d[64];
    size_t nd = 0, i = 0;
    long point = -1;
    for (; i < len && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++) {
        if (s[i] == '.') {
            if (point >= 0)
                return -1;
            point = (long)nd;
        } else {
            d[nd++] = s[i];
        }
    }
    if (nd == 0)
        return -1;
    if (point < 0)
        point = (long)nd;
    if (i < len) { /* an exponent: e or E, a sign, one to three digits */
        if (s[i] != 'e' && s[i] != 'E')
            return -1;
        i++;
        int sign = 1;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            sign = s[i++] == '-' ? -1 : 1;
        long e = 0;
        size_t start = i;
        for (; i < len && s[i] >= '0' && s[i] <= '9' && i - start < 3; i++)
            e = e * 10 + (s[i] - '0');
        if (i == start || i != len)
            return -1;
        point += sign * e;
    }
    /* digit k stands for d[k] x 10^(point - 1 - k); in parts per billion, 10^(point + 8 - k) */
    int64_t v = 0;
    bool beyond = false, rounded = false; /* a non-zero digit past the ninth decimal; rounded up */
    for (size_t k = 0; k < nd; k++) {
        long p = point + 8 - (long)k;
        int digit = d[k] - '0';
        if (p > 9) {
            if (digit)
                return -1; /* 10 or more */
        } else if (p >= 0) {
            int64_t m = 1;
            for (long j = 0; j < p; j++)
                m *= 10;
            v += digit * m;
        } else {
            if (p == -1 && digit >= 5)
                v++, rounded = true;
            for (size_t j = k; j < nd; j++)
                beyond |= d[j] != '0';
            break;
        }
    }
    /* exactly 1 after rounding is only 1 when nothing but zeros followed (1.0000000001 is more) */
    if (v > BW_EPSS_ONE || (v == BW_EPSS_ONE && beyond && !rounded))
        return -1;
    return v;
}

/* ---- the CSV ----------------------------------------------------------------------------------- */

struct cursor {
    const char *p, *end;
    int line;
    struct bw_intel_reject *rej;
};

static int fail(struct cursor *c, const char *col_at, const char *line_start, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(struct cursor *c, const char *col_at, const char *line_start, const char *fmt, ...)
{
    c->rej->at.line = c->line;
    c->rej->at.column = col_at && line_start ? (int)(col_at - line_start) + 1 : 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->rej->msg, sizeof c->rej->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* The next line without its CR LF / LF; false at the end of the buffer. */
static bool next_line(struct cursor *c, const char **s, size_t *n)
{
    if (c->p >= c->end)
        return false;
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    const char *e = nl ? nl : c->end;
    *s = c->p;
    *n = (size_t)(e - c->p);
    if (*n && (*s)[*n - 1] == '\r')
        (*n)--;
    c->p = nl ? nl + 1 : c->end;
    c->line++;
    return true;
}

/* The comment line's score_date and model_version. */
static int comment(struct cursor *c, const char *s, size_t n, struct bw_epss_file *f)
{
    const char *line = s, *end = s + n;
    if (n == 0 || s[0] != '#')
        return fail(c, s, line, "the first line must be the #model_version:...,score_date:... comment");
    s++;
    bool have_date = false;
    while (s < end) {
        const char *comma = memchr(s, ',', (size_t)(end - s));
        const char *fe = comma ? comma : end;
        const char *colon = memchr(s, ':', (size_t)(fe - s));
        if (!colon)
            return fail(c, s, line, "expected key:value in the comment line");
        size_t kl = (size_t)(colon - s), vl = (size_t)(fe - colon - 1);
        const char *v = colon + 1;
        if (kl == 10 && memcmp(s, "score_date", 10) == 0) {
            /* YYYY-MM-DD, alone or followed by a time (T...) */
            char day[11], iso[21];
            if (vl < 10 || (vl > 10 && v[10] != 'T'))
                return fail(c, v, line, "score_date must be a date (YYYY-MM-DD[THH:MM:SS...])");
            memcpy(day, v, 10);
            day[10] = '\0';
            if (bw_intel_date(day, iso) != 0)
                return fail(c, v, line, "score_date is not a valid date");
            memcpy(f->date, day, sizeof f->date);
            have_date = true;
        } else if (kl == 13 && memcmp(s, "model_version", 13) == 0) {
            if (vl == 0 || vl >= sizeof f->model_version)
                return fail(c, v, line, "model_version must be 1 to 63 characters");
            for (size_t i = 0; i < vl; i++)
                if (v[i] < 0x21 || v[i] > 0x7e)
                    return fail(c, v + i, line, "model_version must be printable ASCII");
            memcpy(f->model_version, v, vl);
            f->model_version[vl] = '\0';
        }
        s = comma ? comma + 1 : end;
    }
    return have_date ? 0 : fail(c, line, line, "the comment line has no score_date");
}

static int cmp_row(const void *a, const void *b)
{
    return strcmp(((const struct bw_epss_row *)a)->cve, ((const struct bw_epss_row *)b)->cve);
}

/* One score row into r. */
static int row(struct cursor *c, const char *s, size_t n, struct bw_epss_row *r)
{
    const char *line = s, *end = s + n, *f[3];
    size_t fl[3];
    const char *p = s;
    for (int k = 0; k < 3; k++) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        if (k < 2 && !comma)
            return fail(c, end, line, "expected 3 columns: cve,epss,percentile");
        if (k == 2 && comma)
            return fail(c, comma, line, "more than 3 columns");
        f[k] = p;
        fl[k] = (size_t)((comma ? comma : end) - p);
        p = comma ? comma + 1 : end;
    }
    if (fl[0] >= sizeof r->cve)
        return fail(c, f[0], line, "not a CVE id");
    memcpy(r->cve, f[0], fl[0]);
    r->cve[fl[0]] = '\0';
    if (!bw_cve_shape(r->cve, BW_INTEL_CVE_SEQ_IMPORT))
        return fail(c, f[0], line, "not a CVE id (CVE-YYYY-NNNN)");
    if ((r->score = bw_epss_decimal(f[1], fl[1])) < 0)
        return fail(c, f[1], line, "epss must be a decimal from 0 to 1");
    if ((r->percentile = bw_epss_decimal(f[2], fl[2])) < 0)
        return fail(c, f[2], line, "percentile must be a decimal from 0 to 1");
    return 0;
}

int bw_epss_parse(const char *buf, size_t len, struct bw_epss_file *out, struct bw_intel_reject *rej)
{
    memset(out, 0, sizeof *out);
    struct cursor c = {buf, buf + len, 0, rej};
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        c.p += 3;
    if (memchr(buf, '\0', len))
        return fail(&c, NULL, NULL, "the file holds a NUL byte: not a CSV text");
    const char *s;
    size_t n;
    if (!next_line(&c, &s, &n))
        return fail(&c, NULL, NULL, "empty file");
    if (comment(&c, s, n, out) != 0)
        return -1;
    if (!next_line(&c, &s, &n) || n != 19 || memcmp(s, "cve,epss,percentile", 19) != 0)
        return fail(&c, NULL, NULL, "the second line must be the header cve,epss,percentile");
    size_t cap = 0;
    while (next_line(&c, &s, &n)) {
        if (n == 0 && c.p >= c.end)
            break; /* the final newline's empty line */
        if (n == 0) {
            bw_epss_free(out);
            return fail(&c, s, s, "empty line");
        }
        if (out->n == BW_INTEL_EPSS_MAX_ROWS) {
            bw_epss_free(out);
            return fail(&c, s, s, "more than %d score rows", BW_INTEL_EPSS_MAX_ROWS);
        }
        if (!BW_VEC_RESERVE(out->rows, cap, out->n + 1, BW_INTEL_EPSS_MAX_ROWS)) {
            bw_epss_free(out);
            return fail(&c, s, s, "out of memory");
        }
        out->rows[out->n].line = c.line;
        if (row(&c, s, n, &out->rows[out->n]) != 0) {
            bw_epss_free(out);
            return -1;
        }
        out->n++;
    }
    if (out->n > 1)
        qsort(out->rows, out->n, sizeof *out->rows, cmp_row);
    for (size_t i = 1; i < out->n; i++)
        if (strcmp(out->rows[i - 1].cve, out->rows[i].cve) == 0) {
            char cve[32];
            int a = out->rows[i - 1].line, b = out->rows[i].line;
            memcpy(cve, out->rows[i].cve, sizeof cve);
            bw_epss_free(out);
            c.line = a > b ? a : b;
            return fail(&c, NULL, NULL, "%s is scored twice (lines %d and %d)", cve, a < b ? a : b, c.line);
        }
    return 0;
}

void bw_epss_free(struct bw_epss_file *f)
{
    free(f->rows);
    memset(f, 0, sizeof *f);
}

/* ---- record members ---------------------------------------------------------------------------- */

static json_t *score_json(const char *date, int64_t score, int64_t percentile)
{
    return json_pack("{s:s,s:f,s:f}", "date", date, "score", (double)score / (double)BW_EPSS_ONE, "percentile",
                     (double)percentile / (double)BW_EPSS_ONE);
}

static int64_t ppb(const json_t *v)
{
    if (!json_is_number(v))
        return -1;
    double d = json_number_value(v) * (double)BW_EPSS_ONE;
    if (!(d >= 0 && d <= (double)BW_EPSS_ONE))
        return -1;
    return (int64_t)(d + 0.5);
}

int64_t bw_epss_of(const json_t *record)
{
    return ppb(json_object_get(json_object_get(record, "epss"), "score"));
}

int bw_epss_apply(json_t *record, const char *date, int64_t score, int64_t percentile)
{
    json_t *hist = json_object_get(record, "epss_history");
    if (!json_is_array(hist)) {
        hist = json_array();
        if (!hist || json_object_set_new(record, "epss_history", hist) != 0)
            return -1;
    }
    size_t i, at = json_array_size(hist);
    json_t *e;
    json_array_foreach(hist, i, e) {
        const char *d = json_string_value(json_object_get(e, "date"));
        int c = d ? strcmp(date, d) : 1;
        if (c == 0) {
            if (ppb(json_object_get(e, "score")) == score && ppb(json_object_get(e, "percentile")) == percentile)
                return 0;
            json_array_remove(hist, i);
            at = i;
            break;
        }
        if (c > 0) { /* newer than this one: goes before it */
            at = i;
            break;
        }
    }
    if (at >= BW_INTEL_EPSS_HISTORY_MAX)
        return 0; /* older than everything a full history keeps */
    json_t *s = score_json(date, score, percentile);
    if (!s || json_array_insert_new(hist, at, s) != 0)
        return -1;
    while (json_array_size(hist) > BW_INTEL_EPSS_HISTORY_MAX)
        json_array_remove(hist, json_array_size(hist) - 1);
    json_t *cur = json_deep_copy(json_array_get(hist, 0));
    return cur && json_object_set_new(record, "epss", cur) == 0 ? 1 : -1;
}
