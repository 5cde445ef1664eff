/* The OpenAPI document and the route table describe the same API: every route is documented
 * with its access level, and every documented operation is routed. Also checks the document's
 * own conventions (operationId, error responses). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "api/api.h"
#include "auth/policy.h"
#include "common/embedded.h"
#include "services/webhooks.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static json_t *load_doc(void)
{
    const struct bw_embedded *f = bw_embedded_find("docs/openapi.json");
    assert_non_null(f);
    json_error_t err;
    json_t *doc = json_loadb((const char *)f->data, f->len, 0, &err);
    if (!doc)
        fail_msg("docs/openapi.json: %s at line %d", err.text, err.line);
    return doc;
}

static void lower(const char *in, char *out, size_t n)
{
    size_t i = 0;
    for (; in[i] && i + 1 < n; i++)
        out[i] = (char)tolower((unsigned char)in[i]);
    out[i] = '\0';
}

/* Number of disagreements between the document's paths and a route table; the first is
 * described in why. */
static int mismatches(json_t *paths, const struct bw_route *routes, size_t n, char *why, size_t wn)
{
    int bad = 0;
    why[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char m[16];
        lower(bw_method_name(routes[i].method), m, sizeof m);
        json_t *op = json_object_get(json_object_get(paths, routes[i].pattern), m);
        const char *acc = json_string_value(json_object_get(op, "x-bulwark-access"));
        if (!op || !acc || strcmp(acc, bw_access_name(routes[i].access)) != 0) {
            if (!bad++)
                snprintf(why, wn, "route %s %s: %s", m, routes[i].pattern,
                         !op ? "not documented" : "x-bulwark-access differs from the route table");
        }
    }
    const char *path;
    json_t *item;
    json_object_foreach(paths, path, item) {
        const char *method;
        json_t *op;
        json_object_foreach(item, method, op) {
            if (strcmp(method, "parameters") == 0 || strcmp(method, "summary") == 0 ||
                strcmp(method, "description") == 0)
                continue;
            bool found = false;
            for (size_t i = 0; i < n && !found; i++) {
                char m[16];
                lower(bw_method_name(routes[i].method), m, sizeof m);
                found = strcmp(m, method) == 0 && strcmp(routes[i].pattern, path) == 0;
            }
            if (!found || !json_is_string(json_object_get(op, "operationId")) ||
                !json_is_object(json_object_get(op, "responses"))) {
                if (!bad++)
                    snprintf(why, wn, "documented %s %s: %s", method, path,
                             !found ? "has no route" : "lacks operationId or responses");
            }
        }
    }
    return bad;
}

static void document_and_route_table_agree(void **state)
{
    (void)state;
    json_t *doc = load_doc();
    char why[256];
    if (mismatches(json_object_get(doc, "paths"), bw_routes, bw_routes_count, why, sizeof why))
        fail_msg("docs/openapi.json and src/api/routes.c disagree: %s", why);
    json_decref(doc);
}

static void undocumented_route_is_caught(void **state)
{
    (void)state;
    json_t *doc = load_doc();
    struct bw_route more[BW_ROUTES_MAX];
    assert_true(bw_routes_count < BW_ROUTES_MAX);
    memcpy(more, bw_routes, bw_routes_count * sizeof more[0]);
    more[bw_routes_count] = (struct bw_route){BW_GET, "/api/not-documented", BW_ACCESS_PUBLIC, NULL, 0, NULL};
    char why[256];
    assert_int_equal(mismatches(json_object_get(doc, "paths"), more, bw_routes_count + 1, why, sizeof why), 1);
    assert_non_null(strstr(why, "/api/not-documented"));
    /* a route whose access level changed */
    more[0].access = more[0].access == BW_ACCESS_ADMIN ? BW_ACCESS_PUBLIC : BW_ACCESS_ADMIN;
    assert_int_equal(mismatches(json_object_get(doc, "paths"), more, bw_routes_count, why, sizeof why), 1);
    json_decref(doc);
}

static void unrouted_operation_is_caught(void **state)
{
    (void)state;
    json_t *doc = load_doc();
    json_object_set_new(json_object_get(doc, "paths"), "/api/ghost",
                        json_pack("{s:{s:s,s:{}}}", "get", "operationId", "ghost", "responses"));
    char why[256];
    assert_int_equal(mismatches(json_object_get(doc, "paths"), bw_routes, bw_routes_count, why, sizeof why), 1);
    assert_non_null(strstr(why, "/api/ghost"));
    json_decref(doc);
}

static void document_is_openapi_31_with_error_envelope(void **state)
{
    (void)state;
    json_t *doc = load_doc();
    assert_string_equal(json_string_value(json_object_get(doc, "openapi")), "3.1.0");
    json_t *schemas = json_object_get(json_object_get(doc, "components"), "schemas");
    assert_non_null(json_object_get(schemas, "Error"));
    json_decref(doc);
}

/* info.license as OpenAPI 3.1 has it: a name, and an SPDX identifier instead of a url (the two
 * are mutually exclusive); the same licence as LICENSE at the repository's root. */
static void document_names_its_licence(void **state)
{
    (void)state;
    json_t *doc = load_doc();
    json_t *lic = json_object_get(json_object_get(doc, "info"), "license");
    assert_true(json_is_object(lic));
    assert_string_equal(json_string_value(json_object_get(lic, "name")), "Apache-2.0");
    assert_string_equal(json_string_value(json_object_get(lic, "identifier")), "Apache-2.0");
    assert_null(json_object_get(lic, "url"));
    json_decref(doc);
}

/* The webhook service queues and sends events only to accounts at BW_WEBHOOK_TIER: the tier the
 * webhook routes' access level lets in, and no lower one. */
static void webhook_tier_is_the_routes_tier(void **state)
{
    (void)state;
    int seen = 0;
    for (size_t i = 0; i < bw_routes_count; i++) {
        if (strncmp(bw_routes[i].pattern, "/api/webhooks", 13) != 0)
            continue;
        seen++;
        for (int t = 0; t < BW_TIER__COUNT; t++) {
            struct bw_principal p = {.kind = BW_AUTH_JWT, .tier = (enum bw_tier)t, .role = BW_ROLE_USER};
            snprintf(p.user_id, sizeof p.user_id, "usr_x");
            bool ok = bw_policy_check(bw_routes[i].access, &p).err == BW_OK;
            if (ok != (t >= BW_WEBHOOK_TIER))
                fail_msg("%s: tier %s %s the route but BW_WEBHOOK_TIER is %s", bw_routes[i].pattern,
                         bw_tier_name((enum bw_tier)t), ok ? "passes" : "is refused", bw_tier_name(BW_WEBHOOK_TIER));
        }
    }
    assert_true(seen >= 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(document_and_route_table_agree),
        cmocka_unit_test(undocumented_route_is_caught),
        cmocka_unit_test(unrouted_operation_is_caught),
        cmocka_unit_test(document_is_openapi_31_with_error_envelope),
        cmocka_unit_test(document_names_its_licence),
        cmocka_unit_test(webhook_tier_is_the_routes_tier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
