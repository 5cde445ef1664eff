/* The replies the handlers share (src/api/api_util.c): the storage failure answers what every
 * handler answered by hand before, byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "api/api_util.h"
#include "http/http.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void storage_failure_is_503_unavailable(void **state)
{
    (void)state;
    struct bw_req *r = calloc(1, sizeof *r), *hand = calloc(1, sizeof *hand);
    assert_non_null(r);
    assert_non_null(hand);
    snprintf(r->request_id, sizeof r->request_id, "req_storage");
    snprintf(hand->request_id, sizeof hand->request_id, "req_storage");
    api_reply_storage(r);
    bw_reply_error(hand, BW_E_UNAVAILABLE, "storage unavailable", NULL);

    assert_int_equal(r->status, 503);
    assert_int_equal(r->err, BW_E_UNAVAILABLE);
    assert_int_equal(r->resp_len, hand->resp_len);
    assert_memory_equal(r->resp, hand->resp, hand->resp_len);
    json_t *j = json_loadb(r->resp, r->resp_len, 0, NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "error"), "code")), "UNAVAILABLE");
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "error"), "message")),
                        "storage unavailable");
    assert_string_equal(json_string_value(json_object_get(json_object_get(j, "error"), "request_id")), "req_storage");
    json_decref(j);
    free(r->resp);
    free(hand->resp);
    free(r);
    free(hand);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(storage_failure_is_503_unavailable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
