/* The web console's files (console/, embedded gzip-compressed by cmake/embed_console.cmake),
 * served as the HTTP layer's fallback: GET and HEAD on paths outside /api/ that no route has.
 * "/" is index.html; any other path that is not a file is 404 with the usual envelope (the
 * console routes by the URL's fragment, so no path needs the index). A client that accepts gzip
 * gets the stored bytes with Content-Encoding: gzip, any other the file decompressed; each form
 * has its own ETag (If-None-Match: 304). Pages get the console's Content-Security-Policy: its
 * own origin only, no inline script or style, no eval, no framing. */
#include "api/api.h"
#include "common/embedded.h"
#include "common/gzip.h"

#include <stdio.h>
#include <string.h>

#define CONSOLE_CSP                                                                                      \
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self';"     \
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

static const char *content_type(const char *path)
{
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"},       {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},         {".svg", "image/svg+xml"},
    };
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t k = strlen(types[i][0]);
        if (n > k && strcmp(path + n - k, types[i][0]) == 0)
            return types[i][1];
    }
    return "application/octet-stream";
}

/* Whether an If-None-Match value names etag (a quoted entity tag, weak or not) or is "*". */
static bool etag_matches(const char *inm, const char *etag)
{
    if (!inm)
        return false;
    if (strcmp(inm, "*") == 0)
        return true;
    size_t n = strlen(etag);
    for (const char *p = strstr(inm, etag); p; p = strstr(p + 1, etag))
        if ((p == inm || p[-1] == ' ' || p[-1] == ',' || p[-1] == '/') && (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
            return true;
    return false;
}

void api_console_static(struct bw_req *r)
{
    const struct bw_embedded_gz *f = bw_console_find(strcmp(r->path, "/") == 0 ? "/index.html" : r->path);
    if (!f) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such page", NULL);
        return;
    }
    r->csp = CONSOLE_CSP;
    r->cache_control = "no-cache"; /* revalidated each time: a new binary's files show at once */
    bool gz = bw_accepts_gzip(bw_req_header_in(r, "Accept-Encoding"));
    char etag[32];
    snprintf(etag, sizeof etag, "\"%s%s\"", f->etag, gz ? "-gz" : "");
    bw_req_header(r, "ETag", "%s", etag);
    bw_req_header(r, "Vary", "Accept-Encoding");
    if (etag_matches(bw_req_header_in(r, "If-None-Match"), etag)) {
        bw_reply_static(r, 304, "", 0);
        r->content_type = content_type(f->path);
        return;
    }
    if (gz) {
        bw_req_header(r, "Content-Encoding", "gzip");
        bw_reply_static(r, 200, (const char *)f->gz, f->gz_len);
        r->content_type = content_type(f->path);
        return;
    }
    char *body = NULL, why[96];
    size_t len = 0;
    if (bw_gunzip(f->gz, f->gz_len, f->len, &body, &len, why, sizeof why) != 0) {
        bw_reply_internal(r, "an embedded console file does not decompress");
        return;
    }
    bw_reply_text(r, 200, content_type(f->path), body, len);
}
