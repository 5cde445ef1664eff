/* The engage request's validation (bw_rt_engage_parse) on any JSON body, and the selection and
 * estimate it feeds: a body is either accepted with a usable request or rejected with errors that
 * each name a field; an accepted one always selects at least one attack. */
#include "common/jsonx.h"
#include "common/limits.h"
#include "engine/redteam/redteam.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct bw_rt_library *lib = bw_rt_library_get();
    if (!lib)
        abort();
    const char *why = NULL;
    json_t *body = bw_json_parse_body((const char *)data, size, &why);
    json_t *errs = json_array();
    struct bw_rt_engage_req q;
    memset(&q, 0xA5, sizeof q);
    int n = bw_rt_engage_parse(body, &q, errs);
    if (n < 0 || (size_t)n != json_array_size(errs))
        abort();
    size_t i;
    json_t *e;
    json_array_foreach(errs, i, e) {
        const char *f = json_string_value(json_object_get(e, "field"));
        const char *m = json_string_value(json_object_get(e, "message"));
        if (!f || !m || (strcmp(f, "target_asset_id") != 0 && strcmp(f, "attack_categories") != 0 &&
                         strcmp(f, "intensity") != 0))
            abort();
    }
    if (n == 0) {
        if (!q.asset_id || !*q.asset_id || q.cat_mask == 0 || q.cat_mask >= (1u << BW_RT_CATEGORIES) ||
            (unsigned)q.intensity > BW_RT_FULL)
            abort();
        size_t idx[BW_RT_MAX_ATTACKS];
        size_t k = bw_rt_select(lib, q.cat_mask, q.intensity, idx, BW_RT_MAX_ATTACKS);
        if (k == 0 || bw_rt_eta_seconds(k, 0, BW_RT_ATTACK_TIMEOUT_MS) < 1)
            abort();
    } else if (!body && n != 1) {
        abort(); /* no body: exactly "target_asset_id is required" */
    }
    json_decref(errs);
    json_decref(body);
    return 0;
}
