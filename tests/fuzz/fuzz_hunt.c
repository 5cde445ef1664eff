/* The hunt-pack generator and the compliance mapping on arbitrary JSON: an object is one record,
 * an array a batch (the first BW_FUZZ_HUNT_RECORDS elements are each built as packs too). They
 * must never crash and keep their invariants: a pack builds or says why; the same record gives
 * the same bytes; the Sigma YAML text reads back (libyaml) as the Sigma object; no Sigma value
 * holds an unescaped wildcard; the YARA rule is one bulwark rule whose condition is not constant;
 * the mapping always lists the six frameworks in order and does not depend on record order. */
#include "engine/intel/compliance.h"
#include "engine/intel/hunt.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define BW_FUZZ_HUNT_RECORDS 8

static json_t *node_json(yaml_document_t *doc, yaml_node_t *n, int depth)
{
    if (!n || depth > 16)
        abort();
    if (n->type == YAML_SCALAR_NODE)
        return json_stringn((const char *)n->data.scalar.value, n->data.scalar.length);
    if (n->type == YAML_SEQUENCE_NODE) {
        json_t *a = json_array();
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
            json_array_append_new(a, node_json(doc, yaml_document_get_node(doc, *it), depth + 1));
        return a;
    }
    if (n->type == YAML_MAPPING_NODE) {
        json_t *o = json_object();
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(doc, p->key);
            if (!k || k->type != YAML_SCALAR_NODE)
                abort();
            json_object_set_new(o, (const char *)k->data.scalar.value,
                                node_json(doc, yaml_document_get_node(doc, p->value), depth + 1));
        }
        return o;
    }
    abort();
}

/* Every scalar of the generated rule is a string, so the YAML reads back without typing. */
static void yaml_roundtrip(const char *text, const json_t *want)
{
    yaml_parser_t p;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&p))
        abort();
    yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&p, &doc))
        abort();
    json_t *got = node_json(&doc, yaml_document_get_root_node(&doc), 0);
    if (!json_equal(got, want))
        abort();
    json_decref(got);
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
}

static void no_wildcards(const json_t *v)
{
    size_t i;
    const char *k;
    json_t *x;
    if (json_is_object(v)) {
        if (json_object_size(v) == 0)
            abort();
        json_object_foreach((json_t *)v, k, x) no_wildcards(x);
    } else if (json_is_array(v)) {
        if (json_array_size(v) == 0)
            abort();
        json_array_foreach(v, i, x) no_wildcards(x);
    } else {
        const char *s = json_string_value(v);
        if (!s || !*s)
            abort();
        for (; *s; s++) {
            if (*s == '\\' && (s[1] == '\\' || s[1] == '*' || s[1] == '?'))
                s++;
            else if (*s == '*' || *s == '?')
                abort();
        }
    }
}

static void hunt(const json_t *rec)
{
    json_t *a = (json_t *)1, *b = NULL;
    char why[256] = "";
    if (bw_hunt_build(rec, &a, why, sizeof why) != 0) {
        if (a || !why[0])
            abort();
        return;
    }
    if (bw_hunt_build(rec, &b, why, sizeof why) != 0)
        abort();
    char *da = json_dumps(a, JSON_COMPACT), *db = json_dumps(b, JSON_COMPACT);
    if (!da || !db || strcmp(da, db) != 0)
        abort();
    const json_t *sigma = json_object_get(a, "sigma"), *det = json_object_get(sigma, "detection");
    const char *cond = json_string_value(json_object_get(det, "condition"));
    if (!cond || !*cond || json_object_size(det) < 2)
        abort();
    json_t *sel = json_deep_copy(det);
    json_object_del(sel, "condition");
    no_wildcards(sel);
    json_decref(sel);
    yaml_roundtrip(json_string_value(json_object_get(a, "sigma_yaml")), sigma);
    const char *yara = json_string_value(json_object_get(a, "yara"));
    const char *kql = json_string_value(json_object_get(a, "kql"));
    if (!yara || strncmp(yara, "rule bulwark_", 13) != 0 || strstr(yara + 1, "\nrule ") ||
        strstr(yara, "condition:\n        true") || !kql || !strstr(kql, "ago(lookback)"))
        abort();
    free(da);
    free(db);
    json_decref(a);
    json_decref(b);
}

static struct bw_compliance *mapping(void)
{
    static struct bw_compliance *c;
    if (!c) {
        char why[256];
        if (bw_compliance_load(&c, why, sizeof why) != 0)
            abort();
    }
    return c;
}

static void comply(const json_t *const *recs, size_t n)
{
    json_t *m1 = bw_compliance_map(mapping(), recs, n);
    const json_t **rev = malloc((n ? n : 1) * sizeof *rev);
    for (size_t i = 0; i < n; i++)
        rev[i] = recs[n - 1 - i];
    json_t *m2 = bw_compliance_map(mapping(), rev, n);
    if (!m1 || !m2)
        abort();
    const json_t *fws = json_object_get(m1, "frameworks");
    if (json_array_size(fws) != BW_COMPLIANCE_FRAMEWORKS)
        abort();
    for (size_t f = 0; f < BW_COMPLIANCE_FRAMEWORKS; f++)
        if (strcmp(json_string_value(json_object_get(json_array_get(fws, f), "id")), bw_compliance_framework_ids[f]))
            abort();
    char *d1 = json_dumps(m1, JSON_COMPACT), *d2 = json_dumps(m2, JSON_COMPACT);
    /* equal unless two records share an id (then input position decides their order) */
    bool dup = false;
    for (size_t i = 0; i < n && !dup; i++)
        for (size_t j = 0; j < i && !dup; j++)
            dup = json_is_string(json_object_get(recs[i], "id")) &&
                  json_equal(json_object_get(recs[i], "id"), json_object_get(recs[j], "id"));
    if (!d1 || !d2 || (!dup && strcmp(d1, d2) != 0))
        abort();
    free(d1);
    free(d2);
    free(rev);
    json_decref(m1);
    json_decref(m2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *in = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (!in)
        return 0;
    if (json_is_array(in)) {
        size_t n = json_array_size(in);
        const json_t **recs = malloc((n ? n : 1) * sizeof *recs);
        for (size_t i = 0; i < n; i++) {
            recs[i] = json_array_get(in, i);
            if (i < BW_FUZZ_HUNT_RECORDS)
                hunt(recs[i]);
        }
        comply(recs, n);
        free(recs);
    } else {
        hunt(in);
        const json_t *one[] = {in};
        comply(one, 1);
    }
    json_decref(in);
    return 0;
}
