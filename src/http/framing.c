/* Request framing checks (RFC 9112 section 6) and the client address behind trusted proxies.
 * Pure functions over header values, so the fuzzer and the unit tests reach them without a
 * socket; server.c gathers the headers from libmicrohttpd and acts on the verdicts. */
#include "http/framing.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool ows(char c) { return c == ' ' || c == '\t'; } /* optional whitespace, RFC 9110 5.6.3 */

/* RFC 9110 5.1: a field name is a token; libmicrohttpd (outside its strict mode) keeps
 * "Content-Length : 5" as a field named "Content-Length " that frames nothing, which a proxy in
 * front may read as the body's length. */
static bool is_token(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              strchr("!#$%&'*+-.^_`|~", c)))
            return false;
    }
    return true;
}

void bw_framing_add(struct bw_framing *f, const char *name, const char *value)
{
    if (!name)
        return;
    f->bytes += strlen(name) + (value ? strlen(value) : 0) + 4;
    if (!is_token(name)) {
        f->bad_name = true;
        return;
    }
    if (strcasecmp(name, "Host") == 0) {
        f->host++;
    } else if (strcasecmp(name, "Content-Length") == 0) {
        if (f->content_length++ == 0)
            f->content_length_value = value;
    } else if (strcasecmp(name, "Transfer-Encoding") == 0) {
        if (f->transfer_encoding++ == 0)
            f->transfer_encoding_value = value;
    } else if (strcasecmp(name, "X-Forwarded-For") == 0 && value) {
        /* every line, joined in order with ", " (RFC 9110 5.3): the proxy appends its own line */
        size_t n = strlen(value);
        if (f->xff_too_long || f->xff_len + (f->xff_len ? 2 : 0) + n > BW_MAX_FORWARDED_FOR) {
            f->xff_too_long = true;
            return;
        }
        if (f->xff_len) {
            memcpy(f->xff + f->xff_len, ", ", 2);
            f->xff_len += 2;
        }
        memcpy(f->xff + f->xff_len, value, n);
        f->xff_len += n;
        f->xff[f->xff_len] = '\0';
    }
}

/* "chunked", case-insensitively and nothing else: the only transfer coding this server reads, and
 * exactly the test libmicrohttpd applies to the same value (a value it would not call chunked,
 * such as "chunked " or "chunked, identity", would leave the body's end undefined). */
static bool just_chunked(const char *v) { return strcasecmp(v, "chunked") == 0; }

static bool all_digits(const char *v)
{
    if (!*v)
        return false;
    for (; *v; v++)
        if (*v < '0' || *v > '9')
            return false;
    return true;
}

enum bw_err bw_framing_check(const struct bw_framing *f, bool http11, const char **field, const char **why)
{
    if (f->bytes > BW_MAX_HEADER_BYTES) {
        _Static_assert(BW_MAX_HEADER_BYTES == 32u * 1024u, "the message names the limit");
        *field = "headers", *why = "exceed the 32 KiB of header fields this server reads";
        return BW_E_HEADERS_TOO_LARGE;
    }
    if (f->bad_name) {
        *field = "headers", *why = "a field name is not a token (whitespace before the colon?)";
        return BW_E_VALIDATION_ERROR;
    }
    if (f->host > 1) {
        *field = "Host", *why = "must be sent once";
        return BW_E_VALIDATION_ERROR;
    }
    if (f->host == 0 && http11) {
        *field = "Host", *why = "is required in an HTTP/1.1 request";
        return BW_E_VALIDATION_ERROR;
    }
    if (f->transfer_encoding && f->content_length) {
        /* the two framings disagree on where the body ends: a request smuggling shape */
        *field = "Transfer-Encoding", *why = "must not be sent together with Content-Length";
        return BW_E_VALIDATION_ERROR;
    }
    if (f->content_length > 1) {
        *field = "Content-Length", *why = "must be sent once";
        return BW_E_VALIDATION_ERROR;
    }
    if (f->content_length && !all_digits(f->content_length_value ? f->content_length_value : "")) {
        *field = "Content-Length", *why = "must be a decimal number of bytes";
        return BW_E_VALIDATION_ERROR;
    }
    if (f->transfer_encoding && !http11) {
        *field = "Transfer-Encoding", *why = "is not part of HTTP/1.0";
        return BW_E_VALIDATION_ERROR;
    }
    if (f->transfer_encoding > 1 || (f->transfer_encoding && !just_chunked(f->transfer_encoding_value
                                                                              ? f->transfer_encoding_value
                                                                              : ""))) {
        *field = "Transfer-Encoding", *why = "must be exactly \"chunked\", once";
        return BW_E_VALIDATION_ERROR;
    }
    if (f->xff_too_long) {
        *field = "X-Forwarded-For", *why = "is longer than this server reads (BW_MAX_FORWARDED_FOR)";
        return BW_E_VALIDATION_ERROR;
    }
    return BW_OK;
}

/* One hop as an address in network form (IPv4 as IPv4-mapped IPv6), so spellings compare
 * equal; accepts "a.b.c.d", "a.b.c.d:port", "v6", "[v6]" and "[v6]:port". */
static bool hop_addr(const char *s, size_t n, unsigned char out[16])
{
    char buf[INET6_ADDRSTRLEN + 8];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *host = buf;
    if (host[0] == '[') {
        char *e = strchr(host, ']');
        if (!e || (e[1] && e[1] != ':'))
            return false;
        *e = '\0';
        host++;
    } else {
        char *c = strchr(host, ':');
        if (c && !strchr(c + 1, ':')) /* one colon: IPv4 with a port */
            *c = '\0';
    }
    unsigned char v4[4];
    if (inet_pton(AF_INET, host, v4) == 1) {
        memset(out, 0, 10);
        out[10] = out[11] = 0xff;
        memcpy(out + 12, v4, 4);
        return true;
    }
    return inet_pton(AF_INET6, host, out) == 1;
}

static bool is_trusted(const unsigned char a[16], const char (*trusted)[64], int ntrusted)
{
    for (int i = 0; i < ntrusted; i++) {
        unsigned char t[16];
        if (hop_addr(trusted[i], strlen(trusted[i]), t) && memcmp(a, t, 16) == 0)
            return true;
    }
    return false;
}

static void addr_text(const unsigned char a[16], char *out, size_t cap)
{
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(a, mapped, 12) == 0)
        inet_ntop(AF_INET, a + 12, out, (socklen_t)cap);
    else
        inet_ntop(AF_INET6, a, out, (socklen_t)cap);
}

bool bw_forwarded_client(const char *xff, size_t len, const char (*trusted)[64], int ntrusted, char *out,
                         size_t cap)
{
    /* right to left: each trusted proxy appended the address it received from; the first hop
     * that is not one of ours is the client (anything left of it the client may have forged) */
    size_t end = len;
    while (end > 0) {
        size_t start = end;
        while (start > 0 && xff[start - 1] != ',')
            start--;
        size_t a = start, b = end;
        while (a < b && ows(xff[a]))
            a++;
        while (b > a && ows(xff[b - 1]))
            b--;
        end = start ? start - 1 : 0;
        if (a == b)
            continue; /* an empty element (",,") carries nothing */
        unsigned char addr[16];
        if (!hop_addr(xff + a, b - a, addr))
            return false; /* the nearest untrusted hop is not an address: believe none of it */
        if (is_trusted(addr, trusted, ntrusted))
            continue;
        addr_text(addr, out, cap);
        return true;
    }
    return false;
}
