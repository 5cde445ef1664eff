/* The one URL parser and host reader (contract in url.h). */
#include "net/url.h"

#include "common/limits.h"

#include <curl/curl.h>

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- host names ------------------------------------------------------------------------------- */

/* Names of cloud metadata services (GCP, AWS, Tencent): they hand out the instance's credentials,
 * and inside the cloud they resolve to the metadata address. Compared after normalisation. */
static const char *const METADATA_NAMES[] = {
    "metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal",
    "metadata.tencentyun.com",
};

/* The class of a normalised name: RFC 6761 reserves localhost and every name under it for
 * loopback; any other name is placed only by what it resolves to. */
static enum bw_addr_class name_class(const char *n, const char **why)
{
    const size_t len = strlen(n);
    if (!strcmp(n, "localhost") || (len > 10 && !strcmp(n + len - 10, ".localhost"))) {
        *why = "loopback name";
        return BW_ADDR_LOOPBACK;
    }
    for (size_t i = 0; i < sizeof METADATA_NAMES / sizeof METADATA_NAMES[0]; i++)
        if (!strcmp(n, METADATA_NAMES[i])) {
            *why = "cloud metadata name";
            return BW_ADDR_METADATA;
        }
    *why = "public name";
    return BW_ADDR_PUBLIC;
}

/* Letters, digits, '-' and '_' in non-empty labels separated by dots, with at most one final
 * dot: after curl's percent-decoding nothing else may remain (anything else could mean something
 * different to a resolver than it did to us). Writes the name in lower case, without the final
 * dot, into out. */
static bool read_name(const char *h, struct bw_host *out)
{
    size_t n = strlen(h);
    out->trailing_dot = n > 1 && h[n - 1] == '.';
    if (out->trailing_dot)
        n--;
    if (!n || n > BW_URL_HOST_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)h[i];
        if (c == '.') {
            if (i == 0 || h[i - 1] == '.' || i + 1 == n)
                return false; /* an empty label */
        } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                     c == '_')) {
            return false;
        }
        out->name[i] = (char)tolower(c);
    }
    out->name[n] = '\0';
    /* a name ending in a number is an IPv4 literal or nothing (as in the WHATWG URL standard):
     * "256.0.0.1" or "08.0.0.1" must not go to a resolver as a name */
    const char *last = strrchr(out->name, '.');
    last = last ? last + 1 : out->name;
    const bool hex = last[0] == '0' && last[1] == 'x';
    const char *digits = hex ? last + 2 : last;
    return digits[strspn(digits, hex ? "0123456789abcdef" : "0123456789")] != '\0';
}

bool bw_host_parse(const char *host, struct bw_host *out)
{
    char v6[INET6_ADDRSTRLEN + 2];
    struct in_addr a4;
    size_t n = host ? strlen(host) : 0;

    memset(out, 0, sizeof *out);
    out->family = AF_UNSPEC;
    if (!n)
        return false;
    const char *lit = NULL;
    if (host[0] == '[') { /* as in a URL */
        if (n < 3 || host[n - 1] != ']' || n - 2 >= sizeof v6)
            return false;
        memcpy(v6, host + 1, n - 2);
        v6[n - 2] = '\0';
        lit = v6;
    } else if (strchr(host, ':')) { /* bare, as in a configuration or a report */
        lit = host;
    }
    if (lit) {
        if (inet_pton(AF_INET6, lit, out->addr) != 1)
            return false;
        out->family = AF_INET6;
        inet_ntop(AF_INET6, out->addr, out->name, sizeof out->name);
        out->cls = bw_addr_classify_v6(out->addr, &out->why);
        return true;
    }
    if (bw_addr_ipv4_literal(host, &a4)) {
        out->family = AF_INET;
        memcpy(out->addr, &a4.s_addr, 4);
        inet_ntop(AF_INET, &a4, out->name, sizeof out->name);
        out->cls = bw_addr_classify_v4(ntohl(a4.s_addr), &out->why);
        return true;
    }
    if (!read_name(host, out))
        return false;
    out->cls = name_class(out->name, &out->why);
    return true;
}

/* ---- URLs ---------------------------------------------------------------------------------- */

bool bw_url_scheme(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    if (!s || !isalpha((unsigned char)s[0]))
        return false;
    while (isalnum((unsigned char)s[n]) || s[n] == '+' || s[n] == '-' || s[n] == '.')
        n++;
    if (strncmp(s + n, "://", 3) || n >= cap)
        return false;
    for (size_t i = 0; i < n; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[n] = '\0';
    return true;
}

void bw_url_split(const char *s, struct bw_url_split *out)
{
    memset(out, 0, sizeof *out);
    if (!s)
        return;
    const char *p = s;
    const char *sep = strstr(s, "://");
    if (sep && (size_t)(sep - s) == strcspn(s, ":/?#")) {
        out->scheme = (size_t)(sep - s) + 3;
        p = sep + 3;
        const size_t auth = strcspn(p, "/?#");
        for (size_t i = 0; i < auth; i++)
            if (p[i] == '@')
                out->userinfo = i + 1;
        out->authority = auth - out->userinfo;
        p += auth;
    }
    out->path = strcspn(p, "?#");
    p += out->path;
    out->query = *p == '?' ? strcspn(p, "#") : 0;
    p += out->query;
    out->fragment = strlen(p);
}

static long default_port(const char *scheme)
{
    if (!strcmp(scheme, "http") || !strcmp(scheme, "ws"))
        return 80;
    if (!strcmp(scheme, "https") || !strcmp(scheme, "wss"))
        return 443;
    return 0;
}

/* Whether the URL has the part (even an empty one): anything but the "no such part" answer
 * counts, so an error never hides one. */
static bool has_part(CURLU *h, CURLUPart what, CURLUcode absent)
{
    char *v = NULL;
    const bool has = curl_url_get(h, what, &v, 0) != absent;
    curl_free(v);
    return has;
}

enum bw_url_rc bw_url_parse(struct bw_url *u, const char *s, char *why, size_t cap)
{
    enum bw_url_rc rc = BW_URL_BAD;
    char *host = NULL, *port = NULL;
    CURLUcode uc;

    memset(u, 0, sizeof *u);
    if (!why)
        cap = 0; /* snprintf(NULL, 0, ...) writes nothing */
    else if (cap)
        why[0] = '\0';
    if (!s || !*s) {
        snprintf(why, cap, "no URL");
        goto out;
    }
    const size_t len = strnlen(s, BW_URL_MAX + 1);
    if (len > BW_URL_MAX) {
        snprintf(why, cap, "URL longer than %d bytes", BW_URL_MAX);
        goto out;
    }
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c <= 0x20 || c >= 0x7f || c == '\\') {
            snprintf(why, cap, "URL contains a space, control, backslash or non-ASCII character");
            goto out;
        }
    }
    /* curl also takes "http:/h" and "http:///h" (as browsers do); the other readers of a URL
     * here never did, so neither form names a host */
    if (!bw_url_scheme(s, u->scheme, sizeof u->scheme) || s[strlen(u->scheme) + 3] == '/') {
        snprintf(why, cap, "not an absolute URL (scheme://host...)");
        goto out;
    }
    if (!(u->h = curl_url())) {
        rc = BW_URL_NOMEM;
        snprintf(why, cap, "out of memory");
        goto out;
    }
    if ((uc = curl_url_set(u->h, CURLUPART_URL, s, CURLU_NON_SUPPORT_SCHEME)) != CURLUE_OK) {
        rc = uc == CURLUE_OUT_OF_MEMORY ? BW_URL_NOMEM : BW_URL_BAD;
        snprintf(why, cap, "malformed URL: %s", curl_url_strerror(uc));
        goto out;
    }
    u->userinfo = has_part(u->h, CURLUPART_USER, CURLUE_NO_USER) ||
                  has_part(u->h, CURLUPART_PASSWORD, CURLUE_NO_PASSWORD) ||
                  has_part(u->h, CURLUPART_OPTIONS, CURLUE_NO_OPTIONS);
    if (has_part(u->h, CURLUPART_ZONEID, CURLUE_NO_ZONEID)) {
        snprintf(why, cap, "IPv6 zone ids are not allowed");
        goto out;
    }
    if (curl_url_get(u->h, CURLUPART_HOST, &host, 0) != CURLUE_OK || !*host) {
        snprintf(why, cap, "URL has no host");
        goto out;
    }
    uc = curl_url_get(u->h, CURLUPART_PORT, &port, 0);
    if (uc == CURLUE_OK) {
        char *end;
        u->port = strtol(port, &end, 10);
        if (*end || u->port < 1 || u->port > 65535) {
            snprintf(why, cap, "bad port %s", port);
            goto out;
        }
        u->port_explicit = true;
    } else if (uc == CURLUE_NO_PORT) {
        u->port = default_port(u->scheme);
    } else {
        snprintf(why, cap, "bad port");
        goto out;
    }
    if (!bw_host_parse(host, &u->host)) {
        snprintf(why, cap, "%s", host[0] == '[' ? "bad IPv6 address" : "bad host name");
        goto out;
    }
    /* curl respells most IPv4 forms itself; ours is the one that counts (a trailing dot, say), and
     * curl is told, so that everyone downstream talks about the same address */
    if (u->host.family == AF_INET && strcmp(host, u->host.name) &&
        (uc = curl_url_set(u->h, CURLUPART_HOST, u->host.name, 0)) != CURLUE_OK) {
        rc = uc == CURLUE_OUT_OF_MEMORY ? BW_URL_NOMEM : BW_URL_BAD;
        snprintf(why, cap, "bad IPv4 address");
        goto out;
    }
    rc = BW_URL_OK;
out:
    curl_free(host);
    curl_free(port);
    return rc;
}

void bw_url_free(struct bw_url *u)
{
    if (!u)
        return;
    curl_url_cleanup(u->h);
    u->h = NULL;
}

bool bw_url_read(struct bw_url *u, const char *s)
{
    const bool ok = bw_url_parse(u, s, NULL, 0) == BW_URL_OK;
    bw_url_free(u);
    return ok;
}

bool bw_url_get(const struct bw_url *u, unsigned drop, char *out, size_t cap)
{
    bool ok = false;
    char *full = NULL;
    CURLU *c = u && u->h ? curl_url_dup(u->h) : NULL;

    if (!c || !cap)
        goto out;
    if (((drop & BW_URL_NO_USERINFO) &&
         (curl_url_set(c, CURLUPART_USER, NULL, 0) || curl_url_set(c, CURLUPART_PASSWORD, NULL, 0) ||
          curl_url_set(c, CURLUPART_OPTIONS, NULL, 0))) ||
        ((drop & BW_URL_NO_QUERY) && curl_url_set(c, CURLUPART_QUERY, NULL, 0)) ||
        ((drop & BW_URL_NO_FRAGMENT) && curl_url_set(c, CURLUPART_FRAGMENT, NULL, 0)) ||
        ((drop & BW_URL_NO_DEFAULT_PORT) && u->port_explicit && u->port == default_port(u->scheme) &&
         curl_url_set(c, CURLUPART_PORT, NULL, 0)))
        goto out;
    if (drop & BW_URL_NORMAL_HOST) {
        char host[sizeof u->host.name + 2];
        snprintf(host, sizeof host, u->host.family == AF_INET6 ? "[%s]" : "%s", u->host.name);
        if (curl_url_set(c, CURLUPART_HOST, host, 0))
            goto out;
    }
    if (curl_url_get(c, CURLUPART_URL, &full, 0) != CURLUE_OK)
        goto out;
    const size_t n = strlen(full);
    if (n >= cap)
        goto out;
    memcpy(out, full, n + 1);
    ok = true;
out:
    curl_free(full);
    curl_url_cleanup(c);
    return ok;
}
