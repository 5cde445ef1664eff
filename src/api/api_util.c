#include "api/api_util.h"

#include "api/api.h"
#include "common/ids.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "http/http.h"
#include "store/store.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

void api_reply_storage(struct bw_req *r) { bw_reply_error(r, BW_E_UNAVAILABLE, BW_MSG_STORAGE_UNAVAILABLE, NULL); }

void api_reply_scan(struct bw_req *r, json_t *result, json_t *errors, const char *failed)
{
    if (errors) {
        json_decref(result); /* NULL by the engines' contract: exactly one of the two */
        struct bw_verr v = {errors};
        if (!bw_verr_reply(r, &v))
            bw_reply_internal(r, failed); /* an empty list: only when allocation failed */
        return;
    }
    if (!result) {
        bw_reply_internal(r, failed);
        return;
    }
    char ts[21];
    bw_iso8601(bw_now_s(), ts);
    json_object_set_new(result, "scanned_at", json_string(ts));
    bw_reply_json(r, 200, result);
}

void api_page_query(struct bw_req *r, struct bw_verr *v, struct api_page *pg, enum bw_cursor_list list, uint8_t sort,
                    const char *filters, bool text_key)
{
    memset(pg, 0, sizeof *pg);
    pg->list = (uint8_t)list;
    pg->sort = sort;
    pg->filters = filters;
    pg->text_key = text_key;
    bw_query_int(r, v, "limit", BW_LIST_LIMIT_DEFAULT, 1, BW_LIST_LIMIT_MAX, &pg->page.limit);
    bw_query_int(r, v, "offset", 0, 0, BW_LIST_OFFSET_MAX, &pg->page.offset);
    const char *c = bw_query(r, "cursor");
    if (!c)
        return;
    if (bw_query(r, "offset")) {
        bw_verr_add(v, "cursor", "give either cursor or offset, not both");
        return;
    }
    switch (bw_cursor_decode(api_ctx(r)->cursor_key, c, pg->list, sort, filters, &pg->cur)) {
    case BW_CURSOR_OK:
        pg->page.after_id = pg->cur.id;
        pg->page.after_int = pg->cur.key_int;
        pg->page.after_text = pg->cur.key_text;
        if (pg->cur.text != text_key)
            bw_verr_add(v, "cursor", "is not a cursor this server issued");
        break;
    case BW_CURSOR_OTHER_QUERY:
        bw_verr_add(v, "cursor", "was issued for other filters or another sort: start again without cursor");
        break;
    default:
        bw_verr_add(v, "cursor", "is not a cursor this server issued");
    }
}

bool api_page_open(struct bw_req *r, struct api_page *pg, enum bw_cursor_list list, bool text_key)
{
    struct bw_verr v = {0};
    api_page_query(r, &v, pg, list, 0, "", text_key);
    return !bw_verr_reply(r, &v);
}

void api_next_cursor(struct bw_req *r, const struct api_page *pg, char out[BW_CURSOR_MAX + 1])
{
    out[0] = '\0';
    if (!pg->page.more)
        return;
    struct bw_cursor c = {.list = pg->list, .sort = pg->sort, .text = pg->text_key, .key_int = pg->page.last_int};
    memcpy(c.key_text, pg->page.last_text, sizeof c.key_text);
    memcpy(c.id, pg->page.last_id, sizeof c.id);
    if (bw_cursor_encode(api_ctx(r)->cursor_key, &c, pg->filters, out, BW_CURSOR_MAX + 1) < 0) {
        bw_logf(BW_LOG_ERROR, r->request_id, "a list row's key does not fit a cursor (list %d)", (int)pg->list);
        out[0] = '\0';
    }
}

json_t *api_next_cursor_json(struct bw_req *r, const struct api_page *pg)
{
    char next[BW_CURSOR_MAX + 1];
    api_next_cursor(r, pg, next);
    return next[0] ? json_string(next) : json_null();
}

/* Whether the If-None-Match list (RFC 9110 13.1.2: weak comparison) names etag. */
static bool inm_matches(const char *h, const char *etag)
{
    size_t el = strlen(etag);
    while (*h) {
        while (*h == ' ' || *h == '\t' || *h == ',')
            h++;
        if (*h == '*')
            return true;
        if (h[0] == 'W' && h[1] == '/')
            h += 2;
        const char *end = h;
        if (*h == '"') {
            end = strchr(h + 1, '"');
            if (!end)
                return false;
            if ((size_t)(end - h - 1) == el && memcmp(h + 1, etag, el) == 0)
                return true;
            end++;
        }
        while (*end && *end != ',')
            end++;
        h = end;
    }
    return false;
}

bool api_not_modified(struct bw_req *r, const char *etag)
{
    bw_req_header(r, "ETag", "\"%s\"", etag);
    bw_req_header(r, "Vary", "Authorization, X-API-Key");
    const char *inm = bw_req_header_in(r, "If-None-Match");
    if (!inm || !inm_matches(inm, etag))
        return false;
    bw_reply_static(r, 304, "", 0);
    return true;
}

void api_etag_of(const char *const *parts, const size_t *lens, int n, char out[32])
{
    crypto_generichash_state st;
    unsigned char h[16];
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    for (int i = 0; i < n; i++) {
        crypto_generichash_update(&st, (const unsigned char *)parts[i], lens[i]);
        crypto_generichash_update(&st, (const unsigned char *)"", 1);
    }
    crypto_generichash_final(&st, h, sizeof h);
    sodium_bin2base64(out, 32, h, sizeof h, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

static char build_id[2 * 64 + 1];
static pthread_once_t build_id_once = PTHREAD_ONCE_INIT;

/* The NT_GNU_BUILD_ID note among the PT_NOTE segments of the first object dl_iterate_phdr
 * reports, which is the executable itself. */
static int build_id_of(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
        size_t al = ph->p_align == 8 ? 8 : 4; /* names and descriptors are padded to the segment's alignment */
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
            size_t name = (nh->n_namesz + al - 1) & ~(al - 1), desc = (nh->n_descsz + al - 1) & ~(al - 1);
            const unsigned char *d = p + sizeof *nh + name;
            if (d + desc > end)
                break;
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(p + sizeof *nh, "GNU", 4) == 0 &&
                nh->n_descsz > 0 && nh->n_descsz <= 64) {
                sodium_bin2hex(build_id, sizeof build_id, d, nh->n_descsz);
                return 1;
            }
            p = d + desc;
        }
    }
    return 1; /* only the executable */
}

static void build_id_read(void) { dl_iterate_phdr(build_id_of, NULL); }

const char *api_build_id(void)
{
    pthread_once(&build_id_once, build_id_read);
    return build_id;
}

struct store_asset *api_asset_or_reply(struct bw_req *r, const char *id)
{
    if (!bw_id_valid(id, "ast_")) {
        bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
        return NULL;
    }
    struct store_asset *a = calloc(1, sizeof *a);
    if (!a) {
        bw_reply_internal(r, "out of memory");
        return NULL;
    }
    int rc = store_asset_get(api_ctx(r)->db, r->principal.user_id, id, a);
    if (rc == ST_OK)
        return a;
    if (rc == ST_NOTFOUND)
        bw_reply_error(r, BW_E_NOT_FOUND, "no such asset", NULL);
    else
        api_reply_storage(r);
    api_asset_free(a);
    return NULL;
}

void api_asset_free(struct store_asset *a)
{
    if (a)
        store_asset_clear(a);
    free(a);
}

void api_reply_doc_page(struct bw_req *r, const char *key, struct store_doc *list, size_t n, int64_t total,
                        const struct api_page *pg)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *d = json_loads(list[i].body, 0, NULL);
        if (json_is_object(d))
            json_array_append_new(arr, d);
        else
            json_decref(d);
    }
    store_doc_list_free(list, n);
    api_reply_page(r, key, arr, total, pg);
}

void api_reply_page(struct bw_req *r, const char *key, json_t *items, int64_t total, const struct api_page *pg)
{
    bw_reply_json(r, 200, json_pack("{s:o,s:I,s:i,s:i,s:o}", key, items, "total", (json_int_t)total, "limit",
                                    (int)pg->page.limit, "offset", (int)pg->page.offset, "next_cursor",
                                    api_next_cursor_json(r, pg)));
}
