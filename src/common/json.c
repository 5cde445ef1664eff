/* Request bodies as JSON: the nesting pre-check and the object-only parse (common/jsonx.h). */
#include "common/jsonx.h"

#include "common/limits.h"

bool bw_json_depth_ok(const char *s, size_t n, int max_depth)
{
    int depth = 0;
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth)
                return false;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return true;
}

json_t *bw_json_parse_body(const char *body, size_t len, const char **why)
{
    /* jansson's own nesting limit is 2048; ours is far lower and checked before parsing */
    if (!bw_json_depth_ok(body, len, BW_JSON_MAX_DEPTH)) {
        *why = "JSON nesting is deeper than 32 levels";
        return NULL;
    }
    json_error_t e;
    /* DECODE_ANY: `null` or `"x"` is JSON, only not an object, and is told so */
    json_t *j = json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);
    if (!j) {
        switch (json_error_code(&e)) {
        case json_error_null_character:
            *why = "body has a string containing \\u0000 (NUL), which is not accepted";
            break;
        case json_error_duplicate_key:
            *why = "body has an object with the same member twice";
            break;
        case json_error_invalid_utf8:
            *why = "body is not valid UTF-8";
            break;
        default:
            *why = "body is not valid JSON";
        }
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        *why = "body must be a JSON object";
        return NULL;
    }
    return j;
}
