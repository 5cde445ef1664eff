/* Reading members of parsed JSON documents whose shape was checked elsewhere. */
#ifndef BW_COMMON_JSONX_H
#define BW_COMMON_JSONX_H
#include <jansson.h>

/* The string member k of o, or "" when it is missing or not a string. */
static inline const char *bw_json_str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

#endif
