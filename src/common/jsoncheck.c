#include "common/jsoncheck.h"

#include "common/utf8.h"

#include <stdio.h>
#include <string.h>

bool bw_json_check_string(const json_t *obj, const char *key, bool required, bool nonempty, size_t max_chars,
                          const char **out, char *msg, size_t msg_cap)
{
    *out = NULL;
    const json_t *v = obj ? json_object_get(obj, key) : NULL;
    if (!v || json_is_null(v)) {
        if (!required)
            return true;
        snprintf(msg, msg_cap, "is required");
        return false;
    }
    if (!json_is_string(v)) {
        snprintf(msg, msg_cap, "must be a string");
        return false;
    }
    const char *s = json_string_value(v);
    if (nonempty && !*s) {
        snprintf(msg, msg_cap, "must not be empty");
        return false;
    }
    if (bw_utf8_chars(s, strlen(s)) > max_chars) {
        snprintf(msg, msg_cap, "must be at most %zu characters", max_chars);
        return false;
    }
    *out = s;
    return true;
}
