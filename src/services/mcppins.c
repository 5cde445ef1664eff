#include "services/mcppins.h"

#include "common/timeutil.h"
#include "store/store.h"
#include "store/store_mcp.h"

#include <stdlib.h>

/* One load, scan and save. ST_OK with *result; ST_CONFLICT or ST_LIMIT when the save lost a race
 * (nothing answered); ST_ERROR. */
static int scan_once(struct db *db, const struct bw_mcp_checks *checks, const char *user_id, const json_t *body,
                     const struct bw_mcp_live *live, const struct bw_mcp_pin_plan *plan, const char *now,
                     json_t **result, json_t **errors)
{
    struct store_mcp_pins st;
    if (store_mcp_pins_load(db, user_id, plan->server_key, &st) != ST_OK)
        return ST_ERROR;
    struct bw_mcp_pinned *held_v = calloc(st.n ? st.n : 1, sizeof *held_v);
    struct bw_mcp_pins_new save = {0};
    struct store_mcp_pin_in *in = NULL;
    int rc = ST_OK;
    if (!held_v)
        goto out; /* out of memory: no result, a 500 */
    for (size_t i = 0; i < st.n; i++)
        held_v[i] = (struct bw_mcp_pinned){st.v[i].tool, st.v[i].hash, st.v[i].definition};
    const struct bw_mcp_pins_held held = {st.exists, st.pinned_at, held_v, st.n, st.servers < BW_MCP_PIN_SERVERS_MAX,
                                          now};
    *result = bw_mcp_scan_body_pinned(checks, body, live, plan, &held, &save, errors);
    if (!*result || save.action == BW_MCP_PINS_KEEP)
        goto out;
    if (!(in = calloc(save.n ? save.n : 1, sizeof *in))) {
        json_decref(*result);
        *result = NULL;
        goto out;
    }
    for (size_t i = 0; i < save.n; i++)
        in[i] = (struct store_mcp_pin_in){save.v[i].tool, save.v[i].hash, save.v[i].doc};
    const struct store_mcp_pins_save s = {.user_id = user_id, .server_key = plan->server_key, .server = plan->server,
                                          .pinned_at = now, .replace = save.action == BW_MCP_PINS_REPLACE,
                                          .max_servers = BW_MCP_PIN_SERVERS_MAX, .v = in, .n = save.n};
    rc = store_mcp_pins_save(db, &s);
    if (rc != ST_OK) {
        json_decref(*result); /* it says what was saved */
        *result = NULL;
    }
out:
    free(in);
    bw_mcp_pins_new_free(&save);
    free(held_v);
    store_mcp_pins_free(&st);
    return rc;
}

int bw_mcp_scan_pinned(struct db *db, const struct bw_mcp_checks *checks, const char *user_id, const json_t *body,
                       const struct bw_mcp_live *live, json_t **result, json_t **errors)
{
    *result = NULL;
    *errors = NULL;
    struct bw_mcp_pin_plan plan;
    if (bw_mcp_pin_plan(body, live, &plan) != 0) {
        *result = bw_mcp_scan_body_live(checks, body, live, errors); /* the body's faults */
        return ST_OK;
    }
    if (plan.applies && (!user_id || !*user_id)) {
        plan.applies = false; /* the routes take accounts only; pins belong to one */
        plan.skip = "pins are kept per account, and the caller is none";
    }
    if (!plan.applies) {
        *result = bw_mcp_scan_body_pinned(checks, body, live, &plan, NULL, NULL, errors);
        return ST_OK;
    }
    char now[21];
    bw_iso8601(bw_now_s(), now);
    int rc = scan_once(db, checks, user_id, body, live, &plan, now, result, errors);
    if (rc == ST_CONFLICT || rc == ST_LIMIT)
        rc = scan_once(db, checks, user_id, body, live, &plan, now, result, errors);
    return rc == ST_OK ? ST_OK : ST_ERROR;
}
