#include "engine/posture.h"

#include "net/url.h"

#include <string.h>
#include <strings.h>

/* Points taken off a perfect 100, one line per reason (documented in the OpenAPI document). */
#define PEN_PLAIN_HTTP        30 /* credentials and prompts cross the network in clear */
#define PEN_PLAIN_HTTP_LOCAL  10 /* plain http, but only to this machine */
#define PEN_URL_CREDENTIALS   30 /* user:password@ in the endpoint */
#define PEN_URL_SECRET_PARAM  25 /* ?api_key= / ?token= in the endpoint: ends up in logs */
#define PEN_IP_LITERAL        10 /* a bare IP beyond loopback, private and link-local ranges (any
                                    spelling, IPv6 too): no certificate name, no DNS control */
#define PEN_AGENT             10 /* an agent acts: a wider blast radius than a model */
#define PEN_NO_PROVIDER        5 /* unknown provenance (supply chain) */
#define PEN_PROD_PLAIN_HTTP   10 /* plain http in production on top of the above */

static bool scheme(const char *s, const char *sch)
{
    size_t n = strlen(sch);
    return strncasecmp(s, sch, n) == 0;
}

bool bw_posture_url_ok(const char *s)
{
    struct bw_url u;
    return bw_url_read(&u, s) && (!strcmp(u.scheme, "http") || !strcmp(u.scheme, "https"));
}

/* Query parameters whose value is a credential (names compared without case). */
static const char *const SECRET_PARAMS[] = {"api_key", "apikey", "key", "token", "access_token", "secret",
                                            "password", "sig"};

/* Length of the name of the parameter starting at p when it is a SECRET_PARAMS name followed by
 * '=' (its value is a credential), else 0. */
static size_t secret_param(const char *p)
{
    size_t n = strcspn(p, "=&#");
    if (p[n] != '=')
        return 0;
    for (size_t i = 0; i < sizeof SECRET_PARAMS / sizeof SECRET_PARAMS[0]; i++)
        if (strlen(SECRET_PARAMS[i]) == n && strncasecmp(p, SECRET_PARAMS[i], n) == 0)
            return n;
    return 0;
}

static bool has_secret_param(const char *url)
{
    const char *q = strchr(url, '?');
    if (!q)
        return false;
    for (const char *p = q; *p; p++)
        if ((*p == '?' || *p == '&') && secret_param(p + 1))
            return true;
    return false;
}

/* Appends s[0..n) to out (length *len, capacity cap), as much as fits. */
static void put(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
    if (*len + n >= cap)
        n = cap - 1 - *len;
    memcpy(out + *len, s, n);
    *len += n;
    out[*len] = '\0';
}

const char *bw_posture_url_display(const char *url, char *out, size_t cap)
{
    size_t len = 0;
    if (!cap)
        return out;
    out[0] = '\0';
    if (!url)
        return out;
    struct bw_url_split sp; /* the parts as written (net/url.h) */
    bw_url_split(url, &sp);
    const char *p = url;
    put(out, cap, &len, p, sp.scheme);
    p += sp.scheme + sp.userinfo; /* userinfo dropped */
    put(out, cap, &len, p, sp.authority + sp.path);
    p += sp.authority + sp.path;
    const char *query_end = p + sp.query;
    while (p < query_end && (*p == '?' || *p == '&')) { /* the query, parameter by parameter; the fragment is dropped */
        put(out, cap, &len, p, 1);
        p++;
        size_t name = secret_param(p);
        size_t all = strcspn(p, "?&#");
        if (name) {
            put(out, cap, &len, p, name + 1);
            put(out, cap, &len, "REDACTED", 8);
        } else {
            put(out, cap, &len, p, all);
        }
        p += all;
    }
    return out;
}

int bw_posture_score(const char *type, const char *provider, const char *endpoint, const char *env)
{
    int score = 100;
    struct bw_url u;
    /* the host is judged by the shared URL model (net/url.h); an endpoint stored before the parser
     * was strict may not parse: it is then judged as harshly as its text allows */
    const bool parsed = bw_url_read(&u, endpoint);
    const enum bw_addr_class c = u.host.cls;
    const bool userinfo = parsed ? u.userinfo : strchr(endpoint, '@') != NULL;
    const bool plain = scheme(endpoint, "http://");
    const bool local = parsed && c == BW_ADDR_LOOPBACK;
    /* an address an operator assigns inside its own network is not a "bare public IP" */
    const bool bare_ip = parsed && u.host.family != AF_UNSPEC && c != BW_ADDR_LOOPBACK && c != BW_ADDR_PRIVATE &&
                         c != BW_ADDR_LINK_LOCAL;
    if (plain) {
        score -= local ? PEN_PLAIN_HTTP_LOCAL : PEN_PLAIN_HTTP;
        if (!local && env && strcasecmp(env, "production") == 0)
            score -= PEN_PROD_PLAIN_HTTP;
    }
    if (userinfo)
        score -= PEN_URL_CREDENTIALS;
    if (has_secret_param(endpoint))
        score -= PEN_URL_SECRET_PARAM;
    if (bare_ip)
        score -= PEN_IP_LITERAL;
    if (type && strcmp(type, "agent") == 0)
        score -= PEN_AGENT;
    if (!provider || !*provider)
        score -= PEN_NO_PROVIDER;
    return score < 0 ? 0 : score > 100 ? 100 : score;
}

const char *bw_posture_level(int score)
{
    return score >= 80 ? "LOW" : score >= 60 ? "MEDIUM" : score >= 40 ? "HIGH" : "CRITICAL";
}
