/* .bulwark.yml: the scan's options plus rule selection, per-path overrides and severity
 * overrides, read with libyaml's document API so every error names its key and line. The
 * strings point into the parsed document, which the config keeps until it is freed. */
#include "cli/scan.h"
#include "common/limits.h"
#include "common/vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

struct ctx {
    yaml_document_t *doc;
    const char *name;
    char *err;
    size_t errlen;
    struct bw_scan_config *c;
};

__attribute__((format(printf, 4, 5))) static int fail(struct ctx *x, const yaml_node_t *n, const char *key,
                                                      const char *fmt, ...)
{
    int w = snprintf(x->err, x->errlen, "%s:%zu: %s: ", x->name, n ? n->start_mark.line + 1 : 1, key);
    if (w >= 0 && (size_t)w < x->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(x->err + w, x->errlen - (size_t)w, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A key given twice in one mapping is refused: YAML leaves it to the application, and for a
 * config file a repeated key is a mistake whose later value would silently win. Mappings are
 * bounded by BW_CLI_SCAN_MAX_CONFIG_ITEMS, so the quadratic check stays small. */
static int unique_keys(struct ctx *x, const yaml_node_t *n)
{
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(x->doc, p->key);
        const char *ks = scalar(k);
        for (yaml_node_pair_t *q = n->data.mapping.pairs.start; ks && q < p; q++) {
            const char *qs = scalar(yaml_document_get_node(x->doc, q->key));
            if (qs && strcmp(qs, ks) == 0)
                return fail(x, k, ks, "given twice in this mapping");
        }
    }
    return 0;
}

static int str_value(struct ctx *x, const yaml_node_t *n, const char *key, const char **out)
{
    if (!(*out = scalar(n)))
        return fail(x, n, key, "expected a string");
    return 0;
}

static int note_id(struct ctx *x, const char *id, const yaml_node_t *n)
{
    struct bw_scan_config *c = x->c;
    if (c->nids >= BW_CLI_SCAN_MAX_CONFIG_ITEMS)
        return fail(x, n, "rules", "more than %d rule ids", BW_CLI_SCAN_MAX_CONFIG_ITEMS);
    if (!BW_VEC_RESERVE(c->ids, c->ids_cap, c->nids + 1, BW_CLI_SCAN_MAX_CONFIG_ITEMS) ||
        !BW_VEC_RESERVE(c->id_lines, c->id_lines_cap, c->nids + 1, BW_CLI_SCAN_MAX_CONFIG_ITEMS))
        return fail(x, n, "rules", "out of memory");
    c->ids[c->nids] = (char *)id;
    c->id_lines[c->nids++] = (unsigned)n->start_mark.line + 1;
    return 0;
}

/* A list of strings (a lone string counts as a list of one). ids: they are rule ids. */
static int str_list(struct ctx *x, yaml_node_t *n, const char *key, char ***out, size_t *nout, bool ids)
{
    /* a key given twice: the later list wins (YAML mappings may repeat a key); its strings are the
     * document's, only the array is ours */
    free(*out);
    *out = NULL;
    *nout = 0;
    if (n->type == YAML_SCALAR_NODE) {
        if (!(*out = calloc(1, sizeof **out)))
            return fail(x, n, key, "out of memory");
        (*out)[0] = (char *)n->data.scalar.value;
        *nout = 1;
        return ids ? note_id(x, (*out)[0], n) : 0;
    }
    if (n->type != YAML_SEQUENCE_NODE)
        return fail(x, n, key, "expected a list of %s", ids ? "rule ids" : "strings");
    size_t m = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (m > BW_CLI_SCAN_MAX_CONFIG_ITEMS)
        return fail(x, n, key, "more than %d entries", BW_CLI_SCAN_MAX_CONFIG_ITEMS);
    if (!(*out = calloc(m + 1, sizeof **out)))
        return fail(x, n, key, "out of memory");
    *nout = 0;
    for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
        yaml_node_t *e = yaml_document_get_node(x->doc, *it);
        const char *s = scalar(e);
        if (!s || !*s)
            return fail(x, e ? e : n, key, "entry %zu: expected a %s", *nout + 1, ids ? "rule id" : "non-empty string");
        (*out)[(*nout)++] = (char *)s;
        if (ids && note_id(x, s, e) != 0)
            return -1;
    }
    return 0;
}

static int sev_map(struct ctx *x, yaml_node_t *n, const char *key, struct bw_scan_override *o)
{
    if (n->type != YAML_MAPPING_NODE)
        return fail(x, n, key, "expected a mapping of rule id to severity");
    size_t m = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    if (m > BW_CLI_SCAN_MAX_CONFIG_ITEMS)
        return fail(x, n, key, "more than %d entries", BW_CLI_SCAN_MAX_CONFIG_ITEMS);
    o->sev_rule = calloc(m + 1, sizeof *o->sev_rule);
    o->sev = calloc(m + 1, sizeof *o->sev);
    if (!o->sev_rule || !o->sev)
        return fail(x, n, key, "out of memory");
    if (unique_keys(x, n) != 0)
        return -1;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key), *v = yaml_document_get_node(x->doc, p->value);
        const char *id = scalar(k), *sv = scalar(v);
        if (!id)
            return fail(x, k ? k : n, key, "expected a rule id as key");
        int s = sv ? bw_sev_parse(sv) : 0;
        if (!s)
            return fail(x, v ? v : k, key, "%s: expected critical, high, medium or low, not '%s'", id, sv ? sv : "(not a string)");
        o->sev_rule[o->nsev] = (char *)id;
        o->sev[o->nsev++] = s;
        if (note_id(x, id, k) != 0)
            return -1;
    }
    return 0;
}

static bool one_of(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (strcasecmp(s, *set) == 0)
            return true;
    return false;
}

static const char *const FORMATS[] = {"text", "json", "sarif", "gitlab-sast", "junit", NULL};
static const char *const FAILS[] = {"critical", "high", "medium", "low", "none", NULL};
static const char *const CONTEXTS[] = {"production", "test", "tests", "testing", "example", "examples",
                                       "fixture", "fixtures", NULL};

static int rules_block(struct ctx *x, yaml_node_t *n)
{
    if (n->type != YAML_MAPPING_NODE)
        return fail(x, n, "rules", "expected a mapping (disable, enable_only, severity)");
    if (unique_keys(x, n) != 0)
        return -1;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key), *v = yaml_document_get_node(x->doc, p->value);
        const char *key = scalar(k);
        int rc;
        if (!key || !v)
            return fail(x, k, "rules", "expected a string key");
        if (strcmp(key, "disable") == 0)
            rc = str_list(x, v, "rules.disable", &x->c->base.disable, &x->c->base.ndisable, true);
        else if (strcmp(key, "enable_only") == 0)
            rc = str_list(x, v, "rules.enable_only", &x->c->enable_only, &x->c->nenable_only, true);
        else if (strcmp(key, "severity") == 0)
            rc = sev_map(x, v, "rules.severity", &x->c->base);
        else
            return fail(x, k, "rules", "unknown key '%s' (disable, enable_only, severity)", key);
        if (rc)
            return rc;
    }
    return 0;
}

static int override(struct ctx *x, yaml_node_t *n, struct bw_scan_override *o)
{
    o->line = (unsigned)n->start_mark.line + 1;
    if (n->type != YAML_MAPPING_NODE)
        return fail(x, n, "overrides", "each entry is a mapping (paths, disable, severity, context)");
    if (unique_keys(x, n) != 0)
        return -1;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key), *v = yaml_document_get_node(x->doc, p->value);
        const char *key = scalar(k);
        int rc = 0;
        if (!key || !v)
            return fail(x, k, "overrides", "expected a string key");
        if (strcmp(key, "paths") == 0)
            rc = str_list(x, v, "overrides.paths", &o->paths, &o->npaths, false);
        else if (strcmp(key, "disable") == 0)
            rc = str_list(x, v, "overrides.disable", &o->disable, &o->ndisable, true);
        else if (strcmp(key, "severity") == 0)
            rc = sev_map(x, v, "overrides.severity", o);
        else if (strcmp(key, "context") == 0) {
            rc = str_value(x, v, "overrides.context", &o->context);
            if (!rc && !one_of(o->context, CONTEXTS))
                rc = fail(x, v, "overrides.context", "expected production, test, example or fixture, not '%s'", o->context);
        } else
            return fail(x, k, "overrides", "unknown key '%s' (paths, disable, severity, context)", key);
        if (rc)
            return rc;
    }
    if (o->npaths == 0)
        return fail(x, n, "overrides", "an override needs paths");
    return 0;
}

static int top(struct ctx *x, yaml_node_t *root)
{
    struct bw_scan_config *c = x->c;
    if (root->type != YAML_MAPPING_NODE)
        return fail(x, root, "(top)", "expected a mapping of options");
    if (unique_keys(x, root) != 0)
        return -1;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(x->doc, p->key), *v = yaml_document_get_node(x->doc, p->value);
        const char *key = scalar(k);
        int rc = 0;
        if (!key || !v)
            return fail(x, k, "(top)", "expected a string key");
        if (strcmp(key, "format") == 0) {
            if (!(rc = str_value(x, v, key, &c->format)) && !one_of(c->format, FORMATS))
                rc = fail(x, v, key, "expected text, json, sarif, gitlab-sast or junit, not '%s'", c->format);
        } else if (strcmp(key, "fail-on") == 0 || strcmp(key, "fail_on") == 0) {
            if (!(rc = str_value(x, v, key, &c->fail_on)) && !one_of(c->fail_on, FAILS))
                rc = fail(x, v, key, "expected critical, high, medium, low or none, not '%s'", c->fail_on);
        } else if (strcmp(key, "context") == 0) {
            if (!(rc = str_value(x, v, key, &c->context)) && !one_of(c->context, CONTEXTS))
                rc = fail(x, v, key, "expected production, test, example or fixture, not '%s'", c->context);
        } else if (strcmp(key, "lang") == 0) {
            if (!(rc = str_value(x, v, key, &c->lang)) && bw_lang_parse(c->lang) < 0)
                rc = fail(x, v, key, "expected js, ts, py, go, java, php, rb, cs or rs, not '%s'", c->lang);
        } else if (strcmp(key, "baseline") == 0) {
            if (!(rc = str_value(x, v, key, &c->baseline)) && !*c->baseline)
                rc = fail(x, v, key, "expected a file name");
            c->baseline_line = (unsigned)v->start_mark.line + 1;
        } else if (strcmp(key, "sarif-root") == 0 || strcmp(key, "sarif_root") == 0) {
            if (!(rc = str_value(x, v, key, &c->sarif_root)) && !*c->sarif_root)
                rc = fail(x, v, key, "expected a folder name");
            c->sarif_root_line = (unsigned)v->start_mark.line + 1;
        } else if (strcmp(key, "ignore-vcs") == 0 || strcmp(key, "ignore_vcs") == 0) {
            const char *b = scalar(v);
            if (b && (strcmp(b, "true") == 0 || strcmp(b, "false") == 0))
                c->ignore_vcs = strcmp(b, "true") == 0;
            else
                rc = fail(x, v, key, "expected true or false");
        } else if (strcmp(key, "exclude") == 0) {
            rc = str_list(x, v, key, &c->exclude, &c->nexclude, false);
        } else if (strcmp(key, "rules") == 0) {
            rc = rules_block(x, v);
        } else if (strcmp(key, "overrides") == 0) {
            if (v->type != YAML_SEQUENCE_NODE)
                return fail(x, v, key, "expected a list of overrides");
            size_t m = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
            if (m > BW_CLI_SCAN_MAX_CONFIG_ITEMS)
                return fail(x, v, key, "more than %d overrides", BW_CLI_SCAN_MAX_CONFIG_ITEMS);
            if (!(c->ov = calloc(m + 1, sizeof *c->ov)))
                return fail(x, v, key, "out of memory");
            for (yaml_node_item_t *it = v->data.sequence.items.start; !rc && it < v->data.sequence.items.top; it++) {
                yaml_node_t *e = yaml_document_get_node(x->doc, *it);
                rc = e ? override(x, e, &c->ov[c->nov++]) : fail(x, v, key, "a missing entry");
            }
        } else {
            return fail(x, k, key, "unknown key (format, fail-on, context, lang, baseline, sarif-root, ignore-vcs, "
                                   "exclude, rules, overrides)");
        }
        if (rc)
            return rc;
    }
    return 0;
}

int bw_scan_config_parse(const char *name, const char *text, size_t len, struct bw_scan_config *c, char *err,
                         size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->ignore_vcs = -1;
    yaml_parser_t p;
    yaml_document_t *doc = calloc(1, sizeof *doc);
    if (!doc || !yaml_parser_initialize(&p)) {
        free(doc);
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    if (!yaml_parser_load(&p, doc)) {
        snprintf(err, errlen, "%s:%zu: not valid YAML: %s", name, p.problem_mark.line + 1,
                 p.problem ? p.problem : "parse error");
        yaml_parser_delete(&p);
        free(doc);
        return -1;
    }
    yaml_parser_delete(&p);
    c->strings = doc;
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root) /* an empty file: all defaults */
        return 0;
    /* a NUL inside a string would cut a rule id or glob short without a word */
    for (yaml_node_t *n = doc->nodes.start; n < doc->nodes.top; n++)
        if (n->type == YAML_SCALAR_NODE && n->data.scalar.length != strlen((const char *)n->data.scalar.value)) {
            snprintf(err, errlen, "%s:%zu: a string holds a NUL byte", name, n->start_mark.line + 1);
            return -1;
        }
    struct ctx x = {doc, name, err, errlen, c};
    return top(&x, root);
}

static void free_ov(struct bw_scan_override *o)
{
    free(o->paths);
    free(o->disable);
    free(o->sev_rule);
    free(o->sev);
}

void bw_scan_config_free(struct bw_scan_config *c)
{
    free(c->path);
    free(c->dir);
    free(c->exclude);
    free_ov(&c->base);
    free(c->enable_only);
    for (size_t i = 0; i < c->nov; i++)
        free_ov(&c->ov[i]);
    free(c->ov);
    free(c->ids);
    free(c->id_lines);
    if (c->strings) {
        yaml_document_delete(c->strings);
        free(c->strings);
    }
    memset(c, 0, sizeof *c);
    c->ignore_vcs = -1;
}
