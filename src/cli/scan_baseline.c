/* Fingerprints and baselines. A fingerprint is a hash of the rule id, the file's path (relative
 * to the report root), the snippet without whitespace, and the occurrence index among the file's
 * findings of that rule with that snippet: lines may move and be reindented, and two identical
 * findings in a file stay two. Renamed or split rules keep their old ids as aliases
 * (data/scan/rule_aliases.json), so a baseline written before the rename still matches. */
#include "cli/scan.h"
#include "cli/cli.h"
#include "common/limits.h"

#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bw_fp_normalise(const char *snippet, char *out, size_t outlen)
{
    size_t o = 0;
    for (const char *p = snippet; *p && o + 1 < outlen; p++)
        if (!isspace((unsigned char)*p))
            out[o++] = *p;
    out[o] = '\0';
}

void bw_fp_make(const char *rule, const char *path, const char *snippet, unsigned occ, char out[48])
{
    char norm[256];
    bw_fp_normalise(snippet, norm, sizeof norm);
    crypto_generichash_state st;
    unsigned char h[8];
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)rule, strlen(rule) + 1);
    crypto_generichash_update(&st, (const unsigned char *)path, strlen(path) + 1);
    crypto_generichash_update(&st, (const unsigned char *)norm, strlen(norm));
    crypto_generichash_final(&st, h, sizeof h);
    char hex[17];
    sodium_bin2hex(hex, sizeof hex, h, sizeof h);
    snprintf(out, 48, "%s:%u", hex, occ);
}

struct bw_aliases {
    json_t *by_new; /* {new id: [old id, ...]} */
    const char **tmp;
    size_t ntmp;
};

struct bw_aliases *bw_aliases_parse(const char *text, size_t len, char *err, size_t errlen)
{
    json_error_t je;
    json_t *doc = json_loadb(text, len, 0, &je), *list = json_object_get(doc, "aliases"), *e;
    struct bw_aliases *a = calloc(1, sizeof *a);
    if (!a || !(a->by_new = json_object()) || !json_is_array(list)) {
        snprintf(err, errlen, "rule aliases: %s", doc ? "no aliases list" : je.text);
        goto fail;
    }
    size_t i;
    json_array_foreach(list, i, e) {
        const char *old = json_string_value(json_object_get(e, "old"));
        json_t *news = json_object_get(e, "new"), *n;
        size_t k;
        if (!old || !json_is_array(news) || json_array_size(news) == 0) {
            snprintf(err, errlen, "rule aliases: entry %zu needs old (an id) and new (a list of ids)", i);
            goto fail;
        }
        json_array_foreach(news, k, n) {
            const char *id = json_string_value(n);
            if (!id) {
                snprintf(err, errlen, "rule aliases: entry %zu: new holds a non-string", i);
                goto fail;
            }
            json_t *olds = json_object_get(a->by_new, id);
            if (!olds && json_object_set_new(a->by_new, id, olds = json_array()) != 0)
                goto fail;
            json_array_append_new(olds, json_string(old));
        }
    }
    json_decref(doc);
    return a;
fail:
    json_decref(doc);
    bw_aliases_free(a);
    return NULL;
}

const char *const *bw_aliases_of(const struct bw_aliases *ca, const char *id, size_t *n)
{
    struct bw_aliases *a = (struct bw_aliases *)ca; /* the scratch list is the table's own */
    json_t *olds = a ? json_object_get(a->by_new, id) : NULL;
    *n = 0;
    if (!olds)
        return NULL;
    size_t m = json_array_size(olds);
    const char **t = realloc(a->tmp, m * sizeof *t);
    if (!t)
        return NULL;
    a->tmp = t;
    for (size_t i = 0; i < m; i++)
        t[i] = json_string_value(json_array_get(olds, i));
    *n = m;
    return t;
}

void bw_aliases_free(struct bw_aliases *a)
{
    if (!a)
        return;
    json_decref(a->by_new);
    free(a->tmp);
    free(a);
}

int bw_baseline_load(const char *path, struct bw_baseline *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    char *text = NULL, why[128];
    size_t len = 0;
    if (bw_cli_read_file(path, BW_CLI_SCAN_MAX_BASELINE_BYTES, &text, &len, why, sizeof why) != BW_READ_OK) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    json_error_t je;
    json_t *doc = json_loadb(text, len, 0, &je);
    free(text);
    if (!doc) {
        snprintf(err, errlen, "%s: not JSON (line %d: %s)", path, je.line, je.text);
        return -1;
    }
    b->fps = json_object();
    b->seen = json_object();
    json_t *runs = json_object_get(doc, "runs"), *findings = json_object_get(doc, "findings"), *e;
    size_t i;
    if (json_is_array(runs)) { /* SARIF: results' partialFingerprints */
        b->sarif = true;
        json_array_foreach(json_object_get(json_array_get(runs, 0), "results"), i, e) {
            const char *fp = json_string_value(json_object_get(json_object_get(e, "partialFingerprints"), "bulwark/v1"));
            const char *st = json_string_value(json_object_get(e, "baselineState"));
            if (fp && !(st && strcmp(st, "absent") == 0))
                json_object_set(b->fps, fp, e);
        }
    } else if (json_is_array(findings)) {
        json_array_foreach(findings, i, e) {
            const char *fp = json_string_value(json_object_get(e, "fingerprint"));
            if (fp)
                json_object_set(b->fps, fp, e);
        }
    } else {
        snprintf(err, errlen, "%s: neither a bulwark JSON report (findings) nor SARIF (runs)", path);
        json_decref(doc);
        bw_baseline_free(b);
        return -1;
    }
    json_decref(doc);
    return 0;
}

bool bw_baseline_has(struct bw_baseline *b, const struct bw_aliases *a, const char *rule, const char *path,
                     const char *snippet, unsigned occ)
{
    char fp[48];
    bw_fp_make(rule, path, snippet, occ, fp);
    if (json_object_get(b->fps, fp))
        return json_object_set_new(b->seen, fp, json_true()), true;
    size_t n;
    const char *const *olds = bw_aliases_of(a, rule, &n);
    for (size_t i = 0; i < n; i++) {
        bw_fp_make(olds[i], path, snippet, occ, fp);
        if (json_object_get(b->fps, fp))
            return json_object_set_new(b->seen, fp, json_true()), true;
    }
    return false;
}

void bw_baseline_free(struct bw_baseline *b)
{
    json_decref(b->fps);
    json_decref(b->seen);
    b->fps = b->seen = NULL;
}
