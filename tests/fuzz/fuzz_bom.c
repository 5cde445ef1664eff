/* The components validator and the BOM builder (engine/bom.c) on any JSON body {components,
 * provider, model, record}: components are either accepted as a list that validates again to
 * itself, within the limits, or rejected with errors that each name a components member; an
 * accepted list with the body's provider and model makes an asset whose BOM builds, serialises,
 * has a unique bom-ref per entry, and whose vulnerabilities affect only refs that exist and appear
 * exactly when the record matches the asset's names. */
#include "common/jsonx.h"
#include "common/limits.h"
#include "engine/bom.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void refs_of(const json_t *list, json_t *seen)
{
    size_t i;
    const json_t *x;
    json_array_foreach(list, i, x) {
        const char *r = json_string_value(json_object_get(x, "bom-ref"));
        if (!r || json_object_get(seen, r))
            abort(); /* every entry has a bom-ref, and no two the same */
        json_object_set_new(seen, r, json_true());
        refs_of(json_object_get(x, "services"), seen);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *why = NULL;
    json_t *body = bw_json_parse_body((const char *)data, size, &why);
    json_t *errs = json_array(), *doc = NULL;
    int n = bw_bom_components_parse(json_object_get(body, "components"), &doc, errs);
    if (n < 0 || (size_t)n != json_array_size(errs) || (n > 0 && doc))
        abort();
    size_t i;
    json_t *e;
    json_array_foreach(errs, i, e) {
        const char *f = json_string_value(json_object_get(e, "field"));
        if (!f || strncmp(f, "components", 10) != 0 || !json_string_value(json_object_get(e, "message")))
            abort();
    }
    if (n == 0 && doc) {
        if (json_array_size(doc) > BW_ASSET_COMPONENTS_MAX)
            abort();
        json_t *errs2 = json_array(), *doc2 = NULL;
        if (bw_bom_components_parse(doc, &doc2, errs2) != 0 || !json_equal(doc, doc2))
            abort(); /* what is stored validates again, unchanged */
        json_decref(doc2);
        json_decref(errs2);
    }
    if (n == 0) {
        const char *provider = json_string_value(json_object_get(body, "provider"));
        const char *model = json_string_value(json_object_get(body, "model"));
        json_t *asset = json_pack("{s:s,s:s,s:s,s:s,s:s,s:{s:s},s:o}", "asset_id", "ast_fuzz", "name", "n", "type",
                                  model ? "model" : "agent", "provider", provider ? provider : "", "endpoint",
                                  "https://x.example/", "connection", "model", model ? model : "", "components",
                                  doc ? json_incref(doc) : json_null());
        json_t *record = json_object_get(body, "record");
        json_t *records = json_array();
        if (json_is_object(record))
            json_array_append(records, record);
        json_t *assets = json_pack("[O]", asset);
        struct bw_bom_in in = {.assets = assets,
                               .records = records,
                               .serial = "urn:uuid:00000000-0000-4000-8000-000000000000",
                               .timestamp = "2026-01-01T00:00:00Z",
                               .tool_version = "0"};
        json_t *bom = bw_bom_build(&in);
        if (bom) {
            char *text = json_dumps(bom, JSON_COMPACT);
            if (!text)
                abort();
            free(text);
            json_t *seen = json_object();
            refs_of(json_object_get(bom, "components"), seen);
            refs_of(json_object_get(bom, "services"), seen);
            const json_t *vulns = json_object_get(bom, "vulnerabilities");
            json_t *keys = bw_bom_asset_keys(asset);
            bool match = json_is_object(record) && bw_bom_record_matches(record, keys);
            if (json_array_size(vulns) != (match ? 1u : 0u))
                abort();
            json_array_foreach(vulns, i, e) {
                size_t j;
                const json_t *a;
                if (!json_array_size(json_object_get(e, "affects")))
                    abort();
                json_array_foreach(json_object_get(e, "affects"), j, a) {
                    if (!json_object_get(seen, json_string_value(json_object_get(a, "ref"))))
                        abort();
                }
            }
            json_decref(keys);
            json_decref(seen);
            json_decref(bom);
        }
        json_decref(assets);
        json_decref(records);
        json_decref(asset);
    }
    json_decref(doc);
    json_decref(errs);
    json_decref(body);
    return 0;
}
