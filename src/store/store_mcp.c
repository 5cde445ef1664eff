#include "store/store_mcp.h"

#include "common/limits.h"
#include "common/vec.h"
#include "store/store.h"
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

struct pins_read {
    struct store_mcp_pins *out;
    size_t cap;
};

/* One row of the server joined to its pins: the server's columns, then a pin's (NULL with none). */
static int read_pin(struct db_rows *r, void *arg)
{
    struct pins_read *a = arg;
    struct store_mcp_pins *p = a->out;
    p->exists = true;
    COPY(p->pinned_at, db_rows_text(r, 0));
    const char *tool = db_rows_text(r, 1), *hash = db_rows_text(r, 2), *def = db_rows_text(r, 3);
    if (!tool || !hash || !def || p->n >= BW_MCP_TOOLS_MAX)
        return ST_OK; /* no pins, or more than a scan can hold (never written so) */
    if (!BW_VEC_RESERVE(p->v, a->cap, p->n + 1, BW_MCP_TOOLS_MAX))
        return ST_ERROR;
    struct store_mcp_pin *x = &p->v[p->n];
    x->tool = strdup(tool);
    x->hash = strdup(hash);
    x->definition = strdup(def);
    p->n++; /* counted before the check, so a failed copy is freed with the rest */
    return x->tool && x->hash && x->definition ? ST_OK : ST_ERROR;
}

int store_mcp_pins_load(struct db *db, const char *user_id, const char *server_key, struct store_mcp_pins *out)
{
    memset(out, 0, sizeof *out);
    struct db_conn *c = db_acquire(db);
    if (!c)
        return ST_ERROR;
    struct db_param pu[] = {DBP_TEXT(user_id)};
    struct db_param ps[] = {DBP_TEXT(user_id), DBP_TEXT(server_key)};
    struct pins_read a = {out, 0};
    int rc = store_conn_int(c, "SELECT COUNT(*) FROM mcp_pin_servers WHERE user_id = ?", pu, 1, &out->servers);
    if (rc == ST_OK)
        rc = store_conn_each(c,
                             "SELECT s.pinned_at, p.tool, p.hash, p.definition FROM mcp_pin_servers s"
                             " LEFT JOIN mcp_pins p ON p.user_id = s.user_id AND p.server_key = s.server_key"
                             " WHERE s.user_id = ? AND s.server_key = ? ORDER BY p.tool",
                             ps, 2, read_pin, &a);
    db_release(c);
    if (rc != ST_OK) {
        store_mcp_pins_free(out);
        return ST_ERROR;
    }
    return ST_OK;
}

void store_mcp_pins_free(struct store_mcp_pins *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].tool);
        free(p->v[i].hash);
        free(p->v[i].definition);
    }
    free(p->v);
    memset(p, 0, sizeof *p);
}

struct servers_each {
    store_mcp_tool_fn fn;
    void *arg;
};

static int server_tool_row(struct db_rows *r, void *arg)
{
    struct servers_each *a = arg;
    return a->fn(db_rows_text(r, 0), db_rows_text(r, 1), db_rows_text(r, 2), db_rows_text(r, 3), db_rows_text(r, 4),
                 a->arg);
}

int store_mcp_servers_each(struct db *db, const char *user_id, store_mcp_tool_fn fn, void *arg)
{
    struct db_param p[] = {DBP_TEXT(user_id)};
    struct servers_each a = {fn, arg};
    return store_query_each(db,
                            "SELECT s.server_key, s.server, s.pinned_at, p.tool, p.hash FROM mcp_pin_servers s"
                            " LEFT JOIN mcp_pins p ON p.user_id = s.user_id AND p.server_key = s.server_key"
                            " WHERE s.user_id = ? ORDER BY s.server_key, p.tool",
                            p, 1, server_tool_row, &a);
}

static int save_tx(struct db_conn *c, void *arg)
{
    const struct store_mcp_pins_save *s = arg;
    int rc = store_lock_user(c, s->user_id);
    if (rc != ST_OK)
        return rc;
    struct db_param pk[] = {DBP_TEXT(s->user_id), DBP_TEXT(s->server_key)};
    int64_t pinned = 0, servers = 0;
    if (store_conn_int(c, "SELECT COUNT(*) FROM mcp_pin_servers WHERE user_id = ? AND server_key = ?", pk, 2,
                       &pinned) != ST_OK)
        return ST_ERROR;
    if (pinned && !s->replace)
        return ST_CONFLICT;
    if (!pinned) {
        if (store_conn_int(c, "SELECT COUNT(*) FROM mcp_pin_servers WHERE user_id = ?", pk, 1, &servers) != ST_OK)
            return ST_ERROR;
        if (servers >= s->max_servers)
            return ST_LIMIT;
    }
    struct db_param ps[] = {DBP_TEXT(s->server), DBP_INT((int64_t)s->n), DBP_TEXT(s->pinned_at),
                            DBP_TEXT(s->user_id), DBP_TEXT(s->server_key)};
    rc = store_conn_exec(c,
                         pinned ? "UPDATE mcp_pin_servers SET server = ?, tools = ?, pinned_at = ?"
                                  " WHERE user_id = ? AND server_key = ?"
                                : "INSERT INTO mcp_pin_servers (server, tools, pinned_at, user_id, server_key)"
                                  " VALUES (?, ?, ?, ?, ?)",
                         ps, 5, NULL);
    if (rc == ST_OK && pinned)
        rc = store_conn_exec(c, "DELETE FROM mcp_pins WHERE user_id = ? AND server_key = ?", pk, 2, NULL);
    for (size_t i = 0; rc == ST_OK && i < s->n; i++) {
        struct db_param p[] = {DBP_TEXT(s->user_id), DBP_TEXT(s->server_key), DBP_TEXT(s->v[i].tool),
                               DBP_TEXT(s->v[i].hash), DBP_TEXT(s->v[i].definition)};
        rc = store_conn_exec(c,
                             "INSERT INTO mcp_pins (user_id, server_key, tool, hash, definition) VALUES (?, ?, ?, ?, ?)",
                             p, 5, NULL);
    }
    return rc == ST_OK ? ST_OK : ST_ERROR; /* a duplicate tool name is the caller's bug */
}

int store_mcp_pins_save(struct db *db, const struct store_mcp_pins_save *s)
{
    return store_tx(db, save_tx, (void *)s);
}
