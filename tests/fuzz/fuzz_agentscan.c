/* The agent scan request path: the fuzzer's bytes are a request body, parsed as the server parses
 * bodies and then validated and scanned by the same engine call the handler makes (including the
 * framework options in config and the capability catalog, loaded on first use). */
#include "common/jsonx.h"
#include "engine/agentscan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int sev(const char *s)
{
    return strcmp(s, "CRITICAL") == 0 ? 4 : strcmp(s, "HIGH") == 0 ? 3 : strcmp(s, "MEDIUM") == 0 ? 2 : strcmp(s, "LOW") == 0 ? 1 : 0;
}

/* One of the documented issue types. */
static int known_type(const json_t *t)
{
    for (int c = 0; c < BW_AC_COUNT && json_is_string(t); c++)
        if (strcmp(json_string_value(t), bw_agent_check_type((enum bw_agent_check)c)) == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *why = NULL;
    json_t *body = bw_json_parse_body((const char *)data, size, &why);
    if (!body)
        return 0;
    json_t *errors = NULL;
    json_t *r = bw_agentscan_body(body, &errors);
    if (r) {
        /* invariants of a result: score in range and agreeing with the level, issues worst first */
        if (errors)
            abort();
        json_int_t score = json_integer_value(json_object_get(r, "risk_score"));
        const char *level = json_string_value(json_object_get(r, "risk_level"));
        if (score < 0 || score > 100 || !level || strcmp(level, bw_agent_risk_level((int)score)) != 0)
            abort();
        int prev = 5;
        size_t i;
        json_t *x;
        json_array_foreach(json_object_get(r, "issues"), i, x) {
            int s = sev(json_string_value(json_object_get(x, "severity")));
            if (s == 0 || s > prev || !json_is_string(json_object_get(x, "message")) ||
                !json_is_string(json_object_get(x, "remediation")) || !known_type(json_object_get(x, "type")) ||
                json_array_size(json_object_get(x, "atlas")) == 0)
                abort();
            prev = s;
        }
        /* deterministic */
        json_t *e2 = NULL, *r2 = bw_agentscan_body(body, &e2);
        if (!r2 || !json_equal(r, r2))
            abort();
        json_decref(r2);
        json_decref(r);
    } else if (errors) {
        if (json_array_size(errors) == 0)
            abort();
        json_decref(errors);
    }
    json_decref(body);
    return 0;
}
