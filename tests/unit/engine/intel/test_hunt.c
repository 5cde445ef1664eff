/* The hunt-pack generator (src/engine/intel/hunt.c): for every seed record with a CVE the pack builds,
 * its YARA rule compiles with libyara (and all of them together, so names never collide), its
 * Sigma rule passes structural checks driven by the Sigma JSON schema (tests/schemas) and its
 * YAML text reads back (libyaml) as the same object, and its KQL names the record; determinism;
 * hostile records; records with nothing to detect; YARA rules that match exploit-like buffers and
 * not unrelated ones. Built with libyara when CMake found it (BULWARK_HAVE_YARA); the YARA checks
 * are skipped otherwise. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/embedded.h"
#include "services/intel_ingest.h"
#include "engine/intel/hunt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>
#ifdef BULWARK_HAVE_YARA
#include <yara.h>
#endif

#ifndef BULWARK_SOURCE_DIR
#define BULWARK_SOURCE_DIR "."
#endif

/* ---- helpers ------------------------------------------------------------------------------ */

static json_t *seed_records(void)
{
    const struct bw_embedded *f = bw_embedded_find(BW_SEED_FILE);
    assert_non_null(f);
    json_t *seed = json_loadb((const char *)f->data, f->len, 0, NULL);
    assert_non_null(seed);
    json_t *recs = json_incref(json_object_get(seed, "records"));
    json_decref(seed);
    assert_true(json_array_size(recs) > 100);
    return recs;
}

static json_t *seed_record(const json_t *recs, const char *id)
{
    size_t i;
    json_t *r;
    json_array_foreach(recs, i, r)
        if (strcmp(json_string_value(json_object_get(r, "id")), id) == 0)
            return r;
    fail_msg("seed has no record %s", id);
    return NULL;
}

static json_t *build_ok(const json_t *rec)
{
    json_t *out = NULL;
    char why[256] = "";
    if (bw_hunt_build(rec, &out, why, sizeof why) != 0)
        fail_msg("bw_hunt_build(%s): %s", json_string_value(json_object_get(rec, "id")), why);
    assert_non_null(out);
    return out;
}

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, JSON_ALLOW_NUL, &e);
    if (!v)
        fail_msg("bad test JSON: %s at %d:%d", e.text, e.line, e.column);
    return v;
}

static const char *member_str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    if (!s)
        fail_msg("member %s is not a string", k);
    return s;
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
}

static bool icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && lower(hay[i]) == lower(needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

/* ---- libyaml -> jansson ------------------------------------------------------------------ */

static json_t *yaml_node_json(yaml_document_t *doc, yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE: {
        const char *s = (const char *)n->data.scalar.value;
        if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
            char *end;
            long long v = strtoll(s, &end, 10);
            if (*s && !*end)
                return json_integer(v);
            if (strcmp(s, "true") == 0)
                return json_true();
            if (strcmp(s, "false") == 0)
                return json_false();
            if (strcmp(s, "null") == 0 || strcmp(s, "~") == 0)
                return json_null();
        }
        return json_stringn(s, n->data.scalar.length);
    }
    case YAML_SEQUENCE_NODE: {
        json_t *a = json_array();
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
            json_array_append_new(a, yaml_node_json(doc, yaml_document_get_node(doc, *it)));
        return a;
    }
    case YAML_MAPPING_NODE: {
        json_t *o = json_object();
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(doc, p->key);
            assert_int_equal(k->type, YAML_SCALAR_NODE);
            const char *key = (const char *)k->data.scalar.value;
            assert_null(json_object_get(o, key)); /* no duplicate keys */
            json_object_set_new(o, key, yaml_node_json(doc, yaml_document_get_node(doc, p->value)));
        }
        return o;
    }
    default:
        fail_msg("unexpected YAML node");
    }
    return NULL;
}

static json_t *yaml_to_json(const char *text)
{
    yaml_parser_t p;
    yaml_document_t doc;
    assert_true(yaml_parser_initialize(&p));
    yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&p, &doc))
        fail_msg("sigma_yaml does not parse: %s at line %zu\n%s", p.problem ? p.problem : "?",
                 p.problem_mark.line + 1, text);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    assert_non_null(root);
    json_t *v = yaml_node_json(&doc, root);
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    return v;
}

/* ---- Sigma checks ------------------------------------------------------------------------- */

static json_t *g_schema;

static json_t *sigma_schema(void)
{
    if (!g_schema) {
        json_error_t e;
        g_schema = json_load_file(BULWARK_SOURCE_DIR "/tests/schemas/sigma-detection-rule-schema.json", 0, &e);
        if (!g_schema)
            fail_msg("sigma schema: %s", e.text);
    }
    return g_schema;
}

/* Whether s is one of the "const" values of the schema property's oneOf. */
static bool schema_const(const char *prop, const char *s)
{
    size_t i;
    json_t *alt;
    json_array_foreach(json_object_get(json_object_get(json_object_get(sigma_schema(), "properties"), prop), "oneOf"),
                       i, alt)
        if (strcmp(json_string_value(json_object_get(alt, "const")), s) == 0)
            return true;
    return false;
}

/* ^[a-z0-9_-]+\.[a-z0-9._-]+$, the schema's tag pattern */
static bool tag_ok(const char *t)
{
    const char *dot = strchr(t, '.');
    if (!dot || dot == t || !dot[1])
        return false;
    for (const char *p = t; *p; p++) {
        bool ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
                  (*p == '.' && p >= dot);
        if (!ok)
            return false;
    }
    return true;
}

static bool date_ok(const char *d)
{
    if (strlen(d) != 10 || d[4] != '-' || d[7] != '-')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (d[i] < '0' || d[i] > '9'))
            return false;
    int m = (d[5] - '0') * 10 + d[6] - '0', day = (d[8] - '0') * 10 + d[9] - '0';
    return m >= 1 && m <= 12 && day >= 1 && day <= 31;
}

static bool uuid_v5(const char *u)
{
    if (strlen(u) != 36)
        return false;
    for (int i = 0; i < 36; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash != (u[i] == '-'))
            return false;
        if (!dash && !((u[i] >= '0' && u[i] <= '9') || (u[i] >= 'a' && u[i] <= 'f')))
            return false;
    }
    return u[14] == '5' && strchr("89ab", u[19]) != NULL;
}

static void unique_strings(const json_t *a, size_t minlen)
{
    assert_true(json_is_array(a));
    for (size_t i = 0; i < json_array_size(a); i++) {
        const char *s = json_string_value(json_array_get(a, i));
        assert_non_null(s);
        assert_true(strlen(s) >= minlen);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, json_string_value(json_array_get(a, j)));
    }
}

/* The text a Sigma value stands for: \x -> x; an unescaped * or ? is a wildcard and fails. */
static void sigma_unescape(const char *v, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = v; *p; p++) {
        if (*p == '*' || *p == '?')
            fail_msg("unescaped wildcard in Sigma value \"%s\"", v);
        if (*p == '\\' && (p[1] == '\\' || p[1] == '*' || p[1] == '?'))
            p++;
        if (o + 1 < cap)
            out[o++] = *p;
    }
    out[o] = '\0';
}

/* Walks a selection: no empty list or map anywhere, no empty or wildcard value; counts the
 * values that name the record (a term or a CVE id). */
static void selection_walk(const json_t *v, const json_t *specific, size_t *hits)
{
    if (json_is_object(v)) {
        assert_true(json_object_size(v) > 0);
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) selection_walk(x, specific, hits);
    } else if (json_is_array(v)) {
        assert_true(json_array_size(v) > 0);
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) selection_walk(x, specific, hits);
    } else {
        assert_true(json_is_string(v));
        char text[512];
        sigma_unescape(json_string_value(v), text, sizeof text);
        assert_true(text[0] != '\0');
        size_t i;
        json_t *s;
        json_array_foreach(specific, i, s)
            if (icontains(text, json_string_value(s)))
                (*hits)++;
    }
}

/* A map selection (AND of fields) must hold a specific value itself; a list of maps (OR) needs
 * one in each of its maps. */
static void selection_specific(const char *name, const json_t *sel, const json_t *specific)
{
    if (json_is_array(sel) && json_is_object(json_array_get(sel, 0))) {
        size_t i;
        json_t *m;
        json_array_foreach(sel, i, m) selection_specific(name, m, specific);
        return;
    }
    size_t hits = 0;
    selection_walk(sel, specific, &hits);
    if (!hits)
        fail_msg("selection %s holds nothing specific to the record", name);
}

/* Terms and CVE ids of a pack: what a selection may be anchored on. */
static json_t *specific_values(const json_t *pack)
{
    json_t *a = json_array();
    const json_t *basis = json_object_get(pack, "basis");
    const char *lists[] = {"products", "packages"};
    for (size_t l = 0; l < 2; l++) {
        size_t i;
        json_t *s;
        json_array_foreach(json_object_get(basis, lists[l]), i, s)
            if (json_string_length(s) >= BW_HUNT_MIN_TERM_LEN) {
                /* as it appears in hosts and paths: lower case, spaces as dashes */
                char u[BW_HUNT_MAX_TERM_LEN + 1];
                snprintf(u, sizeof u, "%s", json_string_value(s));
                for (char *p = u; *p; p++)
                    *p = *p == ' ' ? '-' : lower(*p);
                json_array_append_new(a, json_string(json_string_value(s)));
                json_array_append_new(a, json_string(u));
            }
    }
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(pack, "cve"), i, c) json_array_append(a, c);
    return a;
}

static void check_sigma(const json_t *pack)
{
    const json_t *rule = json_object_get(pack, "sigma");
    assert_true(json_is_object(rule));
    const json_t *props = json_object_get(sigma_schema(), "properties");
    size_t i;
    json_t *req;
    json_array_foreach(json_object_get(sigma_schema(), "required"), i, req)
        assert_non_null(json_object_get(rule, json_string_value(req)));
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)rule, k, v)
        if (!json_object_get(props, k))
            fail_msg("member %s is not in the Sigma schema", k);

    const char *title = member_str(rule, "title");
    assert_true(strlen(title) > 0 && strlen(title) <= 256);
    assert_true(uuid_v5(member_str(rule, "id")));
    assert_true(schema_const("status", member_str(rule, "status")));
    assert_string_equal(member_str(rule, "status"), "experimental");
    assert_true(schema_const("level", member_str(rule, "level")));
    assert_string_equal(member_str(rule, "author"), "bulwark");
    assert_true(strlen(member_str(rule, "description")) > 20);
    if (json_object_get(rule, "date"))
        assert_true(date_ok(member_str(rule, "date")));
    if (json_object_get(rule, "modified"))
        assert_true(date_ok(member_str(rule, "modified")));
    if (json_object_get(rule, "references")) {
        unique_strings(json_object_get(rule, "references"), 1);
        assert_true(json_array_size(json_object_get(rule, "references")) <= BW_HUNT_MAX_REFERENCES);
    }
    unique_strings(json_object_get(rule, "falsepositives"), 2);
    const json_t *tags = json_object_get(rule, "tags");
    unique_strings(tags, 3);
    json_t *t;
    json_array_foreach(tags, i, t)
        if (!tag_ok(json_string_value(t)))
            fail_msg("tag %s does not match the schema's pattern", json_string_value(t));
    json_t *cve;
    json_array_foreach(json_object_get(pack, "cve"), i, cve) {
        char want[40];
        snprintf(want, sizeof want, "cve.%s", json_string_value(cve) + 4);
        bool found = false;
        for (size_t j = 0; j < json_array_size(tags); j++)
            found = found || strcmp(json_string_value(json_array_get(tags, j)), want) == 0;
        assert_true(found);
    }

    const json_t *ls = json_object_get(rule, "logsource");
    assert_true(json_is_object(ls));
    const char *cat = member_str(ls, "category");
    assert_true(strcmp(cat, "webserver") == 0 || strcmp(cat, "application") == 0);

    /* detection: the condition names every selection, and only selections, joined by "or" */
    const json_t *det = json_object_get(rule, "detection");
    assert_true(json_is_object(det));
    const char *cond = member_str(det, "condition");
    assert_true(json_object_size(det) >= 2);
    json_t *specific = specific_values(pack);
    char *copy = strdup(cond);
    size_t named = 0;
    bool expect_name = true;
    for (char *save = NULL, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (!expect_name) {
            assert_string_equal(tok, "or");
        } else {
            if (strcmp(tok, "condition") == 0 || !json_object_get(det, tok))
                fail_msg("condition \"%s\" names %s, which is not a selection", cond, tok);
            named++;
        }
        expect_name = !expect_name;
    }
    assert_false(expect_name); /* ends with a name */
    free(copy);
    assert_int_equal(named, json_object_size(det) - 1);
    json_object_foreach((json_t *)det, k, v) {
        if (strcmp(k, "condition") == 0)
            continue;
        if (!strstr(cond, k))
            fail_msg("selection %s is not used by the condition", k);
        selection_specific(k, v, specific);
    }
    json_decref(specific);

    json_t *back = yaml_to_json(member_str(pack, "sigma_yaml"));
    if (!json_equal(back, rule)) {
        char *a = json_dumps(rule, JSON_INDENT(1)), *b = json_dumps(back, JSON_INDENT(1));
        fail_msg("sigma_yaml reads back differently:\n%s\n---\n%s", a, b);
    }
    json_decref(back);
}

/* The KQL text with its string literals emptied and comments removed: what is left is query
 * syntax. A comment must not hold a line break other than its final \n. */
static char *kql_code(const char *q)
{
    char *out = strdup(q);
    size_t o = 0;
    bool in = false;
    for (const char *p = q; *p; p++) {
        if (!in && p[0] == '/' && p[1] == '/') {
            const char *end = strchr(p, '\n');
            char *line = strndup(p, end ? (size_t)(end - p) : strlen(p));
            assert_null(strstr(line, "\xc2\x85"));
            assert_null(strstr(line, "\xe2\x80\xa8"));
            assert_null(strstr(line, "\xe2\x80\xa9"));
            assert_null(strchr(line, '\r'));
            free(line);
            if (!end)
                break;
            p = end;
            out[o++] = '\n';
            continue;
        }
        if (in) {
            if (*p == '\\' && p[1]) {
                p++;
                continue;
            }
            if (*p == '"') {
                in = false;
                out[o++] = '"';
            }
            continue;
        }
        if (*p == '"')
            in = true;
        out[o++] = *p;
    }
    assert_false(in); /* every literal closed */
    out[o] = '\0';
    return out;
}

static void check_kql(const json_t *pack)
{
    const char *q = member_str(pack, "kql");
    assert_non_null(strstr(q, "let lookback = 30d;"));
    assert_non_null(strstr(q, "ago(lookback)"));
    assert_non_null(strstr(q, "union isfuzzy=true"));
    char *code = kql_code(q);
    /* brackets balance outside strings and the comment line */
    int depth = 0;
    for (const char *p = code; *p; p++) {
        depth += *p == '(';
        depth -= *p == ')';
        assert_true(depth >= 0);
    }
    assert_int_equal(depth, 0);
    assert_null(strstr(code, " true"));
    free(code);
    /* each sub-query filters on something the record names */
    json_t *specific = specific_values(pack);
    const char *part = strstr(q, "\n    (");
    assert_non_null(part);
    while (part) {
        const char *next = strstr(part + 1, "\n    (");
        size_t len = next ? (size_t)(next - part) : strlen(part);
        char *sub = strndup(part, len);
        bool found = false;
        for (size_t i = 0; i < json_array_size(specific) && !found; i++)
            found = icontains(sub, json_string_value(json_array_get(specific, i)));
        if (!found)
            fail_msg("KQL sub-query without a record-specific term:\n%s", sub);
        free(sub);
        part = next;
    }
    json_decref(specific);
}

static void check_shape(const json_t *pack, const json_t *rec)
{
    assert_string_equal(member_str(pack, "threat_id"), json_string_value(json_object_get(rec, "id")));
    assert_true(json_is_array(json_object_get(pack, "cve")));
    member_str(pack, "title");
    const char *sev = member_str(pack, "severity");
    assert_true(strcmp(sev, "CRITICAL") == 0 || strcmp(sev, "HIGH") == 0 || strcmp(sev, "MEDIUM") == 0 ||
                strcmp(sev, "LOW") == 0);
    const json_t *basis = json_object_get(pack, "basis");
    const char *lists[] = {"products", "packages", "cwe", "attack_techniques", "indicators"};
    for (size_t i = 0; i < 5; i++)
        unique_strings(json_object_get(basis, lists[i]), 1);
    assert_int_equal(json_object_size(basis), 5);
    member_str(pack, "sigma_yaml");
    member_str(pack, "kql");
    member_str(pack, "yara");
    assert_int_equal(json_object_size(pack), 9);
}

/* ---- YARA ----------------------------------------------------------------------------------- */

#ifdef BULWARK_HAVE_YARA
static void yara_error(int level, const char *file, int line, const YR_RULE *rule, const char *msg, void *user)
{
    (void)file;
    (void)rule;
    if (level == YARA_ERROR_LEVEL_ERROR)
        snprintf((char *)user, 512, "line %d: %s", line, msg);
}

static YR_RULES *yara_compile(const char *text)
{
    YR_COMPILER *comp = NULL;
    YR_RULES *rules = NULL;
    char err[512] = "";
    assert_int_equal(yr_compiler_create(&comp), ERROR_SUCCESS);
    yr_compiler_set_callback(comp, yara_error, err);
    int errors = yr_compiler_add_string(comp, text, NULL);
    if (errors)
        fail_msg("YARA does not compile (%d errors, %s):\n%.8000s", errors, err, text);
    assert_int_equal(yr_compiler_get_rules(comp, &rules), ERROR_SUCCESS);
    yr_compiler_destroy(comp);
    return rules;
}

static int count_matches(YR_SCAN_CONTEXT *ctx, int message, void *data, void *user)
{
    (void)ctx;
    (void)data;
    if (message == CALLBACK_MSG_RULE_MATCHING)
        (*(int *)user)++;
    return CALLBACK_CONTINUE;
}

static int yara_hits(YR_RULES *rules, const char *buf)
{
    int hits = 0;
    assert_int_equal(yr_rules_scan_mem(rules, (const uint8_t *)buf, strlen(buf), 0, count_matches, &hits, 10),
                     ERROR_SUCCESS);
    return hits;
}

static uint32_t yara_rule_count(YR_RULES *rules)
{
    YR_RULES_STATS st;
    assert_int_equal(yr_rules_get_stats(rules, &st), ERROR_SUCCESS);
    return st.num_rules;
}
#endif

/* compile: whether to compile the rule on its own (the seed test compiles all rules at once) */
static void check_yara(const json_t *pack, bool compile)
{
    const char *y = member_str(pack, "yara");
    assert_null(strstr(y, "condition:\n        true"));
    assert_non_null(strstr(y, "generated_by = \"bulwark\""));
    assert_true(strncmp(y, "rule bulwark_", 13) == 0);
    assert_null(strstr(y + 1, "\nrule "));
#ifdef BULWARK_HAVE_YARA
    if (compile) {
        YR_RULES *rules = yara_compile(y);
        assert_int_equal(yara_rule_count(rules), 1);
        assert_int_equal(yara_hits(rules, "nothing to see here, just a plain text file"), 0);
        yr_rules_destroy(rules);
    }
#else
    (void)compile;
#endif
}

static void check_pack_with(const json_t *pack, const json_t *rec, bool compile_yara)
{
    check_shape(pack, rec);
    check_sigma(pack);
    check_kql(pack);
    check_yara(pack, compile_yara);
}

static void check_pack(const json_t *pack, const json_t *rec)
{
    check_pack_with(pack, rec, true);
}

/* ---- tests ---------------------------------------------------------------------------------- */

static void every_seed_cve(void **state)
{
    (void)state;
    json_t *recs = seed_records();
    size_t i, n = 0;
    json_t *r;
#ifdef BULWARK_HAVE_YARA
    size_t all_len = 0;
    char *all = NULL;
#endif
    json_array_foreach(recs, i, r) {
        if (json_array_size(json_object_get(r, "cve")) == 0)
            continue;
        json_t *pack = build_ok(r);
        check_pack_with(pack, r, false);
        /* the CVE is in the pack and named by its rules */
        const char *cve = json_string_value(json_array_get(json_object_get(r, "cve"), 0));
        assert_string_equal(json_string_value(json_array_get(json_object_get(pack, "cve"), 0)), cve);
        assert_non_null(strstr(member_str(pack, "yara"), cve));
        assert_non_null(strstr(member_str(pack, "kql"), cve));
#ifdef BULWARK_HAVE_YARA
        const char *y = member_str(pack, "yara");
        all = realloc(all, all_len + strlen(y) + 1);
        memcpy(all + all_len, y, strlen(y) + 1);
        all_len += strlen(y);
#endif
        json_decref(pack);
        n++;
    }
    assert_true(n >= 250);
#ifdef BULWARK_HAVE_YARA
    /* one file of every rule (names never collide); compiling them one by one would take seconds */
    YR_RULES *rules = yara_compile(all);
    assert_int_equal(yara_rule_count(rules), n);
    yr_rules_destroy(rules);
    free(all);
#endif
    json_decref(recs);
}

static void deterministic(void **state)
{
    (void)state;
    json_t *recs = seed_records();
    const char *ids[] = {"CVE-2023-1176", "CVE-2025-3248", "CVE-2018-10055", "CVE-2023-29374"};
    for (size_t i = 0; i < 4; i++) {
        json_t *r = seed_record(recs, ids[i]);
        json_t *a = build_ok(r), *b = build_ok(r);
        /* the same facts with the members in another order */
        char *sorted = json_dumps(r, JSON_SORT_KEYS | JSON_COMPACT);
        json_t *r2 = parse(sorted);
        json_t *c = build_ok(r2);
        char *da = json_dumps(a, JSON_COMPACT), *db = json_dumps(b, JSON_COMPACT), *dc = json_dumps(c, JSON_COMPACT);
        assert_string_equal(da, db);
        assert_string_equal(da, dc);
        free(da);
        free(db);
        free(dc);
        free(sorted);
        json_decref(a);
        json_decref(b);
        json_decref(c);
        json_decref(r2);
    }
    json_decref(recs);
}

/* The Sigma id and YARA name come from the record id alone: a new version keeps them. */
static void ids_stable(void **state)
{
    (void)state;
    json_t *recs = seed_records();
    json_t *r = json_deep_copy(seed_record(recs, "CVE-2023-1176"));
    json_t *a = build_ok(r);
    json_object_set_new(r, "title", json_string("mlflow: path traversal, revised"));
    json_object_set_new(r, "version", json_integer(7));
    json_t *b = build_ok(r);
    assert_string_equal(member_str(json_object_get(a, "sigma"), "id"), member_str(json_object_get(b, "sigma"), "id"));
    assert_memory_equal(member_str(a, "yara"), member_str(b, "yara"), 40);
    json_object_set_new(r, "id", json_string("CVE-2023-1177"));
    json_t *c = build_ok(r);
    assert_string_not_equal(member_str(json_object_get(a, "sigma"), "id"), member_str(json_object_get(c, "sigma"), "id"));
    json_decref(a);
    json_decref(b);
    json_decref(c);
    json_decref(r);
    json_decref(recs);
}

static const char HOSTILE[] =
    "{\"id\":\"CVE-2099-31337\",\"type\":\"ai_cve\","
    "\"title\":\"evil\\\"title\\\\ with\\nnewline */ {braces} \\u00e9\\u2028 \\u0085 and `ticks`\","
    "\"summary\":\"s\\u0000x\",\"severity\":\"critical\",\"cve\":[\"CVE-2099-31337\",\"CVE-2099-31337\",\"not-a-cve\",7],"
    "\"cwe\":[\"CWE-22\",\"CWE-918\",\"CWE-89\",\"CWE-79\",\"CWE-78\",\"bogus\"],"
    "\"attack_techniques\":[\"T1190\",\"T1059.001\",\"X9999\"],\"atlas_techniques\":[\"AML.T0051\"],"
    "\"affected\":[{\"vendor\":\"v\",\"product\":\"Evil \\\" Product\\\\ */ } rule x { condition: true } \\u00fcml\","
    "\"ecosystem\":\"npm\",\"package\":\"@evil/pk*g?\\\") | union * // \\n\\t\",\"introduced\":\"\",\"fixed\":\"\"},"
    "{\"product\":\"\\u2029\\ufeffLONGNAME-LONGNAME-LONGNAME-LONGNAME-LONGNAME-LONGNAME-LONGNAME-LONGNAME-\\u00e9\\u00e9\\u00e9\\u00e9\"},"
    "{\"package\":\"ab\"},{\"package\":7},\"junk\"],"
    "\"ai_impact\":[\"prompt_injection\",\"tool_execution\",{}],"
    "\"references\":[{\"url\":\"https://example.org/\\u2028x\\u0085y\\ufeffz\\u2029\"},{\"url\":\"https://example.org/a b\"},{\"url\":\"javascript:alert(1)\"},{\"url\":\"https://example.org/ok\"},"
    "{\"url\":\"https://example.org/ok\"},{\"url\":7}],"
    "\"published\":\"2024-02-\\u00e9\\u00e9T00:00:00Z\",\"updated\":\"2024-13-01T00:00:00Z\",\"kev\":true}";

static void hostile_record(void **state)
{
    (void)state;
    json_t *r = parse(HOSTILE);
    json_t *pack = build_ok(r);
    check_pack(pack, r);

    const json_t *rule = json_object_get(pack, "sigma");
    assert_null(json_object_get(rule, "date"));     /* "2024-02-éé" is no date */
    assert_null(json_object_get(rule, "modified")); /* month 13 */
    /* URLs with spaces or a non-web scheme are left out; odd characters survive the YAML text */
    assert_int_equal(json_array_size(json_object_get(rule, "references")), 2);
    assert_non_null(strstr(member_str(pack, "sigma_yaml"), "\\u2028x\\u0085y\\uFEFFz\\u2029"));
    assert_string_equal(member_str(rule, "level"), "critical");
    assert_int_equal(json_array_size(json_object_get(pack, "cve")), 1);
    /* wildcard characters of the package name are escaped, not wildcards */
    assert_non_null(strstr(member_str(pack, "sigma_yaml"), "pk\\\\*g\\\\?"));
    /* terms are clipped on a character boundary */
    const json_t *products = json_object_get(json_object_get(pack, "basis"), "products");
    size_t i;
    json_t *p;
    json_array_foreach(products, i, p) {
        assert_true(json_string_length(p) <= BW_HUNT_MAX_TERM_LEN);
        json_t *copy = json_string(json_string_value(p));
        assert_non_null(copy); /* valid UTF-8 */
        json_decref(copy);
        assert_null(strchr(json_string_value(p), '\n'));
    }
    /* KQL: the payloads stay inside string literals */
    char *code = kql_code(member_str(pack, "kql"));
    assert_null(strstr(code, "union *"));
    assert_null(strstr(code, "evil"));
    assert_null(strstr(code, "Product"));
    free(code);
#ifdef BULWARK_HAVE_YARA
    /* YARA: still exactly one rule, and it finds the odd product name */
    YR_RULES *rules = yara_compile(member_str(pack, "yara"));
    assert_int_equal(yara_rule_count(rules), 1);
    assert_int_equal(yara_hits(rules, "exploit for CVE-2099-31337 against Evil \" Product\\ */ } rule x { "
                                      "condition: true } \xc3\xbcml"),
                     1);
    yr_rules_destroy(rules);
#endif
    json_decref(pack);
    json_decref(r);
}

static void many_items_are_capped(void **state)
{
    (void)state;
    json_t *r = parse("{\"id\":\"PYSEC-2099-1\",\"type\":\"ai_cve\",\"title\":\"big: code execution\","
                      "\"severity\":\"HIGH\",\"cve\":[],\"affected\":[],\"references\":[],\"cwe\":[]}");
    json_t *aff = json_object_get(r, "affected"), *refs = json_object_get(r, "references"),
           *cwe = json_object_get(r, "cwe");
    char buf[2100];
    for (int i = 0; i < 200; i++) {
        snprintf(buf, sizeof buf, "package-%03d", i);
        json_array_append_new(aff, json_pack("{s:s,s:s,s:s}", "package", buf, "ecosystem", "PyPI", "product", buf));
        snprintf(buf, sizeof buf, "https://example.org/ref/%d", i);
        json_array_append_new(refs, json_pack("{s:s,s:s}", "url", buf, "kind", "web"));
        snprintf(buf, sizeof buf, "CWE-%d", 1000 + i);
        json_array_append_new(cwe, json_string(buf));
    }
    memset(buf, 'x', sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    json_array_insert_new(aff, 0, json_pack("{s:s}", "package", buf));
    json_t *pack = build_ok(r);
    check_pack(pack, r);
    const json_t *basis = json_object_get(pack, "basis");
    assert_true(json_array_size(json_object_get(basis, "packages")) <= BW_HUNT_MAX_TERMS);
    assert_true(json_array_size(json_object_get(basis, "cwe")) <= BW_HUNT_MAX_CWES);
    assert_true(json_array_size(json_object_get(json_object_get(pack, "sigma"), "references")) <= BW_HUNT_MAX_REFERENCES);
    assert_true(strlen(member_str(pack, "yara")) < 4096);
    assert_true(strlen(member_str(pack, "kql")) < 16384);
    json_decref(pack);
    json_decref(r);
}

/* A name that contains another as a whole word is covered by it; a mere substring is not. */
static void terms_deduplicated(void **state)
{
    (void)state;
    json_t *r = parse("{\"id\":\"CVE-2099-4444\",\"cve\":[\"CVE-2099-4444\"],\"title\":\"x: denial of service\","
                      "\"affected\":[{\"package\":\"tensorflow-gpu\",\"ecosystem\":\"PyPI\"},"
                      "{\"package\":\"tensorflow\",\"ecosystem\":\"PyPI\"},{\"package\":\"TensorFlow\"},"
                      "{\"package\":\"ray\"},{\"product\":\"Array Networks\"}]}");
    json_t *pack = build_ok(r);
    check_pack(pack, r);
    const char *y = member_str(pack, "yara");
    assert_non_null(strstr(y, "$p1 = \"tensorflow\" "));
    assert_non_null(strstr(y, "$p2 = \"ray\" "));
    assert_non_null(strstr(y, "$p3 = \"Array Networks\" "));
    assert_null(strstr(y, "$p4"));
    assert_null(strstr(y, "tensorflow-gpu"));
    /* the packages are all listed as facts */
    assert_int_equal(json_array_size(json_object_get(json_object_get(pack, "basis"), "packages")), 3);
    assert_string_equal(member_str(json_object_get(json_object_get(pack, "sigma"), "logsource"), "service"),
                        "tensorflow");
    json_decref(pack);
    json_decref(r);
}

static void nothing_specific(void **state)
{
    (void)state;
    const char *cases[] = {
        /* an ATLAS technique: no CVE, no product */
        "{\"id\":\"AML.T0051\",\"type\":\"prompt_attack\",\"title\":\"LLM Prompt Injection\",\"cve\":[],\"affected\":[]}",
        /* names too short or generic to search for, CVE ids that are not CVE ids */
        "{\"id\":\"X-1\",\"cve\":[\"CVE-1\",\"cve-2024-1234\"],\"affected\":[{\"product\":\"ab\"},{\"product\":\"Multiple Products\"}]}",
        "{\"id\":\"X-2\"}",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *r = parse(cases[i]), *out = (json_t *)1;
        char why[256] = "";
        assert_int_equal(bw_hunt_build(r, &out, why, sizeof why), -1);
        assert_null(out);
        assert_non_null(strstr(why, "nothing specific"));
        json_decref(r);
    }
    json_t *out = NULL;
    char why[256] = "";
    json_t *arr = json_array();
    assert_int_equal(bw_hunt_build(arr, &out, why, sizeof why), -1);
    assert_true(why[0] != '\0');
    json_decref(arr);
    json_t *badid = parse("{\"id\":\"../etc\",\"cve\":[\"CVE-2024-1234\"]}");
    assert_int_equal(bw_hunt_build(badid, &out, why, sizeof why), -1);
    json_decref(badid);
    /* a CVE id alone is enough */
    json_t *cve_only = parse("{\"id\":\"CVE-2099-0001\",\"cve\":[\"CVE-2099-0001\"],\"severity\":\"LOW\"}");
    json_t *pack = build_ok(cve_only);
    check_pack(pack, cve_only);
    assert_string_equal(member_str(json_object_get(pack, "sigma"), "level"), "low");
    assert_non_null(json_object_get(json_object_get(json_object_get(pack, "sigma"), "detection"), "keywords_cve"));
#ifdef BULWARK_HAVE_YARA
    YR_RULES *rules = yara_compile(member_str(pack, "yara"));
    assert_int_equal(yara_hits(rules, "PoC for cve-2099-0001"), 1);
    assert_int_equal(yara_hits(rules, "PoC for CVE-2099-0002"), 0);
    yr_rules_destroy(rules);
#endif
    json_decref(pack);
    json_decref(cve_only);
}

/* Records whose rules must read web server logs, and ones whose rules must not. */
static void logsource_follows_the_record(void **state)
{
    (void)state;
    json_t *recs = seed_records();
    const struct {
        const char *id, *category, *selection;
    } want[] = {
        {"CVE-2023-1176", "webserver", "selection_path_traversal"},
        {"CVE-2025-3248", "webserver", "selection_code_injection"},
        {"CVE-2023-34239", "webserver", "selection_ssrf"},
        {"CVE-2023-36189", "webserver", "selection_sql_injection"},
        {"CVE-2018-10055", "application", "keywords_crash_1"},
        {"CVE-2023-29374", "application", "keywords_prompt_injection_1"},
        {"CVE-2022-25882", "application", "keywords_path_traversal_1"}, /* via a model file, not a URL */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        json_t *pack = build_ok(seed_record(recs, want[i].id));
        const json_t *rule = json_object_get(pack, "sigma");
        assert_string_equal(member_str(json_object_get(rule, "logsource"), "category"), want[i].category);
        if (!json_object_get(json_object_get(rule, "detection"), want[i].selection))
            fail_msg("%s: no %s", want[i].id, want[i].selection);
        json_decref(pack);
    }
    /* ATT&CK tags: tactic and lower-case technique ids */
    json_t *pack = build_ok(seed_record(recs, "CVE-2025-3248"));
    const json_t *tags = json_object_get(json_object_get(pack, "sigma"), "tags");
    const char *need[] = {"attack.initial-access", "attack.t1190", "attack.t1059", "cve.2025-3248",
                          "detection.emerging-threats"};
    for (size_t i = 0; i < 5; i++) {
        bool found = false;
        for (size_t j = 0; j < json_array_size(tags); j++)
            found = found || strcmp(json_string_value(json_array_get(tags, j)), need[i]) == 0;
        if (!found)
            fail_msg("missing tag %s", need[i]);
    }
    json_decref(pack);
    json_decref(recs);
}

static void yara_matches_exploit_text(void **state)
{
    (void)state;
#ifdef BULWARK_HAVE_YARA
    json_t *recs = seed_records();
    const struct {
        const char *id, *hit, *miss_product, *miss_markers;
    } cases[] = {
        {"CVE-2023-1176", "GET /mlflow/ajax-api/2.0/mlflow/get-artifact?path=../../../../etc/passwd HTTP/1.1",
         "mlflow tracking server documentation: how to log runs and artifacts", "GET /files?name=../../../../etc/passwd"},
        {"CVE-2025-3248", "POST /api/v1/validate/code to langflow: exec(__import__('os').system('id'))",
         "langflow is a visual builder for LLM flows", "eval(__import__('os').system('id'))"},
        {"CVE-2018-10055", "tensorflow worker: Check failed: dims > 0 ... Segmentation fault (core dumped)",
         "import tensorflow as tf; model.fit(x, y)", "Segmentation fault (core dumped)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *pack = build_ok(seed_record(recs, cases[i].id));
        YR_RULES *rules = yara_compile(member_str(pack, "yara"));
        if (yara_hits(rules, cases[i].hit) != 1)
            fail_msg("%s: the rule misses \"%s\"\n%s", cases[i].id, cases[i].hit, member_str(pack, "yara"));
        assert_int_equal(yara_hits(rules, cases[i].miss_product), 0);
        assert_int_equal(yara_hits(rules, cases[i].miss_markers), 0);
        assert_int_equal(yara_hits(rules, "Lorem ipsum dolor sit amet, consectetur adipiscing elit."), 0);
        /* wide (UTF-16LE) text is matched too */
        char wide[256] = {0};
        const char *w = "langflow tensorflow mlflow ";
        size_t k = 0;
        for (const char *p = w; *p && k + 2 < sizeof wide; p++, k += 2)
            wide[k] = *p;
        int hits = 0;
        assert_int_equal(yr_rules_scan_mem(rules, (const uint8_t *)wide, k, 0, count_matches, &hits, 10), ERROR_SUCCESS);
        assert_int_equal(hits, 0); /* a product name alone is not enough */
        yr_rules_destroy(rules);
        json_decref(pack);
    }
    json_decref(recs);
#else
    skip();
#endif
}

static void fast_enough(void **state)
{
    (void)state;
    json_t *recs = seed_records();
    size_t i;
    json_t *r;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int round = 0; round < 3; round++)
        json_array_foreach(recs, i, r) {
            json_t *out = NULL;
            char why[128];
            if (bw_hunt_build(r, &out, why, sizeof why) == 0)
                json_decref(out);
        }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
    print_message("hunt packs: %zu records x3 in %.1f ms\n", json_array_size(recs), ms);
    assert_true(ms < 20000); /* generous: sanitizer builds on a loaded 2-core machine */
    json_decref(recs);
}

static int setup(void **state)
{
    (void)state;
#ifdef BULWARK_HAVE_YARA
    if (yr_initialize() != ERROR_SUCCESS)
        return -1;
#endif
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    json_decref(g_schema);
    g_schema = NULL;
#ifdef BULWARK_HAVE_YARA
    yr_finalize();
#endif
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_seed_cve),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(ids_stable),
        cmocka_unit_test(hostile_record),
        cmocka_unit_test(many_items_are_capped),
        cmocka_unit_test(terms_deduplicated),
        cmocka_unit_test(nothing_specific),
        cmocka_unit_test(logsource_follows_the_record),
        cmocka_unit_test(yara_matches_exploit_text),
        cmocka_unit_test(fast_enough),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
