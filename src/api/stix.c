/* STIX 2.1 and TAXII 2.1: GET /api/ai-security/threat-feed/stix (the feed's access: public, paged
 * by records) and the read-only TAXII 2.1 server under /taxii2/ (accounts only; one API root,
 * /taxii2/intel/, with two collections: the feed and the hunt pack).
 *
 * TAXII routes answer in application/taxii+json;version=2.1, errors included (the route table
 * gives them taxii_error as their error renderer), and refuse a request whose Accept admits no
 * TAXII 2.1 document (406). Paging: `next` is a sealed cursor (common/cursor.h) of the stream
 * position (services/stix.h) under the query's match filters and added_after, so it cannot be
 * reused with other filters or another collection. */
#include "api/api.h"
#include "api/api_util.h"
#include "common/jsonx.h"

#include "auth/policy.h"
#include "common/cursor.h"
#include "common/limits.h"
#include "engine/intel/stix.h"
#include "engine/intel/taxii.h"
#include "services/stix.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define API_ROOT "/taxii2/intel/"

/* ---- the STIX bundle ---------------------------------------------------------------------------- */

void api_stix_bundle(struct bw_req *r)
{
    struct bw_verr v = {0};
    long limit;
    bw_query_int(r, &v, "limit", BW_LIST_LIMIT_DEFAULT, 1, BW_LIST_LIMIT_MAX, &limit);
    const char *ctext = bw_query(r, "cursor");
    struct bw_cursor cur;
    memset(&cur, 0, sizeof cur);
    if (ctext) {
        enum bw_cursor_rc rc = bw_cursor_decode(api_ctx(r)->cursor_key, ctext, BW_CURSOR_STIX, 0, "", &cur);
        if (rc != BW_CURSOR_OK || cur.text)
            bw_verr_add(&v, "cursor", "is not a cursor this server issued");
    }
    if (bw_verr_reply(r, &v))
        return;
    json_t *bundle = NULL;
    bool more = false;
    int64_t last_us = 0;
    char last_id[BW_INTEL_ID_MAX + 1];
    if (bw_stix_bundle_page(api_ctx(r)->db, cur.key_int, ctext ? cur.id : NULL, limit, &bundle, &more, &last_us,
                            last_id) != 0) {
        api_reply_storage(r);
        return;
    }
    if (more && last_id[0]) {
        struct bw_cursor next = {.list = BW_CURSOR_STIX, .key_int = last_us};
        snprintf(next.id, sizeof next.id, "%s", last_id);
        char text[BW_CURSOR_MAX + 1];
        if (bw_cursor_encode(api_ctx(r)->cursor_key, &next, "", text, sizeof text) > 0)
            bw_req_header(r, "Link", "<?limit=%ld&cursor=%s>; rel=\"next\"", limit, text);
    }
    bw_reply_json(r, 200, bundle);
}

/* ---- TAXII plumbing ------------------------------------------------------------------------------ */

static void taxii_reply(struct bw_req *r, unsigned status, json_t *doc)
{
    size_t n = 0;
    char *s = doc ? bw_json_dump(doc, 0, &n) : NULL; /* members in insertion order, as jansson keeps them */
    json_decref(doc);
    if (!s) {
        bw_reply_internal(r, "response serialisation failed");
        return;
    }
    bw_reply_text(r, status, BW_TAXII_MEDIA_TYPE, s, n);
}

void api_taxii_error(struct bw_req *r, enum bw_err e, const char *msg, json_t *extra)
{
    json_t *details = json_object();
    json_object_set_new(details, "request_id", json_string(r->request_id));
    if (extra) {
        json_object_update(details, extra);
        json_decref(extra);
    }
    taxii_reply(r, bw_err_status(e),
                bw_taxii_error(bw_err_status(e), bw_err_message(e), msg, bw_err_code(e), details));
}

/* 406 NOT_ACCEPTABLE in TAXII's words (not in the error table: only TAXII routes answer it). */
static void not_acceptable(struct bw_req *r)
{
    json_t *details = json_pack("{s:s,s:s}", "request_id", r->request_id, "accept", BW_TAXII_MEDIA_TYPE);
    r->err = BW_E_VALIDATION_ERROR; /* for logs: a request the server cannot answer as asked */
    taxii_reply(r, 406,
                bw_taxii_error(406, "not acceptable",
                               "this server answers application/taxii+json;version=2.1 only", "NOT_ACCEPTABLE", details));
}

/* Whether one media range of Accept admits a TAXII 2.1 document. */
static bool range_ok(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    const char *semi = memchr(s, ';', n);
    size_t tl = semi ? (size_t)(semi - s) : n;
    while (tl && (s[tl - 1] == ' ' || s[tl - 1] == '\t'))
        tl--;
    if ((tl == 3 && memcmp(s, "*/*", 3) == 0) || (tl == 13 && strncasecmp(s, "application/*", 13) == 0))
        return true;
    if (!(tl == 22 && strncasecmp(s, "application/taxii+json", 22) == 0))
        return false;
    /* a version parameter, when given, must be 2.1; q=0 refuses */
    const char *p = semi;
    while (p && p < s + n) {
        p++;
        while (p < s + n && (*p == ' ' || *p == '\t'))
            p++;
        const char *e = memchr(p, ';', (size_t)(s + n - p));
        size_t pl = e ? (size_t)(e - p) : (size_t)(s + n - p);
        while (pl && (p[pl - 1] == ' ' || p[pl - 1] == '\t'))
            pl--;
        if (pl >= 8 && strncasecmp(p, "version=", 8) == 0 && !(pl == 11 && memcmp(p + 8, "2.1", 3) == 0))
            return false;
        if (pl >= 2 && strncasecmp(p, "q=", 2) == 0 && strspn(p + 2, "0.") >= pl - 2)
            return false;
        p = e;
    }
    return true;
}

/* True when Accept admits TAXII 2.1 (absent: anything is acceptable, RFC 9110 12.5.1); else 406. */
static bool accept_ok(struct bw_req *r)
{
    const char *a = bw_req_header_in(r, "Accept");
    if (!a)
        return true;
    const char *p = a;
    while (true) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (range_ok(p, n))
            return true;
        if (!c)
            break;
        p = c + 1;
    }
    not_acceptable(r);
    return false;
}

static const char *const COLL_ALIAS[2] = {"feed", "hunt-pack"};

static void collection_id(int i, char out[37])
{
    char name[32];
    snprintf(name, sizeof name, "taxii-collection/%s", COLL_ALIAS[i]);
    bw_stix_uuid(name, out);
}

static bool can_read(const struct bw_req *r, int coll)
{
    return coll == 0 || bw_policy_check(BW_ACCESS_PRIVILEGED, &r->principal).err == BW_OK;
}

static json_t *collection_doc(const struct bw_req *r, int i)
{
    char id[37];
    collection_id(i, id);
    return json_pack("{s:s,s:s,s:s,s:s,s:b,s:b,s:[s]}", "id", id, "title",
                     i == 0 ? "bulwark threat-intelligence feed" : "bulwark hunt pack", "description",
                     i == 0 ? "Vulnerabilities (CVEs, with KEV and EPSS facts), ATLAS and ATT&CK attack patterns, "
                              "reports of ATLAS case studies, courses of action from playbooks, Sigma and YARA "
                              "indicators, and their relationships"
                            : "Sigma and YARA indicators generated per threat-intelligence record (privileged: "
                              "ENTERPRISE, MSSP and administrators)",
                     "alias", COLL_ALIAS[i], "can_read", can_read(r, i), "can_write", 0, "media_types",
                     BW_STIX_MEDIA_TYPE);
}

/* The collection of the path ({id}: its id or alias): 0 or 1, or -1 after answering 404. */
static int find_collection(struct bw_req *r)
{
    for (int i = 0; i < 2; i++) {
        char id[37];
        collection_id(i, id);
        if (strcmp(r->params[0], id) == 0 || strcmp(r->params[0], COLL_ALIAS[i]) == 0)
            return i;
    }
    bw_reply_error(r, BW_E_NOT_FOUND, "no such collection", NULL);
    return -1;
}

/* ---- TAXII endpoints ----------------------------------------------------------------------------- */

void api_taxii_discovery(struct bw_req *r)
{
    if (!accept_ok(r))
        return;
    taxii_reply(r, 200,
                json_pack("{s:s,s:s,s:s,s:[s]}", "title", "bulwark TAXII 2.1 server", "description",
                          "Read-only threat intelligence: one API root with the feed and hunt-pack collections",
                          "default", API_ROOT, "api_roots", API_ROOT));
}

void api_taxii_root(struct bw_req *r)
{
    if (!accept_ok(r))
        return;
    taxii_reply(r, 200,
                json_pack("{s:s,s:s,s:[s],s:I}", "title", "bulwark intel", "description",
                          "bulwark's threat-intelligence store as STIX 2.1", "versions", BW_TAXII_MEDIA_TYPE,
                          "max_content_length", (json_int_t)BW_TAXII_MAX_CONTENT));
}

void api_taxii_collections(struct bw_req *r)
{
    if (!accept_ok(r))
        return;
    taxii_reply(r, 200, json_pack("{s:[o,o]}", "collections", collection_doc(r, 0), collection_doc(r, 1)));
}

void api_taxii_collection(struct bw_req *r)
{
    if (!accept_ok(r))
        return;
    int c = find_collection(r);
    if (c >= 0)
        taxii_reply(r, 200, collection_doc(r, c));
}

/* The query string as (name, value) pairs for the parser. */
struct qpairs {
    const char *kv[BW_MAX_QUERY_PARAMS][2];
    size_t n;
};

static const char *const QUERY_NAMES[] = {"added_after", "limit", "next", "match[type]", "match[id]",
                                          "match[version]", "match[spec_version]"};

static void query_pairs(struct bw_req *r, struct qpairs *q, const char *object_id)
{
    q->n = 0;
    for (size_t i = 0; i < sizeof QUERY_NAMES / sizeof QUERY_NAMES[0]; i++) {
        const char *v = bw_query(r, QUERY_NAMES[i]);
        if (v || (object_id && strcmp(QUERY_NAMES[i], "match[id]") == 0)) {
            q->kv[q->n][0] = QUERY_NAMES[i];
            q->kv[q->n][1] = object_id && strcmp(QUERY_NAMES[i], "match[id]") == 0 ? object_id : v;
            q->n++;
        }
    }
}

enum endpoint { EP_OBJECTS, EP_MANIFEST, EP_OBJECT };

/* Encodes a stream position as the text key of a cursor. */
static void pos_text(const struct bw_stix_pos *p, char out[BW_CURSOR_TEXT_MAX + 1])
{
    if (!p->records)
        snprintf(out, BW_CURSOR_TEXT_MAX + 1, "s:%ld", p->skip);
    else
        snprintf(out, BW_CURSOR_TEXT_MAX + 1, "r:%" PRId64 ":%ld:%s", p->us, p->skip, p->id);
}

static bool pos_parse(const char *t, struct bw_stix_pos *p)
{
    memset(p, 0, sizeof *p);
    char *end;
    if (t[0] == 's' && t[1] == ':') {
        p->skip = strtol(t + 2, &end, 10);
        return *end == '\0' && p->skip >= 0;
    }
    if (t[0] != 'r' || t[1] != ':')
        return false;
    p->records = true;
    p->us = strtoll(t + 2, &end, 10);
    if (*end != ':')
        return false;
    p->skip = strtol(end + 1, &end, 10);
    if (*end != ':' || p->skip < 0 || strlen(end + 1) > BW_INTEL_ID_MAX)
        return false;
    snprintf(p->id, sizeof p->id, "%s", end + 1);
    return true;
}

static void serve_stream(struct bw_req *r, enum endpoint ep)
{
    if (!accept_ok(r))
        return;
    int coll = find_collection(r);
    if (coll < 0)
        return;
    if (!can_read(r, coll)) {
        bw_reply_error(r, BW_E_FORBIDDEN, "this collection is readable by ENTERPRISE, MSSP and administrators", NULL);
        return;
    }
    struct qpairs qp;
    query_pairs(r, &qp, ep == EP_OBJECT ? r->params[1] : NULL);
    struct bw_taxii_query q;
    json_t *errors = NULL;
    if (bw_taxii_query_parse(qp.kv, qp.n, &q, &errors) != 0) {
        if (ep == EP_OBJECT) { /* the path's id is not a STIX id: no such object */
            json_decref(errors);
            bw_reply_error(r, BW_E_NOT_FOUND, "no such object", NULL);
            return;
        }
        bw_reply_error(r, BW_E_VALIDATION_ERROR, "request validation failed", json_pack("{s:o}", "errors", errors));
        return;
    }
    uint8_t sort = (uint8_t)(coll * 4 + (int)ep);
    struct bw_stix_pos pos;
    if (q.next) {
        struct bw_cursor cur;
        if (bw_cursor_decode(api_ctx(r)->cursor_key, q.next, BW_CURSOR_TAXII, sort, q.canon, &cur) != BW_CURSOR_OK ||
            !cur.text || !pos_parse(cur.key_text, &pos)) {
            bw_taxii_query_free(&q);
            bw_reply_error(r, BW_E_VALIDATION_ERROR, "request validation failed",
                           json_pack("{s:[{s:s,s:s}]}", "errors", "field", "next", "message",
                                     "is not a next value this server gave for this query"));
            return;
        }
    } else {
        bw_stix_stream_start(&q, &pos);
    }
    struct bw_stix_page page;
    if (bw_stix_stream_page(api_ctx(r)->db, coll == 0 ? BW_STIX_FEED : BW_STIX_HUNT, &q, &pos, &page) != 0) {
        bw_taxii_query_free(&q);
        api_reply_storage(r);
        return;
    }
    size_t n = json_array_size(page.objects);
    if (ep == EP_OBJECT && n == 0 && !page.more) {
        bw_stix_page_free(&page);
        bw_taxii_query_free(&q);
        bw_reply_error(r, BW_E_NOT_FOUND, "no such object in this collection", NULL);
        return;
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "more", json_boolean(page.more));
    if (page.more) {
        struct bw_cursor cur = {.list = BW_CURSOR_TAXII, .sort = sort, .text = true};
        pos_text(&page.next, cur.key_text);
        snprintf(cur.id, sizeof cur.id, "p");
        char text[BW_CURSOR_MAX + 1];
        if (bw_cursor_encode(api_ctx(r)->cursor_key, &cur, q.canon, text, sizeof text) > 0)
            json_object_set_new(doc, "next", json_string(text));
    }
    if (n > 0) {
        char first[32], last[32];
        bw_taxii_time(json_integer_value(json_array_get(page.added, 0)), first);
        bw_taxii_time(json_integer_value(json_array_get(page.added, n - 1)), last);
        bw_req_header(r, "X-TAXII-Date-Added-First", "%s", first);
        bw_req_header(r, "X-TAXII-Date-Added-Last", "%s", last);
        if (ep == EP_MANIFEST) {
            json_t *list = json_array();
            for (size_t i = 0; i < n; i++) {
                const json_t *o = json_array_get(page.objects, i);
                char added[32];
                bw_taxii_time(json_integer_value(json_array_get(page.added, i)), added);
                json_array_append_new(list, json_pack("{s:s,s:s,s:s,s:s}", "id", bw_json_str(o, "id"), "date_added",
                                                      added, "version", bw_json_str(o, "modified"), "media_type",
                                                      BW_STIX_MEDIA_TYPE));
            }
            json_object_set_new(doc, "objects", list);
        } else {
            json_object_set(doc, "objects", page.objects);
        }
    }
    bw_stix_page_free(&page);
    bw_taxii_query_free(&q);
    taxii_reply(r, 200, doc);
}

void api_taxii_objects(struct bw_req *r) { serve_stream(r, EP_OBJECTS); }
void api_taxii_manifest(struct bw_req *r) { serve_stream(r, EP_MANIFEST); }
void api_taxii_object(struct bw_req *r) { serve_stream(r, EP_OBJECT); }
