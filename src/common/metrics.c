#include "common/metrics.h"

static const char *const STATUS_LABEL[BW_METRICS_NSTATUS] = {
    "other", "200", "201", "202", "204", "400", "401", "403",
    "404",   "405", "409", "413", "415", "429", "500", "501", "503", "431", "422",
};

unsigned bw_metrics_status_index(unsigned status)
{
    switch (status) {
    case 200: return 1;
    case 201: return 2;
    case 202: return 3;
    case 204: return 4;
    case 400: return 5;
    case 401: return 6;
    case 403: return 7;
    case 404: return 8;
    case 405: return 9;
    case 409: return 10;
    case 413: return 11;
    case 415: return 12;
    case 429: return 13;
    case 500: return 14;
    case 501: return 15;
    case 503: return 16;
    case 431: return 17; /* appended: the indexes of the others stay */
    case 422: return 18; /* the BOM's RESULT_TOO_LARGE */
    default: return 0;
    }
}

const char *bw_metrics_status_label(unsigned idx)
{
    return idx < BW_METRICS_NSTATUS ? STATUS_LABEL[idx] : STATUS_LABEL[0];
}

/* 0.5 ms to 10 s: API answers sit in the first few, scans and logins (argon2id) in the middle,
 * outbound probes at the end. */
static const uint64_t BUCKET_US[BW_METRICS_NBUCKETS] = {
    500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000, 1000000, 2500000, 5000000, 10000000,
};
static const char *const BUCKET_LE[BW_METRICS_NBUCKETS + 1] = {
    "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1",
    "0.25",   "0.5",   "1",      "2.5",   "5",    "10",    "+Inf",
};

uint64_t bw_metrics_bucket_us(unsigned i) { return i < BW_METRICS_NBUCKETS ? BUCKET_US[i] : UINT64_MAX; }

const char *bw_metrics_bucket_le(unsigned i)
{
    return i < BW_METRICS_NBUCKETS ? BUCKET_LE[i] : BUCKET_LE[BW_METRICS_NBUCKETS];
}

unsigned bw_metrics_bucket_index(uint64_t us)
{
    unsigned i = 0;
    while (i < BW_METRICS_NBUCKETS && us > BUCKET_US[i])
        i++;
    return i;
}

/* HELP text: backslash and line feed escaped. */
static void help_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\\\", f);
        else if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
}

void bw_prom_family(FILE *f, const char *name, const char *type, const char *help)
{
    fprintf(f, "# HELP %s ", name);
    help_text(f, help);
    fprintf(f, "\n# TYPE %s %s\n", name, type);
}

void bw_prom_label_value(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\\')
            fputs("\\\\", f);
        else if (*s == '"')
            fputs("\\\"", f);
        else if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
}

static void series(FILE *f, const char *name, const struct bw_prom_labels *l)
{
    fputs(name, f);
    if (!l || l->n == 0)
        return;
    fputc('{', f);
    for (unsigned i = 0; i < l->n && i < BW_PROM_MAX_LABELS; i++) {
        fprintf(f, "%s%s=\"", i ? "," : "", l->name[i]);
        bw_prom_label_value(f, l->value[i]);
        fputc('"', f);
    }
    fputc('}', f);
}

void bw_prom_sample_u(FILE *f, const char *name, const struct bw_prom_labels *labels, unsigned long long v)
{
    series(f, name, labels);
    fprintf(f, " %llu\n", v);
}

void bw_prom_sample_d(FILE *f, const char *name, const struct bw_prom_labels *labels, double v)
{
    series(f, name, labels);
    fprintf(f, " %.6f\n", v);
}
