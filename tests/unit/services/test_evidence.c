/* Governance evidence (src/services/evidence.c over src/store/store_evidence.c) against a real
 * SQLite database in a temp directory and, when BULWARK_TEST_PG_HOST/BULWARK_TEST_PG_PORT name a
 * PostgreSQL cluster (user postgres, trust auth), against a fresh randomly named database on it;
 * scans saved with their evidence columns and scans stored before them (columns NULL, read from
 * the document) give the same evidence; and the counting of one scan document on its own. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/ids.h"
#include "common/log.h"
#include "common/rng.h"
#include "common/timeutil.h"
#include "store/db.h"
#include "store/store.h"
#include "db_fixture.h"
#include "services/evidence.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct db_fixture g_fx;
static bool g_legacy; /* add_scan stores rows as before migration 0010: evidence columns NULL */

static int64_t at(const char *iso)
{
    int64_t t = 0;
    assert_int_equal(bw_parse_iso8601(iso, &t), 0);
    return t;
}

static void add_asset(struct db *db, const char *user_id, const char *type, int64_t us, char id[48])
{
    struct store_asset a;
    memset(&a, 0, sizeof a);
    bw_id_new("ast_", a.id);
    snprintf(a.user_id, sizeof a.user_id, "%s", user_id);
    snprintf(a.name, sizeof a.name, "asset");
    snprintf(a.type, sizeof a.type, "%s", type);
    snprintf(a.endpoint, sizeof a.endpoint, "https://model.example.com/v1");
    snprintf(a.env, sizeof a.env, "production");
    a.security_score = 80;
    snprintf(a.risk_level, sizeof a.risk_level, "LOW");
    snprintf(a.created_at, sizeof a.created_at, "2025-01-01T00:00:00Z");
    a.created_us = us;
    assert_int_equal(store_asset_insert(db, &a), ST_OK);
    memcpy(id, a.id, 48);
}

static void add_scan(struct db *db, const char *user_id, const char *asset_id, const char *when, const char *body)
{
    struct store_asset_scan s;
    memset(&s, 0, sizeof s);
    bw_id_new("scn_", s.id);
    snprintf(s.asset_id, sizeof s.asset_id, "%s", asset_id);
    snprintf(s.user_id, sizeof s.user_id, "%s", user_id);
    s.score = 10;
    snprintf(s.risk_level, sizeof s.risk_level, "CRITICAL");
    snprintf(s.created_at, sizeof s.created_at, "%s", when);
    s.created_us = at(when) * 1000000;
    s.body = body;
    if (g_legacy) {
        assert_int_equal(store_asset_scan_save(db, &s), ST_OK);
        return;
    }
    json_t *doc = json_loads(body, 0, NULL);
    assert_int_equal(bw_evidence_scan_save(db, &s, doc), ST_OK);
    json_decref(doc);
}

static void add_key(struct db *db, const char *user_id, const char *when, char id[BW_ID_MAX])
{
    struct store_key k;
    memset(&k, 0, sizeof k);
    bw_id_new("key_", k.id);
    snprintf(k.user_id, sizeof k.user_id, "%s", user_id);
    snprintf(k.hash, sizeof k.hash, "hash-%s", k.id);
    snprintf(k.prefix, sizeof k.prefix, "svc_%.8s", k.id + 4);
    snprintf(k.label, sizeof k.label, "ci");
    snprintf(k.created_at, sizeof k.created_at, "%s", when);
    assert_int_equal(store_key_create(db, &k, 25), ST_OK);
    memcpy(id, k.id, BW_ID_MAX);
}

/* ---- the suite, run once per backend --------------------------------------------------------- */

static void test_empty_account(void **state)
{
    struct db_fixture *fx = *state;
    char uid[BW_ID_MAX];
    dbfx_add_user(fx->db, uid);
    struct bw_evidence ev;
    assert_int_equal(bw_evidence_gather(fx->db, uid, at("2026-03-01T00:00:00Z"), &ev), ST_OK);
    assert_int_equal(ev.assets_registered, 0);
    assert_int_equal(ev.assets_scanned, 0);
    assert_int_equal(ev.assets_scanned_90d, 0);
    assert_int_equal(ev.ntypes, 0);
    assert_int_equal(ev.scans_read, 0);
    assert_int_equal(ev.keys_active, 0);
    assert_int_equal(ev.keys_rotated, 0);
    assert_int_equal(ev.oldest_active_key_days, -1);
    for (int k = 0; k < BW_EVIDENCE_OWASP; k++)
        assert_int_equal(ev.owasp_hit[k] + ev.owasp_tested[k], 0);
}

static void assets_scans_keys(struct db *db)
{
    char uid[BW_ID_MAX], other[BW_ID_MAX], a1[48], a2[48], a3[48], o1[48];
    dbfx_add_user(db, uid);
    dbfx_add_user(db, other);
    add_asset(db, uid, "model", 1, a1);
    add_asset(db, uid, "model", 2, a2);
    add_asset(db, uid, "api", 3, a3); /* never scanned */
    /* a1: an older scan, then the latest one; only the latest counts */
    add_scan(db, uid, a1, "2026-01-05T00:00:00Z",
             "{\"findings\":[{\"id\":\"OLD\",\"severity\":\"LOW\",\"owasp_llm\":\"LLM05\"}],\"llm_api\":\"none\"}");
    add_scan(db, uid, a1, "2026-02-20T10:00:00Z",
             "{\"findings\":[{\"id\":\"PROMPT_INJECTION\",\"severity\":\"CRITICAL\",\"owasp_llm\":\"LLM01\"},"
             "{\"id\":\"PERMISSIVE_CORS\",\"severity\":\"HIGH\",\"owasp_llm\":\"LLM02\"},"
             "{\"id\":\"SERVER_BANNER\",\"severity\":\"MEDIUM\",\"owasp_llm\":null}],"
             "\"llm_api\":\"openai\",\"incomplete\":false}");
    /* a2: its latest scan is older than the window: hits count, "probed" does not */
    add_scan(db, uid, a2, "2025-08-01T00:00:00Z",
             "{\"findings\":[{\"id\":\"PLAINTEXT_TRANSPORT\",\"severity\":\"HIGH\",\"owasp_llm\":\"LLM02\"}],"
             "\"llm_api\":\"openai\",\"incomplete\":false}");
    /* another account's asset and scan are not evidence for this one */
    add_asset(db, other, "agent", 4, o1);
    add_scan(db, other, o1, "2026-02-21T00:00:00Z",
             "{\"findings\":[{\"id\":\"X\",\"severity\":\"CRITICAL\",\"owasp_llm\":\"LLM06\"}],\"llm_api\":\"openai\"}");
    /* keys: one old active, one rotated into a new one, one revoked */
    char k1[BW_ID_MAX], k2[BW_ID_MAX], k3[BW_ID_MAX];
    add_key(db, uid, "2025-10-01T00:00:00Z", k1);
    add_key(db, uid, "2026-02-25T00:00:00Z", k2);
    add_key(db, uid, "2026-02-26T00:00:00Z", k3);
    struct store_key nk, out;
    memset(&nk, 0, sizeof nk);
    bw_id_new("key_", nk.id);
    snprintf(nk.hash, sizeof nk.hash, "hash-%s", nk.id);
    snprintf(nk.prefix, sizeof nk.prefix, "svc_%.8s", nk.id + 4);
    snprintf(nk.created_at, sizeof nk.created_at, "2026-02-28T00:00:00Z");
    assert_int_equal(store_key_rotate(db, uid, k2, &nk), ST_OK);
    assert_int_equal(store_key_revoke(db, uid, k3, &out), ST_OK);

    struct bw_evidence ev;
    assert_int_equal(bw_evidence_gather(db, uid, at("2026-03-01T00:00:00Z"), &ev), ST_OK);
    assert_int_equal(ev.assets_registered, 3);
    assert_int_equal(ev.ntypes, 2);
    assert_string_equal(ev.by_type[0].type, "api");
    assert_int_equal(ev.by_type[0].n, 1);
    assert_string_equal(ev.by_type[1].type, "model");
    assert_int_equal(ev.by_type[1].n, 2);
    assert_int_equal(ev.assets_scanned, 2);
    assert_int_equal(ev.assets_scanned_90d, 1);
    assert_int_equal(ev.scans_read, 2);
    assert_false(ev.scans_truncated);
    assert_int_equal(ev.open_findings[BW_EV_CRITICAL], 1);
    assert_int_equal(ev.open_findings[BW_EV_HIGH], 2);
    assert_int_equal(ev.open_findings[BW_EV_MEDIUM], 1);
    assert_int_equal(ev.open_findings[BW_EV_LOW], 0); /* the superseded scan's */
    assert_int_equal(ev.owasp_hit[0], 1);             /* LLM01 */
    assert_int_equal(ev.owasp_hit[1], 2);             /* LLM02, on both assets */
    assert_int_equal(ev.owasp_hit[4], 0);             /* LLM05 only in the superseded scan */
    assert_int_equal(ev.owasp_hit[5], 0);             /* LLM06: the other account's */
    assert_int_equal(ev.owasp_tested[0], 1);
    assert_int_equal(ev.owasp_tested[1], 1); /* a2's scan is outside the window */
    assert_int_equal(ev.owasp_tested[6], 1); /* LLM07 probed, not found */
    assert_int_equal(ev.owasp_tested[9], 1); /* LLM10 */
    assert_int_equal(ev.owasp_tested[2], 0);
    assert_string_equal(ev.owasp_findings[1][0], "PERMISSIVE_CORS");
    assert_string_equal(ev.owasp_findings[1][1], "PLAINTEXT_TRANSPORT");
    assert_string_equal(ev.owasp_findings[1][2], "");
    assert_int_equal(ev.keys_active, 2); /* k1 and the rotated-in key */
    assert_int_equal(ev.keys_rotated, 1);
    assert_int_equal(ev.oldest_active_key_days, 151); /* 2025-10-01 .. 2026-03-01 */

    /* the other account sees only its own */
    assert_int_equal(bw_evidence_gather(db, other, at("2026-03-01T00:00:00Z"), &ev), ST_OK);
    assert_int_equal(ev.assets_registered, 1);
    assert_int_equal(ev.open_findings[BW_EV_CRITICAL], 1);
    assert_int_equal(ev.owasp_hit[5], 1);
    assert_int_equal(ev.keys_active, 0);
    assert_int_equal(ev.oldest_active_key_days, -1);
}

static void test_assets_scans_keys(void **state)
{
    g_legacy = false;
    assets_scans_keys(((struct db_fixture *)*state)->db);
}

/* the same rows stored before migration 0010: the same evidence, from the documents */
static void test_assets_scans_keys_legacy(void **state)
{
    g_legacy = true;
    assets_scans_keys(((struct db_fixture *)*state)->db);
    g_legacy = false;
}

static void assert_same(const struct bw_evidence *a, const struct bw_evidence *b)
{
    assert_int_equal(a->assets_registered, b->assets_registered);
    assert_int_equal(a->ntypes, b->ntypes);
    for (int i = 0; i < a->ntypes; i++) {
        assert_string_equal(a->by_type[i].type, b->by_type[i].type);
        assert_int_equal(a->by_type[i].n, b->by_type[i].n);
    }
    assert_int_equal(a->assets_scanned, b->assets_scanned);
    assert_int_equal(a->assets_scanned_90d, b->assets_scanned_90d);
    assert_int_equal(a->scans_read, b->scans_read);
    assert_int_equal(a->scans_truncated, b->scans_truncated);
    for (int s = 0; s < BW_EV_SEVERITIES; s++)
        assert_int_equal(a->open_findings[s], b->open_findings[s]);
    for (int k = 0; k < BW_EVIDENCE_OWASP; k++) {
        assert_int_equal(a->owasp_hit[k], b->owasp_hit[k]);
        assert_int_equal(a->owasp_tested[k], b->owasp_tested[k]);
        for (int j = 0; j < BW_EVIDENCE_FINDING_IDS; j++)
            assert_string_equal(a->owasp_findings[k][j], b->owasp_findings[k][j]);
    }
    assert_int_equal(a->keys_active, b->keys_active);
    assert_int_equal(a->keys_rotated, b->keys_rotated);
    assert_int_equal(a->oldest_active_key_days, b->oldest_active_key_days);
    assert_int_equal(a->redteam_completed_90d, b->redteam_completed_90d);
    assert_int_equal(a->redteam_high_successes_90d, b->redteam_high_successes_90d);
}

/* One account's scans saved as before migration 0010 (legacy), one's saved now and one's mixed:
 * the same evidence for each, documents of every shape included. */
static void test_legacy_rows_same_evidence(void **state)
{
    struct db_fixture *fx = *state;
    static const struct {
        const char *when, *body;
    } SCANS[] = {
        {"2026-02-20T10:00:00Z",
         "{\"findings\":[{\"id\":\"PROMPT_INJECTION\",\"severity\":\"CRITICAL\",\"owasp_llm\":\"LLM01\"},"
         "{\"id\":\"SERVER_BANNER\",\"severity\":\"MEDIUM\",\"owasp_llm\":null}],"
         "\"owasp_llm_hits\":[\"LLM01\"],\"owasp_llm_tested\":[\"LLM01\",\"LLM07\"],\"llm_api\":\"openai\","
         "\"incomplete\":false}"},
        /* before owasp_llm_tested existed: the probes' contract */
        {"2026-02-21T00:00:00Z",
         "{\"findings\":[{\"id\":\"PLAINTEXT_TRANSPORT\",\"severity\":\"HIGH\",\"owasp_llm\":\"LLM02\"}],"
         "\"llm_api\":\"prompt\",\"incomplete\":false}"},
        /* cut short; outside the window */
        {"2025-06-01T00:00:00Z",
         "{\"findings\":[{\"id\":\"UNBOUNDED_CONSUMPTION\",\"severity\":\"HIGH\",\"owasp_llm\":\"LLM10\"}],"
         "\"llm_api\":\"openai\",\"incomplete\":true}"},
        /* ids that need escaping in the column, one too long to keep, more than four for a risk */
        {"2026-02-22T00:00:00Z",
         "{\"findings\":[{\"id\":\"A,B;C:D%E\",\"severity\":\"LOW\",\"owasp_llm\":\"LLM04\"},"
         "{\"id\":\"B\xc3\xa9 \\u0001\",\"severity\":\"LOW\",\"owasp_llm\":\"LLM04\"},"
         "{\"id\":\"0123456789012345678901234567890123456789\",\"owasp_llm\":\"LLM04\"},"
         "{\"id\":\"Z\",\"owasp_llm\":\"LLM04\"},{\"id\":\"Y\",\"owasp_llm\":\"LLM04\"},"
         "{\"id\":\"X\",\"owasp_llm\":\"LLM04\"},{\"id\":\"\",\"owasp_llm\":\"LLM05\"}]}"},
        /* not a scan document: counted by neither */
        {"2026-02-23T00:00:00Z", "{\"score\":3}"},
    };
    const size_t n = sizeof SCANS / sizeof SCANS[0];
    struct bw_evidence ev[3];
    for (int mode = 0; mode < 3; mode++) { /* 0 legacy, 1 new, 2 mixed */
        char uid[BW_ID_MAX];
        dbfx_add_user(fx->db, uid);
        for (size_t i = 0; i < n; i++) {
            char aid[48];
            add_asset(fx->db, uid, i % 2 ? "agent" : "model", (int64_t)i + 1, aid);
            g_legacy = mode == 0 || (mode == 2 && i % 2);
            add_scan(fx->db, uid, aid, SCANS[i].when, SCANS[i].body);
        }
        g_legacy = false;
        assert_int_equal(bw_evidence_gather(fx->db, uid, at("2026-03-01T00:00:00Z"), &ev[mode]), ST_OK);
    }
    assert_same(&ev[0], &ev[1]);
    assert_same(&ev[0], &ev[2]);
    /* and it is not the evidence of nothing */
    assert_int_equal(ev[1].scans_read, 4);
    assert_int_equal(ev[1].open_findings[BW_EV_CRITICAL], 1);
    assert_int_equal(ev[1].open_findings[BW_EV_HIGH], 2);
    assert_int_equal(ev[1].open_findings[BW_EV_LOW], 2);
    assert_int_equal(ev[1].owasp_tested[0], 2); /* declared, and by the probes' contract */
    assert_int_equal(ev[1].owasp_tested[1], 1);
    assert_int_equal(ev[1].owasp_tested[6], 2);
    assert_int_equal(ev[1].owasp_tested[9], 1); /* the cut-short scan is outside the window */
    assert_int_equal(ev[1].owasp_hit[9], 1);
    assert_int_equal(ev[1].owasp_hit[4], 1);
    assert_string_equal(ev[1].owasp_findings[4][0], "");
    const char *want[] = {"A,B;C:D%E", "B\xc3\xa9 \x01", "X", "Y"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(ev[1].owasp_findings[3][i], want[i]);
}

/* ---- one scan document ----------------------------------------------------------------------- */

static bool add_doc(struct bw_evidence *ev, const char *body, bool recent)
{
    return bw_evidence_add_document(ev, body, strlen(body), recent);
}

static void test_scan_document(void **state)
{
    (void)state;
    struct bw_evidence ev;
    memset(&ev, 0, sizeof ev);
    assert_false(add_doc(&ev, "not json", true));
    assert_false(add_doc(&ev, "{\"score\":3}", true));
    assert_false(add_doc(&ev, "[1]", true));
    /* a scan cut short proves only what it found */
    assert_true(add_doc(&ev,
                        "{\"findings\":[{\"id\":\"A\",\"severity\":\"HIGH\",\"owasp_llm\":\"LLM10\"}],"
                        "\"llm_api\":\"prompt\",\"incomplete\":true}",
                        true));
    assert_int_equal(ev.owasp_tested[9], 1);
    assert_int_equal(ev.owasp_tested[0], 0);
    /* a document that declares what it probed is believed; odd ids are ignored */
    assert_true(add_doc(&ev,
                        "{\"findings\":[{\"id\":\"B\",\"severity\":\"bogus\",\"owasp_llm\":\"LLM11\"}],"
                        "\"owasp_llm_tested\":[\"LLM03\",\"LLM3\",7],\"llm_api\":\"openai\"}",
                        true));
    assert_int_equal(ev.owasp_tested[2], 1);
    assert_int_equal(ev.owasp_tested[0], 0);
    assert_int_equal(ev.open_findings[BW_EV_HIGH], 1);
    /* finding ids per risk: distinct, ascending, the smallest four kept */
    assert_true(add_doc(&ev,
                        "{\"findings\":[{\"id\":\"E\",\"owasp_llm\":\"LLM04\"},{\"id\":\"C\",\"owasp_llm\":\"LLM04\"},"
                        "{\"id\":\"D\",\"owasp_llm\":\"LLM04\"},{\"id\":\"C\",\"owasp_llm\":\"LLM04\"},"
                        "{\"id\":\"B\",\"owasp_llm\":\"LLM04\"},{\"id\":\"A\",\"owasp_llm\":\"LLM04\"}]}",
                        false));
    assert_int_equal(ev.owasp_hit[3], 1); /* one asset, however many findings */
    assert_int_equal(ev.owasp_tested[3], 0);
    const char *want[] = {"A", "B", "C", "D"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(ev.owasp_findings[3][i], want[i]);
}

/* ---- backends -------------------------------------------------------------------------------- */

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "evidence", "data", 4); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "evidence", 4); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(test_empty_account)
PG_TEST(test_assets_scans_keys)
PG_TEST(test_assets_scans_keys_legacy)
PG_TEST(test_legacy_rows_same_evidence)

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1); /* keep migration/connect logs out of the test output */
    const struct CMUnitTest common[] = {
        cmocka_unit_test(test_scan_document),
    };
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test(test_empty_account),
        cmocka_unit_test(test_assets_scans_keys),
        cmocka_unit_test(test_assets_scans_keys_legacy),
        cmocka_unit_test(test_legacy_rows_same_evidence),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test(pg_test_empty_account),
        cmocka_unit_test(pg_test_assets_scans_keys),
        cmocka_unit_test(pg_test_assets_scans_keys_legacy),
        cmocka_unit_test(pg_test_legacy_rows_same_evidence),
    };
    int failed = cmocka_run_group_tests_name("evidence_document", common, NULL, NULL);
    failed += cmocka_run_group_tests_name("evidence_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("evidence_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
