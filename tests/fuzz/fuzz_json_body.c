/* Request body parsing: bw_json_parse_body and the nesting pre-check it relies on. */
#include "common/jsonx.h"
#include "common/limits.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    bool ok32 = bw_json_depth_ok(s, size, BW_JSON_MAX_DEPTH);
    /* the check is monotonic in the limit */
    if (ok32 && !bw_json_depth_ok(s, size, BW_JSON_MAX_DEPTH + 1))
        abort();
    if (!bw_json_depth_ok(s, size, 1) && bw_json_depth_ok(s, size, 0))
        abort();
    const char *why = NULL;
    json_t *j = bw_json_parse_body(s, size, &why);
    if (j) {
        if (!json_is_object(j) || !ok32)
            abort();
        /* what parsed must serialise */
        char *out = json_dumps(j, JSON_COMPACT);
        if (!out)
            abort();
        free(out);
        json_decref(j);
    } else if (!why) {
        abort();
    }
    return 0;
}
