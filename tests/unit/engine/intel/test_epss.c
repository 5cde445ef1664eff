/* The EPSS CSV parser, the record members (src/engine/intel/epss.c), EPSS in the composite risk
 * score (golden values of the documented formula) and the gzip reader it arrives through. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/gzip.h"
#include "common/limits.h"
#include "common/timeutil.h"
#include "engine/intel/epss.h"
#include "engine/intel/intel.h"
#include "engine/intel/risk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define HEAD "#model_version:v2025.03.14,score_date:2026-11-26T00:00:00+0000\ncve,epss,percentile\n"

static void decimals(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        int64_t ppb;
    } ok[] = {{"0", 0},           {"1", BW_EPSS_ONE},       {"1.0", BW_EPSS_ONE}, {"0.00043", 430000},
              {"0.95732", 957320000}, {".5", 500000000}, {"0.000000001", 1},  {"0.0000000005", 1},
              {"0.0000000004", 0}, {"4.3e-04", 430000},  {"4.3E-4", 430000},  {"43e-5", 430000},
              {"0.1e1", BW_EPSS_ONE}, {"000.25", 250000000}, {"1.000000000000", BW_EPSS_ONE}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        int64_t v = bw_epss_decimal(ok[i].s, strlen(ok[i].s));
        if (v != ok[i].ppb)
            fail_msg("%s: %lld, expected %lld", ok[i].s, (long long)v, (long long)ok[i].ppb);
    }
    static const char *const bad[] = {"", ".", "-0.1", "1.0000000001", "2", "10", "0.5.1", "0x1", "1e1", "e-5",
                                      "0.5e", "0.5e-", "0.5e-1000", " 0.5", "0.5 ", "nan", "inf", "+0.5",
                                      "0.5%"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (bw_epss_decimal(bad[i], strlen(bad[i])) != -1)
            fail_msg("'%s' was accepted", bad[i]);
}

static int parse(const char *text, struct bw_epss_file *f, struct bw_intel_reject *rej)
{
    memset(rej, 0, sizeof *rej);
    return bw_epss_parse(text, strlen(text), f, rej);
}

static void parses_the_daily_file(void **state)
{
    (void)state;
    struct bw_epss_file f;
    struct bw_intel_reject rej;
    const char *text = "\xEF\xBB\xBF" HEAD "CVE-2024-3568,0.00043,0.12345\r\nCVE-1999-0001,0.0046,0.7385\n"
                       "CVE-2023-6730,0.95732,0.99721";
    assert_int_equal(parse(text, &f, &rej), 0);
    assert_string_equal(f.date, "2026-11-26");
    assert_string_equal(f.model_version, "v2025.03.14");
    assert_int_equal(f.n, 3);
    /* sorted by CVE id */
    assert_string_equal(f.rows[0].cve, "CVE-1999-0001");
    assert_int_equal(f.rows[0].score, 4600000);
    assert_int_equal(f.rows[0].percentile, 738500000);
    assert_string_equal(f.rows[2].cve, "CVE-2024-3568");
    assert_int_equal(f.rows[2].line, 3);
    bw_epss_free(&f);
    /* the older comment spelling: a date alone, the keys in another order; no rows */
    assert_int_equal(parse("#score_date:2022-02-04,model_version:v2022.01.01\ncve,epss,percentile\n", &f, &rej), 0);
    assert_string_equal(f.date, "2022-02-04");
    assert_int_equal(f.n, 0);
    bw_epss_free(&f);
}

static void rejects_with_position(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int line, column;
        const char *msg;
    } bad[] = {
        {"", 0, 1, "empty file"},
        {"cve,epss,percentile\nCVE-2024-0001,0.1,0.2\n", 1, 1, "first line must be the #model_version"},
        {"#model_version:v1\ncve,epss,percentile\n", 1, 1, "no score_date"},
        {"#score_date:2026-13-01\ncve,epss,percentile\n", 1, 13, "not a valid date"},
        {"#score_date:20261101\ncve,epss,percentile\n", 1, 13, "must be a date"},
        {"#score_date:2026-11-01\ncve,score,percentile\n", 2, 1, "header cve,epss,percentile"},
        {HEAD "CVE-2024-0001,0.1\n", 3, 18, "expected 3 columns"},
        {HEAD "CVE-2024-0001,0.1,0.2,x\n", 3, 22, "more than 3 columns"},
        {HEAD "CVE-24-0001,0.1,0.2\n", 3, 1, "not a CVE id"},
        {HEAD "GHSA-xxxx,0.1,0.2\n", 3, 1, "not a CVE id"},
        {HEAD "CVE-2024-0001,1.5,0.2\n", 3, 15, "epss must be a decimal"},
        {HEAD "CVE-2024-0001,0.1,-0.2\n", 3, 19, "percentile must be a decimal"},
        {HEAD "CVE-2024-0001,0.1,0.2\n\nCVE-2024-0002,0.1,0.2\n", 4, 1, "empty line"},
        {HEAD "CVE-2024-0002,0.1,0.2\nCVE-2024-0001,0.1,0.2\nCVE-2024-0002,0.3,0.2\n", 5, 1,
         "CVE-2024-0002 is scored twice (lines 3 and 5)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct bw_epss_file f;
        struct bw_intel_reject rej;
        if (parse(bad[i].text, &f, &rej) == 0)
            fail_msg("case %zu was accepted", i);
        if (f.rows)
            fail_msg("case %zu left rows", i);
        if (rej.at.line != bad[i].line || rej.at.column != bad[i].column || !strstr(rej.msg, bad[i].msg))
            fail_msg("case %zu: %d:%d: %s", i, rej.at.line, rej.at.column, rej.msg);
    }
    /* a NUL byte inside */
    struct bw_epss_file f;
    struct bw_intel_reject rej;
    memset(&rej, 0, sizeof rej);
    assert_int_equal(bw_epss_parse(HEAD "CVE-2024-0001,0.1,0.2\0\n", sizeof HEAD + 22, &f, &rej), -1);
    assert_non_null(strstr(rej.msg, "NUL"));
}

static void history_is_bounded_and_ordered(void **state)
{
    (void)state;
    json_t *r = json_object();
    assert_int_equal(bw_epss_of(r), -1);
    assert_int_equal(bw_epss_apply(r, "2026-11-20", 100000000, 900000000), 1);
    assert_int_equal(bw_epss_of(r), 100000000);
    assert_int_equal(bw_epss_apply(r, "2026-11-20", 100000000, 900000000), 0); /* the same again */
    assert_int_equal(bw_epss_apply(r, "2026-11-20", 200000000, 900000000), 1); /* a corrected file */
    assert_int_equal(json_array_size(json_object_get(r, "epss_history")), 1);
    assert_int_equal(bw_epss_apply(r, "2026-11-10", 50000000, 800000000), 1); /* an older day: history only */
    assert_int_equal(bw_epss_of(r), 200000000);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "epss"), "date")), "2026-11-20");
    /* fill past the bound: newest first, the oldest dropped */
    for (int d = 1; d <= 40; d++) {
        char date[11];
        snprintf(date, sizeof date, "2026-12-%02d", d > 31 ? 31 : d);
        if (d <= 31)
            assert_int_equal(bw_epss_apply(r, date, d * 1000000LL, 500000000), 1);
    }
    json_t *h = json_object_get(r, "epss_history");
    assert_int_equal(json_array_size(h), BW_INTEL_EPSS_HISTORY_MAX);
    assert_string_equal(json_string_value(json_object_get(json_array_get(h, 0), "date")), "2026-12-31");
    assert_string_equal(json_string_value(json_object_get(json_array_get(h, BW_INTEL_EPSS_HISTORY_MAX - 1), "date")),
                        "2026-12-02");
    assert_int_equal(bw_epss_of(r), 31000000);
    /* older than everything a full history keeps: not taken */
    assert_int_equal(bw_epss_apply(r, "2026-01-01", 1, 1), 0);
    json_decref(r);
}

/* EPSS is a non-fact: it does not make facts differ, and a merge keeps it */
static void epss_is_not_a_fact(void **state)
{
    (void)state;
    json_t *a = json_pack("{s:s,s:s,s:b}", "id", "CVE-2024-0001", "title", "t", "kev", 0);
    json_t *b = json_deep_copy(a);
    assert_int_equal(bw_epss_apply(b, "2026-11-26", 5, 5), 1);
    assert_true(bw_intel_same_facts(a, b));
    json_decref(a);
    json_decref(b);
}

static json_t *record(double cvss, bool kev, bool exploit)
{
    return json_pack("{s:{s:f},s:b,s:b,s:[],s:s,s:s,s:s}", "cvss", "base_score", cvss, "kev", kev,
                     "exploit_available", exploit, "ai_impact", "severity", "HIGH", "published", "2020-01-01T00:00:00Z",
                     "updated", "2020-01-01T00:00:00Z");
}

/* Golden values of risk.h's formula with EPSS: exploitation = 20 with KEV, else the larger of 10
 * (an exploit) and round(EPSS x 20). */
static void risk_with_epss(void **state)
{
    (void)state;
    int64_t ref;
    assert_int_equal(bw_parse_iso8601("2026-11-26T00:00:00Z", &ref), 0);
    static const struct {
        double cvss;
        bool kev, exploit;
        int64_t epss; /* ppb, -1 none */
        int score;
    } golden[] = {
        {7.5, false, false, -1, 45},           /* 45 + 0: no EPSS, as before */
        {7.5, false, false, 0, 45},            /* a score of 0 adds nothing */
        {7.5, false, false, 24999999, 45},     /* 0.025 x 20 = 0.49..: rounds to 0 */
        {7.5, false, false, 25000000, 46},     /* 0.025 x 20 = 0.5: rounds up to 1 */
        {7.5, false, false, 430000, 45},       /* the typical tiny score */
        {7.5, false, false, 500000000, 55},    /* 0.5 weighs as a public exploit */
        {7.5, false, true, 400000000, 55},     /* the exploit's 10 beats 0.4's 8 */
        {7.5, false, true, 957320000, 64},     /* 0.957 x 20 = 19.1 beats the exploit's 10 */
        {7.5, false, false, BW_EPSS_ONE, 65},  /* certainty weighs as KEV */
        {7.5, true, false, BW_EPSS_ONE, 65},   /* never added to KEV's 20 */
        {9.8, true, true, 957320000, 79},      /* 59 + 20 */
    };
    for (size_t i = 0; i < sizeof golden / sizeof *golden; i++) {
        json_t *r = record(golden[i].cvss, golden[i].kev, golden[i].exploit);
        if (golden[i].epss >= 0)
            assert_int_equal(bw_epss_apply(r, "2026-11-26", golden[i].epss, 500000000), 1);
        int got = bw_risk_score(r, ref);
        if (got != golden[i].score)
            fail_msg("case %zu: %d, expected %d", i, got, golden[i].score);
        json_decref(r);
    }
}

/* gzip: whole, concatenated members, truncated, corrupt, bombs */
static size_t gz(const char *text, size_t n, unsigned char *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (Bytef *)(uintptr_t)text;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t len = cap - z.avail_out;
    deflateEnd(&z);
    return len;
}

static void gunzip(void **state)
{
    (void)state;
    static unsigned char buf[1 << 16], two[1 << 17];
    const char *text = HEAD "CVE-2024-3568,0.00043,0.12345\n";
    size_t n = gz(text, strlen(text), buf, sizeof buf);
    assert_true(bw_is_gzip(buf, n));
    assert_false(bw_is_gzip(text, strlen(text)));
    char *out, why[128];
    size_t len;
    assert_int_equal(bw_gunzip(buf, n, 1024, &out, &len, why, sizeof why), 0);
    assert_int_equal(len, strlen(text));
    assert_string_equal(out, text);
    free(out);
    /* two members, as `cat a.gz b.gz` makes */
    memcpy(two, buf, n);
    memcpy(two + n, buf, n);
    assert_int_equal(bw_gunzip(two, 2 * n, 1024, &out, &len, why, sizeof why), 0);
    assert_int_equal(len, 2 * strlen(text));
    free(out);
    /* truncated anywhere: refused */
    for (size_t cut = 0; cut < n; cut++) {
        if (bw_gunzip(buf, cut, 1024, &out, &len, why, sizeof why) == 0)
            fail_msg("a gzip cut at %zu of %zu bytes was accepted", cut, n);
        assert_null(out);
    }
    assert_int_equal(bw_gunzip(buf, n - 3, 1024, &out, &len, why, sizeof why), -1);
    assert_string_equal(why, "truncated gzip data");
    /* a flipped byte in the data or the CRC: corrupt */
    buf[n - 6] ^= 0xff;
    assert_int_equal(bw_gunzip(buf, n, 1024, &out, &len, why, sizeof why), -1);
    assert_non_null(strstr(why, "corrupt"));
    buf[n - 6] ^= 0xff;
    /* garbage after the stream */
    memcpy(two, buf, n);
    memcpy(two + n, "xyz", 3);
    assert_int_equal(bw_gunzip(two, n + 3, 1024, &out, &len, why, sizeof why), -1);
    /* larger than allowed once decompressed: 64 KiB of zeros in ~100 bytes */
    static char zeros[1 << 16];
    size_t zn = gz(zeros, sizeof zeros, buf, sizeof buf);
    assert_true(zn < 1024);
    assert_int_equal(bw_gunzip(buf, zn, 4096, &out, &len, why, sizeof why), -1);
    assert_non_null(strstr(why, "larger than 4096 bytes"));
    assert_int_equal(bw_gunzip(buf, zn, sizeof zeros, &out, &len, why, sizeof why), 0); /* exactly the bound */
    assert_int_equal(len, sizeof zeros);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decimals),          cmocka_unit_test(parses_the_daily_file),
        cmocka_unit_test(rejects_with_position), cmocka_unit_test(history_is_bounded_and_ordered),
        cmocka_unit_test(epss_is_not_a_fact), cmocka_unit_test(risk_with_epss),
        cmocka_unit_test(gunzip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
