/* MCP tool pins in the store (src/store/store_mcp.c, migration 0012), on SQLite in a temp
 * directory and, when BULWARK_TEST_PG_HOST/PORT name a cluster, on a fresh PostgreSQL database:
 * a server pinned with and without tools, recording twice (the second is a conflict), replacing,
 * the per-account cap on servers, and another account seeing nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/ids.h"
#include "common/log.h"
#include "store/db.h"
#include "store/store.h"
#include "store/store_mcp.h"
#include "db_fixture.h"

#include <stdio.h>
#include <string.h>

static struct db_fixture g_fx;

static const struct store_mcp_pin_in PINS[] = {
    {"read_file", "aa", "{\"v\":1,\"fields\":{}}"},
    {"add", "bb", "{\"v\":1,\"fields\":{\"description\":{}}}"},
};

static struct store_mcp_pins_save save_of(const char *user, const char *key, bool replace, const struct store_mcp_pin_in *v,
                                          size_t n)
{
    return (struct store_mcp_pins_save){.user_id = user, .server_key = key, .server = "https://mcp.example.com/mcp",
                                        .pinned_at = "2025-06-01T00:00:00Z", .replace = replace, .max_servers = 3,
                                        .v = v, .n = n};
}

static void pins(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    char u1[BW_ID_MAX], u2[BW_ID_MAX];
    dbfx_add_user(db, u1);
    dbfx_add_user(db, u2);
    struct store_mcp_pins p;
    assert_int_equal(store_mcp_pins_load(db, u1, "k1", &p), ST_OK);
    assert_false(p.exists);
    assert_int_equal(p.n, 0);
    assert_int_equal(p.servers, 0);

    struct store_mcp_pins_save s = save_of(u1, "k1", false, PINS, 2);
    assert_int_equal(store_mcp_pins_save(db, &s), ST_OK);
    assert_int_equal(store_mcp_pins_save(db, &s), ST_CONFLICT); /* recorded already: nothing changes */
    assert_int_equal(store_mcp_pins_load(db, u1, "k1", &p), ST_OK);
    assert_true(p.exists);
    assert_string_equal(p.pinned_at, "2025-06-01T00:00:00Z");
    assert_int_equal(p.servers, 1);
    assert_int_equal(p.n, 2);
    assert_string_equal(p.v[0].tool, "add"); /* by name */
    assert_string_equal(p.v[0].hash, "bb");
    assert_string_equal(p.v[1].tool, "read_file");
    assert_string_equal(p.v[1].definition, "{\"v\":1,\"fields\":{}}");
    store_mcp_pins_free(&p);

    /* another account sees none of it, and pins the same server for itself */
    assert_int_equal(store_mcp_pins_load(db, u2, "k1", &p), ST_OK);
    assert_false(p.exists);
    assert_int_equal(p.servers, 0);
    s = save_of(u2, "k1", false, PINS + 1, 1);
    assert_int_equal(store_mcp_pins_save(db, &s), ST_OK);

    /* replacing: the pins become the new set, the time moves */
    s = save_of(u1, "k1", true, PINS + 1, 1);
    s.pinned_at = "2025-07-01T00:00:00Z";
    assert_int_equal(store_mcp_pins_save(db, &s), ST_OK);
    assert_int_equal(store_mcp_pins_load(db, u1, "k1", &p), ST_OK);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.v[0].tool, "add");
    assert_string_equal(p.pinned_at, "2025-07-01T00:00:00Z");
    store_mcp_pins_free(&p);
    assert_int_equal(store_mcp_pins_load(db, u2, "k1", &p), ST_OK);
    assert_int_equal(p.n, 1);
    assert_string_equal(p.pinned_at, "2025-06-01T00:00:00Z");
    store_mcp_pins_free(&p);

    /* a server pinned with no tools is pinned */
    s = save_of(u1, "k2", false, NULL, 0);
    assert_int_equal(store_mcp_pins_save(db, &s), ST_OK);
    assert_int_equal(store_mcp_pins_load(db, u1, "k2", &p), ST_OK);
    assert_true(p.exists);
    assert_int_equal(p.n, 0);
    assert_int_equal(p.servers, 2);
    store_mcp_pins_free(&p);

    /* the cap counts servers, not pins; a pinned server may still be replaced */
    s = save_of(u1, "k3", true, PINS, 2); /* replace of a server not pinned yet records it */
    assert_int_equal(store_mcp_pins_save(db, &s), ST_OK);
    s = save_of(u1, "k4", false, PINS, 2);
    assert_int_equal(store_mcp_pins_save(db, &s), ST_LIMIT);
    s = save_of(u1, "k3", true, PINS, 1);
    assert_int_equal(store_mcp_pins_save(db, &s), ST_OK);
    assert_int_equal(store_mcp_pins_load(db, u1, "k4", &p), ST_OK);
    assert_false(p.exists);
    assert_int_equal(p.servers, 3);

    /* no such account */
    s = save_of("usr_nobody", "k1", false, PINS, 1);
    assert_int_equal(store_mcp_pins_save(db, &s), ST_NOTFOUND);
}

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "mcp", NULL, 2); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "mcp", 2); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(pins)

int main(void)
{
    bw_log_set_level(BW_LOG_ERROR + 1);
    const struct CMUnitTest sqlite[] = {cmocka_unit_test(pins)};
    const struct CMUnitTest pg[] = {cmocka_unit_test(pg_pins)};
    int failed = cmocka_run_group_tests_name("store_mcp_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("store_mcp_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
