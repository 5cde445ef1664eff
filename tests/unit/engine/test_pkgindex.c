/* Reading imported package indexes (src/engine/pkgindex.c): each ecosystem's normal form, each
 * format as the registries publish it (examples shaped like PEP 503/691 pages, CouchDB's
 * _all_docs and a names.json array), format detection, and the refusals with their positions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/pkgindex.h"

#include <stdio.h>
#include <string.h>

struct got {
    char names[16][BW_PKG_NAME_MAX + 1];
    int n;
    int stop_at; /* the callback refuses the name with this index (-1: never) */
};

static int take(void *arg, const char *name, size_t len, struct bw_pkg_reject *rej)
{
    struct got *g = arg;
    assert_int_equal(strlen(name), len);
    if (g->n == g->stop_at) {
        snprintf(rej->msg, sizeof rej->msg, "too many names");
        return -1;
    }
    if (g->n < 16)
        snprintf(g->names[g->n], sizeof g->names[0], "%s", name);
    g->n++;
    return 0;
}

static int parse(int eco, int format, const char *text, struct got *g, int *used, struct bw_pkg_reject *rej)
{
    memset(g, 0, sizeof *g);
    g->stop_at = -1;
    return bw_pkg_parse(eco, format, text, strlen(text), take, g, used, rej);
}

static const char *norm(int eco, const char *s)
{
    static char out[BW_PKG_NAME_MAX + 1];
    return bw_pkg_normalise(eco, s, strlen(s), out, sizeof out) ? out : NULL;
}

static void test_normalise(void **state)
{
    (void)state;
    /* PEP 503: lower case, runs of - _ . as one - */
    assert_string_equal(norm(BW_PKG_PYPI, "Django"), "django");
    assert_string_equal(norm(BW_PKG_PYPI, "zope.interface"), "zope-interface");
    assert_string_equal(norm(BW_PKG_PYPI, "Friendly__Bard-.-x"), "friendly-bard-x");
    assert_string_equal(norm(BW_PKG_PYPI, "a"), "a");
    /* PEP 508: starts and ends with a letter or digit; nothing but letters, digits and - _ . */
    const char *const bad_pypi[] = {"", "-x", "x_", ".x", "a b", "a/b", "@s/x", "caf\xc3\xa9", "x[extra]", "x==1"};
    for (size_t i = 0; i < sizeof bad_pypi / sizeof *bad_pypi; i++)
        assert_null(norm(BW_PKG_PYPI, bad_pypi[i]));
    /* npm: lower case, the scope kept, the characters a URL path keeps */
    assert_string_equal(norm(BW_PKG_NPM, "JSONStream"), "jsonstream");
    assert_string_equal(norm(BW_PKG_NPM, "@Babel/Core"), "@babel/core");
    assert_string_equal(norm(BW_PKG_NPM, "lodash.merge"), "lodash.merge");
    assert_string_equal(norm(BW_PKG_NPM, "socket.io"), "socket.io");
    assert_string_equal(norm(BW_PKG_NPM, "under_score~x"), "under_score~x");
    const char *const bad_npm[] = {"", "@", "@/x", "@s/", "a/b", "a b", "a:b", "@s/a/b", "x\"", "caf\xc3\xa9"};
    for (size_t i = 0; i < sizeof bad_npm / sizeof *bad_npm; i++)
        assert_null(norm(BW_PKG_NPM, bad_npm[i]));
    /* at most BW_PKG_NAME_MAX bytes */
    char longname[BW_PKG_NAME_MAX + 2];
    memset(longname, 'a', sizeof longname - 1);
    longname[BW_PKG_NAME_MAX] = '\0';
    assert_non_null(norm(BW_PKG_NPM, longname));
    longname[BW_PKG_NAME_MAX] = 'a';
    longname[BW_PKG_NAME_MAX + 1] = '\0';
    assert_null(norm(BW_PKG_NPM, longname));
    assert_int_equal(bw_pkg_eco_parse("pypi"), BW_PKG_PYPI);
    assert_int_equal(bw_pkg_eco_parse("crates"), -1);
    assert_int_equal(bw_pkg_format_parse("npm-all-docs"), BW_PKGF_NPM_ALL_DOCS);
    assert_int_equal(bw_pkg_format_parse("csv"), -1);
}

static void test_lines(void **state)
{
    (void)state;
    struct got g;
    struct bw_pkg_reject rej;
    int used;
    assert_int_equal(parse(BW_PKG_PYPI, BW_PKGF_AUTO, "# top projects\n\nDjango\r\n  zope.interface \nrequests", &g,
                           &used, &rej),
                     0);
    assert_int_equal(used, BW_PKGF_LINES);
    assert_int_equal(g.n, 3);
    assert_string_equal(g.names[0], "django");
    assert_string_equal(g.names[1], "zope-interface");
    assert_string_equal(g.names[2], "requests");
    /* a CSV is not a list of names: refused at the line and column of the entry */
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_LINES, "express\nlodash,4.17.21\n", &g, &used, &rej), -1);
    assert_int_equal(rej.line, 2);
    assert_int_equal(rej.column, 1);
    assert_non_null(strstr(rej.msg, "'lodash,4.17.21' is not an npm package name"));
    /* nothing but comments: no names */
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_LINES, "# nothing\n\n", &g, &used, &rej), -1);
    assert_non_null(strstr(rej.msg, "no package names"));
    /* a binary file */
    const char bin[] = "abc\0def";
    memset(&g, 0, sizeof g);
    g.stop_at = -1;
    assert_int_equal(bw_pkg_parse(BW_PKG_NPM, BW_PKGF_AUTO, bin, sizeof bin - 1, take, &g, NULL, &rej), -1);
    assert_non_null(strstr(rej.msg, "NUL"));
    /* the callback's refusal stops the parse with its message, where it happened */
    memset(&g, 0, sizeof g);
    g.stop_at = 1;
    const char two[] = "a\nb\nc\n";
    assert_int_equal(bw_pkg_parse(BW_PKG_NPM, BW_PKGF_LINES, two, sizeof two - 1, take, &g, NULL, &rej), -1);
    assert_string_equal(rej.msg, "too many names");
    assert_int_equal(rej.line, 2);
}

static void test_simple_html(void **state)
{
    (void)state;
    struct got g;
    struct bw_pkg_reject rej;
    int used;
    const char page[] = "<!DOCTYPE html>\n<html>\n  <head>\n    <meta name=\"pypi:repository-version\" content=\"1.1\">\n"
                        "    <title>Simple index</title>\n  </head>\n  <body>\n"
                        "    <a href=\"/simple/frob/\">Frob</a>\n    <a href=\"/simple/spamspamspam/\">spamspamspam</a>\n"
                        "    <A HREF=\"/simple/zope-interface/\">zope.interface</A>\n  </body>\n</html>\n";
    assert_int_equal(parse(BW_PKG_PYPI, BW_PKGF_AUTO, page, &g, &used, &rej), 0);
    assert_int_equal(used, BW_PKGF_SIMPLE_HTML);
    assert_int_equal(g.n, 3);
    assert_string_equal(g.names[0], "frob");
    assert_string_equal(g.names[2], "zope-interface");
    /* an anchor whose text is no name, and one never closed */
    assert_int_equal(parse(BW_PKG_PYPI, BW_PKGF_SIMPLE_HTML, "<html>\n<a href=\"/x/\">not a name</a>", &g, &used, &rej),
                     -1);
    assert_int_equal(rej.line, 2);
    assert_int_equal(rej.column, 15);
    assert_int_equal(parse(BW_PKG_PYPI, BW_PKGF_SIMPLE_HTML, "<a href=\"/x/\">x", &g, &used, &rej), -1);
    assert_non_null(strstr(rej.msg, "</a>"));
    /* a page without anchors has no names */
    assert_int_equal(parse(BW_PKG_PYPI, BW_PKGF_SIMPLE_HTML, "<html><body></body></html>", &g, &used, &rej), -1);
}

static void test_json_formats(void **state)
{
    (void)state;
    struct got g;
    struct bw_pkg_reject rej;
    int used;
    /* PEP 691: the "name" of each project; other members (including a "name" elsewhere) ignored */
    const char pep691[] = "{\"meta\": {\"api-version\": \"1.1\", \"_last-serial\": 2, \"name\": \"not-me\"},\n"
                          " \"projects\": [{\"name\": \"Frob\", \"_last-serial\": 1},\n"
                          "              {\"_last-serial\": 2.5e3, \"name\": \"spam\\u002dspam\", \"x\": [true, null]}]}";
    assert_int_equal(parse(BW_PKG_PYPI, BW_PKGF_AUTO, pep691, &g, &used, &rej), 0);
    assert_int_equal(used, BW_PKGF_SIMPLE_JSON);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.names[0], "frob");
    assert_string_equal(g.names[1], "spam-spam");
    /* _all_docs: each row's id; the empty id and design documents are no packages */
    const char all_docs[] = "{\"total_rows\":4,\"offset\":0,\"rows\":[\n"
                            "{\"id\":\"\",\"key\":\"\",\"value\":{\"rev\":\"1-2f11\"}},\n"
                            "{\"id\":\"3scale\",\"key\":\"3scale\",\"value\":{\"rev\":\"3-db3d\"}},\n"
                            "{\"id\":\"AMD\",\"key\":\"AMD\",\"value\":{\"rev\":\"7-3b43\"}},\n"
                            "{\"id\":\"_design/app\",\"key\":\"_design/app\",\"value\":{\"rev\":\"1-a\"}}\n]}\n";
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_AUTO, all_docs, &g, &used, &rej), 0);
    assert_int_equal(used, BW_PKGF_NPM_ALL_DOCS);
    assert_int_equal(g.n, 2);
    assert_string_equal(g.names[0], "3scale");
    assert_string_equal(g.names[1], "amd");
    /* names.json: a flat array */
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_AUTO, " [\"mocha\", \"@babel/core\", \"JSONStream\"]\n", &g, &used, &rej),
                     0);
    assert_int_equal(used, BW_PKGF_NPM_NAMES);
    assert_int_equal(g.n, 3);
    assert_string_equal(g.names[1], "@babel/core");
    /* malformed JSON, with where */
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_NPM_NAMES, "[\"a\",\n \"b\" \"c\"]", &g, &used, &rej), -1);
    assert_int_equal(rej.line, 2);
    assert_int_equal(rej.column, 6);
    assert_non_null(strstr(rej.msg, "expected ',' or ']'"));
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_NPM_NAMES, "[\"a\"] x", &g, &used, &rej), -1);
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_NPM_NAMES, "[\"a", &g, &used, &rej), -1);
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_NPM_NAMES, "[01x]", &g, &used, &rej), -1);
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_NPM_NAMES, "[\"bad name\"]", &g, &used, &rej), -1);
    assert_non_null(strstr(rej.msg, "'bad name'"));
    /* the right document without its list, or the list in the wrong place */
    assert_int_equal(parse(BW_PKG_PYPI, BW_PKGF_SIMPLE_JSON, "{\"meta\": {}}", &g, &used, &rej), -1);
    assert_non_null(strstr(rej.msg, "\"projects\""));
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_NPM_ALL_DOCS, "{\"x\": {\"rows\": [{\"id\": \"a\"}]}}", &g, &used, &rej),
                     -1);
    /* nesting is bounded */
    char deep[BW_PKG_JSON_DEPTH * 2 + 8];
    size_t k = 0;
    for (int i = 0; i <= BW_PKG_JSON_DEPTH; i++)
        deep[k++] = '[';
    deep[k] = '\0';
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_NPM_NAMES, deep, &g, &used, &rej), -1);
    assert_non_null(strstr(rej.msg, "nested deeper"));
    /* a name longer than BW_PKG_NAME_MAX in a JSON string */
    char big[BW_PKG_NAME_MAX + 16];
    memset(big, 'a', sizeof big);
    big[0] = '[';
    big[1] = '"';
    big[sizeof big - 3] = '"';
    big[sizeof big - 2] = ']';
    big[sizeof big - 1] = '\0';
    assert_int_equal(parse(BW_PKG_NPM, BW_PKGF_NPM_NAMES, big, &g, &used, &rej), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_normalise), cmocka_unit_test(test_lines),
                                       cmocka_unit_test(test_simple_html), cmocka_unit_test(test_json_formats)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
