/* The intel store (src/store/store_intel.c, src/services/intel_ingest.c) on SQLite and, when
 * BULWARK_TEST_PG_HOST/PORT name a cluster, on PostgreSQL: the first-start seed, the feed (order,
 * filters, totals, paging), the query plans of the feed (an index, no sort), imports (unchanged,
 * updated with version + 1, added, KEV filtering and merging), saved playbooks and staleness,
 * and byte-identical records and playbooks across the two backends. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/embedded.h"
#include "common/ids.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/rng.h"
#include "common/timeutil.h"
#include "services/intel_ingest.h"
#include "engine/intel/intel.h"
#include "engine/intel/playbook.h"
#include "engine/intel/sources.h"
#include "engine/intel/yaml.h"
#include "store/store.h"
#include "store/store_intel.h"
#include "db_fixture.h"

#include <errno.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FIX BULWARK_SOURCE_DIR "/tests/fixtures/intel/"
#define NOW_US (INT64_C(1900000000) * 1000000) /* a fixed import time: 2030-03-17 */

static struct {
    struct db_fixture sq, pg; /* pg.db stays NULL without a cluster: those tests skip */
    long seed_records;
} g;

/* ---- helpers --------------------------------------------------------------------------------------- */

static const char *s_(const json_t *o, const char *k) { return json_string_value(json_object_get(o, k)); }

static json_t *get_doc(struct db *db, const char *id, int64_t *version)
{
    char *text = NULL;
    int64_t v = 0;
    assert_int_equal(store_intel_get(db, id, &text, &v), ST_OK);
    json_t *doc = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(doc);
    if (version)
        *version = v;
    return doc;
}

static int64_t count_where(struct db *db, const char *type, const char *sev)
{
    struct db_conn *c = db_acquire(db);
    struct db_rows *r = NULL;
    struct db_param p[] = {DBP_OPT(type), DBP_OPT(type), DBP_OPT(sev), DBP_OPT(sev)};
    assert_int_equal(db_query(c,
                              "SELECT COUNT(*) FROM intel_records WHERE (CAST(? AS TEXT) IS NULL OR type = ?) "
                              "AND (CAST(? AS TEXT) IS NULL OR severity = ?)",
                              p, 4, &r),
                     DB_OK);
    assert_true(db_rows_next(r));
    int64_t n = db_rows_int(r, 0);
    db_rows_free(r);
    db_release(c);
    return n;
}

/* One feed page as a JSON array, by offset or (pg given) after pg's last row. */
static json_t *page_at(struct db *db, const char *type, const char *sev, struct store_page *pg, int64_t *total,
                       int64_t *updated)
{
    struct bw_sb b = {0};
    bw_sb_putc(&b, '[');
    struct store_feed_query q = {.type = type, .severity = sev, .epss_min = -1, .since_us = -1};
    assert_int_equal(store_intel_feed(db, &q, pg, &b, total, updated), ST_OK);
    bw_sb_putc(&b, ']');
    assert_false(b.oom);
    json_t *arr = json_loads(b.p, 0, NULL);
    free(b.p);
    assert_non_null(arr);
    return arr;
}

static json_t *page(struct db *db, const char *type, const char *sev, long limit, long offset, int64_t *total,
                    int64_t *updated)
{
    struct store_page pg = {.limit = limit, .offset = offset};
    return page_at(db, type, sev, &pg, total, updated);
}

static json_t *parse_file(const char *fmt, const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    struct bw_tree t;
    struct bw_parse_error e;
    bool json = strcmp(fmt, "kev") == 0;
    assert_int_equal(json ? bw_tree_json(buf, n, &t, &e) : bw_tree_yaml(buf, n, &t, &e), 0);
    struct bw_intel_reject rej;
    json_t *out = NULL;
    int rc = strcmp(fmt, "kev") == 0 ? bw_intel_kev(&t, &out, &rej) : bw_intel_osv(&t, &out, &rej);
    bw_tree_free(&t);
    assert_int_equal(rc, 0);
    if (json_is_object(out)) {
        json_t *a = json_array();
        json_array_append_new(a, out);
        out = a;
    }
    return out;
}

static char *playbook_of(struct db *db, const char *id)
{
    json_t *doc = get_doc(db, id, NULL);
    json_t *pb = bw_playbook_build(doc);
    assert_non_null(pb);
    char *text = bw_playbook_dump(pb);
    assert_non_null(text);
    json_decref(pb);
    json_decref(doc);
    return text;
}

/* ---- the suite, per backend ---------------------------------------------------------------------- */

static void seed_and_feed(struct db *db)
{
    long loaded = 0;
    char why[256] = "";
    int64_t n = 0, total = 0, updated = 0, at = 0;
    assert_int_equal(bw_intel_seed_load(db, &loaded, why, sizeof why), 0);
    assert_int_equal(loaded, g.seed_records);
    assert_int_equal(bw_intel_seed_load(db, &loaded, why, sizeof why), 0);
    assert_int_equal(loaded, 0); /* once per database */
    assert_int_equal(store_intel_count(db, &n), ST_OK);
    assert_int_equal(n, g.seed_records);

    /* newest first: published, then id, both descending */
    json_t *all = page(db, NULL, NULL, 100, 0, &total, &updated);
    assert_int_equal(total, g.seed_records);
    assert_int_equal(json_array_size(all), 100);
    assert_int_equal(bw_parse_iso8601("2026-04-30T00:00:00Z", &at), 0);
    assert_int_equal(updated, at * 1000000);
    for (size_t i = 1; i < json_array_size(all); i++) {
        json_t *a = json_array_get(all, i - 1), *b = json_array_get(all, i);
        int c = strcmp(s_(a, "published"), s_(b, "published"));
        assert_true(c > 0 || (c == 0 && strcmp(s_(a, "id"), s_(b, "id")) > 0));
    }
    json_t *e = json_array_get(all, 0);
    static const char *const members[] = {"id",   "type",    "title",  "severity", "published",
                                          "summary", "cve", "cvss",  "kev",      "attack_techniques",
                                          "atlas_techniques", "references", "updated_at", "risk_score", "risk_tier", "epss"};
    assert_int_equal(json_object_size(e), sizeof members / sizeof members[0]);
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
        assert_non_null(json_object_get(e, members[i]));

    /* every filter combination: totals agree with a count of the rows; entries match the filter */
    for (int t = -1; t < BW_INTEL_NTYPES; t++)
        for (int s = -1; s < 4; s++) {
            const char *type = t < 0 ? NULL : bw_intel_types[t], *sev = s < 0 ? NULL : bw_intel_severities[s];
            json_t *p = page(db, type, sev, 100, 0, &total, &updated);
            assert_int_equal(total, count_where(db, type, sev));
            assert_int_equal((int64_t)json_array_size(p), total < 100 ? total : 100);
            size_t i;
            json_t *x;
            json_array_foreach(p, i, x) {
                if (type)
                    assert_string_equal(s_(x, "type"), type);
                if (sev)
                    assert_string_equal(s_(x, "severity"), sev);
            }
            json_decref(p);
        }

    /* pages of 7 put together are the first 35 of one page */
    for (long off = 0; off < 35; off += 7) {
        json_t *p = page(db, NULL, NULL, 7, off, &total, &updated);
        assert_int_equal(total, g.seed_records);
        for (size_t i = 0; i < 7; i++)
            assert_string_equal(s_(json_array_get(p, i), "id"), s_(json_array_get(all, (size_t)off + i), "id"));
        json_decref(p);
    }
    /* keyset pages of 7 after each page's last row are the same 35, and say when more follow */
    struct store_page pg = {.limit = 7};
    char after_text[BW_CURSOR_TEXT_MAX + 1], after_id[BW_CURSOR_ID_MAX + 1];
    for (size_t off = 0; off < 35; off += 7) {
        json_t *p = page_at(db, NULL, NULL, &pg, &total, &updated);
        assert_int_equal(total, g.seed_records);
        assert_int_equal(json_array_size(p), 7);
        for (size_t i = 0; i < 7; i++)
            assert_string_equal(s_(json_array_get(p, i), "id"), s_(json_array_get(all, off + i), "id"));
        assert_true(pg.more);
        assert_string_equal(pg.last_id, s_(json_array_get(p, 6), "id"));
        assert_string_equal(pg.last_text, s_(json_array_get(p, 6), "published"));
        json_decref(p);
        memcpy(after_text, pg.last_text, sizeof after_text);
        memcpy(after_id, pg.last_id, sizeof after_id);
        pg = (struct store_page){.limit = 7, .after_text = after_text, .after_id = after_id};
    }
    /* the last keyset page: what is left, with more false */
    for (int t = 0; t < BW_INTEL_NTYPES; t++) {
        int64_t want = count_where(db, bw_intel_types[t], NULL), seen = 0;
        struct store_page q = {.limit = 3};
        do {
            json_t *p = page_at(db, bw_intel_types[t], NULL, &q, &total, &updated);
            seen += (int64_t)json_array_size(p);
            assert_int_equal(total, want);
            json_decref(p);
            memcpy(after_text, q.last_text, sizeof after_text);
            memcpy(after_id, q.last_id, sizeof after_id);
            bool more = q.more;
            q = (struct store_page){.limit = 3, .after_text = after_text, .after_id = after_id};
            if (!more)
                break;
        } while (seen <= want);
        assert_int_equal(seen, want);
    }
    json_t *past = page(db, NULL, NULL, 20, 100000, &total, &updated);
    assert_int_equal(json_array_size(past), 0);
    assert_int_equal(total, g.seed_records);
    json_decref(past);
    json_decref(all);
}

static void ingest(struct db *db)
{
    struct bw_ingest_report rep;
    /* the fixtures are what the seed holds: nothing changes */
    json_t *recs = json_array();
    static const char *const files[] = {"PYSEC-2023-28", "PYSEC-2020-132", "PYSEC-2024-43", "PYSEC-2024-45"};
    for (size_t i = 0; i < 4; i++) {
        char path[512];
        snprintf(path, sizeof path, FIX "osv/%s.yaml", files[i]);
        json_t *r = parse_file("osv", path);
        json_array_extend(recs, r);
        json_decref(r);
    }
    assert_int_equal(bw_ingest(db, recs, false, NOW_US, &rep), 0);
    assert_int_equal(rep.unchanged, 3);
    assert_int_equal(rep.added + rep.updated + rep.skipped, 0);

    /* changed facts: version + 1, enriched_at = the import time, the feed's updated_at moves */
    json_t *mlflow = json_array_get(recs, 0);
    int64_t v0 = 0, total, updated;
    json_decref(get_doc(db, "CVE-2023-1176", &v0));
    json_object_set_new(mlflow, "updated", json_string("2029-01-01T00:00:00Z"));
    json_object_set_new(mlflow, "severity", json_string("CRITICAL"));
    int64_t crit_before = count_where(db, "ai_cve", "CRITICAL");
    assert_int_equal(bw_ingest(db, recs, false, NOW_US, &rep), 0);
    assert_int_equal(rep.updated, 1);
    assert_int_equal(rep.unchanged, 2);
    int64_t v1 = 0;
    json_t *doc = get_doc(db, "CVE-2023-1176", &v1);
    assert_int_equal(v1, v0 + 1);
    assert_int_equal(json_integer_value(json_object_get(doc, "version")), v1);
    assert_string_equal(s_(doc, "enriched_at"), "2030-03-17T17:46:40Z");
    assert_string_equal(s_(doc, "severity"), "CRITICAL");
    json_decref(doc);
    json_t *p = page(db, "ai_cve", "CRITICAL", 100, 0, &total, &updated);
    assert_int_equal(total, crit_before + 1); /* the counters followed the severity change */
    assert_int_equal(total, count_where(db, "ai_cve", "CRITICAL"));
    assert_int_equal(updated, NOW_US);
    json_decref(p);
    assert_int_equal(bw_ingest(db, recs, false, NOW_US + 5000000, &rep), 0);
    assert_int_equal(rep.unchanged, 3); /* idempotent */

    /* a new advisory */
    json_t *novel = json_deep_copy(mlflow);
    json_object_set_new(novel, "id", json_string("PYSEC-2099-1"));
    json_t *one = json_array();
    json_array_append_new(one, novel);
    assert_int_equal(bw_ingest(db, one, false, NOW_US, &rep), 0);
    assert_int_equal(rep.added, 1);
    json_decref(one);

    /* KEV: non-AI entries skipped, the AI one unchanged, an entry about a stored CVE merged */
    json_t *kev = parse_file("kev", FIX "kev-subset.json");
    assert_int_equal(bw_ingest(db, kev, true, NOW_US, &rep), 0);
    assert_int_equal(rep.skipped, 12);
    assert_int_equal(rep.unchanged, 1);
    json_t *k = json_deep_copy(json_array_get(kev, 0));
    json_object_set_new(k, "id", json_string("CVE-2022-25882"));
    json_t *kk = json_array();
    json_array_append_new(kk, k);
    assert_int_equal(bw_ingest(db, kk, true, NOW_US, &rep), 0);
    assert_int_equal(rep.updated, 1);
    doc = get_doc(db, "CVE-2022-25882", NULL);
    assert_true(json_is_true(json_object_get(doc, "kev")));
    assert_string_equal(s_(doc, "source"), "osv");
    assert_int_equal(json_array_size(json_object_get(doc, "sources")), 2);
    assert_int_equal(bw_intel_check(doc, (char[200]){0}, 200), 0);
    json_decref(doc);
    json_decref(kk);
    json_decref(kev);
    json_decref(recs);
}

static void playbooks(struct db *db)
{
    char user[BW_ID_MAX], other[BW_ID_MAX];
    dbfx_add_user(db, user);
    dbfx_add_user(db, other);
    struct store_playbook pb, got;
    char *text = playbook_of(db, "AML.T0051"), *back = NULL;
    int64_t version = 0;
    json_decref(get_doc(db, "AML.T0051", &version));
    for (int i = 0; i < 3; i++) {
        memset(&pb, 0, sizeof pb);
        bw_id_new("pbk_", pb.id);
        snprintf(pb.user_id, sizeof pb.user_id, "%s", user);
        snprintf(pb.threat_id, sizeof pb.threat_id, "AML.T0051");
        pb.record_version = version;
        snprintf(pb.risk_tier, sizeof pb.risk_tier, "CRITICAL");
        pb.generated_us = NOW_US + i;
        bw_iso8601(pb.generated_us / 1000000, pb.generated_at);
        assert_int_equal(store_playbook_insert(db, &pb, text), ST_OK);
    }
    assert_int_equal(store_playbook_latest(db, user, "AML.T0051", &got, &back), ST_OK);
    assert_string_equal(got.id, pb.id); /* the newest */
    assert_string_equal(back, text);    /* byte for byte */
    assert_int_equal(got.current_version, got.record_version);
    free(back);
    assert_int_equal(store_playbook_latest(db, other, "AML.T0051", &got, &back), ST_NOTFOUND);
    assert_int_equal(store_playbook_latest(db, user, "AML.T0053", &got, &back), ST_NOTFOUND);

    /* the record re-enriched: the generation is stale */
    json_t *doc = get_doc(db, "AML.T0051", NULL);
    json_object_set_new(doc, "updated", json_string("2029-06-01T00:00:00Z"));
    json_t *one = json_array();
    json_array_append_new(one, doc);
    struct bw_ingest_report rep;
    assert_int_equal(bw_ingest(db, one, false, NOW_US, &rep), 0);
    assert_int_equal(rep.updated, 1);
    json_decref(one);
    assert_int_equal(store_playbook_latest(db, user, "AML.T0051", &got, &back), ST_OK);
    assert_true(got.current_version > got.record_version);
    free(back);

    struct store_playbook *list = NULL;
    size_t n = 0;
    int64_t total = 0;
    struct store_page pg = {.limit = 2, .offset = 1};
    assert_int_equal(store_playbook_history(db, user, &pg, &list, &n, &total), ST_OK);
    assert_int_equal(total, 3);
    assert_int_equal(n, 2);
    assert_false(pg.more);
    assert_true(list[0].generated_us > list[1].generated_us);
    assert_int_equal(list[1].generated_us, NOW_US);
    /* after the first of them by keyset: the second, and nothing more */
    char after[BW_ID_MAX];
    memcpy(after, list[0].id, sizeof after);
    struct store_page k = {.limit = 2, .after_id = after, .after_int = list[0].generated_us};
    int64_t second = list[1].generated_us;
    free(list);
    assert_int_equal(store_playbook_history(db, user, &k, &list, &n, &total), ST_OK);
    assert_int_equal(n, 1);
    assert_int_equal(total, 3);
    assert_false(k.more);
    assert_int_equal(list[0].generated_us, second);
    free(list);
    pg = (struct store_page){.limit = 20};
    assert_int_equal(store_playbook_history(db, other, &pg, &list, &n, &total), ST_OK);
    assert_int_equal(total, 0);
    assert_int_equal(n, 0);
    free(list);
    free(text);
}

/* The feed's page queries read an index in order: no full scan, no sort. Checked with 20,000
 * extra rows (and, on PostgreSQL, fresh statistics), so the planner has a reason to choose. */
static void feed_plans(struct db *db)
{
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    struct db_conn *c = db_acquire(db);
    const char *cols = "INSERT INTO intel_records (id, type, title, severity, published, updated, enriched_at, "
                       "enriched_us, version, risk_score, kev, source, doc, entry, epss, changed_us) ";
    char sql[2048];
    if (pg)
        snprintf(sql, sizeof sql,
                 "%s SELECT 'SYN-' || g, (ARRAY['ai_cve','model_advisory','prompt_attack','agent_threat'])[1 + g %% 4], "
                 "'t', (ARRAY['CRITICAL','HIGH','MEDIUM','LOW'])[1 + (g / 4) %% 4], "
                 "'20' || lpad((g %% 100)::text, 2, '0') || '-01-01T00:00:00Z', '2001-01-01T00:00:00Z', "
                 "'2001-01-01T00:00:00Z', 0, 1, g %% 100, 0, 'osv', '{}', '{}', g * 1000, g FROM generate_series(1, 20000) g; "
                 "ANALYZE intel_records",
                 cols);
    else
        snprintf(sql, sizeof sql,
                 "WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 20000) %s "
                 "SELECT 'SYN-' || x, CASE x %% 4 WHEN 0 THEN 'ai_cve' WHEN 1 THEN 'model_advisory' "
                 "WHEN 2 THEN 'prompt_attack' ELSE 'agent_threat' END, 't', CASE (x / 4) %% 4 WHEN 0 THEN 'CRITICAL' "
                 "WHEN 1 THEN 'HIGH' WHEN 2 THEN 'MEDIUM' ELSE 'LOW' END, "
                 "'20' || substr('0' || (x %% 100), -2) || '-01-01T00:00:00Z', '2001-01-01T00:00:00Z', "
                 "'2001-01-01T00:00:00Z', 0, 1, x %% 100, 0, 'osv', '{}', '{}', x * 1000, x FROM g",
                 cols);
    assert_int_equal(db_exec_script(c, sql), DB_OK);
    static const char *const keys[] = {"published", "risk_score", "epss"};
    for (int k = 0; k < 3 * 8 + 2; k++) {
        char plan[4096];
        /* every order by type, severity, both or none, offset or keyset; then sort=epss with
         * epss_min (the index's own range) */
        int sort = k < 24 ? k / 8 : 2, f = k < 24 ? k % 8 : 0;
        bool keyset = k < 24 ? (f & 4) != 0 : k == 25;
        struct store_feed_query q = {.type = f & 1 ? "ai_cve" : NULL, .severity = f & 2 ? "HIGH" : NULL,
                                     .epss_min = k < 24 ? -1 : 5000000, .since_us = -1,
                                     .sort = (enum store_feed_sort)sort};
        assert_int_equal(store_intel_feed_plan(db, &q, keyset, plan, sizeof plan), ST_OK);
        /* the page's rows come from its index in order; the totals' subqueries read intel_counts
         * and the newest-change index, never the table (with epss_min: a count over the epss
         * index's range) */
        bool ok = pg ? strstr(plan, "Index Scan Backward using intel_feed") && !strstr(plan, "Sort") &&
                           !strstr(plan, "Seq Scan on intel_records")
                     : strstr(plan, "USING INDEX intel_feed") && !strstr(plan, "TEMP B-TREE") &&
                           !strstr(plan, "SCAN intel_records\n");
        if (k >= 24) /* the count of a range may read the table when the range is most of it, as here */
            ok = pg ? strstr(plan, "Index Scan Backward using intel_feed_epss on intel_records ") && !strstr(plan, "Sort")
                    : strstr(plan, "USING INDEX intel_feed_epss") && !strstr(plan, "TEMP B-TREE");
        /* a keyset page starts at the cursor's row: the row-value bound is an index condition */
        char row_pg[64], row_sq[64];
        snprintf(row_pg, sizeof row_pg, "ROW(%s, id) <", keys[sort]);
        snprintf(row_sq, sizeof row_sq, "(%s,id)<(?,?)", keys[sort]);
        if (keyset)
            ok = ok && (pg ? strstr(plan, "Index Cond") && strstr(plan, row_pg) != NULL : strstr(plan, row_sq) != NULL);
        if (!ok)
            fail_msg("%s feed plan (sort:%s type:%d severity:%d epss_min:%d keyset:%d) does not read an index in "
                     "order:\n%s",
                     db_backend(db), keys[sort], f & 1, (f & 2) != 0, k >= 24, keyset, plan);
    }
    /* records in change order (STIX, TAXII): from a time or from a record, on intel_feed_changed */
    for (int k = 0; k < 2; k++) {
        char plan[4096];
        assert_int_equal(store_intel_changed_plan(db, k, plan, sizeof plan), ST_OK);
        bool ok = strstr(plan, "intel_feed_changed") && !strstr(plan, pg ? "Sort" : "TEMP B-TREE") &&
                  !strstr(plan, pg ? "Seq Scan on intel_records" : "SCAN intel_records\n");
        if (!ok)
            fail_msg("%s changed-order plan (from record:%d) does not read intel_feed_changed in order:\n%s",
                     db_backend(db), k, plan);
    }
    /* the playbook history too, over 4,000 generations of one account and 20 of another */
    if (pg)
        snprintf(sql, sizeof sql,
                 "INSERT INTO users (id, email, password_hash, tier, created_at) VALUES ('usr_x', 'x@example.com', "
                 "'-', 'PRO', '2026-01-01T00:00:00Z'), ('usr_y', 'y@example.com', '-', 'PRO', '2026-01-01T00:00:00Z'); "
                 "INSERT INTO playbooks (id, user_id, threat_id, record_version, risk_tier, playbook, generated_at, "
                 "generated_us) SELECT 'pbk_' || g, CASE WHEN g %% 200 = 0 THEN 'usr_y' ELSE 'usr_x' END, 'SYN-' || g, "
                 "1, 'HIGH', '{}', '2026-01-01T00:00:00Z', g / 2 FROM generate_series(1, 4000) g; ANALYZE playbooks");
    else
        snprintf(sql, sizeof sql,
                 "INSERT INTO users (id, email, password_hash, tier, created_at) VALUES ('usr_x', 'x@example.com', "
                 "'-', 'PRO', '2026-01-01T00:00:00Z'), ('usr_y', 'y@example.com', '-', 'PRO', '2026-01-01T00:00:00Z'); "
                 "WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 4000) "
                 "INSERT INTO playbooks (id, user_id, threat_id, record_version, risk_tier, playbook, generated_at, "
                 "generated_us) SELECT 'pbk_' || x, CASE WHEN x %% 200 = 0 THEN 'usr_y' ELSE 'usr_x' END, 'SYN-' || x, "
                 "1, 'HIGH', '{}', '2026-01-01T00:00:00Z', x / 2 FROM g; ANALYZE");
    assert_int_equal(db_exec_script(c, sql), DB_OK);
    for (int keyset = 0; keyset < 2; keyset++) {
        char plan[4096];
        assert_int_equal(store_playbook_history_plan(db, keyset, plan, sizeof plan), ST_OK);
        /* the rows from the index in order; the count (an InitPlan) may read the table when one
         * account holds nearly all of it, as here */
        bool ok = pg ? strstr(plan, "Index Scan Backward using playbooks_page on playbooks p") && !strstr(plan, "Sort")
                     : strstr(plan, "USING INDEX playbooks_page") && !strstr(plan, "TEMP B-TREE");
        if (!ok)
            fail_msg("%s history plan (keyset:%d) does not read its index in order:\n%s", db_backend(db), keyset, plan);
    }
    assert_int_equal(db_exec_script(c, "DELETE FROM playbooks WHERE user_id IN ('usr_x', 'usr_y'); "
                                       "DELETE FROM users WHERE id IN ('usr_x', 'usr_y'); "
                                       "DELETE FROM intel_records WHERE id LIKE 'SYN-%'"),
                     DB_OK);
    db_release(c);
}

/* New rows wait for a multi-row INSERT; a read of one of them, and the count, see them anyway; a
 * body that fails leaves nothing (neither rows nor counters). */
struct pending_arg {
    int64_t before;
};

static int pending_body(struct store_intel_tx *tx, void *arg)
{
    struct pending_arg *a = arg;
    char id[32], doc[64];
    for (int i = 0; i < 40; i++) {
        snprintf(id, sizeof id, "SYN-P-%04d", i);
        snprintf(doc, sizeof doc, "{\"id\":\"%s\"}", id);
        struct store_intel_row row = {.id = id, .type = "ai_cve", .title = "t", .severity = "LOW",
                                      .published = "2001-01-01T00:00:00Z", .updated = "2001-01-01T00:00:00Z",
                                      .enriched_at = "2001-01-01T00:00:00Z", .source = "osv", .version = 1,
                                      .doc = doc, .entry = "{}"};
        assert_int_equal(store_intel_tx_put(tx, &row, NULL, NULL), ST_OK);
    }
    char *got = NULL;
    assert_int_equal(store_intel_tx_get(tx, "SYN-P-0035", &got), ST_OK); /* waiting in the second batch */
    assert_string_equal(got, "{\"id\":\"SYN-P-0035\"}");
    free(got);
    assert_int_equal(store_intel_tx_get(tx, "SYN-P-0001", &got), ST_OK);
    free(got);
    int64_t n = 0;
    assert_int_equal(store_intel_tx_count(tx, &n), ST_OK);
    assert_int_equal(n, a->before + 40);
    return ST_CONFLICT; /* undo it all */
}

static void pending_rows(struct db *db)
{
    struct pending_arg a = {0};
    assert_int_equal(store_intel_count(db, &a.before), ST_OK);
    assert_int_equal(store_intel_write(db, pending_body, &a), ST_CONFLICT);
    int64_t after = 0;
    assert_int_equal(store_intel_count(db, &after), ST_OK);
    assert_int_equal(after, a.before);
    int64_t version = 0;
    char *doc = NULL;
    assert_int_equal(store_intel_get(db, "SYN-P-0001", &doc, &version), ST_NOTFOUND);
    assert_null(doc);
}

/* An import larger than one COPY batch (BW_INTEL_COPY_ROWS rows on PostgreSQL; 32-row INSERTs on
 * SQLite): every row back byte for byte, including the characters COPY's text format escapes
 * (tab, newline, carriage return, backslash, and a literal "\N"), and the counters moved; then the
 * same import with a duplicate id in its last batch fails as a whole: the batches already sent are
 * gone with it, and the counters did not move. */
#define BULK_N (2 * BW_INTEL_COPY_ROWS + 17)
#define BULK_DOC "{\"id\":\"%s\",\"s\":\"tab\there\\nnl\\\\ bs\\\\N \\r\"}\t\n\r\\ \\N"

struct bulk_arg {
    const char *prefix;
    bool dup_last; /* the last row repeats the first row's id */
};

static int bulk_body(struct store_intel_tx *tx, void *arg)
{
    const struct bulk_arg *a = arg;
    char id[32], doc[160], title[64];
    for (int i = 0; i < BULK_N; i++) {
        snprintf(id, sizeof id, "%s-%05d", a->prefix, a->dup_last && i == BULK_N - 1 ? 0 : i);
        snprintf(doc, sizeof doc, BULK_DOC, id);
        snprintf(title, sizeof title, "title %d\tx\ny", i);
        struct store_intel_row row = {.id = id, .type = "ai_cve", .title = title, .severity = i % 2 ? "LOW" : "HIGH",
                                      .published = "2001-01-01T00:00:00Z", .updated = "2001-01-01T00:00:00Z",
                                      .enriched_at = "2001-01-01T00:00:00Z", .source = "osv", .version = 1,
                                      .risk_score = i % 101, .doc = doc, .entry = "{}"};
        int rc = store_intel_tx_put(tx, &row, NULL, NULL);
        if (rc != ST_OK)
            return rc;
    }
    return ST_OK;
}

static void bulk_import(struct db *db)
{
    int64_t before = 0, after = 0;
    assert_int_equal(store_intel_count(db, &before), ST_OK);
    assert_int_equal(store_intel_write(db, bulk_body, &(struct bulk_arg){"SYN-B", false}), ST_OK);
    assert_int_equal(store_intel_count(db, &after), ST_OK);
    assert_int_equal(after, before + BULK_N);
    for (int i = 0; i < BULK_N; i += 7) {
        char id[32], want[160], *doc = NULL;
        int64_t v = 0;
        snprintf(id, sizeof id, "SYN-B-%05d", i);
        snprintf(want, sizeof want, BULK_DOC, id);
        assert_int_equal(store_intel_get(db, id, &doc, &v), ST_OK);
        assert_string_equal(doc, want);
        assert_int_equal(v, 1);
        free(doc);
    }
    /* all or nothing: the duplicate is found in the last batch, after two were sent */
    assert_int_equal(store_intel_write(db, bulk_body, &(struct bulk_arg){"SYN-C", true}), ST_CONFLICT);
    int64_t again = 0, v = 0;
    assert_int_equal(store_intel_count(db, &again), ST_OK);
    assert_int_equal(again, after);
    char *gone = NULL;
    assert_int_equal(store_intel_get(db, "SYN-C-00000", &gone, &v), ST_NOTFOUND);
    assert_int_equal(store_intel_get(db, "SYN-C-00999", &gone, &v), ST_NOTFOUND);
    assert_null(gone);
    struct db_conn *c = db_acquire(db);
    char sql[512];
    snprintf(sql, sizeof sql,
             "DELETE FROM intel_records WHERE id LIKE 'SYN-B-%%'; "
             "UPDATE intel_counts SET n = n - %d WHERE type = 'ai_cve' AND severity = 'LOW'; "
             "UPDATE intel_counts SET n = n - %d WHERE type = 'ai_cve' AND severity = 'HIGH'",
             BULK_N / 2, BULK_N - BULK_N / 2);
    assert_int_equal(db_exec_script(c, sql), DB_OK);
    db_release(c);
    assert_int_equal(store_intel_count(db, &again), ST_OK);
    assert_int_equal(again, before);
}

/* The same seed record gives the same document bytes and the same playbook bytes on both
 * backends, stored and read back: the SQLite group keeps what it read, the PostgreSQL group
 * compares (db.h serves one open database per process, so the two never run side by side). Runs
 * right after seeding, before anything changes the records. */
static const char *const SAME[] = {"CVE-2023-1176", "CVE-2025-3248", "CVE-2023-51449", "AML.T0051", "AML.CS0016",
                                   "CVE-2020-15209"};
#define NSAME (sizeof SAME / sizeof SAME[0])
static char *kept_doc[NSAME], *kept_playbook[NSAME];

static void same_bytes(struct db *db)
{
    char user[BW_ID_MAX];
    dbfx_add_user(db, user);
    for (size_t i = 0; i < NSAME; i++) {
        char *doc = NULL, *back = NULL;
        int64_t v;
        assert_int_equal(store_intel_get(db, SAME[i], &doc, &v), ST_OK);
        char *text = playbook_of(db, SAME[i]);
        struct store_playbook x = {0}, y;
        bw_id_new("pbk_", x.id);
        snprintf(x.user_id, sizeof x.user_id, "%s", user);
        snprintf(x.threat_id, sizeof x.threat_id, "%s", SAME[i]);
        x.record_version = v;
        snprintf(x.risk_tier, sizeof x.risk_tier, "HIGH");
        snprintf(x.generated_at, sizeof x.generated_at, "2026-01-01T00:00:00Z");
        assert_int_equal(store_playbook_insert(db, &x, text), ST_OK);
        assert_int_equal(store_playbook_latest(db, user, SAME[i], &y, &back), ST_OK);
        assert_string_equal(back, text);
        free(back);
        if (!kept_doc[i]) { /* the first backend */
            kept_doc[i] = doc;
            kept_playbook[i] = text;
            continue;
        }
        assert_string_equal(doc, kept_doc[i]);
        assert_string_equal(text, kept_playbook[i]);
        free(doc);
        free(text);
    }
}

#define PER_BACKEND(fn)                                                                                  \
    static void test_##fn##_sqlite(void **state)                                                         \
    {                                                                                                    \
        (void)state;                                                                                     \
        fn(g.sq.db);                                                                                     \
    }                                                                                                    \
    static void test_##fn##_postgres(void **state)                                                       \
    {                                                                                                    \
        (void)state;                                                                                     \
        if (!g.pg.db)                                                                                    \
            skip();                                                                                      \
        fn(g.pg.db);                                                                                     \
    }
PER_BACKEND(seed_and_feed)
PER_BACKEND(same_bytes)
PER_BACKEND(ingest)
PER_BACKEND(playbooks)
PER_BACKEND(feed_plans)
PER_BACKEND(pending_rows)
PER_BACKEND(bulk_import)

/* ---- the generation on SQLite --------------------------------------------------------------------- */

/* Another process's intel write, as the CLI makes one: its own connection to the file (outside
 * this db's writer, so no local count moves), raising the generation. Returns the connection
 * still open when keep is set. */
static sqlite3 *other_process_write(const char *dir, bool keep)
{
    char path[400];
    snprintf(path, sizeof path, "%.300s/data/bulwark.db", dir);
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    sqlite3_busy_timeout(h, 5000);
    assert_int_equal(sqlite3_exec(h, "UPDATE intel_lock SET seq = seq + 1 WHERE id = 1", NULL, NULL, NULL), SQLITE_OK);
    if (keep)
        return h;
    sqlite3_close(h);
    return NULL;
}

/* The watched generation (store_intel_gen_get) on SQLite: kept between calls, and a write by
 * another process is seen by the very next call after that process closed the database, with a
 * TTL far longer than the test; while it holds the database open, the kept value is answered
 * until the TTL, then the new one. */
static void test_generation_watch_sqlite(void **state)
{
    (void)state;
    struct store_intel_gen *gw = store_intel_gen_new(g.sq.db, 60000);
    assert_non_null(gw);
    int64_t a = -1, b = -1;
    assert_int_equal(store_intel_gen_get(gw, &a), ST_OK);
    assert_int_equal(store_intel_gen_get(gw, &b), ST_OK);
    assert_int_equal(b, a);
    int64_t direct = -1;
    assert_int_equal(store_intel_generation(g.sq.db, &direct), ST_OK);
    assert_int_equal(direct, a);

    other_process_write(g.sq.dir, false);
    assert_int_equal(store_intel_gen_get(gw, &b), ST_OK);
    assert_int_equal(b, a + 1);
    assert_int_equal(store_intel_gen_get(gw, &b), ST_OK);
    assert_int_equal(b, a + 1);

    sqlite3 *open = other_process_write(g.sq.dir, true);
    assert_int_equal(sqlite3_exec(open, "UPDATE intel_lock SET seq = seq + 1 WHERE id = 1", NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(open);
    assert_int_equal(store_intel_gen_get(gw, &b), ST_OK);
    assert_int_equal(b, a + 3);
    store_intel_gen_free(gw);

    /* a TTL long enough for a loaded CI machine to make the write within it */
    gw = store_intel_gen_new(g.sq.db, 1000);
    assert_non_null(gw);
    assert_int_equal(store_intel_gen_get(gw, &b), ST_OK);
    assert_int_equal(b, a + 3);
    int64_t t0 = bw_mono_us();
    open = other_process_write(g.sq.dir, true);
    assert_int_equal(store_intel_gen_get(gw, &b), ST_OK);
    if (bw_mono_us() - t0 < 1000 * 1000)
        assert_int_equal(b, a + 3); /* kept: nothing told the watch yet */
    struct timespec ts = {1, 100 * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    assert_int_equal(store_intel_gen_get(gw, &b), ST_OK);
    assert_int_equal(b, a + 4); /* the TTL */
    sqlite3_close(open);
    store_intel_gen_free(gw);
}

/* ---- databases ------------------------------------------------------------------------------------- */

static int sqlite_setup(void **state)
{
    if (dbfx_sqlite_setup(&g.sq, state, "intel", "data", 4) != 0)
        return -1;
    const struct bw_embedded *f = bw_embedded_find(BW_SEED_FILE);
    json_t *seed = f ? json_loadb((const char *)f->data, f->len, 0, NULL) : NULL;
    g.seed_records = (long)json_array_size(json_object_get(seed, "records"));
    json_decref(seed);
    return 0;
}

static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(&g.sq); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g.pg, state, "intel", 8); }

static int pg_teardown(void **state)
{
    for (size_t i = 0; i < NSAME; i++) {
        free(kept_doc[i]);
        free(kept_playbook[i]);
    }
    return dbfx_pg_teardown(&g.pg);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    bw_log_set_level(BW_LOG_ERROR + 1);
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test(test_seed_and_feed_sqlite), cmocka_unit_test(test_same_bytes_sqlite),
        cmocka_unit_test(test_ingest_sqlite),        cmocka_unit_test(test_playbooks_sqlite),
        cmocka_unit_test(test_feed_plans_sqlite),
        cmocka_unit_test(test_pending_rows_sqlite),   cmocka_unit_test(test_bulk_import_sqlite),
        cmocka_unit_test(test_generation_watch_sqlite),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test(test_seed_and_feed_postgres), cmocka_unit_test(test_same_bytes_postgres),
        cmocka_unit_test(test_ingest_postgres),        cmocka_unit_test(test_playbooks_postgres),
        cmocka_unit_test(test_feed_plans_postgres),
        cmocka_unit_test(test_pending_rows_postgres), cmocka_unit_test(test_bulk_import_postgres),
    };
    int failed = cmocka_run_group_tests_name("intel_store_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("intel_store_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
