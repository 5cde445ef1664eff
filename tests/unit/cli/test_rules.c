/* The embedded rule catalog: size and coverage the issue asks for, and every rule's own positive
 * and negative examples (a rule without both cannot even be loaded). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cli/cli.h"
#include "engine/code/scanner.h"

#include <stdio.h>
#include <string.h>

static struct bw_scanner *sc;

static int setup(void **state)
{
    (void)state;
    char err[512];
    sc = bw_scanner_new_embedded(err, sizeof err);
    if (!sc)
        fprintf(stderr, "catalog: %s\n", err);
    return sc ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    bw_scanner_free(sc);
    return 0;
}

static void catalog_is_large_enough(void **state)
{
    (void)state;
    assert_true(bw_scanner_rule_count(sc) >= 150);
}

static void every_language_has_every_category(void **state)
{
    (void)state;
    static const char *const cats[] = {"injection", "auth", "secrets", "crypto", "ssrf", "ai_llm"};
    int missing = 0;
    for (int l = 0; l < BW_LANG_COUNT; l++)
        for (size_t c = 0; c < 6; c++) {
            int n = 0;
            for (size_t i = 0; i < bw_scanner_rule_count(sc); i++) {
                const struct bw_rule *r = bw_scanner_rule(sc, i);
                n += (r->langs & (1u << l)) && strcmp(r->category, cats[c]) == 0;
            }
            if (n == 0) {
                fprintf(stderr, "no %s rule for %s\n", cats[c], bw_lang_name((enum bw_lang)l));
                missing++;
            }
        }
    assert_int_equal(missing, 0);
}

static void ai_rules_name_their_owasp_risk(void **state)
{
    (void)state;
    for (size_t i = 0; i < bw_scanner_rule_count(sc); i++) {
        const struct bw_rule *r = bw_scanner_rule(sc, i);
        if (strcmp(r->category, "ai_llm") == 0 && !r->owasp_llm)
            fail_msg("%s has no owasp_llm", r->id);
    }
}

static void every_example_behaves(void **state)
{
    (void)state;
    int n = 0;
    int fails = bw_rules_test_all(sc, stderr, &n);
    assert_true(n >= 2 * (int)bw_scanner_rule_count(sc));
    assert_int_equal(fails, 0);
}

static void catalog_document_lists_every_rule(void **state)
{
    (void)state;
    size_t len;
    const char *s = bw_scanner_catalog_json(sc, &len);
    json_t *doc = json_loadb(s, len, 0, NULL);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "total_rules")), bw_scanner_rule_count(sc));
    assert_int_equal(json_array_size(json_object_get(doc, "patterns")), bw_scanner_rule_count(sc));
    assert_int_equal(json_array_size(json_object_get(doc, "categories")), 6);
    json_decref(doc);
}

/* Rule ids found in code (one scan), comma-separated, in the scanner's order. */
static const char *found(enum bw_lang l, const char *code)
{
    static char ids[512];
    struct bw_findings f;
    assert_int_equal(bw_scan(sc, l, code, strlen(code), false, &f), 0);
    ids[0] = '\0';
    for (size_t i = 0; i < f.n; i++)
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", i ? "," : "", f.v[i].rule->id);
    bw_findings_free(&f);
    return ids;
}

/* One secret on a line is one finding: the AWS secret key rule and the generic credential
 * rule both match an AWS secret assignment; the more severe (the specific one) is kept. */
static void one_finding_per_secret(void **state)
{
    (void)state;
    assert_string_equal(found(BW_LANG_PY, "AWS_SECRET_ACCESS_KEY = \"9drTJvcXLB89EXAMqlp8RmN1yRjSf1lbQyb3Fj7P\"\n"),
                        "BW-SEC-002");
    assert_string_equal(found(BW_LANG_JS, "const aws_secret_access_key = '9drTJvcXLB89EXAMqlp8RmN1yRjSf1lbQyb3Fj7P';\n"),
                        "BW-SEC-002");
    /* two different secrets on one line stay two findings */
    assert_string_equal(found(BW_LANG_PY, "DB_PASSWORD = \"kP9vR2mW7qL4xZ8tB3nF\"; API_KEY = \"Zq8Lm2Vt6Xn4Rb7Wp1Kc\"\n"),
                        "BW-SEC-037");
}

/* A password word inside a string literal or a comment is no password: "/etc/passwd" hashed
 * with MD5 is not a password hashed with MD5 (BW-CRY-004, MD5 itself, still is reported); a
 * string that is only a name ($_POST['password']) is a key, and counts. */
static void password_words_in_strings_are_not_passwords(void **state)
{
    (void)state;
    assert_string_equal(found(BW_LANG_PY, "digest = hashlib.md5(\"file:///etc/passwd\".encode()).hexdigest()\n"),
                        "BW-CRY-004");
    assert_string_equal(found(BW_LANG_PY, "h = hashlib.sha256(b\"/etc/passwd contents\").hexdigest()\n"), "");
    assert_string_equal(found(BW_LANG_PHP, "$h = md5($path . '/etc/passwd');\n"), "BW-CRY-004");
    assert_string_equal(found(BW_LANG_PHP, "$h = md5($_POST['password']);\n"), "BW-CRY-001,BW-CRY-004");
    assert_string_equal(found(BW_LANG_PY, "h = hashlib.sha256(request.form[\"user_password\"].encode())\n"), "BW-CRY-022");
    assert_string_equal(found(BW_LANG_PY, "h = hashlib.md5(data)  # not the password\n"), "BW-CRY-004");
    /* in code it still is one */
    assert_string_equal(found(BW_LANG_PY, "h = hashlib.md5(password.encode()).hexdigest()\n"), "BW-CRY-001,BW-CRY-004");
    assert_string_equal(found(BW_LANG_PHP, "$h = md5($password);\n"), "BW-CRY-001,BW-CRY-004");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(catalog_is_large_enough),
        cmocka_unit_test(every_language_has_every_category),
        cmocka_unit_test(ai_rules_name_their_owasp_risk),
        cmocka_unit_test(every_example_behaves),
        cmocka_unit_test(catalog_document_lists_every_rule),
        cmocka_unit_test(one_finding_per_secret),
        cmocka_unit_test(password_words_in_strings_are_not_passwords),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
