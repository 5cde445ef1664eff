/* Test databases for the unit tests that run on both backends: SQLite in a fresh temp directory,
 * and, when BULWARK_TEST_PG_HOST/BULWARK_TEST_PG_PORT name a PostgreSQL cluster, a fresh randomly
 * named database there, dropped afterwards. Each unit test is its own executable, so static inline
 * keeps CMake's per-file test glob untouched. */
#ifndef BULWARK_TEST_DB_FIXTURE_H
#define BULWARK_TEST_DB_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/ids.h"
#include "common/rng.h"
#include "store/db.h"
#include "store/store.h"

#include <errno.h>
#include <ftw.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct db_fixture {
    struct db *db;       /* NULL on PostgreSQL when no cluster is configured: the tests skip */
    char dir[256];       /* SQLite: the temp directory, removed at teardown */
    char dbname[64];     /* PostgreSQL: the throwaway database */
    char admin_url[256]; /* PostgreSQL: the cluster's postgres database, for CREATE/DROP */
};

static inline int dbfx_rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb;
    (void)flag;
    (void)f;
    return remove(p);
}

/* SQLite in TMPDIR/bulwark-test-<tag>-XXXXXX, or in its subdirectory sub (db_open creates it).
 * Sets *state to fx. */
static inline int dbfx_sqlite_setup(struct db_fixture *fx, void **state, const char *tag, const char *sub, int pool)
{
    memset(fx, 0, sizeof *fx);
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(fx->dir, sizeof fx->dir, "%.200s/bulwark-test-%.30s-XXXXXX", tmp, tag);
    if (!mkdtemp(fx->dir)) {
        print_error("mkdtemp %s: %s\n", fx->dir, strerror(errno));
        return -1;
    }
    char err[256] = "", data[300];
    if (sub)
        snprintf(data, sizeof data, "%.255s/%.40s", fx->dir, sub);
    else
        snprintf(data, sizeof data, "%.255s", fx->dir);
    if (db_open(NULL, data, 0, pool, &fx->db, err, sizeof err) != 0) {
        print_error("db_open: %s\n", err);
        return -1;
    }
    if (strcmp(db_backend(fx->db), "sqlite") != 0)
        return -1;
    *state = fx;
    return 0;
}

/* Closes the database (if still open) and removes the temp directory. */
static inline int dbfx_sqlite_teardown(struct db_fixture *fx)
{
    db_close(fx->db);
    fx->db = NULL;
    nftw(fx->dir, dbfx_rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}

/* Runs "<verb> DATABASE <dbname>" on the cluster's postgres database; 0 on success. */
static inline int dbfx_pg_admin(const struct db_fixture *fx, const char *verb)
{
    PGconn *h = PQconnectdb(fx->admin_url);
    int ok = PQstatus(h) == CONNECTION_OK;
    if (ok) {
        char sql[128];
        snprintf(sql, sizeof sql, "%.10s DATABASE %.63s", verb, fx->dbname);
        PGresult *r = PQexec(h, sql);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            print_error("%s: %s\n", sql, PQerrorMessage(h));
        PQclear(r);
    } else {
        print_error("cannot connect to %s: %s\n", fx->admin_url, PQerrorMessage(h));
    }
    PQfinish(h);
    return ok ? 0 : -1;
}

/* A fresh database bw_<tag>_<random> on the configured cluster. Without one: success with
 * *state = NULL and fx->db = NULL, so the group's tests skip rather than fail. */
static inline int dbfx_pg_setup(struct db_fixture *fx, void **state, const char *tag, int pool)
{
    memset(fx, 0, sizeof *fx);
    *state = NULL;
    const char *host = getenv("BULWARK_TEST_PG_HOST"), *port = getenv("BULWARK_TEST_PG_PORT");
    if (!host || !port || !*host || !*port)
        return 0;
    snprintf(fx->admin_url, sizeof fx->admin_url, "postgresql://postgres@%.200s:%.20s/postgres", host, port);
    char rnd[17];
    bw_random_base62(rnd, 16);
    for (char *c = rnd; *c; c++) /* unquoted identifiers fold to lower case */
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    snprintf(fx->dbname, sizeof fx->dbname, "bw_%.30s_%s", tag, rnd);
    if (dbfx_pg_admin(fx, "CREATE") != 0)
        return -1;
    char url[512], err[256] = "";
    snprintf(url, sizeof url, "postgresql://postgres@%.200s:%.20s/%.63s", host, port, fx->dbname);
    if (db_open(url, NULL, 0, pool, &fx->db, err, sizeof err) != 0) {
        print_error("db_open: %s\n", err);
        dbfx_pg_admin(fx, "DROP"); /* cmocka runs no teardown after a failed setup */
        return -1;
    }
    if (strcmp(db_backend(fx->db), "postgres") != 0)
        return -1;
    *state = fx;
    return 0;
}

/* Closes and drops the database; nothing to do when the group was skipped. */
static inline int dbfx_pg_teardown(struct db_fixture *fx)
{
    if (!fx || !fx->db)
        return 0;
    db_close(fx->db);
    fx->db = NULL;
    return dbfx_pg_admin(fx, "DROP");
}

/* A new account (tier PRO, role user, a password hash that is none) whose id goes to id. */
static inline void dbfx_add_user(struct db *db, char id[BW_ID_MAX])
{
    struct store_user u;
    memset(&u, 0, sizeof u);
    bw_id_new("usr_", u.id);
    snprintf(u.email, sizeof u.email, "%.20s@example.com", u.id);
    snprintf(u.password_hash, sizeof u.password_hash, "not-a-hash");
    u.tier = BW_TIER_PRO;
    u.role = BW_ROLE_USER;
    snprintf(u.created_at, sizeof u.created_at, "2025-01-01T00:00:00Z");
    assert_int_equal(store_user_insert(db, &u), ST_OK);
    memcpy(id, u.id, BW_ID_MAX);
}

/* sqlite_setup/sqlite_teardown/pg_setup/pg_teardown of a test file over its fixture fx, with the
 * temp folder's tag and the pool size. */
#define DBFX_BACKENDS(fx, tag, pool)                                                                 \
    static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&(fx), state, tag, "data", pool); } \
    static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }                \
    static int pg_setup(void **state) { return dbfx_pg_setup(&(fx), state, tag, pool); }             \
    static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

/* pg_<fn>: fn, skipped when the PostgreSQL group has no database. */
#define PG_TEST(fn)                                                                                \
    static void pg_##fn(void **state)                                                              \
    {                                                                                              \
        if (!*state)                                                                               \
            skip();                                                                                \
        fn(state);                                                                                 \
    }

/* An account to insert (not inserted): a fresh id, the email, tier and role, a password hash
 * that verifies nothing. */
static inline struct store_user dbfx_user(const char *email, enum bw_tier tier, enum bw_role role)
{
    struct store_user u;
    memset(&u, 0, sizeof u);
    bw_id_new("usr_", u.id);
    snprintf(u.email, sizeof u.email, "%s", email);
    snprintf(u.password_hash, sizeof u.password_hash, "$argon2id$v=19$m=65536,t=2,p=1$not-a-real-hash");
    u.tier = tier;
    u.role = role;
    snprintf(u.created_at, sizeof u.created_at, "2026-01-01T00:00:00Z");
    return u;
}

#endif
