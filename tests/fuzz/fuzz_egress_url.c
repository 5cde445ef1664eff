/* The egress guard's URL and address parsing, without network I/O: bw_addr_ipv4_literal is
 * checked against glibc's inet_aton (the reference for "every spelling"), bw_egress_check_url
 * for sane outcomes, and raw bytes as IPv4/IPv6 addresses for consistent classes. And the shared
 * URL parser (net/url.h): whatever it accepts reads back the same (the URL it writes parses to
 * the same host, class, port and userinfo; a normalised host reads as itself), and its readers
 * agree with it: the guard's check refuses exactly what it refuses and judges the host by its
 * class, the asset posture accepts exactly its http(s) URLs, the MCP scan calls loopback what it
 * calls loopback; and the split a shown URL is redacted on (bw_url_split) holds together and
 * covers what the parser reads as userinfo. */
#include "common/limits.h"
#include "engine/mcpscan.h"
#include "engine/posture.h"
#include "net/egress.h"
#include "net/url.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return bw_egress_global_init() == 0 ? 0 : 1;
}

static void check_class(const struct sockaddr *sa)
{
    const enum bw_addr_class c = bw_addr_classify(sa, NULL);
    if ((unsigned)c >= BW_ADDR__COUNT)
        abort();
    for (unsigned allow = 0; allow < 4; allow++) {
        const char *why = NULL;
        const bool ok = bw_egress_addr_allowed(sa, allow, &why);
        const bool want = c == BW_ADDR_PUBLIC || (c == BW_ADDR_LOOPBACK && (allow & BW_EGRESS_ALLOW_LOOPBACK)) ||
                          (c == BW_ADDR_PRIVATE && (allow & BW_EGRESS_ALLOW_PRIVATE));
        if (ok != want || (!ok && (!why || !*why)))
            abort();
    }
    const char *why = NULL; /* "none" refuses every address, whatever else is set */
    if (bw_egress_addr_allowed(sa, BW_EGRESS_NONE | BW_EGRESS_ALLOW_LOOPBACK | BW_EGRESS_ALLOW_PRIVATE, &why) ||
        !why || !*why)
        abort();
}

/* A normalised host reads as itself, with the same class. */
static void check_host(const struct bw_host *h)
{
    struct bw_host again;
    if ((unsigned)h->cls >= BW_ADDR__COUNT || !h->why || !*h->why || !h->name[0])
        abort();
    if (!bw_host_parse(h->name, &again) || strcmp(again.name, h->name) || again.cls != h->cls ||
        again.family != h->family || memcmp(again.addr, h->addr, sizeof h->addr))
        abort();
    if (bw_mcp_host_is_loopback(h->name) != (h->cls == BW_ADDR_LOOPBACK))
        abort();
}

/* bw_url_split on any text: consecutive spans covering it, each where the split says; what the
 * parser reads as userinfo is in the split's userinfo, and the display keeps none of it. */
static void check_split(const char *s, size_t len)
{
    struct bw_url_split sp;
    bw_url_split(s, &sp);
    if (sp.scheme + sp.userinfo + sp.authority + sp.path + sp.query + sp.fragment != len)
        abort();
    const char *p = s;
    if ((sp.scheme && (sp.scheme < 3 || memcmp(p + sp.scheme - 3, "://", 3))) ||
        (!sp.scheme && (sp.userinfo || sp.authority)))
        abort();
    p += sp.scheme;
    if ((sp.userinfo && p[sp.userinfo - 1] != '@') || memchr(p + sp.userinfo, '@', sp.authority))
        abort();
    p += sp.userinfo + sp.authority + sp.path;
    if ((sp.query && *p != '?') || (sp.fragment && p[sp.query] != '#') || memchr(p, '#', sp.query))
        abort();
    struct bw_url u;
    if (bw_url_parse(&u, s, NULL, 0) == BW_URL_OK && u.userinfo && !sp.userinfo)
        abort();
    bw_url_free(&u);
    char shown[BW_URL_DISPLAY_MAX];
    bw_posture_url_display(s, shown, sizeof shown);
    /* scheme and authority come first, uncut: the userinfo is gone from between them */
    if (sp.scheme + sp.authority < sizeof shown &&
        (strncmp(shown, s, sp.scheme) || strncmp(shown + sp.scheme, s + sp.scheme + sp.userinfo, sp.authority)))
        abort();
}

static void check_parsed_url(const char *s, size_t len)
{
    struct bw_url u;
    char why[128];
    memset(why, 'x', sizeof why);
    const enum bw_url_rc rc = bw_url_parse(&u, s, why, sizeof why);
    if (!memchr(why, '\0', sizeof why) || (rc != BW_URL_OK && !why[0]) || (rc == BW_URL_OK && why[0]))
        abort();
    const bool web = rc == BW_URL_OK && (!strcmp(u.scheme, "http") || !strcmp(u.scheme, "https"));
    if (bw_posture_url_ok(s) != web)
        abort();
    if (rc == BW_URL_NOMEM) {
        bw_url_free(&u);
        return;
    }

    /* the guard: BAD_URL for what the parser refuses; for an http(s) URL without credentials,
     * OK exactly when the policy lets the host's class through (no DNS in the check) */
    if (len < 2048) {
        for (unsigned allow = 0; allow < 4; allow++) {
            const enum bw_egress_outcome o = bw_egress_check_url(s, allow, NULL, 0);
            if (rc == BW_URL_BAD && o != BW_EG_BAD_URL)
                abort();
            if (web && !u.userinfo && o != BW_EG_ERROR &&
                o != (bw_egress_class_allowed(u.host.cls, allow) ? BW_EG_OK : BW_EG_BLOCKED))
                abort();
        }
    }
    if (rc != BW_URL_OK) {
        bw_url_free(&u);
        return;
    }

    for (const char *p = u.scheme; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            abort();
    if (u.port < 0 || u.port > 65535 || (u.port_explicit && u.port == 0))
        abort();
    check_host(&u.host);

    /* what it writes reads back the same */
    char out[4096];
    if (bw_url_get(&u, 0, out, sizeof out)) {
        struct bw_url v;
        if (bw_url_parse(&v, out, NULL, 0) == BW_URL_OK) {
            if (strcmp(v.host.name, u.host.name) || v.host.cls != u.host.cls || v.port != u.port ||
                v.userinfo != u.userinfo || strcmp(v.scheme, u.scheme))
                abort();
        }
        bw_url_free(&v);
    }
    if (bw_url_get(&u, BW_URL_NO_USERINFO | BW_URL_NO_QUERY | BW_URL_NO_FRAGMENT, out, sizeof out)) {
        struct bw_url v;
        if (bw_url_parse(&v, out, NULL, 0) == BW_URL_OK && (v.userinfo || strchr(out, '?') || strchr(out, '#')))
            abort();
        bw_url_free(&v);
    }
    bw_url_free(&u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';

    /* 1. IPv4 spellings: the same answer as inet_aton, which stops quietly at whitespace (so such
     *    inputs are left out) and refuses the one trailing dot URLs allow (so it is cut off) */
    struct in_addr mine, ref;
    const bool m = bw_addr_ipv4_literal(s, &mine);
    bool spaced = false;
    for (const char *p = s; *p; p++)
        spaced |= isspace((unsigned char)*p) != 0;
    if (!spaced) {
        char *t = strdup(s);
        size_t n = t ? strlen(t) : 0;
        if (t) {
            if (n >= 2 && t[n - 1] == '.' && t[n - 2] != '.')
                t[n - 1] = '\0';
            const bool r = inet_aton(t, &ref) != 0;
            if (r != m || (m && ref.s_addr != mine.s_addr))
                abort();
            free(t);
        }
    }

    /* 2. the URL check: a known outcome, a reason when refused, and more permission never
     *    turns an accepted URL into a refused one */
    char why[256];
    const unsigned allow = size ? data[0] & 3u : 0;
    memset(why, 'x', sizeof why);
    const enum bw_egress_outcome o = bw_egress_check_url(s, allow, why, sizeof why);
    if (o != BW_EG_OK && o != BW_EG_BAD_URL && o != BW_EG_BLOCKED && o != BW_EG_ERROR)
        abort();
    if (!memchr(why, '\0', sizeof why) || (o != BW_EG_OK && !why[0]) || (o == BW_EG_OK && why[0]))
        abort();
    if (o == BW_EG_OK && bw_egress_check_url(s, 3u, NULL, 0) != BW_EG_OK)
        abort();
    if (o == BW_EG_BLOCKED && allow != 3u) {
        /* what is refused even with full permission must also be refused with less */
        if (bw_egress_check_url(s, 3u, NULL, 0) == BW_EG_BLOCKED && bw_egress_check_url(s, 0, NULL, 0) != BW_EG_BLOCKED)
            abort();
    }

    /* 3. the bytes as addresses */
    if (size >= 16) {
        struct sockaddr_in6 a6;
        memset(&a6, 0, sizeof a6);
        a6.sin6_family = AF_INET6;
        memcpy(&a6.sin6_addr, data + size - 16, 16);
        check_class((const struct sockaddr *)&a6);
    }
    if (size >= 4) {
        struct sockaddr_in a4;
        memset(&a4, 0, sizeof a4);
        a4.sin_family = AF_INET;
        memcpy(&a4.sin_addr, data, 4);
        check_class((const struct sockaddr *)&a4);
    }

    /* 4. BULWARK_EGRESS_ALLOW: known flags only, and "none" alone */
    unsigned flags = 0;
    const unsigned known = BW_EGRESS_ALLOW_LOOPBACK | BW_EGRESS_ALLOW_PRIVATE | BW_EGRESS_NONE;
    if (bw_egress_parse_allow(s, &flags) == 0 &&
        ((flags & ~known) || ((flags & BW_EGRESS_NONE) && flags != BW_EGRESS_NONE)))
        abort();

    /* 5. the shared URL parser and its readers; the bytes as a bare host */
    check_parsed_url(s, strlen(s));
    check_split(s, strlen(s));
    struct bw_host h;
    if (bw_host_parse(s, &h))
        check_host(&h);

    free(s);
    return 0;
}
