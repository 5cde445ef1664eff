/* The one URL parser of the server, used by the egress guard and by every engine that reports on a
 * host (posture, MCP scan and probe, orchestrator, playbooks): libcurl's URL API (curl_url)
 * underneath, so the parser that judges a URL is the one that connects to it.
 *
 * Rules every reader shares (a URL two parsers could read differently is refused, not guessed):
 *  - "scheme://authority..." with a host; at most BW_URL_MAX bytes; ASCII without spaces,
 *    controls or backslashes (WHATWG parsers read '\' as '/', curl does not); IDN hosts must be
 *    written in punycode; no IPv6 zone id (it names an interface of whoever reads the URL); a
 *    port, when written, is 1-65535;
 *  - the host is percent-decoded (curl does it) and normalised: a name in lower case without
 *    its one allowed trailing dot, made of letters, digits, '-', '_' and non-empty labels; an
 *    IPv4 literal in any inet_aton spelling as a dotted quad; an IPv6 literal without brackets
 *    in inet_ntop form;
 *  - the host is classified without DNS (net/addr.h): literals by address, the names localhost
 *    and *.localhost as loopback, metadata.google.internal and the other cloud metadata names as
 *    metadata, any other name as public (what it resolves to is the guard's business).
 *
 * Ownership: a bw_url holds a curl handle; bw_url_free releases it (also after a failed parse). */
#ifndef BW_NET_URL_H
#define BW_NET_URL_H
#include "net/addr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct Curl_URL; /* libcurl's CURLU */

/* A host as written in a URL, read and classified. */
struct bw_host {
    char name[256];         /* normalised (see above) */
    bool trailing_dot;      /* a name written with its final dot (an absolute DNS name) */
    int family;             /* AF_INET or AF_INET6 for an address literal, else AF_UNSPEC */
    uint8_t addr[16];       /* the literal: 4 bytes (network order) or 16 */
    enum bw_addr_class cls; /* pure: no DNS */
    const char *why;        /* the class in words, static ("loopback address", "loopback name") */
};

struct bw_url {
    char scheme[16];        /* lower case ("http", "wss", ...) */
    struct bw_host host;
    long port;              /* as written, else the scheme's default (http/ws 80, https/wss 443), else 0 */
    bool port_explicit;
    bool userinfo;          /* a user, password or login options were written, even empty */
    struct Curl_URL *h;     /* the parsed URL (an IPv4 literal respelled as a dotted quad) */
};

enum bw_url_rc { BW_URL_OK, BW_URL_BAD, BW_URL_NOMEM };

/* Parses s into *u (any scheme; callers decide which they take). BW_URL_OK, else BW_URL_BAD or
 * BW_URL_NOMEM with the reason in why (cap bytes; why may be NULL); never echoes s, which may
 * carry a password. Call bw_url_free(u) whatever the result. */
enum bw_url_rc bw_url_parse(struct bw_url *u, const char *s, char *why, size_t cap);
void bw_url_free(struct bw_url *u);
/* bw_url_parse and bw_url_free in one, for readers that need only the plain fields (scheme, host,
 * port, userinfo): true when s parsed. */
bool bw_url_read(struct bw_url *u, const char *s);

#define BW_URL_NO_USERINFO 1u
#define BW_URL_NO_QUERY 2u
#define BW_URL_NO_FRAGMENT 4u
#define BW_URL_NORMAL_HOST 8u   /* the host as normalised here (lower case, no trailing dot) */
#define BW_URL_NO_DEFAULT_PORT 16u /* a written port that is the scheme's default left out */
/* The parsed URL as curl writes it (scheme in lower case, an IPv4 literal as a dotted quad, an
 * empty path as "/"), without the parts named in drop (and with the changes named there), into
 * out. False when it does not fit in cap bytes or memory ran out. */
bool bw_url_get(const struct bw_url *u, unsigned drop, char *out, size_t cap);

/* The scheme of s in lower case into out when s starts with "scheme://" (RFC 3986 scheme
 * characters, at most cap - 1 of them); false otherwise. Reads nothing past the "://". */
bool bw_url_scheme(const char *s, char *out, size_t cap);

/* A URL's parts as written, for showing and redacting it (bw_url_parse decides whether a URL is
 * read at all): the lengths of consecutive spans of s, summing to strlen(s), each 0 when absent.
 * scheme: "scheme://", a text before the first ':' with no '/', '?' or '#' in it, so any
 * authority-looking part is found; userinfo: up to and with the authority's LAST '@' (as WHATWG
 * parsers read "a:b@c@h"), so all a reader could take for credentials is in it; authority: the
 * host and port up to the first '/', '?' or '#' (libcurl's rule); path; query: from its '?' up
 * to '#'; fragment: from '#'. Without a "scheme://" prefix the text before '?' or '#' is the
 * path. */
struct bw_url_split {
    size_t scheme, userinfo, authority, path, query, fragment;
};
void bw_url_split(const char *s, struct bw_url_split *out);

/* Reads a host as it appears in a URL after percent-decoding: "[v6]" or a bare IPv6 address, an
 * IPv4 literal in any spelling, or a DNS name; fills *out. False when it is none of these. */
bool bw_host_parse(const char *host, struct bw_host *out);

#endif
