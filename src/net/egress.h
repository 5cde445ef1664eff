/* Outbound HTTP: the only way the server talks to other machines (asset scans, MCP probes,
 * red-team targets). libcurl underneath, guarded against server-side request forgery:
 *
 *  - http and https only, no proxy taken from the environment, no other protocol on redirect;
 *  - the host is resolved, and every address is checked before anything connects (one forbidden
 *    answer refuses the name: mixed answers are what rebinding looks like); the check runs
 *    again on the address curl actually connects to (so a DNS answer that changes between the
 *    check and the connect, "DNS rebinding", is still caught);
 *  - URLs are read by the one URL parser (net/url.h) and hosts and addresses judged by the one
 *    classifier (net/addr.h) that every report uses too: IPv4 literals in every inet_aton
 *    spelling, IPv6 forms embedding an IPv4 address judged by that address; a host name the
 *    classifier already places (localhost, *.localhost, metadata.google.internal ...) is judged
 *    by its class before any lookup;
 *  - redirects are off unless asked for, and then each hop is checked like the first;
 *  - connect and total timeouts, a response-size cap.
 *
 * Loopback and private ranges are refused unless BULWARK_EGRESS_ALLOW names them
 * ("loopback", "private"); link-local, cloud metadata (169.254.169.254, fd00:ec2::254, ...),
 * CGNAT, multicast, unspecified, broadcast and reserved ranges are always refused.
 *
 * Ownership: bw_egress_resp holds two malloc'ed buffers (body, headers), freed by
 * bw_egress_resp_free; everything a bw_egress_req points to stays the caller's. */
#ifndef BW_NET_EGRESS_H
#define BW_NET_EGRESS_H
#include "net/addr.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <netinet/in.h>

#define BW_EGRESS_ALLOW_LOOPBACK 1u
#define BW_EGRESS_ALLOW_PRIVATE 2u
#define BW_EGRESS_NONE 4u /* "none": no outbound connection at all, not even a name lookup
                             (every request ends BW_EG_BLOCKED); for offline runs and fuzzing */

/* Parses a BULWARK_EGRESS_ALLOW value ("", "loopback", "private", "loopback,private", spaces
 * allowed around words, or "none" alone) into flags. -1 on an unknown word or "none" with
 * another (the server refuses to start). */
int bw_egress_parse_allow(const char *s, unsigned *flags);

/* Whether the policy lets a host or address of class c through. */
bool bw_egress_class_allowed(enum bw_addr_class c, unsigned allow);
/* Whether a connection to sa is allowed under the flags; *why gets a short reason when not
 * ("loopback address", "link-local address (cloud metadata)", ...). */
bool bw_egress_addr_allowed(const struct sockaddr *sa, unsigned allow, const char **why);

enum bw_egress_outcome {
    BW_EG_OK,       /* a response arrived (any HTTP status) */
    BW_EG_BLOCKED,  /* refused by the guard: nothing was sent to the refused target (a refused
                       redirect target, a non-http(s) Location included, follows a hop that was sent) */
    BW_EG_BAD_URL,  /* not an absolute http(s) URL with a host, or it carries user:password@ (which
                       would be sent to the target; credentials go in headers), a zone id, or a
                       space, control or non-ASCII byte (IDN hosts must be written in punycode) */
    BW_EG_DNS,      /* the name did not resolve */
    BW_EG_CONNECT,  /* refused, unreachable */
    BW_EG_TIMEOUT,
    BW_EG_TLS,      /* handshake failed (a certificate problem alone is not this: see tls_verify_ok) */
    BW_EG_ERROR,    /* anything else (protocol error, too many redirects, ...) */
    BW_EG__COUNT
};
const char *bw_egress_outcome_name(enum bw_egress_outcome o); /* "ok", "blocked", ... */

/* Checks url without any network I/O: parsed as for bw_egress_request, and when the host is an IP
 * literal (any IPv4 spelling, bracketed IPv6) the address is judged under allow. BW_EG_OK means
 * acceptable so far (a host name must still resolve to allowed addresses when the request is
 * made); else BW_EG_BAD_URL, BW_EG_BLOCKED or BW_EG_ERROR (out of memory), with the reason in
 * why (cap bytes; why may be NULL). For early feedback when a URL is submitted, and the fuzzer. */
enum bw_egress_outcome bw_egress_check_url(const char *url, unsigned allow, char *why, size_t cap);

struct bw_egress_req {
    const char *method;          /* NULL = GET ("POST", "OPTIONS", "HEAD" ...) */
    const char *url;
    const char *const *headers;  /* "Name: value" strings, NULL-terminated; may be NULL. At most
                                    64, no CR/LF. Authorization, Proxy-Authorization, Cookie and
                                    Host are dropped once a redirect leaves the first origin. */
    const char *const *credential_headers; /* more header names (e.g. "x-api-key", "api-key") that
                                    carry the caller's credential: dropped the same way; may be NULL */
    const char *body;            /* may be NULL */
    size_t body_len;
    long connect_timeout_ms;     /* 0 = 3000 */
    long timeout_ms;             /* whole exchange; 0 = 10000 */
    size_t max_response;         /* body bytes kept; 0 = 1 MiB; the rest is cut, `truncated` set */
    int max_redirects;           /* 0 = redirects are returned, not followed (at most 20) */
    bool verify_tls;             /* false: a bad certificate does not stop the exchange (a probe
                                    looks past it); the verification result is reported anyway.
                                    The handshake is made with verification first; when only the
                                    certificate fails it is made again without (no HTTP was sent
                                    on the first), because curl verifies against the system CA
                                    store only when verification is on */
};

/* status, body, headers and ip describe the last response received: with a refused redirect or
 * a failure after it, the 3xx that led there; after a failure mid-response, what had arrived. The
 * tls fields describe the last exchange attempted (also one that failed in the handshake). */
struct bw_egress_resp {
    enum bw_egress_outcome outcome;
    char error[256];       /* why, when outcome != BW_EG_OK; never holds request headers */
    long status;           /* HTTP status of the final response; 0 when none */
    char *body;            /* malloc'ed, NUL-terminated (also when empty); NULL when no response */
    size_t body_len;
    bool truncated;
    char *headers;         /* raw header block of the final response (capped at 16 KiB), NUL-terminated */
    size_t headers_len;
    char final_url[2048];  /* the last URL attempted, normalised (a refused redirect's target) */
    char ip[64];           /* the address connected to, "" when none */
    bool tls;              /* the final exchange used TLS */
    bool tls_verify_ok;    /* the certificate chain and name verified (meaningful when tls) */
    char tls_error[256];   /* why it did not verify */
    char cert_expires[32]; /* ISO 8601 UTC notAfter of the leaf certificate, "" when unknown */
    char tls_version[16];  /* "TLSv1.3", "" when unknown (read from curl's informational text) */
    long elapsed_ms;
};

/* Once at start (curl_global_init); 0 or -1. Safe to call more than once. */
int bw_egress_global_init(void);
/* Performs one exchange under the guard. Always fills *out (outcome says what happened) and returns
 * 0 for BW_EG_OK, -1 otherwise; free *out with bw_egress_resp_free whatever the outcome. Blocking:
 * call it from the blocking pool, never an event thread. The process must ignore SIGPIPE (main
 * does): with CURLOPT_NOSIGNAL, curl leaves that to the application. A cut body (max_response) is BW_EG_OK with
 * truncated set. Name resolution counts against connect_timeout_ms (a resolver that does not
 * answer in time is left running on a helper thread, which frees itself). */
int bw_egress_request(unsigned allow, const struct bw_egress_req *rq, struct bw_egress_resp *out);
void bw_egress_resp_free(struct bw_egress_resp *r);
/* The value of response header `name` (case-insensitive, first occurrence, trimmed) copied into
 * out; false when absent. */
bool bw_egress_header(const struct bw_egress_resp *r, const char *name, char *out, size_t cap);

/* Requests by outcome since start, for /metrics. */
void bw_egress_stats(unsigned long out[BW_EG__COUNT]);

#endif
