/* The address model shared by the egress guard and every report that judges a host: one list of
 * address classes and one classifier, pure (no I/O, no DNS, no libcurl).
 *
 *  - IPv4 literals are recognised in every spelling inet_aton accepts (decimal "2130706433",
 *    octal "0177.0.0.1", hex "0x7f.1", short "127.1"), with one trailing dot as in URLs;
 *  - IPv6 forms that embed an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d,
 *    NAT64 64:ff9b::/96 and 64:ff9b:1::/48 (last 32 bits), 6to4 2002::/16, Teredo's client
 *    address) are judged by that address: they reach it, or are translated to it;
 *  - cloud metadata services are a class of their own (they hand out credentials), whatever
 *    range they sit in.
 * Host names (localhost, metadata.google.internal) are classified in url.h. Nothing here
 * allocates. */
#ifndef BW_NET_ADDR_H
#define BW_NET_ADDR_H
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>

enum bw_addr_class {
    BW_ADDR_PUBLIC,
    BW_ADDR_LOOPBACK,    /* 127/8, ::1; the names localhost and *.localhost */
    BW_ADDR_PRIVATE,     /* 10/8, 172.16/12, 192.168/16, fc00::/7 (ULA) */
    BW_ADDR_LINK_LOCAL,  /* 169.254/16, fe80::/10 */
    BW_ADDR_METADATA,    /* cloud metadata: 169.254.169.254, 169.254.170.2, fd00:ec2::254,
                            100.100.100.200, 192.0.0.192; metadata.google.internal and friends */
    BW_ADDR_CGNAT,       /* 100.64/10 */
    BW_ADDR_MULTICAST,   /* 224/4, ff00::/8 */
    BW_ADDR_UNSPECIFIED, /* 0.0.0.0, :: (a wildcard bind; connecting to it reaches this machine) */
    BW_ADDR_RESERVED,    /* the rest of 0/8, 240/4, broadcast, documentation, benchmarking, the rest
                            of ::/8, fec0::/10, 2001:db8::/32, 100::/64, ... */
    BW_ADDR__COUNT
};

/* "public", "loopback", "private", "link_local", "metadata", "cgnat", "multicast", "unspecified",
 * "reserved". */
const char *bw_addr_class_name(enum bw_addr_class c);

/* The class of an IPv4 address (host byte order), of 16 IPv6 bytes, or of an AF_INET/AF_INET6
 * sockaddr (any other family, or NULL, is RESERVED). *why (may be NULL) gets a short reason
 * ("loopback address", "link-local address (cloud metadata)", ...), static. */
enum bw_addr_class bw_addr_classify_v4(uint32_t a, const char **why);
enum bw_addr_class bw_addr_classify_v6(const uint8_t b[16], const char **why);
enum bw_addr_class bw_addr_classify(const struct sockaddr *sa, const char **why);

/* Whether host (as written in a URL) is an IPv4 literal in any inet_aton spelling (1 to 4 parts,
 * each decimal, 0-octal or 0x-hex, the last filling the remaining bytes; one trailing dot is
 * allowed, as in URLs); fills *out (may be NULL). Nothing else: no spaces, signs or trailers. */
bool bw_addr_ipv4_literal(const char *host, struct in_addr *out);

#endif
