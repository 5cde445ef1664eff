/* The one path for replies: every answer, success or error, is built here. */
#include "common/jsoncheck.h"
#include "common/jsonx.h"
#include "common/log.h"
#include "http/http.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bw_req_header(struct bw_req *r, const char *name, const char *fmt, ...)
{
    if (r->nhdrs >= (int)(sizeof r->hdrs / sizeof r->hdrs[0]))
        return;
    r->hdrs[r->nhdrs].name = name;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->hdrs[r->nhdrs].value, sizeof r->hdrs[0].value, fmt, ap);
    va_end(ap);
    r->nhdrs++;
}

void bw_req_header_num(struct bw_req *r, const char *name, long v)
{
    if (r->nhdrs >= (int)(sizeof r->hdrs / sizeof r->hdrs[0]))
        return;
    /* by hand: three of these go with every rate-limited answer */
    char d[24];
    size_t k = sizeof d;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    d[--k] = '\0';
    do
        d[--k] = (char)('0' + u % 10);
    while ((u /= 10) && k > 1);
    if (v < 0)
        d[--k] = '-';
    r->hdrs[r->nhdrs].name = name;
    memcpy(r->hdrs[r->nhdrs].value, d + k, sizeof d - k);
    r->nhdrs++;
}

static void set_body(struct bw_req *r, unsigned status, char *body, size_t len, bool is_static)
{
    if (r->resp && !r->resp_static)
        free(r->resp);
    r->status = status;
    r->resp = body;
    r->resp_len = len;
    r->resp_static = is_static;
    r->content_type = NULL;
    r->state = BW_RS_READY;
}

void bw_reply_json(struct bw_req *r, unsigned status, json_t *body)
{
    size_t len = 0;
    char *s = body ? bw_json_dump(body, 0, &len) : NULL;
    json_decref(body);
    if (!s) {
        bw_reply_internal(r, "response serialisation failed");
        return;
    }
    set_body(r, status, s, len, false);
}

void bw_reply_static(struct bw_req *r, unsigned status, const char *body, size_t len)
{
    set_body(r, status, (char *)body, len, true);
}

void bw_reply_text(struct bw_req *r, unsigned status, const char *content_type, char *body, size_t len)
{
    set_body(r, status, body, len, false);
    r->content_type = content_type;
}

void bw_reply_error(struct bw_req *r, enum bw_err e, const char *msg, json_t *extra)
{
    if (e == BW_E_AUTH_REQUIRED) /* RFC 9110 11.6.1: a 401 names the schemes that would do */
        bw_req_header(r, "WWW-Authenticate", "%s%s", BW_WWW_AUTHENTICATE,
                      r->route && (r->route->flags & BW_ROUTE_BASIC) ? ", Basic realm=\"bulwark\"" : "");
    if (r->route && r->route->error) {
        r->err = e;
        r->route->error(r, e, msg ? msg : bw_err_message(e), extra);
        return;
    }
    json_t *err = json_pack("{s:s,s:s,s:s}", "code", bw_err_code(e), "message",
                            msg ? msg : bw_err_message(e), "request_id", r->request_id);
    if (!err) { /* msg was not valid UTF-8: never echo it */
        err = json_pack("{s:s,s:s,s:s}", "code", bw_err_code(e), "message", bw_err_message(e),
                        "request_id", r->request_id);
    }
    if (extra) {
        json_object_update(err, extra);
        json_decref(extra);
    }
    r->err = e;
    bw_reply_json(r, bw_err_status(e), json_pack("{s:o}", "error", err));
}

void bw_reply_internal(struct bw_req *r, const char *what)
{
    bw_log_json(BW_LOG_ERROR, r->request_id, "internal error", json_pack("{s:s}", "detail", what));
    static const char fallback[] = "{\"error\":{\"code\":\"INTERNAL_ERROR\",\"message\":\"internal error\"}}";
    json_t *err = json_pack("{s:{s:s,s:s,s:s}}", "error", "code", "INTERNAL_ERROR", "message",
                            "internal error", "request_id", r->request_id);
    size_t n = 0;
    char *s = err ? bw_json_dump(err, 0, &n) : NULL;
    json_decref(err);
    r->err = BW_E_INTERNAL_ERROR;
    if (s)
        set_body(r, 500, s, n, false);
    else
        set_body(r, 500, (char *)fallback, sizeof fallback - 1, true);
}

void bw_verr_add(struct bw_verr *v, const char *field, const char *msg)
{
    if (!v->errors)
        v->errors = json_array();
    if (json_array_size(v->errors) < BW_MAX_ERRORS)
        json_array_append_new(v->errors, json_pack("{s:s,s:s}", "field", field, "message", msg));
}

bool bw_verr_reply(struct bw_req *r, struct bw_verr *v)
{
    if (!v->errors || json_array_size(v->errors) == 0) {
        json_decref(v->errors);
        v->errors = NULL;
        return false;
    }
    bw_reply_error(r, BW_E_VALIDATION_ERROR, "request validation failed",
                   json_pack("{s:o}", "errors", v->errors));
    v->errors = NULL;
    return true;
}

bool bw_body_string(struct bw_req *r, struct bw_verr *v, const char *field, bool required,
                    size_t max_chars, const char **out)
{
    char m[64];
    if (bw_json_check_string(r->json, field, required, required, max_chars, out, m, sizeof m))
        return true;
    bw_verr_add(v, field, m);
    return false;
}

bool bw_query_int(struct bw_req *r, struct bw_verr *v, const char *name, long def, long min, long max,
                  long *out)
{
    const char *s = bw_query(r, name);
    *out = def;
    if (!s)
        return true;
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!*s || *end || errno || x < min || x > max || s[0] == '+' || s[0] == ' ') {
        char m[96];
        snprintf(m, sizeof m, "must be an integer from %ld to %ld", min, max);
        bw_verr_add(v, name, m);
        return false;
    }
    *out = x;
    return true;
}
