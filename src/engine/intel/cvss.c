/* CVSS v3 base score: the equations of the CVSS v3.1 specification (section 7.1), with the
 * v3.0 or v3.1 rounding rule as the vector's version asks. */
#include "engine/intel/cvss.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* v3.1 Roundup: the smallest one-decimal number >= x, computed on integers so that 4.000000001
 * floating-point noise does not round up to 4.1 */
static double roundup31(double x)
{
    long long i = llround(x * 100000.0);
    if (i % 10000 == 0)
        return (double)i / 100000.0;
    return (double)(i / 10000 + 1) / 10.0;
}

static double roundup30(double x) { return ceil(x * 10.0) / 10.0; }

int bw_cvss_parse(const char *v, struct bw_cvss *out)
{
    static const char metrics[] = "AV,AC,PR,UI,S,C,I,A";
    char val[8] = {0}; /* one letter per base metric, in the order above */
    const char *ver;
    if (strncmp(v, "CVSS:3.1/", 9) == 0)
        ver = "3.1";
    else if (strncmp(v, "CVSS:3.0/", 9) == 0)
        ver = "3.0";
    else
        return -1;
    const char *p = v + 9;
    int seen = 0;
    while (*p) {
        const char *colon = strchr(p, ':');
        if (!colon)
            return -1;
        size_t klen = (size_t)(colon - p);
        const char *slash = strchr(colon + 1, '/');
        size_t vlen = slash ? (size_t)(slash - colon - 1) : strlen(colon + 1);
        int idx = -1, i = 0;
        for (const char *m = metrics; *m; i++) {
            size_t ml = strcspn(m, ",");
            if (ml == klen && strncmp(m, p, klen) == 0)
                idx = i;
            m += ml + (m[ml] == ',');
        }
        if (idx >= 0) {
            if (vlen != 1 || val[idx])
                return -1;
            val[idx] = colon[1];
            seen++;
        } else if (klen == 0 || vlen == 0 || strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != klen) {
            return -1; /* temporal and environmental metrics pass; nothing malformed does */
        }
        p = slash ? slash + 1 : colon + 1 + vlen;
    }
    if (seen != 8)
        return -1;
    double av, ac, pr, ui, cia[3];
    switch (val[0]) {
    case 'N': av = 0.85; break;
    case 'A': av = 0.62; break;
    case 'L': av = 0.55; break;
    case 'P': av = 0.2; break;
    default: return -1;
    }
    switch (val[1]) {
    case 'L': ac = 0.77; break;
    case 'H': ac = 0.44; break;
    default: return -1;
    }
    if (val[4] != 'U' && val[4] != 'C')
        return -1;
    bool changed = val[4] == 'C';
    switch (val[2]) {
    case 'N': pr = 0.85; break;
    case 'L': pr = changed ? 0.68 : 0.62; break;
    case 'H': pr = changed ? 0.5 : 0.27; break;
    default: return -1;
    }
    switch (val[3]) {
    case 'N': ui = 0.85; break;
    case 'R': ui = 0.62; break;
    default: return -1;
    }
    for (int k = 0; k < 3; k++) {
        switch (val[5 + k]) {
        case 'H': cia[k] = 0.56; break;
        case 'L': cia[k] = 0.22; break;
        case 'N': cia[k] = 0.0; break;
        default: return -1;
        }
    }
    double iss = 1.0 - (1.0 - cia[0]) * (1.0 - cia[1]) * (1.0 - cia[2]);
    double impact = changed ? 7.52 * (iss - 0.029) - 3.25 * pow(iss - 0.02, 15) : 6.42 * iss;
    double expl = 8.22 * av * ac * pr * ui;
    double (*roundup)(double) = ver[2] == '1' ? roundup31 : roundup30;
    double score = 0.0;
    if (impact > 0)
        score = roundup(fmin(changed ? 1.08 * (impact + expl) : impact + expl, 10.0));
    snprintf(out->version, sizeof out->version, "%s", ver);
    out->base_score = score;
    out->av = val[0];
    return 0;
}

const char *bw_cvss_severity(double s)
{
    return s >= 9.0 ? "CRITICAL" : s >= 7.0 ? "HIGH" : s >= 4.0 ? "MEDIUM" : "LOW";
}
