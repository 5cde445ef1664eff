-- MCP tool pinning (src/services/mcppins.c): per account and MCP server, the tool definitions the
-- account approved, so a later scan reports a definition that changed, a tool added or removed
-- (a "rug pull"). A server row says the server is pinned, also with no tools (a server that adds
-- its first tool later is a change). server_key is the hex SHA-256 of the server's identity
-- (src/engine/mcppin.h), so a stdio command line with a secret on it is not stored; `server` is
-- the identity as shown, with credential-shaped words masked. A pin's hash is the SHA-256 of the
-- definition's canonical text; `definition` is the engine's document of bounded member texts,
-- which the store moves and never reads. Portable SQL.
CREATE TABLE mcp_pin_servers (
    user_id    TEXT NOT NULL REFERENCES users(id),
    server_key TEXT NOT NULL,
    server     TEXT NOT NULL,
    tools      INTEGER NOT NULL,  -- pins held
    pinned_at  TEXT NOT NULL,     -- first recorded, or last accepted
    PRIMARY KEY (user_id, server_key)
);
CREATE TABLE mcp_pins (
    user_id    TEXT NOT NULL,
    server_key TEXT NOT NULL,
    tool       TEXT NOT NULL,
    hash       TEXT NOT NULL,
    definition TEXT NOT NULL,
    PRIMARY KEY (user_id, server_key, tool),
    FOREIGN KEY (user_id, server_key) REFERENCES mcp_pin_servers (user_id, server_key) ON DELETE CASCADE
);
