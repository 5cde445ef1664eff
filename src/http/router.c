/* Route matching: patterns are split into segments once at start; a request path is compared
 * segment by segment without allocating. "{name}" matches one non-empty segment of id
 * characters. With a few dozen routes a linear scan beats building a trie. */
#include "http/http.h"

#include "common/limits.h"
#include "common/log.h"

#include <stdio.h>
#include <string.h>

struct seg {
    const char *s; /* NULL for a {param} */
    size_t n;
};

struct compiled {
    const struct bw_route *r;
    struct seg segs[BW_ROUTE_SEGS_MAX];
    int nsegs;
    bool literal; /* no {param} */
    bool shadows; /* has params and could match a literal route's path, e.g. /assets/{id} vs
                   * /assets/register: that path then names the literal route only */
};

static struct compiled g_routes[BW_ROUTES_MAX];
static size_t g_n;

static const char *method_names[] = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT", "OTHER"};

enum bw_method bw_method_parse(const char *m)
{
    for (int i = 0; i < BW_OTHER; i++)
        if (strcmp(m, method_names[i]) == 0)
            return (enum bw_method)i;
    return BW_OTHER;
}

const char *bw_method_name(enum bw_method m) { return method_names[m <= BW_OTHER ? m : BW_OTHER]; }

int bw_router_init(const struct bw_route *routes, size_t n)
{
    if (n > BW_ROUTES_MAX)
        return -1;
    g_n = 0;
    for (size_t i = 0; i < n; i++) {
        struct compiled *c = &g_routes[g_n];
        c->r = &routes[i];
        c->nsegs = 0;
        const char *p = routes[i].pattern;
        if (p[0] != '/')
            return -1;
        while (*p == '/') {
            p++;
            const char *e = strchr(p, '/');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            /* an empty segment only last: a pattern ending in '/' (TAXII's paths do) */
            if (c->nsegs == BW_ROUTE_SEGS_MAX || (len == 0 && p[0] != '\0'))
                return -1;
            struct seg *s = &c->segs[c->nsegs++];
            if (p[0] == '{' && p[len - 1] == '}') {
                s->s = NULL;
                s->n = 0;
            } else {
                s->s = p;
                s->n = len;
            }
            p += len;
        }
        c->literal = true;
        for (int k = 0; k < c->nsegs; k++)
            c->literal &= c->segs[k].s != NULL;
        g_n++;
    }
    for (size_t i = 0; i < g_n; i++) {
        g_routes[i].shadows = false;
        for (size_t j = 0; j < g_n && !g_routes[i].literal; j++) {
            if (!g_routes[j].literal || g_routes[j].nsegs != g_routes[i].nsegs)
                continue;
            bool m = true;
            for (int k = 0; k < g_routes[i].nsegs && m; k++) {
                const struct seg *a = &g_routes[i].segs[k], *b = &g_routes[j].segs[k];
                m = !a->s || (a->n == b->n && memcmp(a->s, b->s, a->n) == 0);
            }
            g_routes[i].shadows |= m;
        }
    }
    return 0;
}

static bool id_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           c == '-' || c == '.';
}

/* Matches path against c; on success copies captures into r. */
static bool match_one(const struct compiled *c, const char *path, struct bw_req *r)
{
    const char *p = path;
    int np = 0;
    for (int i = 0; i < c->nsegs; i++) {
        if (*p != '/')
            return false;
        p++;
        const char *e = p;
        while (*e && *e != '/')
            e++;
        size_t len = (size_t)(e - p);
        const struct seg *s = &c->segs[i];
        if (s->s) {
            if (len != s->n || memcmp(p, s->s, len) != 0)
                return false;
        } else {
            if (len == 0 || len > BW_MAX_PATH_PARAM_LEN || np >= BW_MAX_PATH_PARAMS)
                return false;
            for (size_t k = 0; k < len; k++)
                if (!id_char(p[k]))
                    return false;
            if (r) {
                memcpy(r->params[np], p, len);
                r->params[np][len] = '\0';
            }
            np++;
        }
        p = e;
    }
    if (*p)
        return false;
    if (r)
        r->nparams = np;
    return true;
}

/* Whether some parameterless route (any method) has exactly this path of nsegs segments. */
static bool literal_path(const char *path, int nsegs)
{
    for (size_t i = 0; i < g_n; i++)
        if (g_routes[i].literal && g_routes[i].nsegs == nsegs && match_one(&g_routes[i], path, NULL))
            return true;
    return false;
}

/* The number of segments of a path ("/a/b" has 2): a route with another count cannot match, so
 * most of the table is passed over without reading the path again. */
static int segments(const char *path)
{
    int n = 0;
    for (const char *p = path; *p; p++)
        n += *p == '/';
    return n;
}

size_t bw_router_index(const struct bw_route *route) { return (size_t)(route - g_routes[0].r); }

const struct bw_route *bw_router_match(struct bw_req *r, enum bw_method m, const char *path,
                                       char *allow, size_t cap)
{
    enum bw_method want = m == BW_HEAD ? BW_GET : m; /* MHD drops the body of HEAD replies */
    int nsegs = segments(path);
    for (size_t i = 0; i < g_n; i++)
        if (g_routes[i].r->method == want && g_routes[i].nsegs == nsegs && match_one(&g_routes[i], path, r) &&
            !(g_routes[i].shadows && literal_path(path, nsegs)))
            return g_routes[i].r;
    /* no route for this method: collect the methods the path does have, for 405 + Allow */
    bool lit = literal_path(path, nsegs);
    size_t len = 0;
    if (cap)
        allow[0] = '\0';
    unsigned seen = 0;
    for (size_t i = 0; i < g_n; i++) {
        enum bw_method rm = g_routes[i].r->method;
        if ((seen & (1u << rm)) || (lit && !g_routes[i].literal) || g_routes[i].nsegs != nsegs ||
            !match_one(&g_routes[i], path, NULL))
            continue;
        seen |= 1u << rm;
        int w = snprintf(allow + len, cap > len ? cap - len : 0, "%s%s", len ? ", " : "",
                         method_names[rm]);
        if (w > 0)
            len += (size_t)w;
        if (rm == BW_GET) {
            w = snprintf(allow + len, cap > len ? cap - len : 0, ", HEAD");
            if (w > 0)
                len += (size_t)w;
        }
    }
    return NULL;
}
