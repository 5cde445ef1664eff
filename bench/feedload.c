/* Fills an empty intel store with N synthetic records for bench/store.sh: the schema through
 * db_open (migrations), the rows through one INSERT ... SELECT per backend (a recursive CTE on
 * SQLite, generate_series on PostgreSQL), the counters rebuilt from the rows. Entries are about
 * the size of real ones (~900 bytes) so that a page costs what a real page costs; documents are
 * complete records, so GET /api/threat-intel/SYN-0000001/playbook answers 200 with a playbook
 * built from real facts (ids SYN-0000001 .. SYN-<N>, zero-padded to seven digits). Nine in ten
 * carry an EPSS score spread over 0..1 (for sort=epss and epss_min), every tenth none.
 *   bench_feedload N        BULWARK_DATABASE_URL / BULWARK_DATA_DIR select the database
 * With --import N it instead imports N new records (IMP-0000001 ...) through the intel write path
 * (store_intel_write, one transaction: COPY on PostgreSQL, 32-row INSERTs on SQLite), each with a
 * ~2 KB document and a ~900-byte entry, and prints the records per second. */
#include "common/log.h"
#include "common/timeutil.h"
#include "store/db.h"
#include "store/store.h"
#include "store/store_intel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY                                                                                    \
    "Path traversal in a synthetic package (PyPI), fixed in 1.2.3. Crafted paths reach files "     \
    "outside the intended directory, to read or overwrite them. "

/* type, severity and a published time spread over the years, from the row number x */
#define SQLITE_ROWS                                                                                \
    "WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < %ld), "              \
    "r AS (SELECT x, printf('SYN-%%07d', x) AS id, "                                               \
    "CASE x %% 4 WHEN 0 THEN 'ai_cve' WHEN 1 THEN 'model_advisory' WHEN 2 THEN 'prompt_attack' "   \
    "ELSE 'agent_threat' END AS t, CASE (x / 4) %% 4 WHEN 0 THEN 'CRITICAL' WHEN 1 THEN 'HIGH' "   \
    "WHEN 2 THEN 'MEDIUM' ELSE 'LOW' END AS s, "                                                   \
    "strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 1262304000 + x * 397, 'unixepoch') AS p, "              \
    "CASE WHEN x %% 10 = 0 THEN -1 ELSE (x * 7919) %% 1000000001 END AS e FROM g) "

#define PG_ROWS                                                                                    \
    "WITH r AS (SELECT x, 'SYN-' || lpad(x::text, 7, '0') AS id, "                                 \
    "(ARRAY['model_advisory','prompt_attack','agent_threat','ai_cve'])[1 + x %% 4] AS t, "         \
    "(ARRAY['CRITICAL','HIGH','MEDIUM','LOW'])[1 + (x / 4) %% 4] AS s, "                           \
    "to_char(to_timestamp(1262304000 + x * 397) AT TIME ZONE 'UTC', "                              \
    "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS p, "                                                  \
    "CASE WHEN x %% 10 = 0 THEN -1 ELSE (x::bigint * 7919) %% 1000000001 END AS e "                \
    "FROM generate_series(1, %ld) AS x) "

/* Members the feed entry and the stored document share; the document is a complete record
 * (bw_intel_check's members), so the playbook of a synthetic record is built from the same
 * facts a real one has: a CVE, a CWE, an affected package, techniques, references. */
#define SHARED                                                                                     \
    "'{\"id\":\"' || id || '\",\"type\":\"' || t || '\",\"title\":\"Synthetic advisory ' || x || "  \
    "'\",\"severity\":\"' || s || '\",\"published\":\"' || p || '\",\"summary\":\"" SUMMARY SUMMARY \
    SUMMARY "\",\"cve\":[\"CVE-2099-' || x || '\"],\"cvss\":null,\"kev\":false,"                    \
    "\"attack_techniques\":[\"T1190\"],\"atlas_techniques\":[\"AML.T0049\"],\"references\":"        \
    "[{\"kind\":\"nvd\",\"url\":\"https://nvd.nist.gov/vuln/detail/CVE-2099-' || x || '\"}],"       \
    "\"risk_score\":' || (x %% 101) || ',"

#define INSERT_SELECT                                                                              \
    "INSERT INTO intel_records (id, type, title, severity, published, updated, enriched_at, "       \
    "enriched_us, version, risk_score, kev, source, doc, entry, epss, changed_us) "                 \
    "SELECT id, t, 'Synthetic advisory ' || x, s, p, p, '2026-01-01T00:00:00Z', 1767225600000000, " \
    "1, x %% 101, 0, 'osv', " SHARED                                                                \
    "\"aliases\":[],\"kev_details\":null,\"cwe\":[\"CWE-22\"],\"affected\":[{\"vendor\":\"\","      \
    "\"product\":\"\",\"ecosystem\":\"PyPI\",\"package\":\"synthetic-pkg-' || x || '\","           \
    "\"introduced\":\"0\",\"fixed\":\"1.2.3\"}],\"exploit_available\":false,"                       \
    "\"ai_impact\":[\"data_exposure\"],\"updated\":\"' || p || '\",\"source\":\"osv\","            \
    "\"sources\":[\"osv\"],\"version\":1,\"enriched_at\":\"2026-01-01T00:00:00Z\","                 \
    "\"risk_tier\":\"' || s || '\"}', " SHARED                                                      \
    "\"updated_at\":\"2026-01-01T00:00:00Z\",\"risk_tier\":\"MEDIUM\",\"epss\":' || "                    \
    "CASE WHEN e < 0 THEN 'null' ELSE '{\"date\":\"2026-11-26\",\"percentile\":0.5,\"score\":' || "       \
    "(e / 1000000000.0) || '}' END || '}', e, 1767225600000000 FROM r"

/* BULWARK_DATABASE_URL / BULWARK_DATA_DIR's database, or NULL (said on stderr) */
static struct db *open_db(void)
{
    const char *url = getenv("BULWARK_DATABASE_URL"), *dir = getenv("BULWARK_DATA_DIR");
    struct db *db = NULL;
    char err[256];
    if (db_open(url, dir ? dir : "./var", 0, 2, &db, err, sizeof err) != 0) {
        fprintf(stderr, "bench_feedload: %s\n", err);
        return NULL;
    }
    return db;
}

struct import {
    long n;
};

static int import_body(struct store_intel_tx *tx, void *arg)
{
    const struct import *im = arg;
    static char doc[4096], entry[2048];
    for (long x = 1; x <= im->n; x++) {
        char id[32];
        snprintf(id, sizeof id, "IMP-%07ld", x);
        const char *t = (const char *[]){"ai_cve", "model_advisory", "prompt_attack", "agent_threat"}[x % 4];
        const char *sev = (const char *[]){"CRITICAL", "HIGH", "MEDIUM", "LOW"}[(x / 4) % 4];
        snprintf(doc, sizeof doc,
                 "{\"id\":\"%s\",\"type\":\"%s\",\"severity\":\"%s\",\"summary\":\"" SUMMARY SUMMARY SUMMARY SUMMARY
                 SUMMARY SUMMARY SUMMARY SUMMARY SUMMARY SUMMARY SUMMARY "\",\"cve\":[\"CVE-2099-%ld\"]}",
                 id, t, sev, x);
        snprintf(entry, sizeof entry, "{\"id\":\"%s\",\"summary\":\"" SUMMARY SUMMARY SUMMARY SUMMARY SUMMARY "\"}",
                 id);
        struct store_intel_row row = {.id = id, .type = t, .title = "Imported advisory", .severity = sev,
                                      .published = "2026-01-01T00:00:00Z", .updated = "2026-01-01T00:00:00Z",
                                      .enriched_at = "2026-01-01T00:00:00Z", .enriched_us = 1767225600000000,
                                      .version = 1, .risk_score = (int)(x % 101), .source = "osv", .doc = doc,
                                      .entry = entry};
        int rc = store_intel_tx_put(tx, &row, NULL, NULL);
        if (rc != ST_OK)
            return rc;
    }
    return ST_OK;
}

static int import_main(long n)
{
    struct db *db = open_db();
    if (!db)
        return 1;
    int64_t t0 = bw_mono_us();
    int rc = store_intel_write(db, import_body, &(struct import){n});
    double s = (double)(bw_mono_us() - t0) / 1e6;
    if (rc == ST_OK)
        printf("bench_feedload: %ld new records imported into %s through store_intel_write in %.2f s (%.0f/s, %s)\n",
               n, db_backend(db), s, (double)n / s,
               db_has_copy(db) ? "COPY" : "32-row INSERTs");
    else
        fprintf(stderr, "bench_feedload: the import failed (%d)\n", rc);
    db_close(db);
    return rc == ST_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--import") == 0) {
        long n = strtol(argv[2], NULL, 10);
        if (n < 1 || n > 9999999) {
            fprintf(stderr, "usage: bench_feedload --import N (1..9999999)\n");
            return 2;
        }
        bw_log_set_level(BW_LOG_WARN);
        return import_main(n);
    }
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
    if (n < 1 || n > 100000000) {
        fprintf(stderr, "usage: bench_feedload N (1..100000000)\n");
        return 2;
    }
    bw_log_set_level(BW_LOG_WARN); /* no migration chatter between the bench lines */
    struct db *db = open_db();
    if (!db)
        return 1;
    bool pg = strcmp(db_backend(db), "postgres") == 0;
    static char sql[8192];
    snprintf(sql, sizeof sql, pg ? PG_ROWS INSERT_SELECT : SQLITE_ROWS INSERT_SELECT, n);
    int64_t t0 = bw_mono_us();
    struct db_conn *c = db_acquire(db);
    int rc = 1;
    if (c && db_begin(c, true) == DB_OK && db_exec_script(c, sql) == DB_OK &&
        db_exec_script(c, "DELETE FROM intel_counts; INSERT INTO intel_counts (type, severity, n) "
                          "SELECT type, severity, COUNT(*) FROM intel_records GROUP BY type, severity") == DB_OK &&
        db_commit(c) == DB_OK) {
        rc = 0;
        /* a bulk load leaves PostgreSQL without statistics until autovacuum comes by */
        if (pg && db_exec_script(c, "ANALYZE intel_records") != DB_OK)
            rc = 1;
    } else if (c) {
        db_rollback(c);
    }
    db_release(c);
    db_close(db);
    if (rc == 0)
        printf("bench_feedload: %ld records into %s in %.1f s\n", n, pg ? "postgres" : "sqlite",
               (double)(bw_mono_us() - t0) / 1e6);
    else
        fprintf(stderr, "bench_feedload: the load failed (is the intel store empty?)\n");
    return rc;
}
