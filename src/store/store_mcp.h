/* MCP tool pins per account and server (migration 0012; src/services/mcppins.c decides what to
 * pin). A server is pinned by a row of its own, so a server pinned with no tools is still
 * pinned; its pins are one row per tool: the definition's hash and the engine's document of it
 * (src/engine/mcppin.h), which the store moves as text and never reads. Every statement names the
 * account, so another account's pins are neither read nor written.
 *
 * Ownership: store_mcp_pins_load fills *out with malloc'ed strings; store_mcp_pins_free frees
 * them. The save borrows everything it is given. */
#ifndef BW_STORE_STORE_MCP_H
#define BW_STORE_STORE_MCP_H
#include "store/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store_mcp_pin {
    char *tool, *hash, *definition;
};

struct store_mcp_pins {
    bool exists;          /* the server is pinned (perhaps with no tools) */
    char pinned_at[24];   /* when its pins were recorded or last accepted; "" when not pinned */
    int64_t servers;      /* servers the account has pinned */
    struct store_mcp_pin *v; /* by tool name, at most BW_MCP_TOOLS_MAX */
    size_t n;
};

/* The pins of the account's server server_key, and how many servers the account pins. ST_OK or
 * ST_ERROR (store.h); *out is zeroed first and holds nothing to free after ST_ERROR. */
int store_mcp_pins_load(struct db *db, const char *user_id, const char *server_key, struct store_mcp_pins *out);
void store_mcp_pins_free(struct store_mcp_pins *p);

struct store_mcp_pin_in {
    const char *tool, *hash, *definition;
};

struct store_mcp_pins_save {
    const char *user_id, *server_key;
    const char *server;    /* the identity as shown */
    const char *pinned_at; /* ISO 8601 UTC */
    bool replace;          /* false: record a server not pinned yet; true: its pins become v */
    long max_servers;      /* servers an account may pin */
    const struct store_mcp_pin_in *v;
    size_t n;
};

/* Saves the server's pins in one transaction under the account's lock: ST_OK; ST_CONFLICT when
 * recording (!replace) a server that is pinned already (another scan recorded it first);
 * ST_LIMIT when the server is not pinned and the account pins max_servers already; ST_NOTFOUND
 * when there is no such account; ST_ERROR. */
int store_mcp_pins_save(struct db *db, const struct store_mcp_pins_save *s);

/* Every server the account pinned with its tools, for the BOM: fn(server_key, server, pinned_at,
 * tool, hash, arg) once per tool (tool and hash NULL for a server with none), by server_key then
 * tool; the texts are valid during the call; a non-ST_OK answer stops and is returned. */
typedef int (*store_mcp_tool_fn)(const char *server_key, const char *server, const char *pinned_at, const char *tool,
                                 const char *hash, void *arg);
int store_mcp_servers_each(struct db *db, const char *user_id, store_mcp_tool_fn fn, void *arg);

#endif
