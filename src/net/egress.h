/* Outbound HTTP: the only way the server talks to other machines (asset scans, MCP probes,
 * red-team targets). libcurl underneath, guarded against server-side request forgery:
 *
 *  - http and https only, no proxy taken from the environment, no other protocol on redirect;
 *  - the host is resolved, and every address is checked before anything connects; the check runs
 *    again on the address curl actually connects to (so a DNS answer that changes between the
 *    check and the connect, "DNS rebinding", is still caught);
 *  - IPv4 literals are recognised in every spelling inet_aton accepts (decimal "2130706433",
 *    octal "0177.0.0.1", hex "0x7f.1"), IPv6 forms that embed an IPv4 address (IPv4-mapped
 *    ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo) are
 *    judged by that address;
 *  - redirects are off unless asked for, and then each hop is checked like the first;
 *  - connect and total timeouts, a response-size cap.
 *
 * Loopback and private ranges are refused unless BULWARK_EGRESS_ALLOW names them
 * ("loopback", "private"); link-local (incl. cloud metadata 169.254.169.254), CGNAT,
 * multicast, unspecified, broadcast and reserved ranges are always refused. */
#ifndef BW_NET_EGRESS_H
#define BW_NET_EGRESS_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <netinet/in.h>

#define BW_EGRESS_ALLOW_LOOPBACK 1u
#define BW_EGRESS_ALLOW_PRIVATE 2u

/* Parses a BULWARK_EGRESS_ALLOW value ("", "loopback", "private", "loopback,private", spaces
 * allowed around words) into flags. -1 on an unknown word (the server refuses to start). */
int bw_egress_parse_allow(const char *s, unsigned *flags);

enum bw_addr_class {
    BW_ADDR_PUBLIC,
    BW_ADDR_LOOPBACK,   /* 127/8, ::1 */
    BW_ADDR_PRIVATE,    /* 10/8, 172.16/12, 192.168/16, fc00::/7 */
    BW_ADDR_LINK_LOCAL, /* 169.254/16 (cloud metadata), fe80::/10 */
    BW_ADDR_CGNAT,      /* 100.64/10 */
    BW_ADDR_MULTICAST,  /* 224/4, ff00::/8 */
    BW_ADDR_RESERVED,   /* 0/8, 240/4, broadcast, documentation, benchmarking, ::, ... */
};

/* The class of an AF_INET or AF_INET6 address (embedded IPv4 forms judged by the IPv4). */
enum bw_addr_class bw_egress_classify(const struct sockaddr *sa);
/* Whether a connection to sa is allowed under the flags; *why gets a short reason when not
 * ("loopback address", "link-local address (cloud metadata)", ...). */
bool bw_egress_addr_allowed(const struct sockaddr *sa, unsigned allow, const char **why);
/* Whether host (as written in a URL) is an IPv4 literal in any inet_aton spelling; fills *out. */
bool bw_egress_ipv4_literal(const char *host, struct in_addr *out);

enum bw_egress_outcome {
    BW_EG_OK,       /* a response arrived (any HTTP status) */
    BW_EG_BLOCKED,  /* refused by the guard: nothing was sent */
    BW_EG_BAD_URL,  /* not an absolute http(s) URL with a host */
    BW_EG_DNS,      /* the name did not resolve */
    BW_EG_CONNECT,  /* refused, unreachable */
    BW_EG_TIMEOUT,
    BW_EG_TLS,      /* handshake failed (a certificate problem alone is not this: see tls_verify_ok) */
    BW_EG_ERROR,    /* anything else (protocol error, too many redirects, ...) */
    BW_EG__COUNT
};
const char *bw_egress_outcome_name(enum bw_egress_outcome o); /* "ok", "blocked", ... */

struct bw_egress_req {
    const char *method;          /* NULL = GET ("POST", "OPTIONS", "HEAD" ...) */
    const char *url;
    const char *const *headers;  /* "Name: value" strings, NULL-terminated; may be NULL */
    const char *body;            /* may be NULL */
    size_t body_len;
    long connect_timeout_ms;     /* 0 = 3000 */
    long timeout_ms;             /* whole exchange; 0 = 10000 */
    size_t max_response;         /* body bytes kept; 0 = 1 MiB; the rest is cut, `truncated` set */
    int max_redirects;           /* 0 = redirects are returned, not followed */
    bool verify_tls;             /* false: a bad certificate does not stop the exchange (a probe
                                    looks past it); the verification result is reported anyway */
};

struct bw_egress_resp {
    enum bw_egress_outcome outcome;
    char error[256];       /* why, when outcome != BW_EG_OK */
    long status;           /* HTTP status of the final response; 0 when none */
    char *body;            /* malloc'ed, NUL-terminated (also when empty); NULL when no response */
    size_t body_len;
    bool truncated;
    char *headers;         /* raw header block of the final response (capped at 16 KiB), NUL-terminated */
    size_t headers_len;
    char final_url[2048];
    char ip[64];           /* the address connected to, "" when none */
    bool tls;              /* the final exchange used TLS */
    bool tls_verify_ok;    /* the certificate chain and name verified (meaningful when tls) */
    char tls_error[256];   /* why it did not verify */
    char cert_expires[32]; /* ISO 8601 UTC notAfter of the leaf certificate, "" when unknown */
    char tls_version[16];  /* "TLSv1.3", "" when unknown */
    long elapsed_ms;
};

/* Once at start (curl_global_init); 0 or -1. Safe to call more than once. */
int bw_egress_global_init(void);
/* Performs one exchange under the guard. Always fills *out (outcome says what happened) and returns
 * 0 for BW_EG_OK, -1 otherwise. Blocking: call it from the blocking pool, never an event thread. */
int bw_egress_request(unsigned allow, const struct bw_egress_req *rq, struct bw_egress_resp *out);
void bw_egress_resp_free(struct bw_egress_resp *r);
/* The value of response header `name` (case-insensitive, first occurrence, trimmed) copied into
 * out; false when absent. */
bool bw_egress_header(const struct bw_egress_resp *r, const char *name, char *out, size_t cap);

/* Requests by outcome since start, for /metrics. */
void bw_egress_stats(unsigned long out[BW_EG__COUNT]);

#endif
