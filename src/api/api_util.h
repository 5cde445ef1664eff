/* Replies the resource handlers share, so each answer is written once. */
#ifndef BW_API_API_UTIL_H
#define BW_API_API_UTIL_H

#include "common/cursor.h"
#include "store/store.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

struct bw_req;
struct store_asset;

/* The answer to a store call that failed (ST_ERROR): 503 UNAVAILABLE "storage unavailable". The
 * database layer has already logged and counted the failure, and the access log line carries the
 * code, so nothing more is logged here. */
void api_reply_storage(struct bw_req *r);

/* The answer to a pure engine's scan of the request body (agent and MCP scans): with errors (the
 * engine's {field, message} list) 400 VALIDATION_ERROR naming the fields; without a result 500
 * (failed: the logged reason); else 200 with result and its scanned_at, now. Takes both. */
void api_reply_scan(struct bw_req *r, json_t *result, json_t *errors, const char *failed);

/* ---- conditional GETs: ETag / If-None-Match ----
 * For deterministic answers (the feed, playbooks): sets `ETag: "<etag>"` and `Vary: Authorization,
 * X-API-Key` and, when the request's If-None-Match names that tag (or is *), answers 304 with no
 * body and returns true (the handler is done). etag: [A-Za-z0-9_-], at most 64 characters. */
bool api_not_modified(struct bw_req *r, const char *etag);
/* The tag of bytes: base64url of 16 bytes of BLAKE2b over the parts (NUL-separated), into out. */
void api_etag_of(const char *const *parts, const size_t *lens, int n, char out[32]);
/* The GNU build ID of the running executable as hex ("" when the linker wrote none): it changes
 * with any change to the code or the data compiled in, and is the same for every process of one
 * binary, so an answer computed by this binary from given inputs can be tagged by the build ID
 * and the inputs instead of by its (larger) bytes. */
const char *api_build_id(void);

/* ---- list pages: `limit`, `offset`, `cursor` in; `next_cursor` out ----
 * A list handler reads its filters, then api_page_query, then calls its store function with the
 * store_page, then writes api_next_cursor's text (or null) as next_cursor:
 *
 *   struct api_page pg;
 *   api_page_query(r, &v, &pg, BW_CURSOR_ASSETS, 0, filters, false);   // filters: canonical text
 *   if (bw_verr_reply(r, &v)) return;
 *   store_asset_list(db, ..., &pg.page, ...);
 *   char next[BW_CURSOR_MAX + 1];
 *   api_next_cursor(r, &pg, next);  // "" when no row follows: answer null
 *
 * `limit` is 1..BW_LIST_LIMIT_MAX (default BW_LIST_LIMIT_DEFAULT); `offset` 0..BW_LIST_OFFSET_MAX;
 * `cursor` a next_cursor this list gave for the same filters and sort. Validation errors (400):
 * a cursor with an offset, a cursor that is not one of ours ("cursor": "is not a cursor this server
 * issued"), or one issued for other filters or another sort. */
struct api_page {
    struct store_page page; /* what the store reads; after_* point into cur */
    struct bw_cursor cur;
    uint8_t list, sort;
    bool text_key;
    const char *filters;
};
struct bw_verr;
void api_page_query(struct bw_req *r, struct bw_verr *v, struct api_page *pg, enum bw_cursor_list list, uint8_t sort,
                    const char *filters, bool text_key);
/* A list without filters or sorts (the caller's assessments, its playbook history): the page
 * query read into pg; false after answering its 400 (the handler is done). */
bool api_page_open(struct bw_req *r, struct api_page *pg, enum bw_cursor_list list, bool text_key);
/* The cursor of the page after the one the store read into pg->page, into out; "" when no row
 * follows (pg->page.more is false) or the last row's key cannot be carried (logged: a bug). */
void api_next_cursor(struct bw_req *r, const struct api_page *pg, char out[BW_CURSOR_MAX + 1]);
/* The same as JSON: a string, or null. */
json_t *api_next_cursor_json(struct bw_req *r, const struct api_page *pg);

/* The caller's asset `id`, read (calloc'ed: free with api_asset_free), or NULL after answering:
 * 404 when it is not an asset id or not the caller's, 503 when storage fails, 500 out of memory. */
struct store_asset *api_asset_or_reply(struct bw_req *r, const char *id);
void api_asset_free(struct store_asset *a);

/* Answers 200 with a page of a list: {key: items, total, limit, offset, next_cursor}. Takes items. */
void api_reply_page(struct bw_req *r, const char *key, json_t *items, int64_t total, const struct api_page *pg);

/* Answers a page of stored documents (scans, assessments) as {key: [documents...], total, limit,
 * offset, next_cursor}; each document is the stored JSON text (one that does not parse is left
 * out: it cannot come from this server). Frees list. */
struct store_doc;
void api_reply_doc_page(struct bw_req *r, const char *key, struct store_doc *list, size_t n, int64_t total,
                        const struct api_page *pg);

#endif
