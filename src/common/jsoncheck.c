#include "common/jsoncheck.h"

#include "common/utf8.h"

#include <stdarg.h>
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

bool bw_cerr_fail(struct bw_cerr *e, const char *fmt, ...)
{
    if (e->len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->buf, e->len, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool bw_cerr_only_keys(const json_t *o, const char *const *allowed, bool all_required, const char *ctx,
                       struct bw_cerr *e)
{
    if (!json_is_object(o))
        return bw_cerr_fail(e, "%s must be an object", ctx);
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)o, key, v) {
        bool ok = false;
        for (size_t i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok)
            return bw_cerr_fail(e, "%s: unknown member \"%s\"", ctx, key);
    }
    for (size_t i = 0; all_required && allowed[i]; i++)
        if (!json_object_get(o, allowed[i]))
            return bw_cerr_fail(e, "%s: member \"%s\" is missing", ctx, allowed[i]);
    return true;
}

bool bw_cerr_entry(const json_t *o, const char *const *keys, bool all_required, const char *ctx, const char *id_chars,
                   const struct bw_cerr_ids *earlier, char **id, struct bw_cerr *e)
{
    if (!bw_cerr_only_keys(o, keys, all_required, ctx, e))
        return false;
    const json_t *v = json_object_get(o, "id");
    if (!json_is_string(v) || json_string_length(v) == 0)
        return bw_cerr_fail(e, "%s.id must be a non-empty string", ctx);
    if (!(*id = strdup(json_string_value(v))))
        return bw_cerr_fail(e, "out of memory");
    if (id_chars && strspn(*id, id_chars) != strlen(*id))
        return bw_cerr_fail(e, "%s.id \"%s\" must be lower_snake_case", ctx, *id);
    for (size_t i = 0; i < earlier->n; i++) {
        const char *other = *(char *const *)(const void *)((const char *)earlier->v + i * earlier->stride + earlier->at);
        if (other && strcmp(other, *id) == 0)
            return bw_cerr_fail(e, "%s.id \"%s\" is used twice", ctx, *id);
    }
    return true;
}
