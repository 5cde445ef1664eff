/* The CycloneDX ML-BOM of an account (GET /api/ai-security/assets/bom): loads the account's
 * assets with their last scans, its pinned MCP servers and the intel records that match them, and
 * has the engine (src/engine/bom.h) build the document. Only the account's own rows are read.
 *
 * Cost: the assets (at most BW_BOM_ASSETS_MAX, read in pages), one read per scanned asset, and
 * one pass over the intel store's records (each document parsed to match it). */
#ifndef BW_SERVICES_BOM_H
#define BW_SERVICES_BOM_H
#include "store/db.h"

#include <jansson.h>

enum bw_bom_rc {
    BW_BOM_OK,
    BW_BOM_TOO_MANY_ASSETS, /* more than BW_BOM_ASSETS_MAX assets and pinned MCP servers */
    BW_BOM_TOO_MANY_TOOLS,  /* more than BW_BOM_TOOLS_MAX tools of pinned MCP servers */
    BW_BOM_TOO_MANY_VULNS,  /* more than BW_BOM_VULNS_MAX matching records */
    BW_BOM_ERROR            /* the database failed or memory ran out */
};

/* The account's BOM into *out (a new reference) with a random serial number and the current time. */
enum bw_bom_rc bw_bom_account(struct db *db, const char *user_id, json_t **out);

#endif
