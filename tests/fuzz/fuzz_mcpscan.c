/* The MCP scanner: the fuzzer's bytes are a request body, parsed as the server parses bodies and
 * fed to the same validation+engine function the handler calls. */
#include "common/jsonx.h"
#include "common/limits.h"
#include "engine/mcpscan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mcp_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *why = NULL;
    json_t *body = bw_json_parse_body((const char *)data, size, &why);
    json_t *errors = NULL;
    json_t *out = bw_mcp_scan_body(mcp_checks, body, &errors); /* a NULL body is the "no body" case */
    if (out) {
        /* exactly one of result / errors, and the result keeps its contract */
        if (errors)
            abort();
        json_int_t score = json_integer_value(json_object_get(out, "risk_score"));
        const char *level = json_string_value(json_object_get(out, "risk_level"));
        if (score < 0 || score > 100 || !level || strcmp(level, bw_mcp_risk_level((int)score)) != 0)
            abort();
        if (!json_is_array(json_object_get(out, "findings")) || !json_is_object(json_object_get(out, "summary")))
            abort();
        char *s = json_dumps(out, JSON_COMPACT);
        if (!s)
            abort();
        /* deterministic: the same body scans to the same bytes */
        json_t *e2 = NULL, *again = bw_mcp_scan_body(mcp_checks, body, &e2);
        char *s2 = again ? json_dumps(again, JSON_COMPACT) : NULL;
        if (!s2 || strcmp(s, s2) != 0)
            abort();
        free(s);
        free(s2);
        json_decref(again);
        json_decref(out);
    } else if (errors) {
        if (json_array_size(errors) == 0 || json_array_size(errors) > BW_MCP_MAX_ERRORS)
            abort();
        json_decref(errors);
    }
    json_decref(body);
    return 0;
}
