/* Request framing (RFC 9112 section 6) and the client address behind trusted proxies: pure
 * functions over header values (src/http/framing.c), used by server.c and fuzzed on their own.
 *
 * bw_framing gathers what one request's header lines say (call bw_framing_add once per line, in
 * order; values are borrowed and must outlive the struct); bw_framing_check then refuses every
 * framing a front proxy and this server could read differently: a field name that is not a
 * token (whitespace before the colon), Host missing in HTTP/1.1 or sent
 * twice, Content-Length twice or not a number, Content-Length together with Transfer-Encoding,
 * any Transfer-Encoding but one "chunked" (or any in HTTP/1.0), and an X-Forwarded-For longer
 * than BW_MAX_FORWARDED_FOR in all (refused, never truncated). */
#ifndef BW_HTTP_FRAMING_H
#define BW_HTTP_FRAMING_H
#include "common/errors.h"
#include "common/limits.h"

#include <stdbool.h>
#include <stddef.h>

struct bw_framing {
    unsigned host, content_length, transfer_encoding; /* lines of each */
    const char *content_length_value;                  /* the first line's */
    const char *transfer_encoding_value;
    char xff[BW_MAX_FORWARDED_FOR + 1]; /* every X-Forwarded-For line, joined with ", " */
    size_t xff_len;
    bool xff_too_long;
    bool bad_name; /* a field name that is not a token (RFC 9110 5.1) */
    size_t bytes;  /* every field line, as sent ("name: value" and its CRLF) */
};

void bw_framing_add(struct bw_framing *f, const char *name, const char *value);

/* BW_OK when the request may be read; otherwise the error to answer (400 VALIDATION_ERROR, or 431
 * HEADERS_TOO_LARGE past BW_MAX_HEADER_BYTES of field lines) with the header at fault and why
 * (static strings); the connection is then closed. */
enum bw_err bw_framing_check(const struct bw_framing *f, bool http11, const char **field, const char **why);

/* The client address from a joined X-Forwarded-For value sent by a trusted proxy: the right-most
 * hop that is not one of the trusted addresses (each may be IPv4 or IPv6, hops may carry a port
 * or brackets), written to out in its canonical text. False when there is none, or when that hop
 * is not an IP address: the caller then keeps the peer's address. */
bool bw_forwarded_client(const char *xff, size_t len, const char (*trusted)[64], int ntrusted, char *out,
                         size_t cap);

#endif
