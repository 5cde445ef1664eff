/* Route compilation and matching (src/http/router.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "http/http.h"

#include <stdio.h>
#include <string.h>

/* Distinct handlers so a match can be told apart by handler as well as by entry. */
static void h_health(struct bw_req *r) { (void)r; }
static void h_list(struct bw_req *r) { (void)r; }
static void h_create(struct bw_req *r) { (void)r; }
static void h_delete(struct bw_req *r) { (void)r; }
static void h_rotate(struct bw_req *r) { (void)r; }
static void h_two(struct bw_req *r) { (void)r; }
static void h_put(struct bw_req *r) { (void)r; }

static const struct bw_route routes[] = {
    {BW_GET, "/healthz", BW_ACCESS_OPEN, h_health, 0, NULL},
    {BW_GET, "/api/developer/keys", BW_ACCESS_SESSION, h_list, 0, NULL},
    {BW_POST, "/api/developer/keys", BW_ACCESS_SESSION, h_create, BW_ROUTE_BODY, NULL},
    {BW_DELETE, "/api/developer/keys/{id}", BW_ACCESS_SESSION, h_delete, 0, NULL},
    {BW_POST, "/api/developer/keys/{id}/rotate", BW_ACCESS_SESSION, h_rotate, 0, NULL},
    {BW_GET, "/api/orgs/{org}/members/{member}", BW_ACCESS_SESSION, h_two, 0, NULL},
    {BW_PUT, "/api/orgs/{org}/members/{member}", BW_ACCESS_SESSION, h_put, 0, NULL},
};
#define NROUTES (sizeof routes / sizeof *routes)

static int setup(void **state)
{
    (void)state;
    return bw_router_init(routes, NROUTES) == 0 ? 0 : -1;
}

static const struct bw_route *match(struct bw_req *r, enum bw_method m, const char *path, char *allow,
                                    size_t cap)
{
    memset(r, 0, sizeof *r);
    r->nparams = -1;
    if (cap)
        strcpy(allow, "junk");
    return bw_router_match(r, m, path, allow, cap);
}

static void test_static_paths(void **state)
{
    (void)state;
    struct bw_req r;
    char allow[128];
    const struct bw_route *rt = match(&r, BW_GET, "/healthz", allow, sizeof allow);
    assert_ptr_equal(rt, &routes[0]);
    assert_ptr_equal(rt->handler, h_health);
    assert_int_equal(r.nparams, 0);

    rt = match(&r, BW_GET, "/api/developer/keys", allow, sizeof allow);
    assert_ptr_equal(rt, &routes[1]);
    rt = match(&r, BW_POST, "/api/developer/keys", allow, sizeof allow);
    assert_ptr_equal(rt, &routes[2]);
    assert_int_equal(rt->flags, BW_ROUTE_BODY);
    /* HEAD is served by the GET route */
    rt = match(&r, BW_HEAD, "/healthz", allow, sizeof allow);
    assert_ptr_equal(rt, &routes[0]);
}

static void test_params(void **state)
{
    (void)state;
    struct bw_req r;
    char allow[128];
    const struct bw_route *rt = match(&r, BW_DELETE, "/api/developer/keys/key_ABC123", allow, sizeof allow);
    assert_ptr_equal(rt, &routes[3]);
    assert_int_equal(r.nparams, 1);
    assert_string_equal(r.params[0], "key_ABC123");

    rt = match(&r, BW_POST, "/api/developer/keys/svc_abcdefgh/rotate", allow, sizeof allow);
    assert_ptr_equal(rt, &routes[4]);
    assert_int_equal(r.nparams, 1);
    assert_string_equal(r.params[0], "svc_abcdefgh");

    rt = match(&r, BW_GET, "/api/orgs/org_1/members/usr-2.x", allow, sizeof allow);
    assert_ptr_equal(rt, &routes[5]);
    assert_int_equal(r.nparams, 2);
    assert_string_equal(r.params[0], "org_1");
    assert_string_equal(r.params[1], "usr-2.x");

    /* a parameter of exactly the maximum length is captured whole, one more is not a match */
    char path[512], id[BW_MAX_PATH_PARAM_LEN + 2];
    memset(id, 'a', BW_MAX_PATH_PARAM_LEN);
    id[BW_MAX_PATH_PARAM_LEN] = '\0';
    snprintf(path, sizeof path, "/api/developer/keys/%s", id);
    rt = match(&r, BW_DELETE, path, allow, sizeof allow);
    assert_ptr_equal(rt, &routes[3]);
    assert_string_equal(r.params[0], id);
    id[BW_MAX_PATH_PARAM_LEN] = 'a';
    id[BW_MAX_PATH_PARAM_LEN + 1] = '\0';
    snprintf(path, sizeof path, "/api/developer/keys/%s", id);
    assert_null(match(&r, BW_DELETE, path, allow, sizeof allow));
    assert_string_equal(allow, "");

    /* characters outside [A-Za-z0-9_.-] never reach a handler */
    const char *bad[] = {"/api/developer/keys/a%20b", "/api/developer/keys/a b",
                         "/api/developer/keys/a+b",   "/api/developer/keys/a:b",
                         "/api/developer/keys/a;b",   "/api/developer/keys/\xc3\xa9",
                         "/api/developer/keys/a?x=1", "/api/developer/keys/a#f",
                         "/api/developer/keys/",      "/api/developer/keys//rotate"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (match(&r, BW_DELETE, bad[i], allow, sizeof allow))
            fail_msg("DELETE %s matched", bad[i]);
        if (match(&r, BW_POST, bad[i], allow, sizeof allow) == &routes[4])
            fail_msg("POST %s matched rotate", bad[i]);
    }
}

static void test_404_vs_405(void **state)
{
    (void)state;
    struct bw_req r;
    char allow[128];
    /* unknown path: NULL and an empty Allow */
    const char *unknown[] = {"/", "", "/nope", "/healthz/x", "/api", "/api/developer",
                             "/api/developer/keys/k1/rotate/x", "/API/developer/keys", "/Healthz"};
    for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++) {
        assert_null(match(&r, BW_GET, unknown[i], allow, sizeof allow));
        if (allow[0])
            fail_msg("GET '%s': Allow '%s' for an unknown path", unknown[i], allow);
    }
    /* known path, other method: NULL and the methods that exist */
    assert_null(match(&r, BW_POST, "/healthz", allow, sizeof allow));
    assert_string_equal(allow, "GET, HEAD");
    assert_null(match(&r, BW_DELETE, "/api/developer/keys", allow, sizeof allow));
    assert_string_equal(allow, "GET, HEAD, POST");
    assert_null(match(&r, BW_PATCH, "/api/developer/keys/key_1", allow, sizeof allow));
    assert_string_equal(allow, "DELETE");
    assert_null(match(&r, BW_GET, "/api/developer/keys/key_1/rotate", allow, sizeof allow));
    assert_string_equal(allow, "POST");
    assert_null(match(&r, BW_DELETE, "/api/orgs/o/members/m", allow, sizeof allow));
    assert_string_equal(allow, "GET, HEAD, PUT");
    assert_null(match(&r, BW_OTHER, "/healthz", allow, sizeof allow));
    assert_string_equal(allow, "GET, HEAD");
    assert_null(match(&r, BW_OPTIONS, "/api/developer/keys", allow, sizeof allow));
    assert_string_equal(allow, "GET, HEAD, POST");
    assert_null(match(&r, BW_TRACE, "/healthz", allow, sizeof allow));
    assert_string_equal(allow, "GET, HEAD");
    assert_null(match(&r, BW_CONNECT, "/healthz", allow, sizeof allow));
    assert_string_equal(allow, "GET, HEAD");
    /* a path that is only "close" to a parameter route is a 404, not a 405 */
    assert_null(match(&r, BW_PATCH, "/api/developer/keys/bad id", allow, sizeof allow));
    assert_string_equal(allow, "");
}

static void test_trailing_slash_and_query(void **state)
{
    (void)state;
    struct bw_req r;
    char allow[128];
    /* matching is exact: no trailing slash, no doubled slash, no query string (the server passes
     * the path without the query) */
    const char *miss[] = {"/healthz/", "//healthz", "/healthz?x=1", "/api/developer/keys/",
                          "/api//developer/keys", "/api/developer/keys?limit=5", "healthz",
                          "/healthz\n"};
    for (size_t i = 0; i < sizeof miss / sizeof *miss; i++) {
        if (match(&r, BW_GET, miss[i], allow, sizeof allow))
            fail_msg("GET '%s' matched", miss[i]);
        if (allow[0])
            fail_msg("GET '%s' got Allow '%s'", miss[i], allow);
    }
}

static void test_allow_buffer_limits(void **state)
{
    (void)state;
    struct bw_req r;
    /* a small buffer is truncated, never overrun (ASan builds check the bytes after it) */
    char small[8];
    memset(small, 'Q', sizeof small);
    assert_null(bw_router_match(&r, BW_DELETE, "/api/developer/keys", small, 6));
    assert_int_equal(strlen(small), 5);
    assert_memory_equal(small, "GET, ", 5);
    assert_int_equal(small[6], 'Q');
    assert_int_equal(small[7], 'Q');
    /* cap 0: nothing written (the server's first call uses this) */
    memset(small, 'Q', sizeof small);
    assert_null(bw_router_match(&r, BW_DELETE, "/api/developer/keys", small, 0));
    for (size_t i = 0; i < sizeof small; i++)
        assert_int_equal(small[i], 'Q');
    /* r may be NULL when only the Allow list is wanted */
    char allow[64];
    assert_null(bw_router_match(NULL, BW_PUT, "/api/developer/keys/k", allow, sizeof allow));
    assert_string_equal(allow, "DELETE");
    assert_ptr_equal(bw_router_match(NULL, BW_DELETE, "/api/developer/keys/k", allow, sizeof allow), &routes[3]);
}

static void test_init_rejects_bad_patterns(void **state)
{
    (void)state;
    const char *bad[] = {"healthz", "", "/a//b", "//", "/a/b/c/d/e/f/g/h/i/j/k/l/m"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct bw_route one[] = {{BW_GET, bad[i], BW_ACCESS_OPEN, h_health, 0, NULL}};
        if (bw_router_init(one, 1) != -1)
            fail_msg("pattern '%s' accepted", bad[i]);
    }
    /* a pattern may end in '/' (TAXII's paths do): it matches that path only, not the one without */
    struct bw_route slash[] = {{BW_GET, "/t/", BW_ACCESS_OPEN, h_health, 0, NULL},
                               {BW_GET, "/t/{id}/", BW_ACCESS_OPEN, h_list, 0, NULL}};
    assert_int_equal(bw_router_init(slash, 2), 0);
    struct bw_req rs;
    char al[64];
    assert_ptr_equal(match(&rs, BW_GET, "/t/", al, sizeof al), &slash[0]);
    assert_null(match(&rs, BW_GET, "/t", al, sizeof al));
    assert_ptr_equal(match(&rs, BW_GET, "/t/x/", al, sizeof al), &slash[1]);
    assert_string_equal(rs.params[0], "x");
    assert_null(match(&rs, BW_GET, "/t/x", al, sizeof al));
    assert_null(match(&rs, BW_GET, "/t//", al, sizeof al));
    /* twelve segments is the maximum */
    struct bw_route twelve[] = {{BW_GET, "/a/b/c/d/e/f/g/h/i/j/k/l", BW_ACCESS_OPEN, h_health, 0, NULL}};
    assert_int_equal(bw_router_init(twelve, 1), 0);
    struct bw_req r;
    char allow[64];
    assert_ptr_equal(match(&r, BW_GET, "/a/b/c/d/e/f/g/h/i/j/k/l", allow, sizeof allow), &twelve[0]);
    /* too many routes */
    static struct bw_route many[257];
    for (size_t i = 0; i < 257; i++)
        many[i] = (struct bw_route){BW_GET, "/x", BW_ACCESS_OPEN, h_health, 0, NULL};
    assert_int_equal(bw_router_init(many, 257), -1);
    assert_int_equal(bw_router_init(many, 256), 0);
    /* the table used by the other tests */
    assert_int_equal(bw_router_init(routes, NROUTES), 0);
}

static void test_first_route_wins(void **state)
{
    (void)state;
    /* a static route listed before a parameter route with the same shape takes precedence */
    static const struct bw_route t[] = {
        {BW_GET, "/k/latest", BW_ACCESS_OPEN, h_list, 0, NULL},
        {BW_GET, "/k/{id}", BW_ACCESS_OPEN, h_delete, 0, NULL},
    };
    assert_int_equal(bw_router_init(t, 2), 0);
    struct bw_req r;
    char allow[64];
    assert_ptr_equal(match(&r, BW_GET, "/k/latest", allow, sizeof allow), &t[0]);
    assert_ptr_equal(match(&r, BW_GET, "/k/other", allow, sizeof allow), &t[1]);
    assert_string_equal(r.params[0], "other");
    assert_int_equal(bw_router_init(routes, NROUTES), 0);
}

static void test_literal_path_is_not_a_parameter(void **state)
{
    (void)state;
    /* POST /a/register and GET /a/{id}: "register" names the literal route, so GET on it is 405 */
    static const struct bw_route t[] = {
        {BW_GET, "/a/{id}", BW_ACCESS_OPEN, h_list, 0, NULL},
        {BW_DELETE, "/a/{id}", BW_ACCESS_OPEN, h_delete, 0, NULL},
        {BW_POST, "/a/register", BW_ACCESS_OPEN, h_create, BW_ROUTE_BODY, NULL},
        {BW_GET, "/b/{id}", BW_ACCESS_OPEN, h_two, 0, NULL},
    };
    assert_int_equal(bw_router_init(t, 4), 0);
    struct bw_req r;
    char allow[64];
    assert_null(match(&r, BW_GET, "/a/register", allow, sizeof allow));
    assert_string_equal(allow, "POST");
    assert_null(match(&r, BW_DELETE, "/a/register", allow, sizeof allow));
    assert_string_equal(allow, "POST");
    assert_ptr_equal(match(&r, BW_POST, "/a/register", allow, sizeof allow), &t[2]);
    /* other ids still reach the parameter routes */
    assert_ptr_equal(match(&r, BW_GET, "/a/ast_1", allow, sizeof allow), &t[0]);
    assert_string_equal(r.params[0], "ast_1");
    assert_null(match(&r, BW_POST, "/a/ast_1", allow, sizeof allow));
    assert_string_equal(allow, "GET, HEAD, DELETE");
    assert_ptr_equal(match(&r, BW_GET, "/b/register", allow, sizeof allow), &t[3]);
    assert_int_equal(bw_router_init(routes, NROUTES), 0);
}

static void test_methods(void **state)
{
    (void)state;
    const char *names[] = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"};
    for (int i = 0; i < 9; i++) {
        assert_int_equal(bw_method_parse(names[i]), i);
        assert_string_equal(bw_method_name((enum bw_method)i), names[i]);
    }
    assert_int_equal(bw_method_parse("get"), BW_OTHER);
    assert_int_equal(bw_method_parse("trace"), BW_OTHER);
    assert_int_equal(bw_method_parse("FOO"), BW_OTHER);
    assert_int_equal(bw_method_parse(""), BW_OTHER);
    assert_string_equal(bw_method_name(BW_OTHER), "OTHER");
    assert_string_equal(bw_method_name((enum bw_method)99), "OTHER");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_paths),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_404_vs_405),
        cmocka_unit_test(test_trailing_slash_and_query),
        cmocka_unit_test(test_allow_buffer_limits),
        cmocka_unit_test(test_init_rejects_bad_patterns),
        cmocka_unit_test(test_first_route_wins),
        cmocka_unit_test(test_literal_path_is_not_a_parameter),
        cmocka_unit_test(test_methods),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
