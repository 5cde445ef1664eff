#include "api/api_util.h"

#include "common/timeutil.h"
#include "http/http.h"

void api_reply_storage(struct bw_req *r) { bw_reply_error(r, BW_E_UNAVAILABLE, "storage unavailable", NULL); }

void api_reply_scan(struct bw_req *r, json_t *result, json_t *errors, const char *failed)
{
    if (errors) {
        json_decref(result); /* NULL by the engines' contract: exactly one of the two */
        struct bw_verr v = {errors};
        if (!bw_verr_reply(r, &v))
            bw_reply_internal(r, failed); /* an empty list: only when allocation failed */
        return;
    }
    if (!result) {
        bw_reply_internal(r, failed);
        return;
    }
    char ts[21];
    bw_iso8601(bw_now_s(), ts);
    json_object_set_new(result, "scanned_at", json_string(ts));
    bw_reply_json(r, 200, result);
}
