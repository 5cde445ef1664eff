/* CVE and CWE ids (src/engine/intel/ids.c): the shapes the generators take from a record, the
 * longer numbers the importers accept, and malformed ids of every kind refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/intel/ids.h"

#include <string.h>

static void cve_well_formed(void **state)
{
    (void)state;
    static const char *const ok[] = {"CVE-2024-3568", "CVE-1999-0001", "CVE-2025-12345", "CVE-2021-44228",
                                     "CVE-2099-12345678901" /* 11 digits: 20 characters */};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        assert_true(bw_cve_valid(ok[i]));
        assert_true(bw_cve_shape(ok[i], BW_INTEL_CVE_SEQ_IMPORT));
    }
}

static void cve_malformed(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",                     /* empty */
        "CVE-",                 /* prefix only */
        "CVE-2024",             /* no sequence */
        "CVE-2024-",            /* empty sequence */
        "CVE-2024-123",         /* three digits */
        "cve-2024-1234",        /* lower case prefix */
        "CVE_2024_1234",        /* wrong separators */
        "CVE-24-1234",          /* two-digit year */
        "CVE-20245-1234",       /* five-digit year */
        "CVE-2O24-1234",        /* letter O in the year */
        "CVE-2024-12a4",        /* letter in the sequence */
        "CVE-2024-1234 ",       /* trailing space */
        " CVE-2024-1234",       /* leading space */
        "CVE-2024-1234\n",      /* trailing newline */
        "CVE-2024--1234",       /* doubled dash */
        "CVE-2024-+1234",       /* sign */
        "CVE-2024-1234-1",      /* extra part */
        "GHSA-2024-1234",       /* another kind of id */
        "CVE-2024-123456789012" /* 12 digits: longer than the generators take */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(bw_cve_valid(bad[i]));
    assert_false(bw_cve_valid(NULL));
    assert_false(bw_cve_shape(NULL, BW_INTEL_CVE_SEQ_IMPORT));
}

static void cve_import_length(void **state)
{
    (void)state;
    /* importers take up to 19 digits of sequence, no more */
    assert_true(bw_cve_shape("CVE-2024-123456789012", BW_INTEL_CVE_SEQ_IMPORT));
    assert_true(bw_cve_shape("CVE-2024-1234567890123456789", BW_INTEL_CVE_SEQ_IMPORT));
    assert_false(bw_cve_shape("CVE-2024-12345678901234567890", BW_INTEL_CVE_SEQ_IMPORT));
    assert_false(bw_cve_shape("CVE-2024-123", BW_INTEL_CVE_SEQ_IMPORT));
    /* the bound is the caller's: four digits is the shortest whatever it says */
    assert_true(bw_cve_shape("CVE-2024-1234", 4));
    assert_false(bw_cve_shape("CVE-2024-12345", 4));
    assert_false(bw_cve_shape("CVE-2024-123", 3));
}

static void cwe_numbers(void **state)
{
    (void)state;
    assert_int_equal(bw_cwe_number("CWE-22"), 22);
    assert_int_equal(bw_cwe_number("CWE-1"), 1);
    assert_int_equal(bw_cwe_number("CWE-0"), 0);
    assert_int_equal(bw_cwe_number("CWE-022"), 22);
    assert_int_equal(bw_cwe_number("CWE-1427"), 1427);
    assert_int_equal(bw_cwe_number("CWE-999999"), 999999);
    assert_int_equal(bw_cwe_parse("CWE-999999999", BW_INTEL_CWE_DIGITS_IMPORT), 999999999);
}

static void cwe_malformed(void **state)
{
    (void)state;
    static const char *const bad[] = {"",         "CWE",       "CWE-",     "CWE-x",    "CWE-22a", "CWE-2 2",
                                      "cwe-22",   "CWE_22",    "CWE--22",  "CWE-+22",  "CWE-22 ", " CWE-22",
                                      "CWE-22\n", "CWE-1234567" /* 7 digits */, "NVD-CWE-Other"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(bw_cwe_number(bad[i]), -1);
    assert_int_equal(bw_cwe_number(NULL), -1);
    /* importers: up to 9 digits, never more, whatever the caller asks (the number must fit an int) */
    assert_int_equal(bw_cwe_parse("CWE-1234567", BW_INTEL_CWE_DIGITS_IMPORT), 1234567);
    assert_int_equal(bw_cwe_parse("CWE-1234567890", BW_INTEL_CWE_DIGITS_IMPORT), -1);
    assert_int_equal(bw_cwe_parse("CWE-99999999999", 20), -1);
    assert_int_equal(bw_cwe_parse(NULL, BW_INTEL_CWE_DIGITS_IMPORT), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cve_well_formed), cmocka_unit_test(cve_malformed), cmocka_unit_test(cve_import_length),
        cmocka_unit_test(cwe_numbers),     cmocka_unit_test(cwe_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
