/* The account's BOM loader (src/services/bom.c) on SQLite and, when BULWARK_TEST_PG_HOST/PORT
 * name a cluster, on PostgreSQL: every matching intel record is found across the batches the
 * store is read in (all records share one change time, so only the id orders them), another
 * account's assets never appear, a scanned asset carries its last scan, and each limit answers
 * its code instead of a cut BOM. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/jsonx.h"
#include "common/limits.h"
#include "common/log.h"
#include "engine/intel/sources.h"
#include "services/bom.h"
#include "services/intel_ingest.h"
#include "store/store.h"

#include "db_fixture.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOW_US 1790000000000000LL

static struct db_fixture g_fx;

static void add_asset(struct db *db, const char *user_id, int64_t us, const char *components, char id[48])
{
    struct store_asset a;
    memset(&a, 0, sizeof a);
    bw_id_new("ast_", a.id);
    snprintf(a.user_id, sizeof a.user_id, "%s", user_id);
    snprintf(a.name, sizeof a.name, "asset");
    snprintf(a.type, sizeof a.type, "model");
    snprintf(a.endpoint, sizeof a.endpoint, "https://model.example.com/v1");
    snprintf(a.env, sizeof a.env, "production");
    snprintf(a.provider, sizeof a.provider, "bomtest");
    a.security_score = 79;
    snprintf(a.risk_level, sizeof a.risk_level, "MEDIUM");
    snprintf(a.score_basis, sizeof a.score_basis, "static");
    snprintf(a.created_at, sizeof a.created_at, "2026-01-01T00:00:00Z");
    a.created_us = us;
    a.components = (char *)components; /* the store only reads it */
    assert_int_equal(store_asset_insert(db, &a), ST_OK);
    if (id)
        memcpy(id, a.id, 48);
}

/* n KEV records CVE-2026-1NNNNN, vendor "Bomtest Vendor", product "bt-<i>", imported at NOW_US. */
static void add_records(struct db *db, int n)
{
    json_t *vulns = json_array();
    for (int i = 0; i < n; i++) {
        char cve[32], product[32];
        snprintf(cve, sizeof cve, "CVE-2026-1%05d", i);
        snprintf(product, sizeof product, "bt-%d", i);
        json_array_append_new(vulns, json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:[]}", "cveID", cve,
                                               "vendorProject", "Bomtest Vendor", "product", product,
                                               "vulnerabilityName", "n", "dateAdded", "2026-01-02",
                                               "shortDescription", "Bomtest product flaw.", "requiredAction", "Fix.",
                                               "dueDate", "2026-02-01", "knownRansomwareCampaignUse", "Unknown",
                                               "notes", "", "cwes"));
    }
    json_t *catalog = json_pack("{s:s,s:s,s:s,s:i,s:o}", "title", "t", "catalogVersion", "1", "dateReleased",
                                "2026-01-02T00:00:00.000Z", "count", n, "vulnerabilities", vulns);
    char *text = json_dumps(catalog, JSON_COMPACT);
    json_decref(catalog);
    json_t *recs = json_array();
    struct bw_intel_reject rej;
    assert_int_equal(bw_intel_parse_source(BW_INTEL_KEV, text, strlen(text), true, recs, &rej), 0);
    free(text);
    assert_int_equal((int)json_array_size(recs), n);
    struct bw_ingest_report rep;
    assert_int_equal(bw_ingest(db, recs, false, NOW_US, &rep), 0);
    json_decref(recs);
}

static const json_t *by_ref(const json_t *list, const char *ref)
{
    size_t i;
    const json_t *x;
    json_array_foreach(list, i, x) if (strcmp(bw_json_str(x, "bom-ref"), ref) == 0) return x;
    return NULL;
}

static void test_batches_and_isolation(void **state)
{
    struct db_fixture *fx = *state;
    char me[BW_ID_MAX], other[BW_ID_MAX], mine[48], theirs[48];
    dbfx_add_user(fx->db, me);
    dbfx_add_user(fx->db, other);
    add_records(fx->db, 450); /* the loader reads 200 per statement */
    /* the first, both sides of each batch edge, and the last */
    add_asset(fx->db, me, 1, "[{\"name\":\"bt-0\"},{\"name\":\"BT-199\"},{\"name\":\"bt-200\"},{\"name\":\"bt-201\"},"
                             "{\"name\":\"bt-399\"},{\"name\":\"bt-400\"},{\"name\":\"bt-449\"},{\"name\":\"bt-45\"}]",
              mine);
    add_asset(fx->db, other, 2, "[{\"name\":\"bt-7\"}]", theirs);
    json_t *bom = NULL;
    assert_int_equal(bw_bom_account(fx->db, me, &bom), BW_BOM_OK);
    const json_t *v = json_object_get(bom, "vulnerabilities");
    const char *want[] = {"CVE-2026-100000", "CVE-2026-100045", "CVE-2026-100199", "CVE-2026-100200",
                          "CVE-2026-100201", "CVE-2026-100399", "CVE-2026-100400", "CVE-2026-100449"};
    assert_int_equal(json_array_size(v), 8);
    for (size_t i = 0; i < 8; i++)
        assert_string_equal(bw_json_str(json_array_get(v, i), "id"), want[i]);
    assert_non_null(by_ref(json_object_get(bom, "components"), mine));
    assert_int_equal(json_array_size(json_object_get(bom, "components")), 9);
    char *text = json_dumps(bom, JSON_COMPACT);
    assert_null(strstr(text, theirs));
    assert_null(strstr(text, "CVE-2026-100007"));
    free(text);
    json_decref(bom);

    /* the provider alone: the records' vendor is "Bomtest Vendor", not "bomtest": nothing */
    char bare[48];
    char third[BW_ID_MAX];
    dbfx_add_user(fx->db, third);
    add_asset(fx->db, third, 3, NULL, bare);
    assert_int_equal(bw_bom_account(fx->db, third, &bom), BW_BOM_OK);
    assert_int_equal(json_array_size(json_object_get(bom, "vulnerabilities")), 0);
    json_decref(bom);
}

static void test_last_scan(void **state)
{
    struct db_fixture *fx = *state;
    char me[BW_ID_MAX], id[48];
    dbfx_add_user(fx->db, me);
    add_asset(fx->db, me, 1, NULL, id);
    struct store_asset_scan s;
    memset(&s, 0, sizeof s);
    bw_id_new("scn_", s.id);
    snprintf(s.asset_id, sizeof s.asset_id, "%s", id);
    snprintf(s.user_id, sizeof s.user_id, "%s", me);
    s.score = 40;
    snprintf(s.risk_level, sizeof s.risk_level, "HIGH");
    snprintf(s.created_at, sizeof s.created_at, "2026-01-03T00:00:00Z");
    s.created_us = 5;
    char body[300];
    snprintf(body, sizeof body,
             "{\"scan_id\":\"%s\",\"scanned_at\":\"2026-01-03T00:00:00Z\",\"status\":\"completed\",\"score\":40,"
             "\"risk_level\":\"HIGH\",\"findings\":[{\"id\":\"PLAINTEXT_HTTP\",\"severity\":\"HIGH\"}]}",
             s.id);
    s.body = body;
    assert_int_equal(store_asset_scan_save(fx->db, &s), ST_OK);
    json_t *bom = NULL;
    assert_int_equal(bw_bom_account(fx->db, me, &bom), BW_BOM_OK);
    const json_t *c = by_ref(json_object_get(bom, "components"), id);
    assert_non_null(c);
    size_t i;
    const json_t *p;
    int seen = 0;
    json_array_foreach(json_object_get(c, "properties"), i, p) {
        if (strcmp(bw_json_str(p, "name"), "bulwark:last_scan:id") == 0 && strcmp(bw_json_str(p, "value"), s.id) == 0)
            seen |= 1;
        if (strcmp(bw_json_str(p, "name"), "bulwark:last_scan:finding") == 0 &&
            strcmp(bw_json_str(p, "value"), "HIGH PLAINTEXT_HTTP") == 0)
            seen |= 2;
    }
    assert_int_equal(seen, 3);
    json_decref(bom);
}

static void test_limits(void **state)
{
    struct db_fixture *fx = *state;
    char me[BW_ID_MAX], last[48];
    dbfx_add_user(fx->db, me);
    for (int i = 0; i < BW_BOM_ASSETS_MAX; i++)
        add_asset(fx->db, me, 10 + i, NULL, last);
    json_t *bom = NULL;
    assert_int_equal(bw_bom_account(fx->db, me, &bom), BW_BOM_OK);
    assert_int_equal(json_array_size(json_object_get(bom, "components")), BW_BOM_ASSETS_MAX);
    json_decref(bom);
    add_asset(fx->db, me, 5, NULL, NULL);
    bom = NULL;
    assert_int_equal(bw_bom_account(fx->db, me, &bom), BW_BOM_TOO_MANY_ASSETS);
    assert_null(bom);

    /* more matching records than a BOM holds */
    char many[BW_ID_MAX];
    dbfx_add_user(fx->db, many);
    add_records(fx->db, BW_BOM_VULNS_MAX + 1);
    add_asset(fx->db, many, 1, "[{\"name\":\"Bomtest Vendor\"}]", NULL);
    assert_int_equal(bw_bom_account(fx->db, many, &bom), BW_BOM_TOO_MANY_VULNS);
    assert_null(bom);
}

DBFX_BACKENDS(g_fx, "bom", 4)

PG_TEST(test_batches_and_isolation)
PG_TEST(test_last_scan)
PG_TEST(test_limits)

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1); /* keep migration/connect logs out of the test output */
    /* a fresh database per test: the limits test fills an account to the brim */
#define BOTH(fn)                                                                                   \
    {cmocka_unit_test_setup_teardown(fn, sqlite_setup, sqlite_teardown),                         \
     cmocka_unit_test_setup_teardown(pg_##fn, pg_setup, pg_teardown)}
    const struct CMUnitTest t[][2] = {BOTH(test_batches_and_isolation), BOTH(test_last_scan), BOTH(test_limits)};
    const struct CMUnitTest sqlite[] = {t[0][0], t[1][0], t[2][0]}, pg[] = {t[0][1], t[1][1], t[2][1]};
    int failed = cmocka_run_group_tests_name("bom_sqlite", sqlite, NULL, NULL);
    failed += cmocka_run_group_tests_name("bom_postgres", pg, NULL, NULL);
    return failed ? 1 : 0;
}
