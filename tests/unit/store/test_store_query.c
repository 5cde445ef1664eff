/* The store's statement shapes (src/store/store_query.c, declared in store_internal.h): one
 * statement, the first row, every row, a count, a list, on a connection of their own and on the
 * caller's, and a transaction; how each maps rows, no rows, reader failures, constraint violations
 * and database failures to ST_*, and what a transaction keeps. On SQLite in a temp directory and, when BULWARK_TEST_PG_HOST/PORT name a
 * cluster, on a fresh PostgreSQL database. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/limits.h"
#include "common/log.h"
#include "store/db.h"
#include "store/store.h"
#include "store/store_internal.h"
#include "db_fixture.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct db_fixture g_fx;

struct item {
    char k[16];
    int64_t v;
    bool seen_zeroed; /* the list handed the reader a zeroed item */
};

static int read_item(struct db_rows *r, void *arg)
{
    struct item *it = arg;
    it->seen_zeroed = !it->k[0] && !it->v;
    COPY(it->k, db_rows_text(r, 0));
    it->v = db_rows_int(r, 1);
    return ST_OK;
}

/* Counts its calls; fails on the call numbered fail_at (1-based, 0: never). */
struct counting {
    int calls, fail_at;
};

static int count_rows(struct db_rows *r, void *arg)
{
    (void)r;
    struct counting *c = arg;
    return ++c->calls == c->fail_at ? ST_ERROR : ST_OK;
}

static void fill(struct db *db)
{
    struct db_conn *c = db_acquire(db);
    assert_non_null(c);
    assert_int_equal(db_exec_script(c, "DROP TABLE IF EXISTS helper_t; CREATE TABLE helper_t (k TEXT PRIMARY KEY,"
                                       " v BIGINT NOT NULL, s TEXT)"),
                     DB_OK);
    db_release(c);
    const char *keys[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; i++) {
        struct db_param p[] = {DBP_TEXT(keys[i]), DBP_INT(i + 1), i % 2 ? DBP_NULL : DBP_TEXT(keys[i])};
        int64_t ch = -1;
        assert_int_equal(store_exec(db, "INSERT INTO helper_t (k, v, s) VALUES (?, ?, ?)", p, 3, &ch), ST_OK);
        assert_int_equal(ch, 1);
    }
}

static void test_exec(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    struct db_param dup[] = {DBP_TEXT("a"), DBP_INT(9), DBP_NULL};
    assert_int_equal(store_exec(db, "INSERT INTO helper_t (k, v, s) VALUES (?, ?, ?)", dup, 3, NULL), ST_CONFLICT);
    unsigned long before = db_error_count(db, DB_ERR_STATEMENT);
    assert_int_equal(store_exec(db, "UPDATE no_such_table SET v = 1", NULL, 0, NULL), ST_ERROR);
    assert_int_equal(db_error_count(db, DB_ERR_STATEMENT), before + 1); /* counted by the db layer */

    int64_t ch = 0;
    struct db_param up[] = {DBP_INT(0)};
    assert_int_equal(store_exec(db, "UPDATE helper_t SET v = v + 10 WHERE v > ?", up, 1, &ch), ST_OK);
    assert_int_equal(ch, 4);
    struct db_param one[] = {DBP_TEXT("b")}, none[] = {DBP_TEXT("zz")};
    assert_int_equal(store_exec_changed(db, "DELETE FROM helper_t WHERE k = ?", one, 1, ST_NOTFOUND), ST_OK);
    assert_int_equal(store_exec_changed(db, "DELETE FROM helper_t WHERE k = ?", none, 1, ST_NOTFOUND), ST_NOTFOUND);
    assert_int_equal(store_exec_changed(db, "DELETE FROM helper_t WHERE k = ?", none, 1, ST_CONFLICT), ST_CONFLICT);
    /* a constraint violation is a failure to store_exec_changed, as it always was */
    assert_int_equal(store_exec_changed(db, "INSERT INTO helper_t (k, v, s) VALUES (?, ?, ?)", dup, 3, ST_NOTFOUND),
                     ST_ERROR);
}

static void test_one(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    /* twice each: the second run takes the prepared statement */
    for (int round = 0; round < 2; round++) {
        struct item it = {0};
        struct db_param p[] = {DBP_TEXT("c")};
        assert_int_equal(store_query_one(db, "SELECT k, v FROM helper_t WHERE k = ?", p, 1, read_item, &it), ST_OK);
        assert_string_equal(it.k, "c");
        assert_int_equal(it.v, 3);

        struct counting n = {0, 0};
        struct db_param q[] = {DBP_TEXT("zz")};
        assert_int_equal(store_query_one(db, "SELECT k, v FROM helper_t WHERE k = ?", q, 1, count_rows, &n),
                         ST_NOTFOUND);
        assert_int_equal(n.calls, 0);

        /* the first row only, however many there are */
        assert_int_equal(store_query_one(db, "SELECT k, v FROM helper_t ORDER BY k", NULL, 0, count_rows, &n), ST_OK);
        assert_int_equal(n.calls, 1);
    }
    struct counting f = {0, 1};
    assert_int_equal(store_query_one(db, "SELECT k, v FROM helper_t ORDER BY k", NULL, 0, count_rows, &f), ST_ERROR);
    assert_int_equal(store_query_one(db, "SELECT nothing FROM no_such_table", NULL, 0, count_rows, &f), ST_ERROR);

    char *text = NULL;
    struct db_param a[] = {DBP_TEXT("a")}, b[] = {DBP_TEXT("b")};
    assert_int_equal(store_query_one(db, "SELECT s FROM helper_t WHERE k = ?", a, 1, store_row_text, &text), ST_OK);
    assert_string_equal(text, "a");
    free(text);
    text = NULL;
    /* SQL NULL is no text */
    assert_int_equal(store_query_one(db, "SELECT s FROM helper_t WHERE k = ?", b, 1, store_row_text, &text), ST_ERROR);
    assert_null(text);
}

static void test_each_and_int(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    struct counting n = {0, 0};
    assert_int_equal(store_query_each(db, "SELECT k, v FROM helper_t", NULL, 0, count_rows, &n), ST_OK);
    assert_int_equal(n.calls, 4);
    n = (struct counting){0, 2}; /* a reader that fails stops the read */
    assert_int_equal(store_query_each(db, "SELECT k, v FROM helper_t", NULL, 0, count_rows, &n), ST_ERROR);
    assert_int_equal(n.calls, 2);
    n = (struct counting){0, 0};
    struct db_param none[] = {DBP_INT(100)};
    assert_int_equal(store_query_each(db, "SELECT k, v FROM helper_t WHERE v > ?", none, 1, count_rows, &n), ST_OK);
    assert_int_equal(n.calls, 0);
    assert_int_equal(store_query_each(db, "SELECT nothing FROM no_such_table", NULL, 0, count_rows, &n), ST_ERROR);

    int64_t v = -1;
    assert_int_equal(store_query_int(db, "SELECT COUNT(*) FROM helper_t", NULL, 0, &v), ST_OK);
    assert_int_equal(v, 4);
    assert_int_equal(store_query_int(db, "SELECT COALESCE(SUM(v), 0) FROM helper_t", NULL, 0, &v), ST_OK);
    assert_int_equal(v, 10);
    /* no row is a failure for a count */
    assert_int_equal(store_query_int(db, "SELECT v FROM helper_t WHERE v > ?", none, 1, &v), ST_ERROR);
    assert_int_equal(store_query_int(db, "SELECT COUNT(*) FROM no_such_table", NULL, 0, &v), ST_ERROR);
}

static void test_list(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    /* enough rows to grow the array a few times */
    for (int i = 0; i < 100; i++) {
        char k[16];
        snprintf(k, sizeof k, "x%03d", i);
        struct db_param p[] = {DBP_TEXT(k), DBP_INT(100 + i)};
        assert_int_equal(store_exec(db, "INSERT INTO helper_t (k, v) VALUES (?, ?)", p, 2, NULL), ST_OK);
    }
    void *items = NULL;
    size_t n = 0;
    assert_int_equal(store_query_list(db, "SELECT k, v FROM helper_t ORDER BY v", NULL, 0, sizeof(struct item),
                                      read_item, &items, &n),
                     ST_OK);
    assert_int_equal(n, 104);
    struct item *v = items;
    for (size_t i = 0; i < n; i++) {
        assert_true(v[i].seen_zeroed);
        assert_int_equal(v[i].v, i < 4 ? (int64_t)i + 1 : (int64_t)i + 96);
    }
    assert_string_equal(v[103].k, "x099");
    free(items);

    struct db_param none[] = {DBP_INT(1000)};
    items = (void *)1;
    assert_int_equal(store_query_list(db, "SELECT k, v FROM helper_t WHERE v > ?", none, 1, sizeof(struct item),
                                      read_item, &items, &n),
                     ST_OK);
    assert_null(items);
    assert_int_equal(n, 0);

    assert_int_equal(store_query_list(db, "SELECT nothing FROM no_such_table", NULL, 0, 8, read_item, &items, &n),
                     ST_ERROR);
    assert_null(items);
}

/* A list reader that fails on the row "c" (out of memory, say). */
static int fail_on_c(struct db_rows *r, void *item)
{
    return strcmp(db_rows_text(r, 0), "c") == 0 ? ST_ERROR : read_item(r, item);
}

static void test_list_reader_fails(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    void *items = (void *)1;
    size_t n = 9;
    assert_int_equal(store_query_list(db, "SELECT k, v FROM helper_t ORDER BY k", NULL, 0, sizeof(struct item),
                                      fail_on_c, &items, &n),
                     ST_ERROR);
    assert_null(items); /* nothing to free */
    assert_int_equal(n, 0);
}

/* Items that own memory: a list that fails midway hands each item read so far to clear (the
 * one whose reader failed too), so nothing leaks (LeakSanitizer judges that in the ASan build). */
struct owned {
    char *k;
};
static int g_cleared;

static int read_owned(struct db_rows *r, void *item)
{
    const char *k = db_rows_text(r, 0);
    if (strcmp(k, "c") == 0)
        return ST_ERROR; /* out of memory on the third row, say */
    struct owned *o = item;
    o->k = strdup(k);
    return o->k ? ST_OK : ST_ERROR;
}

static void clear_owned(void *item)
{
    g_cleared++;
    free(((struct owned *)item)->k);
}

static int owned_list_tx(struct db_conn *c, void *arg)
{
    void *items = (void *)1;
    size_t n = 9;
    int rc = store_conn_list_owned(c, "SELECT k FROM helper_t ORDER BY k", NULL, 0, sizeof(struct owned),
                                   read_owned, clear_owned, &items, &n);
    *(bool *)arg = items == NULL && n == 0;
    return rc;
}

static void test_owned_list_fails_midway(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    bool emptied = false;
    g_cleared = 0;
    assert_int_equal(store_tx(db, owned_list_tx, &emptied), ST_ERROR);
    assert_true(emptied);
    assert_int_equal(g_cleared, 3); /* a, b and the failed c */

    static const struct store_page_cols cols = {.key = 1, .id = 0, .total = -1};
    struct store_page pg = {.limit = 10};
    struct db_param p[2];
    int np = store_page_params(&pg, false, p, 0);
    void *items = (void *)1;
    size_t n = 9;
    int64_t total = -1;
    g_cleared = 0;
    assert_int_equal(store_query_page_owned(db, "SELECT k, v FROM helper_t ORDER BY v, k LIMIT ? OFFSET ?", p, np,
                                            &pg, &cols, "SELECT COUNT(*) FROM helper_t", 0, &total,
                                            sizeof(struct owned), read_owned, clear_owned, &items, &n),
                     ST_ERROR);
    assert_null(items);
    assert_int_equal(n, 0);
    assert_int_equal(g_cleared, 3);
}

/* The conn forms see the caller's transaction: its own uncommitted writes, and nothing after the
 * rollback. */
static void test_conn_in_transaction(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    struct db_conn *c = db_acquire(db);
    assert_non_null(c);
    assert_int_equal(db_begin(c, true), DB_OK);
    struct db_param p[] = {DBP_TEXT("e"), DBP_INT(5)};
    assert_int_equal(db_exec(c, "INSERT INTO helper_t (k, v) VALUES (?, ?)", p, 2, NULL), DB_OK);
    int64_t v = 0;
    assert_int_equal(store_conn_int(c, "SELECT COUNT(*) FROM helper_t", NULL, 0, &v), ST_OK);
    assert_int_equal(v, 5);
    struct item it = {0};
    struct db_param e[] = {DBP_TEXT("e")};
    assert_int_equal(store_conn_one(c, "SELECT k, v FROM helper_t WHERE k = ?", e, 1, read_item, &it), ST_OK);
    assert_int_equal(it.v, 5);
    struct counting n = {0, 0};
    assert_int_equal(store_conn_each(c, "SELECT k, v FROM helper_t", NULL, 0, count_rows, &n), ST_OK);
    assert_int_equal(n.calls, 5);
    void *items = NULL;
    size_t len = 0;
    assert_int_equal(store_conn_list(c, "SELECT k, v FROM helper_t ORDER BY k DESC", NULL, 0, sizeof(struct item),
                                     read_item, &items, &len),
                     ST_OK);
    assert_int_equal(len, 5);
    assert_string_equal(((struct item *)items)[0].k, "e");
    free(items);
    db_rollback(c);
    assert_int_equal(store_conn_one(c, "SELECT k, v FROM helper_t WHERE k = ?", e, 1, read_item, &it), ST_NOTFOUND);
    db_release(c);
}

/* A transaction body: inserts key k, then answers rc (after a failing statement when fail). */
struct tx_arg {
    const char *k;
    int rc;
    bool fail;
    int ran;
};

static int tx_body(struct db_conn *c, void *arg)
{
    struct tx_arg *a = arg;
    a->ran++;
    struct db_param p[] = {DBP_TEXT(a->k), DBP_INT(7)};
    int rc = store_conn_exec(c, "INSERT INTO helper_t (k, v) VALUES (?, ?)", p, 2, NULL);
    if (rc != ST_OK)
        return rc;
    if (a->fail)
        return store_conn_exec(c, "UPDATE no_such_table SET v = 1", NULL, 0, NULL);
    return a->rc;
}

static int64_t count_key(struct db *db, const char *k)
{
    int64_t n = -1;
    struct db_param p[] = {DBP_TEXT(k)};
    assert_int_equal(store_query_int(db, "SELECT COUNT(*) FROM helper_t WHERE k = ?", p, 1, &n), ST_OK);
    return n;
}

/* ST_OK commits; any other answer rolls back and is the answer; the connection is clean after. */
static void test_tx(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    struct tx_arg ok = {"t1", ST_OK, false, 0};
    assert_int_equal(store_tx(db, tx_body, &ok), ST_OK);
    assert_int_equal(ok.ran, 1);
    assert_int_equal(count_key(db, "t1"), 1);

    struct tx_arg refused = {"t2", ST_CONFLICT, false, 0};
    assert_int_equal(store_tx(db, tx_body, &refused), ST_CONFLICT);
    assert_int_equal(count_key(db, "t2"), 0);
    struct tx_arg limit = {"t2", ST_LIMIT, false, 0};
    assert_int_equal(store_tx(db, tx_body, &limit), ST_LIMIT);
    assert_int_equal(count_key(db, "t2"), 0);

    /* a statement that fails inside (PostgreSQL then refuses the rest until ROLLBACK) */
    struct tx_arg broken = {"t3", ST_OK, true, 0};
    assert_int_equal(store_tx(db, tx_body, &broken), ST_ERROR);
    assert_int_equal(count_key(db, "t3"), 0);

    /* a constraint violation is ST_CONFLICT to store_conn_exec, and the body passes it on */
    struct tx_arg dup = {"a", ST_OK, false, 0};
    assert_int_equal(store_tx(db, tx_body, &dup), ST_CONFLICT);
    assert_int_equal(count_key(db, "a"), 1);

    /* nothing was left open: the next transaction and a plain statement work */
    struct tx_arg after = {"t4", ST_OK, false, 0};
    assert_int_equal(store_tx(db, tx_body, &after), ST_OK);
    assert_int_equal(count_key(db, "t4"), 1);
    struct db_param p[] = {DBP_TEXT("t5"), DBP_INT(1)};
    assert_int_equal(store_exec(db, "INSERT INTO helper_t (k, v) VALUES (?, ?)", p, 2, NULL), ST_OK);
}

/* Concurrent transactions (SQLite: grouped by the writer thread, each in a savepoint): every
 * body that answers ST_OK is committed, every other one leaves nothing, whatever it was grouped
 * with; a body's nested single statement joins its transaction. */
struct conc {
    struct db *db;
    int thread;
};

static int conc_body(struct db_conn *c, void *arg)
{
    const int *n = arg;
    char k[32], k2[32];
    snprintf(k, sizeof k, "c%d", *n);
    snprintf(k2, sizeof k2, "n%d", *n);
    struct db_param p[] = {DBP_TEXT(k), DBP_INT(*n)};
    if (store_conn_exec(c, "INSERT INTO helper_t (k, v) VALUES (?, ?)", p, 2, NULL) != ST_OK)
        return ST_ERROR;
    /* on SQLite a store_exec from inside a body is part of this transaction (run at once on the
     * writer's connection); on PostgreSQL it would take another connection, so c it is */
    struct db_param q[] = {DBP_TEXT(k2), DBP_INT(*n)};
    int rc = db_single_writer(db_of(c)) ? store_exec(db_of(c), "INSERT INTO helper_t (k, v) VALUES (?, ?)", q, 2, NULL)
                                        : store_conn_exec(c, "INSERT INTO helper_t (k, v) VALUES (?, ?)", q, 2, NULL);
    if (rc != ST_OK)
        return ST_ERROR;
    return *n % 7 == 3 ? ST_CONFLICT : ST_OK; /* some refuse after writing: undone */
}

static void *conc_thread(void *arg)
{
    struct conc *a = arg;
    for (int i = 0; i < 40; i++) {
        int n = a->thread * 1000 + i;
        int rc = store_tx(a->db, conc_body, &n);
        if (rc != (n % 7 == 3 ? ST_CONFLICT : ST_OK))
            return (void *)1;
    }
    return NULL;
}

static void test_tx_concurrent(void **state)
{
    struct db *db = ((struct db_fixture *)*state)->db;
    fill(db);
    pthread_t t[12];
    struct conc a[12];
    for (int i = 0; i < 12; i++) {
        a[i] = (struct conc){db, i};
        assert_int_equal(pthread_create(&t[i], NULL, conc_thread, &a[i]), 0);
    }
    for (int i = 0; i < 12; i++) {
        void *res = NULL;
        pthread_join(t[i], &res);
        assert_null(res);
    }
    int64_t kept = 0, want = 0;
    for (int th = 0; th < 12; th++)
        for (int i = 0; i < 40; i++)
            want += (th * 1000 + i) % 7 == 3 ? 0 : 2;
    assert_int_equal(store_query_int(db, "SELECT COUNT(*) FROM helper_t WHERE k LIKE 'c_%' OR k LIKE 'n_%'", NULL, 0,
                                     &kept),
                     ST_OK);
    assert_int_equal(kept, want);
    for (int th = 0; th < 12; th++)
        for (int i = 0; i < 40; i++) {
            int n = th * 1000 + i;
            char k[32];
            snprintf(k, sizeof k, "n%d", n);
            assert_int_equal(count_key(db, k), n % 7 == 3 ? 0 : 1);
        }
}

/* SQLite: the WAL stays bounded under writes that never pause, with readers always in it. The
 * checkpointer thread's PASSIVE checkpoints alone never find the WAL copied in full while commits
 * keep coming, so it would never start over and would grow with every write (measured: 80 MB and
 * on); the writer restarts it past BW_SQLITE_WAL_RESTART_PAGES. Writes ~4x that many pages (each
 * replaces an 8 KB row: overflow pages) from four threads, while two threads read. */
struct walrun {
    struct db *db;
    int thread, writes;
    atomic_bool *stop;
};

static int wal_body(struct db_conn *c, void *arg)
{
    const struct walrun *a = arg;
    static char blob[8192];
    memset(blob, 'a' + a->thread, sizeof blob - 1);
    char k[32];
    snprintf(k, sizeof k, "w%d", a->thread);
    struct db_param p[] = {DBP_TEXT(k), DBP_INT(a->writes), DBP_TEXT(blob)};
    return store_conn_exec(c, "INSERT OR REPLACE INTO helper_t (k, v, s) VALUES (?, ?, ?)", p, 3, NULL);
}

static void *wal_writer(void *arg)
{
    struct walrun *a = arg;
    int n = 4 * BW_SQLITE_WAL_RESTART_PAGES / 3 / 4; /* >= 3 pages a write, four writers */
    for (a->writes = 0; a->writes < n; a->writes++)
        if (store_tx(a->db, wal_body, a) != ST_OK)
            return (void *)1;
    return NULL;
}

static void *wal_reader(void *arg)
{
    struct walrun *a = arg;
    while (!atomic_load(a->stop)) {
        int64_t n = 0;
        if (store_query_int(a->db, "SELECT COUNT(*) FROM helper_t", NULL, 0, &n) != ST_OK)
            return (void *)1;
    }
    return NULL;
}

static void test_wal_bounded(void **state)
{
    struct db_fixture *fx = *state;
    fill(fx->db);
    atomic_bool stop = false;
    pthread_t t[6];
    struct walrun a[6];
    for (int i = 0; i < 6; i++) {
        a[i] = (struct walrun){fx->db, i, 0, &stop};
        assert_int_equal(pthread_create(&t[i], NULL, i < 4 ? wal_writer : wal_reader, &a[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        void *res = NULL;
        pthread_join(t[i], &res);
        assert_null(res);
    }
    atomic_store(&stop, true);
    for (int i = 4; i < 6; i++) {
        void *res = NULL;
        pthread_join(t[i], &res);
        assert_null(res);
    }
    int64_t page = 0;
    assert_int_equal(store_query_int(fx->db, "PRAGMA page_size", NULL, 0, &page), ST_OK);
    char wal[400];
    snprintf(wal, sizeof wal, "%.300s/bulwark.db-wal", fx->dir);
    struct stat st;
    assert_int_equal(stat(wal, &st), 0);
    /* the restart is tried each BW_SQLITE_CHECKPOINT_PAGES past the bound, and a reader that holds
     * an older snapshot past the writer's short wait puts it off to the next try: on a loaded
     * machine (CI) four in a row were seen, so eight. Unbounded, this test's writes would leave a
     * WAL of about four times the bound. */
    int64_t bound = (int64_t)(BW_SQLITE_WAL_RESTART_PAGES + 8 * BW_SQLITE_CHECKPOINT_PAGES) * (page + 24);
    if ((int64_t)st.st_size > bound)
        fail_msg("the WAL grew to %lld bytes (bound %lld)", (long long)st.st_size, (long long)bound);
}

/* The SQLite database's watch: quiet when nothing happened; another connection's writes (here
 * the test's own, outside the db's writer, as the CLI's would be) show when it closes the
 * database, once however many files it closed; single writes and a file in the directory that is
 * not the database's do not. */
static void test_watch(void **state)
{
    struct db_fixture *fx = *state;
    fill(fx->db);
    struct db_watch *w = db_watch(fx->db);
    assert_non_null(w);
    assert_false(db_watch_poll(w)); /* events before the watch are not its business */
    char path[400];
    snprintf(path, sizeof path, "%.300s/bulwark.db", fx->dir);
    sqlite3 *h = NULL;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    sqlite3_busy_timeout(h, 5000);
    assert_int_equal(sqlite3_exec(h, "UPDATE helper_t SET v = v + 1", NULL, NULL, NULL), SQLITE_OK);
    assert_false(db_watch_poll(w)); /* writes are not events: this process's writer makes them all day */
    sqlite3_close(h);
    assert_true(db_watch_poll(w));
    assert_false(db_watch_poll(w));

    snprintf(path, sizeof path, "%.300s/notes.txt", fx->dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("not the database", f);
    fclose(f);
    assert_false(db_watch_poll(w));
    remove(path);
    assert_false(db_watch_poll(w));

    /* a file of the database's coming and going (a rollback journal) is one each time */
    snprintf(path, sizeof path, "%.300s/bulwark.db-journal", fx->dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_true(db_watch_poll(w));
    assert_false(db_watch_poll(w));
    remove(path);
    assert_true(db_watch_poll(w));
    db_watch_free(w);
}

/* The -wal removed (the last connection's close checkpoints and removes it) and made again: the
 * new one is watched, so a writer's close of it still shows. Another connection stays open
 * meanwhile, so that writer's close of the database file itself is deferred (SQLite keeps a file
 * with locks of the process open) and only the new -wal can tell. */
static void test_watch_new_wal(void **state)
{
    (void)state;
    struct db_fixture fx2;
    void *st = NULL;
    assert_int_equal(dbfx_sqlite_setup(&fx2, &st, "watch", NULL, 1), 0);
    assert_int_equal(store_exec(fx2.db, "CREATE TABLE t (v INTEGER)", NULL, 0, NULL), ST_OK);
    struct db_watch *w = db_watch(fx2.db);
    assert_non_null(w);
    char path[400], wal[420];
    snprintf(path, sizeof path, "%.300s/bulwark.db", fx2.dir);
    snprintf(wal, sizeof wal, "%s-wal", path);
    db_close(fx2.db);
    fx2.db = NULL;
    struct stat sb;
    assert_int_not_equal(stat(wal, &sb), 0); /* removed */
    assert_true(db_watch_poll(w));
    assert_false(db_watch_poll(w));
    sqlite3 *keep = NULL, *h = NULL;
    assert_int_equal(sqlite3_open_v2(path, &keep, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(keep, "SELECT count(*) FROM t", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(stat(wal, &sb), 0); /* made again */
    assert_true(db_watch_poll(w));
    assert_false(db_watch_poll(w));
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    sqlite3_busy_timeout(h, 5000);
    assert_int_equal(sqlite3_exec(h, "INSERT INTO t VALUES (1)", NULL, NULL, NULL), SQLITE_OK);
    assert_false(db_watch_poll(w));
    sqlite3_close(h);
    assert_true(db_watch_poll(w));
    sqlite3_close(keep);
    (void)db_watch_poll(w);
    /* the database moved away: the watch cannot tell any more, and says so every time */
    assert_true(db_watch_alive(w));
    char moved[440];
    snprintf(moved, sizeof moved, "%s.moved", path);
    assert_int_equal(rename(path, moved), 0);
    assert_true(db_watch_poll(w));
    assert_false(db_watch_alive(w));
    assert_true(db_watch_poll(w));
    db_watch_free(w);
    dbfx_sqlite_teardown(&fx2);
}

static void test_copy(void **state)
{
    (void)state;
    char small[4];
    store_copy(small, sizeof small, "abcdef");
    assert_string_equal(small, "abc");
    store_copy(small, sizeof small, NULL);
    assert_string_equal(small, "");
}

static int sqlite_setup(void **state) { return dbfx_sqlite_setup(&g_fx, state, "query", NULL, 2); }
static int sqlite_teardown(void **state) { return dbfx_sqlite_teardown(*state); }
static int pg_setup(void **state) { return dbfx_pg_setup(&g_fx, state, "query", 2); }
static int pg_teardown(void **state) { return dbfx_pg_teardown(*state); }

PG_TEST(test_exec)
PG_TEST(test_one)
PG_TEST(test_each_and_int)
PG_TEST(test_list)
PG_TEST(test_list_reader_fails)
PG_TEST(test_owned_list_fails_midway)
PG_TEST(test_conn_in_transaction)
PG_TEST(test_tx)
PG_TEST(test_tx_concurrent)

int main(void)
{
    bw_log_set_level(BW_LOG_ERROR + 1); /* the failures on purpose log; keep them out of the output */
    const struct CMUnitTest common[] = {
        cmocka_unit_test(test_copy),
    };
    const struct CMUnitTest sqlite[] = {
        cmocka_unit_test(test_exec),
        cmocka_unit_test(test_one),
        cmocka_unit_test(test_each_and_int),
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_list_reader_fails),
        cmocka_unit_test(test_owned_list_fails_midway),
        cmocka_unit_test(test_conn_in_transaction),
        cmocka_unit_test(test_tx),
        cmocka_unit_test(test_tx_concurrent),
        cmocka_unit_test(test_wal_bounded),
        cmocka_unit_test(test_watch),
        cmocka_unit_test(test_watch_new_wal),
    };
    const struct CMUnitTest pg[] = {
        cmocka_unit_test(pg_test_exec),
        cmocka_unit_test(pg_test_one),
        cmocka_unit_test(pg_test_each_and_int),
        cmocka_unit_test(pg_test_list),
        cmocka_unit_test(pg_test_list_reader_fails),
        cmocka_unit_test(pg_test_owned_list_fails_midway),
        cmocka_unit_test(pg_test_conn_in_transaction),
        cmocka_unit_test(pg_test_tx),
        cmocka_unit_test(pg_test_tx_concurrent),
    };
    int failed = cmocka_run_group_tests_name("store_query_common", common, NULL, NULL);
    failed += cmocka_run_group_tests_name("store_query_sqlite", sqlite, sqlite_setup, sqlite_teardown);
    failed += cmocka_run_group_tests_name("store_query_postgres", pg, pg_setup, pg_teardown);
    return failed ? 1 : 0;
}
