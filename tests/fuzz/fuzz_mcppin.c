/* MCP tool pinning (src/engine/mcppin.h): the canonicaliser, pins and diffs, and the server
 * identity. The fuzzer's bytes are read three ways:
 *   - as JSON: its canonical text must parse back to a value with the same canonical text (so a
 *     stored pin never changes by being read and written again), and, when it is an object,
 *     its members description, title, input_schema and annotations are a tool definition whose
 *     pin diffs empty against itself and names the description when that changes;
 *   - as a stored pin document handed to the diff (the store's text is read back by the engine);
 *   - as a server_url, whose identity is bounded and whose key is hex. */
#include "engine/mcppin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_canonical(const json_t *v)
{
    char *c = bw_mcp_canonical(v);
    if (!c)
        return; /* nested deeper than the bound */
    json_t *back = json_loads(c, JSON_DECODE_ANY, NULL);
    if (!back)
        abort();
    char *c2 = bw_mcp_canonical(back);
    if (!c2 || strcmp(c, c2) != 0)
        abort();
    free(c2);
    json_decref(back);
    free(c);
}

static const char *str_or_null(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static const json_t *obj_or_null(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_object(v) ? v : NULL;
}

static void check_definition(const json_t *o, const char *as_doc)
{
    struct bw_mcp_tooldef d = {str_or_null(o, "description"), str_or_null(o, "title"), obj_or_null(o, "input_schema"),
                               obj_or_null(o, "annotations")};
    struct bw_mcp_pin p;
    if (bw_mcp_pin_make(&d, &p) != 0)
        return;
    if (strlen(p.hash) != BW_MCP_PIN_HASH_HEX || strspn(p.hash, "0123456789abcdef") != BW_MCP_PIN_HASH_HEX)
        abort();
    json_t *same = bw_mcp_pin_diff(p.doc, &d);
    if (!same || json_array_size(same) != 0)
        abort();
    json_decref(same);
    char *longer = malloc(strlen(d.description ? d.description : "") + 2);
    if (longer) {
        strcpy(longer, d.description ? d.description : "");
        strcat(longer, "x");
        struct bw_mcp_tooldef e = d;
        e.description = longer;
        json_t *ch = bw_mcp_pin_diff(p.doc, &e);
        if (!ch || json_array_size(ch) != 1 ||
            strcmp(json_string_value(json_object_get(json_array_get(ch, 0), "field")), "description") != 0)
            abort();
        json_decref(ch);
        free(longer);
    }
    /* the input as a stored document: any text is read without fault, a list always comes back */
    json_t *any = bw_mcp_pin_diff(as_doc, &d);
    if (!any || !json_is_array(any) || json_array_size(any) > 4)
        abort();
    json_decref(any);
    bw_mcp_pin_clear(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    json_t *v = json_loadb(s, size, JSON_DECODE_ANY, NULL);
    if (v) {
        check_canonical(v);
        if (json_is_object(v))
            check_definition(v, s);
    } else {
        json_t *empty = json_object();
        check_definition(empty, s);
        json_decref(empty);
    }
    json_decref(v);
    char key[BW_MCP_PIN_HASH_HEX + 1], shown[BW_MCP_PIN_SERVER_SHOWN + 1];
    if (bw_mcp_server_identity(s, key, shown, sizeof shown)) {
        if (strspn(key, "0123456789abcdef") != BW_MCP_PIN_HASH_HEX || key[BW_MCP_PIN_HASH_HEX] != '\0' ||
            strlen(shown) > BW_MCP_PIN_SERVER_SHOWN)
            abort();
    }
    free(s);
    return 0;
}
