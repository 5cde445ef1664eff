/* The shared URL and address model (src/net/url.h, addr.h), and its agreement with its readers: one
 * table of URLs (IPv4 in every spelling, IPv6 forms embedding IPv4, metadata addresses and names,
 * userinfo and fragment tricks, percent-encoding, IDN, trailing dots, case, ports) goes to the
 * parser, to the egress guard's check, to the asset posture score and to the MCP scan, and each
 * verdict must follow from the one class the parser gives. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/limits.h"
#include "engine/mcpscan.h"
#include "mcp_fixture.h"
#include "engine/posture.h"
#include "net/egress.h"
#include "net/url.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BAD (-1) /* refused by every reader */

enum { NAME, LIT };

static const struct {
    const char *url;
    int cls;      /* enum bw_addr_class, or BAD */
    int lit;      /* NAME or LIT (an address literal) */
    bool ui;      /* carries userinfo */
    const char *host; /* the normalised host, NULL: not checked */
} URLS[] = {
    /* IPv4 loopback in every spelling */
    {"http://127.0.0.1/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://2130706433/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://0x7f000001/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://017700000001/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://0x7f.1/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://0177.0.0.1/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://0x7F.0.0.0x1/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://127.1/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://127.0.1/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://127.0.0.1./", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://127.0.0.1:8080/x", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://%31%32%37.0.0.1/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    /* unspecified */
    {"http://0/", BW_ADDR_UNSPECIFIED, LIT, false, "0.0.0.0"},
    {"http://0.0.0.0:8000/", BW_ADDR_UNSPECIFIED, LIT, false, "0.0.0.0"},
    {"http://0x0/", BW_ADDR_UNSPECIFIED, LIT, false, "0.0.0.0"},
    {"http://[::]/", BW_ADDR_UNSPECIFIED, LIT, false, "::"},
    {"http://[0:0:0:0:0:0:0:0]/", BW_ADDR_UNSPECIFIED, LIT, false, "::"},
    /* IPv6 loopback, and IPv6 forms judged by the IPv4 they carry */
    {"http://[::1]/", BW_ADDR_LOOPBACK, LIT, false, "::1"},
    {"https://[::1]:8443/", BW_ADDR_LOOPBACK, LIT, false, "::1"},
    {"http://[::ffff:7f00:1]/", BW_ADDR_LOOPBACK, LIT, false, "::ffff:127.0.0.1"},
    {"http://[0:0:0:0:0:ffff:127.0.0.1]/", BW_ADDR_LOOPBACK, LIT, false, "::ffff:127.0.0.1"},
    {"http://[::FFFF:127.0.0.1]/", BW_ADDR_LOOPBACK, LIT, false, "::ffff:127.0.0.1"},
    {"http://[::127.0.0.1]/", BW_ADDR_LOOPBACK, LIT, false, NULL},
    {"http://[64:ff9b::127.0.0.1]/", BW_ADDR_LOOPBACK, LIT, false, NULL},
    {"http://[64:ff9b::7f00:1]:3000/", BW_ADDR_LOOPBACK, LIT, false, NULL},
    {"http://[64:ff9b:1::a00:1]/", BW_ADDR_PRIVATE, LIT, false, NULL},
    {"http://[::ffff:10.0.0.1]/", BW_ADDR_PRIVATE, LIT, false, NULL},
    {"http://[::ffff:8.8.8.8]/", BW_ADDR_PUBLIC, LIT, false, NULL},
    /* cloud metadata: addresses in their spellings, and names */
    {"http://169.254.169.254/latest/meta-data/", BW_ADDR_METADATA, LIT, false, "169.254.169.254"},
    {"http://2852039166/", BW_ADDR_METADATA, LIT, false, "169.254.169.254"},
    {"http://0xa9fea9fe/", BW_ADDR_METADATA, LIT, false, "169.254.169.254"},
    {"http://0251.0376.0251.0376/", BW_ADDR_METADATA, LIT, false, "169.254.169.254"},
    {"http://169.254.43518/", BW_ADDR_METADATA, LIT, false, "169.254.169.254"},
    {"http://[::ffff:169.254.169.254]/", BW_ADDR_METADATA, LIT, false, NULL},
    {"http://[64:ff9b::a9fe:a9fe]/", BW_ADDR_METADATA, LIT, false, NULL},
    {"http://[fd00:ec2::254]/", BW_ADDR_METADATA, LIT, false, "fd00:ec2::254"},
    {"http://169.254.170.2/v2/credentials", BW_ADDR_METADATA, LIT, false, NULL},
    {"http://100.100.100.200/", BW_ADDR_METADATA, LIT, false, NULL},
    {"http://metadata.google.internal/computeMetadata/v1/", BW_ADDR_METADATA, NAME, false, "metadata.google.internal"},
    {"http://METADATA.Google.Internal./", BW_ADDR_METADATA, NAME, false, "metadata.google.internal"},
    {"http://metadata/", BW_ADDR_METADATA, NAME, false, "metadata"},
    {"http://metadata.goog/", BW_ADDR_METADATA, NAME, false, NULL},
    {"http://instance-data.ec2.internal/", BW_ADDR_METADATA, NAME, false, NULL},
    /* userinfo, fragment and query tricks: the host is what curl connects to */
    {"http://public.example@127.0.0.1/", BW_ADDR_LOOPBACK, LIT, true, "127.0.0.1"},
    {"http://public.example:443@2130706433/", BW_ADDR_LOOPBACK, LIT, true, "127.0.0.1"},
    {"http://user:pw@10.0.0.1:8080/", BW_ADDR_PRIVATE, LIT, true, "10.0.0.1"},
    {"http://127.0.0.1@public.example/", BW_ADDR_PUBLIC, NAME, true, "public.example"},
    {"http://127.0.0.1#@public.example/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://127.0.0.1?@public.example/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    {"http://127.0.0.1/@public.example/", BW_ADDR_LOOPBACK, LIT, false, "127.0.0.1"},
    /* private, link-local, CGNAT, multicast, reserved */
    {"http://10.0.0.1/", BW_ADDR_PRIVATE, LIT, false, NULL},
    {"http://167772161/", BW_ADDR_PRIVATE, LIT, false, "10.0.0.1"},
    {"http://10.1/", BW_ADDR_PRIVATE, LIT, false, "10.0.0.1"},
    {"http://012.0.0.1/", BW_ADDR_PRIVATE, LIT, false, "10.0.0.1"},
    {"https://172.16.0.1:8443/", BW_ADDR_PRIVATE, LIT, false, NULL},
    {"http://192.168.1.1/", BW_ADDR_PRIVATE, LIT, false, NULL},
    {"http://[fd12::1]/", BW_ADDR_PRIVATE, LIT, false, "fd12::1"},
    {"http://[fe80::1]/", BW_ADDR_LINK_LOCAL, LIT, false, NULL},
    {"http://169.254.1.1/", BW_ADDR_LINK_LOCAL, LIT, false, NULL},
    {"http://100.64.0.1/", BW_ADDR_CGNAT, LIT, false, NULL},
    {"http://224.0.0.1/", BW_ADDR_MULTICAST, LIT, false, NULL},
    {"http://[ff02::1]/", BW_ADDR_MULTICAST, LIT, false, NULL},
    {"http://255.255.255.255/", BW_ADDR_RESERVED, LIT, false, NULL},
    {"http://192.0.2.1/", BW_ADDR_RESERVED, LIT, false, NULL},
    {"http://[2001:db8::1]/", BW_ADDR_RESERVED, LIT, false, NULL},
    /* public literals */
    {"http://8.8.8.8/", BW_ADDR_PUBLIC, LIT, false, "8.8.8.8"},
    {"https://134744072/", BW_ADDR_PUBLIC, LIT, false, "8.8.8.8"},
    {"https://[2606:4700::1111]/", BW_ADDR_PUBLIC, LIT, false, "2606:4700::1111"},
    /* names: localhost and *.localhost are loopback, the rest is left to DNS */
    {"http://localhost/", BW_ADDR_LOOPBACK, NAME, false, "localhost"},
    {"http://LOCALHOST./", BW_ADDR_LOOPBACK, NAME, false, "localhost"},
    {"HTTP://LocalHost:8000/x", BW_ADDR_LOOPBACK, NAME, false, "localhost"},
    {"http://app.localhost/", BW_ADDR_LOOPBACK, NAME, false, "app.localhost"},
    {"http://a.b.localhost./", BW_ADDR_LOOPBACK, NAME, false, "a.b.localhost"},
    {"http://%6c%6f%63%61%6c%68%6f%73%74/", BW_ADDR_LOOPBACK, NAME, false, "localhost"},
    {"http://localhost.example.com/", BW_ADDR_PUBLIC, NAME, false, NULL},
    {"http://notlocalhost/", BW_ADDR_PUBLIC, NAME, false, NULL},
    {"https://api.example.com/v1", BW_ADDR_PUBLIC, NAME, false, "api.example.com"},
    {"HTTPS://API.Example.COM:443/", BW_ADDR_PUBLIC, NAME, false, "api.example.com"},
    {"https://api.example.com.:8443/", BW_ADDR_PUBLIC, NAME, false, "api.example.com"},
    {"http://ex%61mple.com/", BW_ADDR_PUBLIC, NAME, false, "example.com"},
    {"https://xn--bcher-kva.example/", BW_ADDR_PUBLIC, NAME, false, "xn--bcher-kva.example"},
    {"http://1.2.3.example/", BW_ADDR_PUBLIC, NAME, false, NULL},
    /* refused by every reader: what two parsers could read differently */
    {"http://b\303\274cher.example/", BAD, NAME, false, NULL},
    {"http://%E2%93%9B%E2%93%9E%E2%93%92%E2%93%90%E2%93%9B%E2%93%97%E2%93%9E%E2%93%A2%E2%93%A3/", BAD, NAME, false,
     NULL}, /* fullwidth-circled "localhost": IDNA would map it to localhost */
    {"http://[fe80::1%25eth0]/", BAD, NAME, false, NULL},
    {"http://256.0.0.1/", BAD, NAME, false, NULL},
    {"http://08.0.0.1/", BAD, NAME, false, NULL},
    {"http://1.2.3.4.5/", BAD, NAME, false, NULL},
    {"http://0x100000000/", BAD, NAME, false, NULL},
    {"http://a..example/", BAD, NAME, false, NULL},
    {"http://.example/", BAD, NAME, false, NULL},
    {"http://example.com\\@127.0.0.1/", BAD, NAME, false, NULL},
    {"http:/127.0.0.1/", BAD, NAME, false, NULL},
    {"http:///127.0.0.1/", BAD, NAME, false, NULL},
    {"http://127.0.0.1:0/", BAD, NAME, false, NULL},
    {"http://127.0.0.1:65536/", BAD, NAME, false, NULL},
    {"http://exa mple.com/", BAD, NAME, false, NULL},
    {"http://a@b@127.0.0.1/", BAD, NAME, false, NULL},
    {"http://[::1/", BAD, NAME, false, NULL},
    {"http://%00/", BAD, NAME, false, NULL},
    {"http://", BAD, NAME, false, NULL},
};

/* ---- the parser ---------------------------------------------------------------------------- */

static void test_parse_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof URLS / sizeof URLS[0]; i++) {
        struct bw_url u;
        char why[128] = "x";
        const enum bw_url_rc rc = bw_url_parse(&u, URLS[i].url, why, sizeof why);
        if (URLS[i].cls == BAD) {
            if (rc != BW_URL_BAD || !why[0])
                fail_msg("%s: accepted", URLS[i].url);
        } else if (rc != BW_URL_OK) {
            fail_msg("%s: %s", URLS[i].url, why);
        } else {
            if ((int)u.host.cls != URLS[i].cls)
                fail_msg("%s: %s, expected %s", URLS[i].url, bw_addr_class_name(u.host.cls),
                         bw_addr_class_name((enum bw_addr_class)URLS[i].cls));
            if ((u.host.family != AF_UNSPEC) != (URLS[i].lit == LIT) || u.userinfo != URLS[i].ui)
                fail_msg("%s: literal %d, userinfo %d", URLS[i].url, u.host.family != AF_UNSPEC, u.userinfo);
            if (URLS[i].host && strcmp(u.host.name, URLS[i].host))
                fail_msg("%s: host %s, expected %s", URLS[i].url, u.host.name, URLS[i].host);
            assert_true(u.host.why && *u.host.why);
            assert_true(u.port > 0 && u.port <= 65535);
        }
        bw_url_free(&u);
    }
}

static void test_parse_fields(void **state)
{
    (void)state;
    struct bw_url u;
    char out[256], why[128];

    assert_int_equal(bw_url_parse(&u, "HTTPS://user:pw@Example.COM.:8443/a/b?token=x#frag", why, sizeof why), BW_URL_OK);
    assert_string_equal(u.scheme, "https");
    assert_string_equal(u.host.name, "example.com");
    assert_true(u.host.trailing_dot);
    assert_int_equal(u.port, 8443);
    assert_true(u.port_explicit);
    assert_true(u.userinfo);
    assert_true(bw_url_get(&u, BW_URL_NO_USERINFO | BW_URL_NO_QUERY | BW_URL_NO_FRAGMENT, out, sizeof out));
    assert_string_equal(out, "https://Example.COM.:8443/a/b");
    assert_true(bw_url_get(&u, BW_URL_NO_FRAGMENT, out, sizeof out));
    assert_string_equal(out, "https://user:pw@Example.COM.:8443/a/b?token=x");
    assert_false(bw_url_get(&u, 0, out, 10)); /* does not fit */
    bw_url_free(&u);

    /* default ports by scheme; an IPv4 literal is respelled for everyone downstream */
    assert_int_equal(bw_url_parse(&u, "http://0x7f.1", NULL, 0), BW_URL_OK);
    assert_int_equal(u.port, 80);
    assert_false(u.port_explicit);
    assert_true(bw_url_get(&u, 0, out, sizeof out));
    assert_string_equal(out, "http://127.0.0.1/");
    bw_url_free(&u);
    assert_int_equal(bw_url_parse(&u, "http://127.0.0.1./", NULL, 0), BW_URL_OK);
    assert_true(bw_url_get(&u, 0, out, sizeof out));
    assert_string_equal(out, "http://127.0.0.1/");
    bw_url_free(&u);
    assert_int_equal(bw_url_parse(&u, "wss://mcp.example.com/ws", NULL, 0), BW_URL_OK);
    assert_string_equal(u.scheme, "wss");
    assert_int_equal(u.port, 443);
    bw_url_free(&u);
    assert_int_equal(bw_url_parse(&u, "ws://mcp.example.com/ws", NULL, 0), BW_URL_OK);
    assert_int_equal(u.port, 80);
    bw_url_free(&u);
    assert_int_equal(bw_url_parse(&u, "ftp://files.example.com/", NULL, 0), BW_URL_OK); /* callers pick schemes */
    assert_int_equal(u.port, 0); /* no default: not a scheme this server speaks */
    bw_url_free(&u);

    /* reasons never echo the URL (it may carry a password) */
    assert_int_equal(bw_url_parse(&u, "http://user:s3cret@exa mple.com/", why, sizeof why), BW_URL_BAD);
    assert_null(strstr(why, "s3cret"));
    bw_url_free(&u);
    assert_int_equal(bw_url_parse(&u, NULL, why, sizeof why), BW_URL_BAD);
    assert_string_equal(why, "no URL");
    bw_url_free(&u);
    char big[BW_URL_MAX + 16];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    memcpy(big, "https://a.example/", 18);
    assert_int_equal(bw_url_parse(&u, big, why, sizeof why), BW_URL_BAD);
    bw_url_free(&u);
    big[BW_URL_MAX] = '\0'; /* exactly the limit */
    assert_int_equal(bw_url_parse(&u, big, why, sizeof why), BW_URL_OK);
    bw_url_free(&u);
    bw_url_free(NULL);

    char sc[8];
    assert_true(bw_url_scheme("HTTPS://x", sc, sizeof sc));
    assert_string_equal(sc, "https");
    assert_true(bw_url_scheme("stdio://npx x", sc, sizeof sc));
    assert_false(bw_url_scheme("averylongscheme://x", sc, sizeof sc));
    assert_false(bw_url_scheme("://x", sc, sizeof sc));
    assert_false(bw_url_scheme("1http://x", sc, sizeof sc));
    assert_false(bw_url_scheme("http:x", sc, sizeof sc));
    assert_false(bw_url_scheme(NULL, sc, sizeof sc));
}

static void test_hosts(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int cls;
    } cases[] = {
        {"::1", BW_ADDR_LOOPBACK},         {"[::1]", BW_ADDR_LOOPBACK},          {"127.9.9.9", BW_ADDR_LOOPBACK},
        {"2130706433", BW_ADDR_LOOPBACK},  {"LocalHost.", BW_ADDR_LOOPBACK},     {"x.localhost", BW_ADDR_LOOPBACK},
        {"localhost.", BW_ADDR_LOOPBACK},  {"xlocalhost", BW_ADDR_PUBLIC},       {"fd00:ec2::254", BW_ADDR_METADATA},
        {"fd20:ce::254", BW_ADDR_METADATA}, {"::ffff:0:7f00:1", BW_ADDR_RESERVED}, {"example.com", BW_ADDR_PUBLIC},
        {"metadata.tencentyun.com", BW_ADDR_METADATA}, {"_srv.example", BW_ADDR_PUBLIC},
        {"", BAD}, {".", BAD}, {"[]", BAD}, {"[::1", BAD}, {"::zz", BAD}, {"a b", BAD}, {"a..b", BAD},
        {"example.123", BAD}, {"example.0x", BAD},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct bw_host h;
        const bool ok = bw_host_parse(cases[i].in, &h);
        if (ok != (cases[i].cls != BAD) || (ok && (int)h.cls != cases[i].cls))
            fail_msg("%s: %s", cases[i].in, ok ? bw_addr_class_name(h.cls) : "refused");
    }
    struct bw_host h;
    assert_false(bw_host_parse(NULL, &h));
    char name[300];
    memset(name, 'a', sizeof name);
    name[253] = '\0';
    assert_true(bw_host_parse(name, &h)); /* 253 characters: the longest DNS name */
    name[253] = '.';
    name[254] = '\0';
    assert_true(bw_host_parse(name, &h));
    name[253] = 'a';
    assert_false(bw_host_parse(name, &h));
    for (int c = 0; c < BW_ADDR__COUNT; c++)
        assert_true(bw_addr_class_name((enum bw_addr_class)c)[0]);
    assert_string_equal(bw_addr_class_name(BW_ADDR__COUNT), "reserved");
}

/* ---- the readers agree ---------------------------------------------------------------------- */

/* A word the guard's refusal must carry for a class. */
static const char *class_word(int c)
{
    switch (c) {
    case BW_ADDR_LOOPBACK: return "loopback";
    case BW_ADDR_PRIVATE: return "private";
    case BW_ADDR_LINK_LOCAL: return "link-local";
    case BW_ADDR_METADATA: return "cloud metadata";
    case BW_ADDR_CGNAT: return "carrier-grade NAT";
    case BW_ADDR_MULTICAST: return "multicast";
    case BW_ADDR_UNSPECIFIED: return "unspecified";
    default: return "";
    }
}

/* The egress guard: refused URLs are BAD_URL; with userinfo (which the guard never sends) the
 * same URL without it is judged; else OK exactly when the policy lets the class through, and a
 * refusal names the class. */
static void agree_guard(size_t i)
{
    static const unsigned allows[] = {0, BW_EGRESS_ALLOW_LOOPBACK, BW_EGRESS_ALLOW_PRIVATE,
                                      BW_EGRESS_ALLOW_LOOPBACK | BW_EGRESS_ALLOW_PRIVATE};
    const char *url = URLS[i].url;
    char bare[256], why[256];
    if (URLS[i].cls == BAD) {
        if (bw_egress_check_url(url, 3, why, sizeof why) != BW_EG_BAD_URL)
            fail_msg("guard: %s not refused as malformed", url);
        return;
    }
    if (URLS[i].ui) {
        struct bw_url u;
        assert_int_equal(bw_url_parse(&u, url, NULL, 0), BW_URL_OK);
        assert_true(bw_url_get(&u, BW_URL_NO_USERINFO, bare, sizeof bare));
        bw_url_free(&u);
        if (bw_egress_check_url(url, 3, why, sizeof why) != BW_EG_BAD_URL)
            fail_msg("guard: %s sent with credentials", url);
        url = bare;
    }
    for (size_t a = 0; a < sizeof allows / sizeof allows[0]; a++) {
        const enum bw_egress_outcome want =
            bw_egress_class_allowed((enum bw_addr_class)URLS[i].cls, allows[a]) ? BW_EG_OK : BW_EG_BLOCKED;
        const enum bw_egress_outcome got = bw_egress_check_url(url, allows[a], why, sizeof why);
        if (got != want)
            fail_msg("guard: %s under %u: %s (%s), expected %s", url, allows[a], bw_egress_outcome_name(got), why,
                     bw_egress_outcome_name(want));
        if (got == BW_EG_BLOCKED && !strstr(why, class_word(URLS[i].cls)))
            fail_msg("guard: %s refused as \"%s\", not as %s", url, why, class_word(URLS[i].cls));
    }
}

/* The asset posture score: accepted unless refused; plain http to loopback costs 10 instead of
 * 30 (+10 in production), an IP literal outside loopback, private and link-local costs 10,
 * userinfo 30. */
static void agree_posture(size_t i)
{
    const char *url = URLS[i].url;
    if (bw_posture_url_ok(url) != (URLS[i].cls != BAD))
        fail_msg("posture: %s %s", url, URLS[i].cls == BAD ? "accepted" : "refused");
    if (URLS[i].cls == BAD)
        return;
    const int c = URLS[i].cls;
    const bool local = c == BW_ADDR_LOOPBACK;
    const bool plain = !strncasecmp(url, "http://", 7);
    const bool bare_ip = URLS[i].lit == LIT && c != BW_ADDR_LOOPBACK && c != BW_ADDR_PRIVATE && c != BW_ADDR_LINK_LOCAL;
    int want = 100 - (plain ? (local ? 10 : 40) : 0) - (URLS[i].ui ? 30 : 0) - (bare_ip ? 10 : 0);
    const int got = bw_posture_score("model", "openai", url, "production");
    if (got != want)
        fail_msg("posture: %s scored %d, expected %d", url, got, want);
    /* the display (bw_url_split under it) drops what the parser read as userinfo, and only that */
    struct bw_url_split sp;
    bw_url_split(url, &sp);
    if ((sp.userinfo > 0) != URLS[i].ui)
        fail_msg("split: %s userinfo of %zu bytes, the parser %s one", url, sp.userinfo,
                 URLS[i].ui ? "read" : "did not read");
    char shown[BW_URL_DISPLAY_MAX];
    bw_posture_url_display(url, shown, sizeof shown);
    if (strncmp(shown, url, sp.scheme) != 0 ||
        strncmp(shown + sp.scheme, url + sp.scheme + sp.userinfo, sp.authority) != 0)
        fail_msg("display: %s shown as %s", url, shown);
}

/* The parts as written: consecutive spans, the userinfo to the authority's last '@', a lenient
 * scheme (anything before "://" without '/', '?', '#'), no authority without one. */
static void test_split(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t scheme, userinfo, authority, path, query, fragment;
    } cases[] = {
        {"https://h/v1?a=1#f", 8, 0, 1, 3, 4, 2},
        {"https://a:b@c@h:8/x", 8, 6, 3, 2, 0, 0},
        {"https://h?q@x", 8, 0, 1, 0, 4, 0},
        {"http://h#a?b@c", 7, 0, 1, 0, 0, 6},
        {"x_y://u@h", 6, 2, 1, 0, 0, 0},
        {"/p://u@h", 0, 0, 0, 8, 0, 0},
        {"no scheme?x", 0, 0, 0, 9, 2, 0},
        {"", 0, 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct bw_url_split sp;
        bw_url_split(cases[i].s, &sp);
        size_t got[6] = {sp.scheme, sp.userinfo, sp.authority, sp.path, sp.query, sp.fragment};
        size_t want[6] = {cases[i].scheme, cases[i].userinfo, cases[i].authority,
                          cases[i].path,   cases[i].query,    cases[i].fragment};
        for (int k = 0; k < 6; k++)
            if (got[k] != want[k])
                fail_msg("%s: span %d is %zu, expected %zu", cases[i].s, k, got[k], want[k]);
        assert_int_equal(got[0] + got[1] + got[2] + got[3] + got[4] + got[5], strlen(cases[i].s));
    }
    struct bw_url_split sp;
    bw_url_split(NULL, &sp);
    assert_int_equal(sp.scheme + sp.userinfo + sp.authority + sp.path + sp.query + sp.fragment, 0);
}

/* The MCP scan: refused unless accepted; with no authentication, CRITICAL for a remote host and
 * HIGH for a loopback one; MCP-NET-001 for a wildcard literal, -002 for an internal one, -003 for
 * any other non-loopback one. */
static void agree_mcpscan(size_t i)
{
    const char *url = URLS[i].url;
    json_t *body = json_pack("{s:{s:s,s:s}}", "mcp_config", "server_url", url, "auth_method", "none");
    json_t *errs = NULL;
    json_t *r = bw_mcp_scan_body(mcp_checks, body, &errs);
    json_decref(body);
    if (URLS[i].cls == BAD) {
        if (r || !errs)
            fail_msg("mcpscan: %s accepted", url);
        json_decref(errs);
        return;
    }
    if (!r)
        fail_msg("mcpscan: %s refused", url);
    const int c = URLS[i].cls;
    const char *net = URLS[i].lit == NAME || c == BW_ADDR_LOOPBACK ? NULL
                      : c == BW_ADDR_UNSPECIFIED                  ? "MCP-NET-001"
                      : c == BW_ADDR_PRIVATE || c == BW_ADDR_LINK_LOCAL || c == BW_ADDR_METADATA || c == BW_ADDR_CGNAT
                          ? "MCP-NET-002"
                          : "MCP-NET-003";
    const char *auth = NULL;
    bool nets[3] = {false};
    size_t k;
    json_t *f;
    json_array_foreach(json_object_get(r, "findings"), k, f) {
        const char *id = json_string_value(json_object_get(f, "id"));
        if (!strcmp(id, "MCP-AUTH-001"))
            auth = json_string_value(json_object_get(f, "severity"));
        if (!strncmp(id, "MCP-NET-00", 10) && id[10] >= '1' && id[10] <= '3')
            nets[id[10] - '1'] = true;
    }
    if (!auth || strcmp(auth, c == BW_ADDR_LOOPBACK ? "HIGH" : "CRITICAL"))
        fail_msg("mcpscan: %s: MCP-AUTH-001 %s", url, auth ? auth : "missing");
    for (int n = 0; n < 3; n++) {
        const bool want = net && net[10] == '1' + n;
        if (nets[n] != want)
            fail_msg("mcpscan: %s: MCP-NET-00%d %s", url, n + 1, want ? "missing" : "reported");
    }
    json_decref(r);

    struct bw_url u;
    assert_int_equal(bw_url_parse(&u, url, NULL, 0), BW_URL_OK);
    assert_int_equal(bw_mcp_host_is_loopback(u.host.name), c == BW_ADDR_LOOPBACK);
    bw_url_free(&u);
}

static void test_readers_agree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof URLS / sizeof URLS[0]; i++) {
        agree_guard(i);
        agree_posture(i);
        agree_mcpscan(i);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_table),
        cmocka_unit_test(test_parse_fields),
        cmocka_unit_test(test_hosts),
        cmocka_unit_test(test_readers_agree),
        cmocka_unit_test(test_split),
    };
    return cmocka_run_group_tests(tests, mcp_checks_setup, mcp_checks_teardown);
}
