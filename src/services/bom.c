/* The account's ML-BOM (contract in bom.h). */
#include "services/bom.h"
#include "common/jsonx.h"
#include "common/limits.h"
#include "common/timeutil.h"
#include "engine/bom.h"
#include "store/store.h"
#include "store/store_intel.h"
#include "store/store_mcp.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

#ifndef BULWARK_VERSION
#define BULWARK_VERSION "0"
#endif

#define ASSET_PAGE 100  /* assets read per statement */
#define INTEL_BATCH 200 /* intel records read per statement */

/* The asset as the engine takes it: the API's members, its connection document, its components
 * and its last scan's document. NULL when out of memory. */
static json_t *asset_doc(struct db *db, const struct store_asset *a)
{
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:s,s:s,s:s}", "asset_id", a->id, "name", a->name, "type",
                          a->type, "provider", a->provider, "endpoint", a->endpoint, "env", a->env, "security_score",
                          a->security_score, "risk_level", a->risk_level, "score_basis",
                          a->score_basis[0] ? a->score_basis : "static", "created_at", a->created_at);
    if (!o)
        return NULL;
    json_t *conn = a->connection ? json_loads(a->connection, 0, NULL) : NULL;
    json_t *comps = a->components ? json_loads(a->components, 0, NULL) : NULL;
    json_object_set_new(o, "connection", conn ? conn : json_null());
    json_object_set_new(o, "components", comps ? comps : json_null());
    json_t *scan = NULL;
    char *body = NULL;
    if (a->last_scan_id[0] && store_asset_scan_get(db, a->user_id, a->id, a->last_scan_id, &body) == ST_OK)
        scan = json_loads(body, 0, NULL);
    free(body);
    json_object_set_new(o, "last_scan", scan ? scan : json_null());
    return o;
}

/* Every asset of the account, newest first, into assets; BW_BOM_TOO_MANY_ASSETS past the limit. */
static enum bw_bom_rc load_assets(struct db *db, const char *user_id, json_t *assets)
{
    struct store_page pg = {.limit = ASSET_PAGE};
    char after[BW_CURSOR_ID_MAX + 1] = "";
    for (;;) {
        struct store_asset *list = NULL;
        size_t n = 0;
        int64_t total = 0;
        if (store_asset_list(db, user_id, NULL, NULL, &pg, &list, &n, &total) != ST_OK)
            return BW_BOM_ERROR;
        if (total > BW_BOM_ASSETS_MAX) {
            store_asset_list_free(list, n);
            return BW_BOM_TOO_MANY_ASSETS;
        }
        enum bw_bom_rc rc = BW_BOM_OK;
        for (size_t i = 0; i < n && rc == BW_BOM_OK; i++) {
            json_t *d = asset_doc(db, &list[i]);
            if (!d || json_array_append_new(assets, d) != 0)
                rc = BW_BOM_ERROR;
        }
        store_asset_list_free(list, n);
        if (rc != BW_BOM_OK || !pg.more || json_array_size(assets) >= BW_BOM_ASSETS_MAX)
            return rc;
        snprintf(after, sizeof after, "%s", pg.last_id);
        pg = (struct store_page){.limit = ASSET_PAGE, .after_id = after, .after_int = pg.last_int};
    }
}

struct mcp_read {
    json_t *servers;
    long tools;
};

static int mcp_row(const char *key, const char *server, const char *pinned_at, const char *tool, const char *hash,
                   void *arg)
{
    struct mcp_read *m = arg;
    json_t *last = json_array_get(m->servers, json_array_size(m->servers) - 1);
    if (!last || strcmp(bw_json_str(last, "key"), key ? key : "") != 0) {
        last = json_pack("{s:s,s:s,s:s,s:[]}", "key", key ? key : "", "server", server ? server : "", "pinned_at",
                         pinned_at ? pinned_at : "", "tools");
        if (!last || json_array_append_new(m->servers, last) != 0)
            return ST_ERROR;
    }
    if (!tool)
        return ST_OK;
    if (++m->tools > BW_BOM_TOOLS_MAX)
        return ST_LIMIT;
    return json_array_append_new(json_object_get(last, "tools"),
                                 json_pack("{s:s,s:s}", "name", tool, "hash", hash ? hash : "")) == 0
               ? ST_OK
               : ST_ERROR;
}

struct intel_read {
    const json_t *keys;
    json_t *records;
    char last_id[BW_INTEL_ID_MAX + 1];
    int64_t last_us;
    bool skip_first; /* the statement starts at the previous batch's last record, included */
    long rows;
};

static int intel_row(const char *id, const char *doc, int64_t us, void *arg)
{
    struct intel_read *r = arg;
    bool again = r->skip_first && r->rows == 0 && us == r->last_us && strcmp(id, r->last_id) == 0;
    r->rows++;
    r->last_us = us;
    snprintf(r->last_id, sizeof r->last_id, "%s", id);
    if (again)
        return ST_OK;
    json_t *rec = json_loads(doc, 0, NULL);
    if (!rec)
        return ST_OK; /* a stored document that does not parse matches nothing */
    if (!bw_bom_record_matches(rec, r->keys)) {
        json_decref(rec);
        return ST_OK;
    }
    if (json_array_size(r->records) >= BW_BOM_VULNS_MAX) {
        json_decref(rec);
        return ST_LIMIT;
    }
    return json_array_append_new(r->records, rec) == 0 ? ST_OK : ST_ERROR;
}

/* The records matching any asset's keys into records. */
static enum bw_bom_rc load_intel(struct db *db, const json_t *assets, json_t *records)
{
    json_t *keys = json_array();
    size_t i;
    const json_t *a;
    json_array_foreach(assets, i, a) {
        json_t *k = bw_bom_asset_keys(a);
        json_array_extend(keys, k);
        json_decref(k);
    }
    if (!json_array_size(keys)) {
        json_decref(keys);
        return BW_BOM_OK; /* nothing to match: the store is not read */
    }
    struct intel_read r = {.keys = keys, .records = records, .last_us = -1};
    enum bw_bom_rc out = BW_BOM_OK;
    for (;;) {
        bool more = false;
        r.rows = 0;
        int rc = store_intel_changed(db, r.last_us, r.skip_first ? r.last_id : NULL, INTEL_BATCH, intel_row, &r, &more);
        if (rc != ST_OK) {
            out = rc == ST_LIMIT ? BW_BOM_TOO_MANY_VULNS : BW_BOM_ERROR;
            break;
        }
        if (!more || r.rows == 0)
            break;
        r.skip_first = true;
    }
    json_decref(keys);
    return out;
}

/* A version-4 UUID (RFC 9562) as "urn:uuid:..." */
static void serial(char out[46])
{
    unsigned char b[16];
    randombytes_buf(b, sizeof b);
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(out, 46, "urn:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

enum bw_bom_rc bw_bom_account(struct db *db, const char *user_id, json_t **out)
{
    *out = NULL;
    json_t *assets = json_array(), *records = json_array();
    struct mcp_read m = {.servers = json_array()};
    enum bw_bom_rc rc = assets && records && m.servers ? BW_BOM_OK : BW_BOM_ERROR;
    if (rc == BW_BOM_OK)
        rc = load_assets(db, user_id, assets);
    if (rc == BW_BOM_OK) {
        int src = store_mcp_servers_each(db, user_id, mcp_row, &m);
        rc = src == ST_OK ? BW_BOM_OK : src == ST_LIMIT ? BW_BOM_TOO_MANY_TOOLS : BW_BOM_ERROR;
    }
    if (rc == BW_BOM_OK && json_array_size(assets) + json_array_size(m.servers) > BW_BOM_ASSETS_MAX)
        rc = BW_BOM_TOO_MANY_ASSETS;
    if (rc == BW_BOM_OK)
        rc = load_intel(db, assets, records);
    if (rc == BW_BOM_OK) {
        char sn[46], ts[21];
        serial(sn);
        bw_iso8601(bw_now_s(), ts);
        struct bw_bom_in in = {.assets = assets,
                               .mcp_servers = m.servers,
                               .records = records,
                               .serial = sn,
                               .timestamp = ts,
                               .tool_version = BULWARK_VERSION};
        *out = bw_bom_build(&in);
        if (!*out)
            rc = BW_BOM_ERROR;
    }
    json_decref(assets);
    json_decref(records);
    json_decref(m.servers);
    return rc;
}
