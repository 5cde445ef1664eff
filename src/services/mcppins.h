/* MCP scans with tool pins: the account's pins of the server are loaded from the store
 * (src/store/store_mcp.h), the pure engine scans and compares (bw_mcp_scan_body_pinned,
 * src/engine/mcpscan.h), and what it decided to save is saved. A scan with nothing to pin
 * (pin false, no tool list, a probe that listed none) reads and writes nothing.
 *
 * Races: two first scans of one server, or two scans taking an account's last room for a server,
 * meet in the store's transaction (ST_CONFLICT, ST_LIMIT); the loser reads the pins again and
 * scans once more, so it reports against what the winner recorded.
 *
 * Ownership: *result and *errors are new references for the caller. */
#ifndef BW_SERVICES_MCPPINS_H
#define BW_SERVICES_MCPPINS_H
#include "engine/mcpprobe.h"
#include "engine/mcpscan.h"
#include "store/db.h"

#include <jansson.h>

/* Scans body (with the probe result live, or NULL) for the account user_id. ST_OK (store.h)
 * with *result (the scan) or *errors (the body's faults), or neither when out of memory; ST_ERROR
 * when the store failed (nothing answered). */
int bw_mcp_scan_pinned(struct db *db, const struct bw_mcp_checks *checks, const char *user_id, const json_t *body,
                       const struct bw_mcp_live *live, json_t **result, json_t **errors);

#endif
