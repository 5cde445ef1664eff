/* The egress guard (src/net/): address classes, IPv4 spellings, BULWARK_EGRESS_ALLOW, the URL
 * check, and real exchanges with a small HTTP server on 127.0.0.1 that counts the connections it
 * accepts, so "blocked" can be shown to mean "never contacted". */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "net/egress.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- address classes ------------------------------------------------------------------------ */

static struct sockaddr_storage addr_of(const char *text)
{
    struct sockaddr_storage ss;
    struct sockaddr_in s4;
    struct sockaddr_in6 s6;
    memset(&ss, 0, sizeof ss);
    memset(&s4, 0, sizeof s4);
    memset(&s6, 0, sizeof s6);
    if (inet_pton(AF_INET, text, &s4.sin_addr) == 1) {
        s4.sin_family = AF_INET;
        memcpy(&ss, &s4, sizeof s4);
    } else if (inet_pton(AF_INET6, text, &s6.sin6_addr) == 1) {
        s6.sin6_family = AF_INET6;
        memcpy(&ss, &s6, sizeof s6);
    } else {
        fail_msg("bad address in the test table: %s", text);
    }
    return ss;
}

/* allowed: one character per flag set, in the order 0, loopback, private, loopback+private */
static const struct {
    const char *ip;
    enum bw_addr_class cls;
    const char *allowed;
} ADDRS[] = {
    {"127.0.0.1", BW_ADDR_LOOPBACK, "0101"},
    {"127.1.2.3", BW_ADDR_LOOPBACK, "0101"},
    {"10.0.0.1", BW_ADDR_PRIVATE, "0011"},
    {"172.16.0.1", BW_ADDR_PRIVATE, "0011"},
    {"172.31.255.255", BW_ADDR_PRIVATE, "0011"},
    {"172.32.0.1", BW_ADDR_PUBLIC, "1111"},
    {"192.168.1.1", BW_ADDR_PRIVATE, "0011"},
    {"169.254.169.254", BW_ADDR_METADATA, "0000"},
    {"169.254.1.1", BW_ADDR_LINK_LOCAL, "0000"},
    {"100.64.0.1", BW_ADDR_CGNAT, "0000"},
    {"100.127.255.255", BW_ADDR_CGNAT, "0000"},
    {"100.128.0.1", BW_ADDR_PUBLIC, "1111"},
    {"0.0.0.0", BW_ADDR_UNSPECIFIED, "0000"},
    {"0.1.2.3", BW_ADDR_RESERVED, "0000"},
    {"255.255.255.255", BW_ADDR_RESERVED, "0000"},
    {"240.0.0.1", BW_ADDR_RESERVED, "0000"},
    {"224.0.0.1", BW_ADDR_MULTICAST, "0000"},
    {"239.255.255.250", BW_ADDR_MULTICAST, "0000"},
    {"192.0.0.8", BW_ADDR_RESERVED, "0000"},
    {"192.0.2.1", BW_ADDR_RESERVED, "0000"},
    {"198.51.100.7", BW_ADDR_RESERVED, "0000"},
    {"203.0.113.9", BW_ADDR_RESERVED, "0000"},
    {"198.18.0.1", BW_ADDR_RESERVED, "0000"},
    {"198.19.255.255", BW_ADDR_RESERVED, "0000"},
    {"198.20.0.1", BW_ADDR_PUBLIC, "1111"},
    {"8.8.8.8", BW_ADDR_PUBLIC, "1111"},
    {"::1", BW_ADDR_LOOPBACK, "0101"},
    {"::", BW_ADDR_UNSPECIFIED, "0000"},
    {"::ffff:127.0.0.1", BW_ADDR_LOOPBACK, "0101"},
    {"::ffff:169.254.169.254", BW_ADDR_METADATA, "0000"},
    {"::ffff:10.1.2.3", BW_ADDR_PRIVATE, "0011"},
    {"::ffff:8.8.8.8", BW_ADDR_PUBLIC, "1111"},
    {"::127.0.0.1", BW_ADDR_LOOPBACK, "0101"},
    {"::10.0.0.1", BW_ADDR_PRIVATE, "0011"},
    {"64:ff9b::7f00:1", BW_ADDR_LOOPBACK, "0101"},
    {"64:ff9b::a9fe:a9fe", BW_ADDR_METADATA, "0000"},
    {"64:ff9b::808:808", BW_ADDR_PUBLIC, "1111"},
    {"64:ff9b:1::a00:1", BW_ADDR_PRIVATE, "0011"},
    {"2002:7f00:1::", BW_ADDR_LOOPBACK, "0101"},
    {"2002:a9fe:a9fe::1", BW_ADDR_METADATA, "0000"},
    {"2002:0808:0808::1", BW_ADDR_PUBLIC, "1111"},
    {"2001:0:4136:e378:8000:63bf:80ff:fffe", BW_ADDR_LOOPBACK, "0101"}, /* Teredo, client 127.0.0.1 */
    {"2001:0:4136:e378:8000:63bf:f7f7:f7f7", BW_ADDR_PUBLIC, "1111"},   /* Teredo, client 8.8.8.8 */
    {"fc00::1", BW_ADDR_PRIVATE, "0011"},
    {"fd12::1", BW_ADDR_PRIVATE, "0011"},
    {"fd00:ec2::254", BW_ADDR_METADATA, "0000"},
    {"fd20:ce::254", BW_ADDR_METADATA, "0000"},
    {"169.254.170.2", BW_ADDR_METADATA, "0000"},
    {"100.100.100.200", BW_ADDR_METADATA, "0000"},
    {"192.0.0.192", BW_ADDR_METADATA, "0000"},
    {"fe80::1", BW_ADDR_LINK_LOCAL, "0000"},
    {"febf::1", BW_ADDR_LINK_LOCAL, "0000"},
    {"fec0::1", BW_ADDR_RESERVED, "0000"},
    {"ff02::1", BW_ADDR_MULTICAST, "0000"},
    {"2606:4700::1111", BW_ADDR_PUBLIC, "1111"},
    {"2001:db8::1", BW_ADDR_RESERVED, "0000"},
    {"100::1", BW_ADDR_RESERVED, "0000"},
    {"100:0:0:1::1", BW_ADDR_PUBLIC, "1111"},
    {"::1:0:0:0", BW_ADDR_RESERVED, "0000"},
};

static void test_classify_table(void **state)
{
    (void)state;
    static const unsigned flags[4] = {0, BW_EGRESS_ALLOW_LOOPBACK, BW_EGRESS_ALLOW_PRIVATE,
                                      BW_EGRESS_ALLOW_LOOPBACK | BW_EGRESS_ALLOW_PRIVATE};
    for (size_t i = 0; i < sizeof ADDRS / sizeof ADDRS[0]; i++) {
        struct sockaddr_storage ss = addr_of(ADDRS[i].ip);
        const struct sockaddr *sa = (const struct sockaddr *)&ss;
        if (bw_addr_classify(sa, NULL) != ADDRS[i].cls)
            fail_msg("%s: class %d, expected %d", ADDRS[i].ip, bw_addr_classify(sa, NULL), ADDRS[i].cls);
        for (int f = 0; f < 4; f++) {
            const char *why = "unset";
            const bool ok = bw_egress_addr_allowed(sa, flags[f], &why);
            if (ok != (ADDRS[i].allowed[f] == '1'))
                fail_msg("%s under flags %u: %s", ADDRS[i].ip, flags[f], ok ? "allowed" : "blocked");
            if (ok)
                assert_null(why);
            else
                assert_true(why && *why);
        }
    }
}

static void test_classify_reasons(void **state)
{
    (void)state;
    const char *why = NULL;
    struct sockaddr_storage ss = addr_of("169.254.169.254");
    assert_false(bw_egress_addr_allowed((struct sockaddr *)&ss, 3, &why));
    assert_non_null(strstr(why, "cloud metadata"));
    ss = addr_of("::ffff:169.254.169.254");
    assert_false(bw_egress_addr_allowed((struct sockaddr *)&ss, 3, &why));
    assert_non_null(strstr(why, "cloud metadata"));
    ss = addr_of("127.0.0.1");
    assert_false(bw_egress_addr_allowed((struct sockaddr *)&ss, 0, &why));
    assert_string_equal(why, "loopback address");
    ss = addr_of("100.64.0.1");
    assert_false(bw_egress_addr_allowed((struct sockaddr *)&ss, 3, NULL)); /* why may be NULL */

    /* anything but IPv4/IPv6 is refused */
    struct sockaddr_un un;
    memset(&un, 0, sizeof un);
    un.sun_family = AF_UNIX;
    assert_int_equal(bw_addr_classify((struct sockaddr *)&un, NULL), BW_ADDR_RESERVED);
    assert_false(bw_egress_addr_allowed((struct sockaddr *)&un, 3, &why));
    assert_false(bw_egress_addr_allowed(NULL, 3, &why));
}

/* ---- IPv4 spellings ------------------------------------------------------------------------- */

static void test_ipv4_literals(void **state)
{
    (void)state;
    static const struct {
        const char *in, *want; /* want NULL: not a literal */
    } cases[] = {
        {"2130706433", "127.0.0.1"},
        {"0x7f000001", "127.0.0.1"},
        {"0X7F000001", "127.0.0.1"},
        {"0177.0.0.1", "127.0.0.1"},
        {"0x7f.1", "127.0.0.1"},
        {"127.1", "127.0.0.1"},
        {"127.0.1", "127.0.0.1"},
        {"017700000001", "127.0.0.1"},
        {"0x7f.0x0.0x0.0x1", "127.0.0.1"},
        {"1.2.3.4", "1.2.3.4"},
        {"127.0.0.1.", "127.0.0.1"}, /* one trailing dot, as URL parsers accept */
        {"0", "0.0.0.0"},
        {"4294967295", "255.255.255.255"},
        {"1.16777215", "1.255.255.255"},
        {"1.2.65535", "1.2.255.255"},
        {"00000000000000000000000000000001", "0.0.0.1"},
        {"example.com", NULL},
        {"1.2.3.4.5", NULL},
        {"256.1.1.1", NULL},
        {"0x", NULL},
        {"", NULL},
        {"08", NULL},
        {"0x1g", NULL},
        {"4294967296", NULL},
        {"0x100000000", NULL},
        {"99999999999999999999999", NULL},
        {"1.16777216", NULL},
        {"1.2.65536", NULL},
        {"1.2.3.256", NULL},
        {"1..2", NULL},
        {".1", NULL},
        {"1.2.3.4..", NULL},
        {"1.2.3.4 ", NULL},
        {" 1.2.3.4", NULL},
        {"+1", NULL},
        {"-1", NULL},
        {"1.2.3.4x", NULL},
        {"::1", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct in_addr a;
        char got[INET_ADDRSTRLEN] = "";
        const bool ok = bw_addr_ipv4_literal(cases[i].in, &a);
        if (ok)
            inet_ntop(AF_INET, &a, got, sizeof got);
        if (ok != (cases[i].want != NULL) || (ok && strcmp(got, cases[i].want)))
            fail_msg("\"%s\": got %s, expected %s", cases[i].in, ok ? got : "no literal",
                     cases[i].want ? cases[i].want : "no literal");
    }
    assert_false(bw_addr_ipv4_literal(NULL, NULL));
    assert_true(bw_addr_ipv4_literal("10.0.0.1", NULL));
}

/* ---- BULWARK_EGRESS_ALLOW --------------------------------------------------------------------- */

static void test_parse_allow(void **state)
{
    (void)state;
    unsigned f = 99;
    assert_int_equal(bw_egress_parse_allow("", &f), 0);
    assert_int_equal(f, 0);
    assert_int_equal(bw_egress_parse_allow(NULL, &f), 0);
    assert_int_equal(f, 0);
    assert_int_equal(bw_egress_parse_allow("loopback", &f), 0);
    assert_int_equal(f, BW_EGRESS_ALLOW_LOOPBACK);
    assert_int_equal(bw_egress_parse_allow("private", &f), 0);
    assert_int_equal(f, BW_EGRESS_ALLOW_PRIVATE);
    assert_int_equal(bw_egress_parse_allow(" loopback , private ", &f), 0);
    assert_int_equal(f, BW_EGRESS_ALLOW_LOOPBACK | BW_EGRESS_ALLOW_PRIVATE);
    assert_int_equal(bw_egress_parse_allow("private,loopback", &f), 0);
    assert_int_equal(f, BW_EGRESS_ALLOW_LOOPBACK | BW_EGRESS_ALLOW_PRIVATE);
    f = 99;
    assert_int_equal(bw_egress_parse_allow("bogus", &f), -1);
    assert_int_equal(f, 99); /* untouched on error */
    assert_int_equal(bw_egress_parse_allow("loopback,bogus", &f), -1);
    assert_int_equal(bw_egress_parse_allow("loop back", &f), -1);
    assert_int_equal(bw_egress_parse_allow("loopbackprivate", &f), -1);
    assert_int_equal(f, 99);
    assert_int_equal(bw_egress_parse_allow(" none ", &f), 0);
    assert_int_equal(f, BW_EGRESS_NONE);
    f = 99;
    assert_int_equal(bw_egress_parse_allow("none,loopback", &f), -1); /* none is alone or nothing */
    assert_int_equal(f, 99);
}

/* ---- URL check without network ------------------------------------------------------------- */

static void test_check_url(void **state)
{
    (void)state;
    static const struct {
        const char *url;
        unsigned allow;
        enum bw_egress_outcome want;
    } cases[] = {
        {"http://example.com/", 0, BW_EG_OK},
        {"https://example.com:8443/a/b?c=d#e", 0, BW_EG_OK},
        {"HTTP://EXAMPLE.COM/", 0, BW_EG_OK},
        {"http://8.8.8.8/", 0, BW_EG_OK},
        {"http://[2606:4700::1111]/", 0, BW_EG_OK},
        {"file:///etc/passwd", 3, BW_EG_BAD_URL},
        {"gopher://example.com/", 3, BW_EG_BAD_URL},
        {"ftp://example.com/", 3, BW_EG_BAD_URL},
        {"dict://example.com:11211/", 3, BW_EG_BAD_URL},
        {"example.com/", 0, BW_EG_BAD_URL},
        {"//example.com/", 0, BW_EG_BAD_URL},
        {"", 0, BW_EG_BAD_URL},
        {"http://user:pw@example.com/", 0, BW_EG_BAD_URL},
        {"http://user@example.com/", 0, BW_EG_BAD_URL},
        {"http://@example.com/", 0, BW_EG_BAD_URL},
        {"http://example.com:0/", 0, BW_EG_BAD_URL},
        {"http://example.com:65536/", 0, BW_EG_BAD_URL},
        {"http://exa mple.com/", 0, BW_EG_BAD_URL},
        {"http://example.com/\r\nX: y", 0, BW_EG_BAD_URL},
        {"http://b\xc3\xbc" "cher.example/", 0, BW_EG_BAD_URL},
        {"http://[fe80::1%25eth0]/", 3, BW_EG_BAD_URL},
        {"http://127.0.0.1/", 0, BW_EG_BLOCKED},
        {"http://127.0.0.1/", BW_EGRESS_ALLOW_LOOPBACK, BW_EG_OK},
        {"http://127.0.0.1./", 0, BW_EG_BLOCKED},
        {"http://2130706433/", 0, BW_EG_BLOCKED},
        {"http://0x7f.1/", 0, BW_EG_BLOCKED},
        {"http://0177.0.0.1/", 0, BW_EG_BLOCKED},
        {"http://%31%32%37.0.0.1/", 0, BW_EG_BLOCKED},
        {"http://[::1]/", 0, BW_EG_BLOCKED},
        {"http://[::ffff:127.0.0.1]/", 0, BW_EG_BLOCKED},
        {"http://[::ffff:7f00:1]/", 0, BW_EG_BLOCKED},
        {"http://[64:ff9b::a9fe:a9fe]/", 3, BW_EG_BLOCKED},
        {"http://169.254.169.254/latest/meta-data/", 3, BW_EG_BLOCKED},
        {"http://10.0.0.1/", BW_EGRESS_ALLOW_LOOPBACK, BW_EG_BLOCKED},
        {"http://10.0.0.1/", BW_EGRESS_ALLOW_PRIVATE, BW_EG_OK},
        {"http://0/", 3, BW_EG_BLOCKED},
        /* the shared parser's rules (net/url.h): what other readers of a URL could take for
         * another host is refused, not guessed */
        {"http:/example.com/", 0, BW_EG_BAD_URL},
        {"http:///example.com/", 0, BW_EG_BAD_URL},
        {"http://example.com\\@127.0.0.1/", 3, BW_EG_BAD_URL},
        {"http://example.com/a\\b", 0, BW_EG_BAD_URL},
        {"http://a..example/", 0, BW_EG_BAD_URL},
        {"http://256.0.0.1/", 3, BW_EG_BAD_URL},
        {"http://08.0.0.1/", 3, BW_EG_BAD_URL},
        {"http://1.2.3.4.5/", 3, BW_EG_BAD_URL},
        {"http://example.0x1f/", 3, BW_EG_BAD_URL},
        /* names the classifier places are judged before any lookup */
        {"http://localhost/", 0, BW_EG_BLOCKED},
        {"http://app.localhost./", BW_EGRESS_ALLOW_PRIVATE, BW_EG_BLOCKED},
        {"http://localhost/", BW_EGRESS_ALLOW_LOOPBACK, BW_EG_OK},
        {"http://metadata.google.internal/computeMetadata/v1/", 3, BW_EG_BLOCKED},
        {"http://METADATA.GOOGLE.INTERNAL./", 3, BW_EG_BLOCKED},
        {"http://instance-data/", 3, BW_EG_BLOCKED},
        {"http://example.com/", BW_EGRESS_NONE, BW_EG_BLOCKED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[256] = "x";
        const enum bw_egress_outcome got = bw_egress_check_url(cases[i].url, cases[i].allow, why, sizeof why);
        if (got != cases[i].want)
            fail_msg("%s: %s (%s), expected %s", cases[i].url, bw_egress_outcome_name(got), why,
                     bw_egress_outcome_name(cases[i].want));
        if (got == BW_EG_OK)
            assert_string_equal(why, "");
        else
            assert_true(why[0]);
    }
    char why[256];
    assert_int_equal(bw_egress_check_url("http://user:secret@example.com/", 0, why, sizeof why), BW_EG_BAD_URL);
    assert_null(strstr(why, "secret")); /* the reason never repeats credentials */
    assert_int_equal(bw_egress_check_url("http://2130706433/", 0, why, sizeof why), BW_EG_BLOCKED);
    assert_non_null(strstr(why, "loopback address 127.0.0.1"));
    assert_int_equal(bw_egress_check_url("http://LocalHost./", 0, why, sizeof why), BW_EG_BLOCKED);
    assert_string_equal(why, "refused: loopback name localhost.");
    assert_int_equal(bw_egress_check_url("http://metadata.goog/", 3, why, sizeof why), BW_EG_BLOCKED);
    assert_non_null(strstr(why, "cloud metadata"));
    assert_int_equal(bw_egress_check_url("http://example.com/", BW_EGRESS_NONE, why, sizeof why), BW_EG_BLOCKED);
    assert_non_null(strstr(why, "disabled"));
    assert_int_equal(bw_egress_check_url(NULL, 0, NULL, 0), BW_EG_BAD_URL);

    char longurl[3000];
    memset(longurl, 'a', sizeof longurl - 1);
    longurl[sizeof longurl - 1] = '\0';
    memcpy(longurl, "http://example.com/", 19);
    assert_int_equal(bw_egress_check_url(longurl, 0, why, sizeof why), BW_EG_BAD_URL);
}

static void test_outcome_names(void **state)
{
    (void)state;
    assert_string_equal(bw_egress_outcome_name(BW_EG_OK), "ok");
    assert_string_equal(bw_egress_outcome_name(BW_EG_BLOCKED), "blocked");
    assert_string_equal(bw_egress_outcome_name(BW_EG_BAD_URL), "bad_url");
    assert_string_equal(bw_egress_outcome_name(BW_EG_TIMEOUT), "timeout");
    assert_string_equal(bw_egress_outcome_name(BW_EG__COUNT), "unknown");
}

/* ---- a small HTTP server ------------------------------------------------------------------- */

struct srv {
    int fd;
    int port;
    bool hang; /* accept and never answer */
    atomic_int accepts;
    atomic_bool stop;
    pthread_t th;
    int held[32];
    int nheld;
};

static bool send_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

static void reply(int fd, int status, const char *extra, const char *body)
{
    char buf[2048];
    int n = snprintf(buf, sizeof buf,
                     "HTTP/1.1 %d Test\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
                     "Connection: close\r\n%s\r\n%s",
                     status, strlen(body), extra, body);
    if (n > 0 && (size_t)n < sizeof buf)
        send_all(fd, buf, (size_t)n);
}

/* Reads one request (headers and a Content-Length body) into buf; false on timeout or junk. */
static bool read_request(int fd, char *buf, size_t cap, size_t *body_len)
{
    size_t n = 0;
    char *end = NULL;
    size_t want = 0;
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 2000) <= 0)
            return false;
        ssize_t r = recv(fd, buf + n, cap - 1 - n, 0);
        if (r <= 0)
            return false;
        n += (size_t)r;
        buf[n] = '\0';
        if (!end && (end = strstr(buf, "\r\n\r\n"))) {
            const char *cl = strcasestr(buf, "\r\ncontent-length:");
            want = (size_t)(end + 4 - buf) + (cl && cl < end ? strtoul(cl + 17, NULL, 10) : 0);
        }
        if (end && n >= want) {
            *body_len = n - (size_t)(end + 4 - buf);
            return true;
        }
        if (n + 1 >= cap)
            return false;
    }
}

static void answer(struct srv *s, int c, const char *req, const char *method, const char *path, size_t blen);

static void serve_one(struct srv *s, int c)
{
    char *req = malloc(65536);
    char method[16], path[256];
    size_t blen = 0;

    if (!req)
        return;
    if (read_request(c, req, 65536, &blen) && sscanf(req, "%15s %255s", method, path) == 2)
        answer(s, c, req, method, path, blen);
    free(req);
}

static void answer(struct srv *s, int c, const char *req, const char *method, const char *path, size_t blen)
{
    char extra[512], body[512];
    const char *hdr_end = strstr(req, "\r\n\r\n");
    const char *auth = strcasestr(req, "\r\nauthorization:");
    const bool has_auth = auth && auth < hdr_end;

    if (!strcmp(path, "/")) {
        reply(c, 200, "X-Test:  hello world \r\n", "hello");
    } else if (!strcmp(path, "/other")) {
        reply(c, 200, "", "other");
    } else if (!strcmp(path, "/echo")) {
        snprintf(body, sizeof body, "%s %s len=%zu auth=%s", method, path, blen, has_auth ? "yes" : "no");
        reply(c, 200, "", body);
    } else if (!strcmp(path, "/big")) {
        static char chunk[65536];
        const size_t total = 2u * 1024u * 1024u;
        memset(chunk, 'a', sizeof chunk);
        snprintf(extra, sizeof extra, "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n", total);
        if (!send_all(c, extra, strlen(extra)))
            return;
        for (size_t sent = 0; sent < total; sent += sizeof chunk)
            if (!send_all(c, chunk, sizeof chunk))
                return; /* the client stopped reading: expected */
    } else {
        const char *loc = NULL;
        int status = 302;
        char where[256];
        if (!strcmp(path, "/redir-meta"))
            loc = "http://169.254.169.254/latest/meta-data/";
        else if (!strcmp(path, "/redir-file"))
            loc = "file:///etc/passwd";
        else if (!strcmp(path, "/loop"))
            loc = "/loop";
        else if (!strcmp(path, "/redir-same"))
            loc = "/echo";
        else if (!strcmp(path, "/see-other"))
            loc = "/echo", status = 303;
        else if (!strcmp(path, "/temporary"))
            loc = "/echo", status = 307;
        else if (!strcmp(path, "/redir-local") || !strcmp(path, "/redir-cross")) {
            /* the cross-origin hop names the same server by another host name */
            snprintf(where, sizeof where, "http://%s:%d/%s", path[7] == 'l' ? "127.0.0.1" : "localhost",
                     s->port, path[7] == 'l' ? "other" : "echo");
            loc = where;
        }
        if (!loc) {
            reply(c, 404, "", "not found");
            return;
        }
        snprintf(extra, sizeof extra, "Location: %s\r\n", loc);
        reply(c, status, extra, "moved");
    }
}

static void *srv_main(void *arg)
{
    struct srv *s = arg;
    while (!atomic_load(&s->stop)) {
        struct pollfd p = {.fd = s->fd, .events = POLLIN};
        if (poll(&p, 1, 20) <= 0)
            continue;
        int c = accept(s->fd, NULL, NULL);
        if (c < 0)
            continue;
        atomic_fetch_add(&s->accepts, 1);
        if (s->hang && s->nheld < (int)(sizeof s->held / sizeof s->held[0])) {
            s->held[s->nheld++] = c;
            continue;
        }
        serve_one(s, c);
        close(c);
    }
    return NULL;
}

static struct srv *srv_start_family(int family, bool hang)
{
    struct srv *s = calloc(1, sizeof *s);
    struct sockaddr_storage ss;
    socklen_t len;
    int one = 1;

    assert_non_null(s);
    s->hang = hang;
    memset(&ss, 0, sizeof ss);
    if (family == AF_INET) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        memcpy(&ss, &a, sizeof a);
        len = sizeof a;
    } else {
        struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
        memcpy(&ss, &a, sizeof a);
        len = sizeof a;
    }
    s->fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s->fd < 0 || setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
        bind(s->fd, (struct sockaddr *)&ss, len) || listen(s->fd, 16) ||
        getsockname(s->fd, (struct sockaddr *)&ss, &len)) {
        if (s->fd >= 0)
            close(s->fd);
        free(s);
        return NULL;
    }
    if (family == AF_INET) {
        struct sockaddr_in a;
        memcpy(&a, &ss, sizeof a);
        s->port = ntohs(a.sin_port);
    } else {
        struct sockaddr_in6 a;
        memcpy(&a, &ss, sizeof a);
        s->port = ntohs(a.sin6_port);
    }
    assert_int_equal(pthread_create(&s->th, NULL, srv_main, s), 0);
    return s;
}

static struct srv *srv_start(bool hang)
{
    struct srv *s = srv_start_family(AF_INET, hang);
    assert_non_null(s);
    return s;
}

static void srv_stop(struct srv *s)
{
    atomic_store(&s->stop, true);
    pthread_join(s->th, NULL);
    for (int i = 0; i < s->nheld; i++)
        close(s->held[i]);
    close(s->fd);
    free(s);
}

/* Connections the server has accepted, after giving a connection that may still sit in the
 * backlog time to be accepted (so "0" is not just "not yet"). */
static int accepted(struct srv *s)
{
    struct timespec ts = {0, 150 * 1000000L};
    nanosleep(&ts, NULL);
    return atomic_load(&s->accepts);
}

/* tmpl with "{port}" replaced by port (templates, not printf formats: -Wformat=2) */
static void with_port(char *out, size_t cap, const char *tmpl, int port)
{
    const char *at = strstr(tmpl, "{port}");
    if (!at)
        snprintf(out, cap, "%s", tmpl);
    else
        snprintf(out, cap, "%.*s%d%s", (int)(at - tmpl), tmpl, port, at + 6);
}

static enum bw_egress_outcome get(unsigned allow, const char *url, int max_redirects, struct bw_egress_resp *r)
{
    struct bw_egress_req rq = {.url = url, .max_redirects = max_redirects, .timeout_ms = 5000};
    bw_egress_request(allow, &rq, r);
    return r->outcome;
}

/* ---- exchanges ------------------------------------------------------------------------------ */

static void test_blocked_never_contacted(void **state)
{
    (void)state;
    struct srv *s = srv_start(false);
    const char *fmts[] = {"http://127.0.0.1:{port}/", "http://2130706433:{port}/",
                          "http://[::ffff:127.0.0.1]:{port}/", "http://0x7f.1:{port}/",
                          "http://127.1:{port}/", "http://0177.0.0.1:{port}/",
                          "http://localhost:{port}/", "http://[::1]:{port}/",
                          "http://LOCALHOST.:{port}/"};
    unsigned long before[BW_EG__COUNT], after[BW_EG__COUNT];
    bw_egress_stats(before);
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        char url[128];
        struct bw_egress_resp r;
        with_port(url, sizeof url, fmts[i], s->port);
        /* private permission is not loopback permission */
        const enum bw_egress_outcome oc = get(BW_EGRESS_ALLOW_PRIVATE, url, 3, &r);
        if (oc != BW_EG_BLOCKED && !(i == 8 && oc == BW_EG_DNS))
            fail_msg("%s: %s (%s)", url, bw_egress_outcome_name(oc), r.error);
        if (oc == BW_EG_BLOCKED)
            assert_non_null(strstr(r.error, "loopback"));
        assert_int_equal(r.status, 0);
        assert_null(r.body);
        assert_string_equal(r.ip, "");
        bw_egress_resp_free(&r);
    }
    assert_int_equal(accepted(s), 0);
    bw_egress_stats(after);
    assert_true(after[BW_EG_BLOCKED] >= before[BW_EG_BLOCKED] + 8);
    srv_stop(s);
}

/* BW_EGRESS_NONE: nothing connects, not even to a public literal, and no name is looked up */
static void test_none_never_contacted(void **state)
{
    (void)state;
    struct srv *s = srv_start(false);
    char url[128];
    with_port(url, sizeof url, "http://127.0.0.1:{port}/", s->port);
    const char *urls[] = {url, "http://192.0.2.1/", "https://8.8.8.8/", "http://no-such-host.invalid/"};
    for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
        struct bw_egress_resp r;
        enum bw_egress_outcome oc = get(BW_EGRESS_NONE | BW_EGRESS_ALLOW_LOOPBACK, urls[i], 0, &r);
        if (oc != BW_EG_BLOCKED)
            fail_msg("%s: %s (%s)", urls[i], bw_egress_outcome_name(oc), r.error);
        assert_non_null(strstr(r.error, "disabled"));
        assert_string_equal(r.ip, "");
        bw_egress_resp_free(&r);
    }
    assert_int_equal(accepted(s), 0);
    srv_stop(s);
}

static void test_allowed_loopback(void **state)
{
    (void)state;
    struct srv *s = srv_start(false);
    char url[128], v[64];
    struct bw_egress_resp r;

    snprintf(url, sizeof url, "http://127.0.0.1:%d/", s->port);
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 0, &r), BW_EG_OK);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "hello");
    assert_int_equal(r.body_len, 5);
    assert_false(r.truncated);
    assert_string_equal(r.error, "");
    assert_string_equal(r.ip, "127.0.0.1");
    assert_string_equal(r.final_url, url);
    assert_false(r.tls);
    assert_true(r.elapsed_ms >= 0);
    assert_non_null(r.headers);
    assert_int_equal(strncmp(r.headers, "HTTP/1.1 200", 12), 0);
    assert_int_equal(strlen(r.headers), r.headers_len);
    assert_true(bw_egress_header(&r, "x-test", v, sizeof v));
    assert_string_equal(v, "hello world");
    assert_true(bw_egress_header(&r, "Content-Length", v, 2)); /* cut to cap */
    assert_string_equal(v, "5");
    assert_false(bw_egress_header(&r, "X-Missing", v, sizeof v));
    assert_false(bw_egress_header(&r, "X-Tes", v, sizeof v));
    bw_egress_resp_free(&r);
    assert_null(r.body);

    /* a spelling of 127.0.0.1 goes to 127.0.0.1 and says so */
    snprintf(url, sizeof url, "http://2130706433:%d/other", s->port);
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 0, &r), BW_EG_OK);
    assert_string_equal(r.body, "other");
    snprintf(url, sizeof url, "http://127.0.0.1:%d/other", s->port);
    assert_string_equal(r.final_url, url);
    bw_egress_resp_free(&r);

    /* a name that resolves to loopback */
    snprintf(url, sizeof url, "http://localhost:%d/", s->port);
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 0, &r), BW_EG_OK);
    assert_string_equal(r.body, "hello");
    bw_egress_resp_free(&r);
    assert_int_equal(accepted(s), 3);
    srv_stop(s);
}

static void test_ipv6_loopback(void **state)
{
    (void)state;
    struct srv *s = srv_start_family(AF_INET6, false);
    if (!s)
        skip(); /* no IPv6 loopback here */
    char url[128];
    struct bw_egress_resp r;
    snprintf(url, sizeof url, "http://[::1]:%d/", s->port);
    assert_int_equal(get(0, url, 0, &r), BW_EG_BLOCKED);
    bw_egress_resp_free(&r);
    assert_int_equal(accepted(s), 0);
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 0, &r), BW_EG_OK);
    assert_string_equal(r.body, "hello");
    assert_string_equal(r.ip, "::1");
    bw_egress_resp_free(&r);
    srv_stop(s);
}

static void test_bad_urls(void **state)
{
    (void)state;
    struct srv *s = srv_start(false);
    char url[128];
    const char *fmts[] = {"file:///etc/passwd", "gopher://127.0.0.1:{port}/", "ftp://127.0.0.1:{port}/",
                          "http://user:pw@127.0.0.1:{port}/", "127.0.0.1:{port}",
                          "http://[fe80::1%25lo]:{port}/"};
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        struct bw_egress_resp r;
        with_port(url, sizeof url, fmts[i], s->port);
        if (get(3, url, 3, &r) != BW_EG_BAD_URL)
            fail_msg("%s: %s (%s)", url, bw_egress_outcome_name(r.outcome), r.error);
        assert_true(r.error[0]);
        assert_null(strstr(r.final_url, "pw@")); /* a refused URL is not echoed with its password */
        assert_null(strstr(r.error, "pw@"));
        bw_egress_resp_free(&r);
    }
    struct bw_egress_resp r;
    assert_int_equal(bw_egress_request(3, NULL, &r), -1);
    assert_int_equal(r.outcome, BW_EG_BAD_URL);
    assert_int_equal(accepted(s), 0);
    srv_stop(s);
}

static void test_bad_method_and_headers(void **state)
{
    (void)state;
    struct srv *s = srv_start(false);
    char url[128];
    struct bw_egress_resp r;
    snprintf(url, sizeof url, "http://127.0.0.1:%d/echo", s->port);

    struct bw_egress_req rq = {.url = url, .method = "GET /x HTTP/1.1\r\nX:"};
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), -1);
    assert_int_equal(r.outcome, BW_EG_ERROR);
    bw_egress_resp_free(&r);

    const char *smuggle[] = {"X-A: 1\r\nX-B: 2", NULL};
    rq = (struct bw_egress_req){.url = url, .headers = smuggle};
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), -1);
    assert_int_equal(r.outcome, BW_EG_ERROR);
    bw_egress_resp_free(&r);

    const char *noname[] = {": value", NULL};
    rq.headers = noname;
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), -1);
    bw_egress_resp_free(&r);
    assert_int_equal(accepted(s), 0);
    srv_stop(s);
}

static void test_response_cap(void **state)
{
    (void)state;
    struct srv *s = srv_start(false);
    char url[128];
    struct bw_egress_resp r;
    snprintf(url, sizeof url, "http://127.0.0.1:%d/big", s->port);
    struct bw_egress_req rq = {.url = url, .max_response = 1000};
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), 0);
    assert_int_equal(r.outcome, BW_EG_OK);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body_len, 1000);
    assert_true(r.truncated);
    assert_int_equal(strlen(r.body), 1000);
    bw_egress_resp_free(&r);

    /* exactly at the cap is not truncated */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", s->port);
    rq = (struct bw_egress_req){.url = url, .max_response = 5};
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), 0);
    assert_int_equal(r.body_len, 5);
    assert_false(r.truncated);
    bw_egress_resp_free(&r);
    srv_stop(s);
}

static void test_redirects(void **state)
{
    (void)state;
    struct srv *s = srv_start(false);
    char url[128], v[128], want[128];
    struct bw_egress_resp r;

    /* to cloud metadata: refused, and only the first hop was ever contacted */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/redir-meta", s->port);
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK | BW_EGRESS_ALLOW_PRIVATE, url, 3, &r), BW_EG_BLOCKED);
    assert_non_null(strstr(r.error, "cloud metadata"));
    assert_string_equal(r.final_url, "http://169.254.169.254/latest/meta-data/");
    assert_int_equal(r.status, 302); /* the response that pointed there */
    bw_egress_resp_free(&r);
    assert_int_equal(accepted(s), 1);

    /* max_redirects 0: the 3xx is the answer */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/redir-local", s->port);
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 0, &r), BW_EG_OK);
    assert_int_equal(r.status, 302);
    assert_string_equal(r.final_url, url);
    assert_true(bw_egress_header(&r, "location", v, sizeof v));
    snprintf(want, sizeof want, "http://127.0.0.1:%d/other", s->port);
    assert_string_equal(v, want);
    bw_egress_resp_free(&r);
    assert_int_equal(accepted(s), 2);

    /* followed: each hop checked, the final response returned */
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 3, &r), BW_EG_OK);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "other");
    assert_string_equal(r.final_url, want);
    assert_int_equal(strncmp(r.headers, "HTTP/1.1 200", 12), 0); /* only the final block */
    assert_null(strstr(r.headers, "Location"));
    bw_egress_resp_free(&r);
    assert_int_equal(accepted(s), 4);

    /* to another scheme: refused */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/redir-file", s->port);
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 3, &r), BW_EG_BLOCKED);
    assert_string_equal(r.final_url, "file:///etc/passwd");
    bw_egress_resp_free(&r);

    /* a loop ends at max_redirects */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/loop", s->port);
    const int before = accepted(s);
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 2, &r), BW_EG_ERROR);
    assert_non_null(strstr(r.error, "redirects"));
    bw_egress_resp_free(&r);
    assert_int_equal(accepted(s), before + 3);
    srv_stop(s);
}

static void test_methods_and_redirect_rules(void **state)
{
    (void)state;
    struct srv *s = srv_start(false);
    char url[128];
    struct bw_egress_resp r;
    const char *auth[] = {"Authorization: Bearer sekrit", "X-Other: 1", NULL};

    snprintf(url, sizeof url, "http://127.0.0.1:%d/echo", s->port);
    struct bw_egress_req rq = {.url = url, .method = "POST", .body = "abc", .body_len = 3, .headers = auth};
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), 0);
    assert_string_equal(r.body, "POST /echo len=3 auth=yes");
    assert_null(strstr(r.headers, "sekrit"));
    bw_egress_resp_free(&r);

    rq.method = "HEAD";
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), 0);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body_len, 0);
    assert_non_null(r.body);
    bw_egress_resp_free(&r);

    /* 303 after a POST: GET without the body */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/see-other", s->port);
    rq = (struct bw_egress_req){.url = url, .method = "POST", .body = "abc", .body_len = 3, .max_redirects = 1};
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), 0);
    assert_string_equal(r.body, "GET /echo len=0 auth=no");
    bw_egress_resp_free(&r);

    /* 307 repeats the request as it was */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/temporary", s->port);
    rq.url = url;
    rq.method = "PUT";
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), 0);
    assert_string_equal(r.body, "PUT /echo len=3 auth=no");
    bw_egress_resp_free(&r);

    /* credentials follow a redirect on the same origin, not to another one */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/redir-same", s->port);
    rq = (struct bw_egress_req){.url = url, .headers = auth, .max_redirects = 2};
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), 0);
    assert_string_equal(r.body, "GET /echo len=0 auth=yes");
    bw_egress_resp_free(&r);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/redir-cross", s->port);
    rq.url = url;
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), 0);
    assert_string_equal(r.body, "GET /echo len=0 auth=no");
    bw_egress_resp_free(&r);
    srv_stop(s);
}

static void test_timeout(void **state)
{
    (void)state;
    struct srv *s = srv_start(true);
    char url[128];
    struct bw_egress_resp r;
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", s->port);
    struct bw_egress_req rq = {.url = url, .timeout_ms = 300};
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), -1);
    assert_int_equal(r.outcome, BW_EG_TIMEOUT);
    assert_true(r.elapsed_ms >= 250);
    assert_true(r.elapsed_ms < 1500);
    assert_int_equal(r.status, 0);
    bw_egress_resp_free(&r);
    assert_int_equal(accepted(s), 1);
    srv_stop(s);
}

static void test_connect_refused(void **state)
{
    (void)state;
    /* a port that was just free: bind, read it back, close */
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);

    char url[128];
    struct bw_egress_resp r;
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", ntohs(a.sin_port));
    assert_int_equal(get(BW_EGRESS_ALLOW_LOOPBACK, url, 0, &r), BW_EG_CONNECT);
    assert_true(r.error[0]);
    bw_egress_resp_free(&r);
}

static void test_dns_failure(void **state)
{
    (void)state;
    struct bw_egress_resp r;
    struct bw_egress_req rq = {.url = "http://no-such-host.invalid/", .connect_timeout_ms = 1500};
    assert_int_equal(bw_egress_request(0, &rq, &r), -1);
    /* without a reachable resolver the lookup may run out of time instead */
    assert_true(r.outcome == BW_EG_DNS || r.outcome == BW_EG_TIMEOUT);
    assert_true(r.elapsed_ms < 3000);
    bw_egress_resp_free(&r);
}

/* ---- TLS, against `openssl s_server` when the tool is there ------------------------------- */

struct tls_srv {
    pid_t pid;
    int port;
    FILE *out; /* s_server's stdout, open until it stops (a closed pipe would kill it) */
    char dir[64];
};

static bool tls_start(struct tls_srv *t)
{
    char cmd[512], cert[128], key[128], line[256] = "";
    int pfd[2];

    snprintf(t->dir, sizeof t->dir, "/tmp/bw_egress_tls_XXXXXX");
    if (!mkdtemp(t->dir)) {
        t->dir[0] = '\0';
        return false;
    }
    snprintf(cert, sizeof cert, "%s/cert.pem", t->dir);
    snprintf(key, sizeof key, "%s/key.pem", t->dir);
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 "
             "-subj /CN=localhost -keyout %s -out %s >/dev/null 2>&1",
             key, cert);
    if (system(cmd) != 0 || pipe(pfd))
        return false;
    t->pid = fork();
    if (t->pid == 0) {
        int nul = open("/dev/null", O_RDWR);
        dup2(nul, 0);
        dup2(pfd[1], 1);
        dup2(nul, 2);
        close(pfd[0]);
        execlp("openssl", "openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", cert, "-key", key, "-www",
               (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    t->out = fdopen(pfd[0], "r");
    while (t->out && fgets(line, sizeof line, t->out))
        if (sscanf(line, "ACCEPT 127.0.0.1:%d", &t->port) == 1)
            break;
    return t->port > 0;
}

static void tls_stop(struct tls_srv *t)
{
    char cmd[128];
    if (t->pid > 0) {
        kill(t->pid, SIGTERM);
        waitpid(t->pid, NULL, 0);
    }
    if (t->out)
        fclose(t->out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", t->dir);
    if (system(cmd) != 0)
        print_message("could not remove %s\n", t->dir);
}

/* setup/teardown, so the server is stopped even when an assertion ends the test early */
static int tls_setup(void **state)
{
    struct tls_srv *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    *state = t;
    if (system("command -v openssl >/dev/null 2>&1") == 0 && !tls_start(t))
        print_message("openssl s_server did not start\n");
    return 0;
}

static int tls_teardown(void **state)
{
    struct tls_srv *t = *state;
    if (t->dir[0])
        tls_stop(t);
    free(t);
    return 0;
}

static void test_tls_self_signed(void **state)
{
    const struct tls_srv *t = *state;
    if (t->port <= 0)
        skip(); /* no openssl tool here */
    char url[128];
    struct bw_egress_resp r;
    snprintf(url, sizeof url, "https://localhost:%d/", t->port);

    /* a probe looks past the bad certificate and reports it */
    struct bw_egress_req rq = {.url = url, .verify_tls = false};
    if (bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r) != 0)
        fail_msg("%s: %s (%s)", url, bw_egress_outcome_name(r.outcome), r.error);
    assert_int_equal(r.status, 200);
    assert_true(r.tls);
    assert_false(r.tls_verify_ok);
    assert_non_null(strstr(r.tls_error, "self-signed"));
    assert_int_equal(strncmp(r.tls_version, "TLSv1.", 6), 0);
    assert_int_equal(strlen(r.cert_expires), 20); /* 2026-01-01T00:00:00Z */
    assert_int_equal(r.cert_expires[10], 'T');
    assert_int_equal(r.cert_expires[19], 'Z');
    bw_egress_resp_free(&r);

    /* verification on: the exchange fails */
    rq.verify_tls = true;
    assert_int_equal(bw_egress_request(BW_EGRESS_ALLOW_LOOPBACK, &rq, &r), -1);
    assert_int_equal(r.outcome, BW_EG_TLS);
    assert_false(r.tls_verify_ok);
    assert_non_null(strstr(r.tls_error, "self-signed"));
    bw_egress_resp_free(&r);

    /* and never without loopback permission */
    assert_int_equal(bw_egress_request(0, &rq, &r), -1);
    assert_int_equal(r.outcome, BW_EG_BLOCKED);
    bw_egress_resp_free(&r);
}

int main(void)
{
    if (bw_egress_global_init() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classify_table),
        cmocka_unit_test(test_classify_reasons),
        cmocka_unit_test(test_ipv4_literals),
        cmocka_unit_test(test_parse_allow),
        cmocka_unit_test(test_check_url),
        cmocka_unit_test(test_outcome_names),
        cmocka_unit_test(test_blocked_never_contacted),
        cmocka_unit_test(test_none_never_contacted),
        cmocka_unit_test(test_allowed_loopback),
        cmocka_unit_test(test_ipv6_loopback),
        cmocka_unit_test(test_bad_urls),
        cmocka_unit_test(test_bad_method_and_headers),
        cmocka_unit_test(test_response_cap),
        cmocka_unit_test(test_redirects),
        cmocka_unit_test(test_methods_and_redirect_rules),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_connect_refused),
        cmocka_unit_test(test_dns_failure),
        cmocka_unit_test_setup_teardown(test_tls_self_signed, tls_setup, tls_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
