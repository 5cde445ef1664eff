/* The address classes and IPv4 spellings of the shared address model (contract in addr.h). Pure
 * functions: no I/O, no allocation. */
#include "net/addr.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

const char *bw_addr_class_name(enum bw_addr_class c)
{
    static const char *const names[BW_ADDR__COUNT] = {
        [BW_ADDR_PUBLIC] = "public",         [BW_ADDR_LOOPBACK] = "loopback", [BW_ADDR_PRIVATE] = "private",
        [BW_ADDR_LINK_LOCAL] = "link_local", [BW_ADDR_METADATA] = "metadata", [BW_ADDR_CGNAT] = "cgnat",
        [BW_ADDR_MULTICAST] = "multicast",   [BW_ADDR_UNSPECIFIED] = "unspecified",
        [BW_ADDR_RESERVED] = "reserved",
    };
    return (unsigned)c < BW_ADDR__COUNT ? names[c] : "reserved";
}

/* ---- classes ------------------------------------------------------------------------------ */

/* Cloud metadata services hand out the instance's credentials: AWS/GCP/Azure/DigitalOcean
 * (169.254.169.254), AWS ECS task metadata (169.254.170.2), Alibaba (100.100.100.200), Oracle
 * (192.0.0.192). */
static bool metadata_v4(uint32_t a)
{
    return a == 0xa9fea9feu || a == 0xa9feaa02u || a == 0x646464c8u || a == 0xc00000c0u;
}

enum bw_addr_class bw_addr_classify_v4(uint32_t a, const char **why)
{
    const char *w;
    enum bw_addr_class c;
    const unsigned b0 = a >> 24, b1 = (a >> 16) & 0xff, b2 = (a >> 8) & 0xff;

    if (a == 0) {
        c = BW_ADDR_UNSPECIFIED, w = "unspecified address";
    } else if (metadata_v4(a)) {
        c = BW_ADDR_METADATA, w = b0 == 169 ? "link-local address (cloud metadata)" : "cloud metadata address";
    } else if (b0 == 0) {
        c = BW_ADDR_RESERVED, w = "reserved address (this network)";
    } else if (b0 == 10) {
        c = BW_ADDR_PRIVATE, w = "private address";
    } else if (b0 == 100 && (b1 & 0xc0) == 64) {
        c = BW_ADDR_CGNAT, w = "carrier-grade NAT address";
    } else if (b0 == 127) {
        c = BW_ADDR_LOOPBACK, w = "loopback address";
    } else if (b0 == 169 && b1 == 254) {
        c = BW_ADDR_LINK_LOCAL, w = "link-local address";
    } else if (b0 == 172 && (b1 & 0xf0) == 16) {
        c = BW_ADDR_PRIVATE, w = "private address";
    } else if (b0 == 192 && b1 == 0 && b2 == 0) {
        c = BW_ADDR_RESERVED, w = "reserved address (IETF protocol assignments)";
    } else if ((b0 == 192 && b1 == 0 && b2 == 2) || (b0 == 198 && b1 == 51 && b2 == 100) ||
               (b0 == 203 && b1 == 0 && b2 == 113)) {
        c = BW_ADDR_RESERVED, w = "reserved address (documentation)";
    } else if (b0 == 192 && b1 == 168) {
        c = BW_ADDR_PRIVATE, w = "private address";
    } else if (b0 == 198 && (b1 & 0xfe) == 18) {
        c = BW_ADDR_RESERVED, w = "reserved address (benchmarking)";
    } else if ((b0 & 0xf0) == 224) {
        c = BW_ADDR_MULTICAST, w = "multicast address";
    } else if (a == 0xffffffffu) {
        c = BW_ADDR_RESERVED, w = "broadcast address";
    } else if ((b0 & 0xf0) == 240) {
        c = BW_ADDR_RESERVED, w = "reserved address";
    } else {
        c = BW_ADDR_PUBLIC, w = "public address";
    }
    if (why)
        *why = w;
    return c;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

enum bw_addr_class bw_addr_classify_v6(const uint8_t b[16], const char **why)
{
    static const uint8_t nat64[12] = {0x00, 0x64, 0xff, 0x9b};
    static const uint8_t nat64_local[6] = {0x00, 0x64, 0xff, 0x9b, 0x00, 0x01};
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    /* AWS and GCP serve instance metadata on these ULAs too (fd00:ec2::254, fd20:ce::254) */
    static const uint8_t aws_meta[16] = {0xfd, 0x00, 0x0e, 0xc2, [14] = 0x02, [15] = 0x54};
    static const uint8_t gcp_meta[16] = {0xfd, 0x20, 0x00, 0xce, [14] = 0x02, [15] = 0x54};
    const char *w;
    enum bw_addr_class c;

    /* Forms that carry an IPv4 address reach (or are translated to) that address, so they are
     * judged by it: a guard that only looked at the IPv6 prefix would let ::ffff:127.0.0.1 by. */
    if (!memcmp(b, mapped, 12) || !memcmp(b, nat64, 12) || !memcmp(b, nat64_local, 6))
        return bw_addr_classify_v4(be32(b + 12), why);
    if (all_zero(b, 12)) { /* ::/96: ::, ::1, else IPv4-compatible */
        const uint32_t v4 = be32(b + 12);
        if (v4 == 0)
            c = BW_ADDR_UNSPECIFIED, w = "unspecified address";
        else if (v4 == 1)
            c = BW_ADDR_LOOPBACK, w = "loopback address";
        else
            return bw_addr_classify_v4(v4, why);
    } else if (b[0] == 0x20 && b[1] == 0x02) { /* 6to4: the IPv4 is bits 16..47 */
        return bw_addr_classify_v4(be32(b + 2), why);
    } else if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) {
        /* Teredo: the client's IPv4 is the last 32 bits, inverted */
        return bw_addr_classify_v4(be32(b + 12) ^ 0xffffffffu, why);
    } else if (!memcmp(b, aws_meta, 16) || !memcmp(b, gcp_meta, 16)) {
        c = BW_ADDR_METADATA, w = "cloud metadata address";
    } else if ((b[0] & 0xfe) == 0xfc) {
        c = BW_ADDR_PRIVATE, w = "private address";
    } else if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) {
        c = BW_ADDR_LINK_LOCAL, w = "link-local address";
    } else if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) {
        c = BW_ADDR_RESERVED, w = "reserved address (site-local)";
    } else if (b[0] == 0xff) {
        c = BW_ADDR_MULTICAST, w = "multicast address";
    } else if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) {
        c = BW_ADDR_RESERVED, w = "reserved address (documentation)";
    } else if (b[0] == 0x01 && all_zero(b + 1, 7)) {
        c = BW_ADDR_RESERVED, w = "reserved address (discard)";
    } else if (b[0] == 0) {
        /* the rest of ::/8 is reserved by the IETF: nothing public lives there */
        c = BW_ADDR_RESERVED, w = "reserved address";
    } else {
        c = BW_ADDR_PUBLIC, w = "public address";
    }
    if (why)
        *why = w;
    return c;
}

/* The address is copied out by memcpy because callers may hand in a plain struct sockaddr view
 * of a larger object (curl does). */
enum bw_addr_class bw_addr_classify(const struct sockaddr *sa, const char **why)
{
    sa_family_t fam = AF_UNSPEC;
    if (sa)
        memcpy(&fam, (const char *)sa + offsetof(struct sockaddr, sa_family), sizeof fam);
    if (fam == AF_INET) {
        struct sockaddr_in in;
        memcpy(&in, sa, sizeof in);
        return bw_addr_classify_v4(ntohl(in.sin_addr.s_addr), why);
    }
    if (fam == AF_INET6) {
        struct sockaddr_in6 in6;
        memcpy(&in6, sa, sizeof in6);
        return bw_addr_classify_v6(in6.sin6_addr.s6_addr, why);
    }
    if (why)
        *why = "unsupported address family";
    return BW_ADDR_RESERVED;
}

/* ---- IPv4 literals ------------------------------------------------------------------------ */

/* One part of an inet_aton address: "0x" + hex digits, "0" + octal digits, or decimal. Sets
 * *end past it; false when malformed or above 0xffffffff (the caller narrows the range). */
static bool v4_part(const char *s, const char **end, uint32_t *out)
{
    unsigned base = 10;
    const char *p = s;
    uint64_t v = 0;
    size_t digits = 0;

    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    } else if (p[0] == '0') {
        base = 8; /* the leading 0 is itself a digit: "0" alone is zero */
    }
    for (;; p++, digits++) {
        unsigned d;
        const unsigned char ch = (unsigned char)*p;
        if (ch >= '0' && ch <= '9')
            d = ch - '0';
        else if (base == 16 && isxdigit(ch))
            d = (unsigned)(tolower(ch) - 'a' + 10);
        else
            break;
        if (d >= base)
            return false; /* "08", "09": an octal part with a decimal digit */
        v = v * base + d;
        if (v > 0xffffffffu)
            return false; /* also stops the accumulator from ever overflowing */
    }
    if (!digits)
        return false; /* "", "0x" */
    *end = p;
    *out = (uint32_t)v;
    return true;
}

bool bw_addr_ipv4_literal(const char *host, struct in_addr *out)
{
    uint32_t part[4];
    size_t n = 0;
    const char *p = host;

    if (!host || !*host)
        return false;
    for (;;) {
        if (n == 4 || !v4_part(p, &p, &part[n]))
            return false;
        n++;
        if (*p == '\0')
            break;
        if (*p != '.')
            return false;
        p++;
        /* one final dot is allowed: "127.0.0.1." names the same host (URL parsers in browsers
         * accept it, so refusing it here would let it slip past as a "name") */
        if (*p == '\0')
            break;
    }
    /* a.b.c.d; a.b.c (c fills 16 bits); a.b (b fills 24); a (32) */
    uint32_t v = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (part[i] > 0xff)
            return false;
        v |= part[i] << (24 - 8 * i);
    }
    const uint32_t last_max = n == 1 ? 0xffffffffu : (1u << (8 * (5 - n))) - 1;
    if (part[n - 1] > last_max)
        return false;
    v |= part[n - 1];
    if (out)
        out->s_addr = htonl(v);
    return true;
}
