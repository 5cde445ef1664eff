/* Governance: the framework catalog listing (the control catalogs live in data/frameworks). */
#include "api/app.h"
#include "common/embedded.h"
#include "common/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The order the spec lists them in. */
static const char *const ORDER[] = {"nist-ai-rmf", "iso-42001", "eu-ai-act", "owasp-llm"};

char *api_frameworks_document(size_t *len)
{
    json_t *list = json_array();
    for (size_t i = 0; i < sizeof ORDER / sizeof ORDER[0]; i++) {
        char name[96];
        snprintf(name, sizeof name, "data/frameworks/%s.json", ORDER[i]);
        const struct bw_embedded *f = bw_embedded_find(name);
        json_t *doc = f ? json_loadb((const char *)f->data, f->len, 0, NULL) : NULL;
        json_t *controls = json_object_get(doc, "controls");
        json_t *title = json_object_get(doc, "name");
        json_t *id = json_object_get(doc, "id");
        if (!json_is_array(controls) || !json_is_string(title) || !json_is_string(id) ||
            strcmp(json_string_value(id), ORDER[i]) != 0 || json_array_size(controls) == 0) {
            bw_logf(BW_LOG_ERROR, NULL, "framework catalog %s is missing or malformed", name);
            json_decref(doc);
            json_decref(list);
            return NULL;
        }
        json_t *item = json_pack("{s:s,s:O,s:I}", "id", ORDER[i], "name", title, "controls",
                                 (json_int_t)json_array_size(controls));
        json_t *ver = json_object_get(doc, "version");
        if (json_is_string(ver))
            json_object_set(item, "version", ver);
        json_t *unit = json_object_get(doc, "control_unit");
        if (json_is_string(unit))
            json_object_set(item, "control_unit", unit);
        json_array_append_new(list, item);
        json_decref(doc);
    }
    json_t *out = json_pack("{s:o}", "frameworks", list);
    char *s = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(out);
    if (s)
        *len = strlen(s);
    return s;
}

void api_governance_frameworks(struct bw_req *r)
{
    bw_reply_static(r, 200, r->app->frameworks_json, r->app->frameworks_len);
}
