/* The database layer's failure counters (db_error_count, for /metrics) on SQLite: failed
 * statements are counted whether they fail when prepared, run or stepped through, constraint
 * violations and rollbacks are not. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/log.h"
#include "store/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void test_sqlite_errors_counted(void **state)
{
    (void)state;
    char dir[] = "/tmp/bulwark-dberr-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct db *db = NULL;
    char err[256];
    assert_int_equal(db_open(NULL, dir, 0, 2, &db, err, sizeof err), 0);
    assert_int_equal(db_error_count(db, DB_ERR_CONNECT), 0);
    assert_int_equal(db_error_count(db, DB_ERR_STATEMENT), 0); /* migrations went through */

    struct db_conn *c = db_acquire(db);
    assert_non_null(c);
    /* fails when prepared */
    assert_int_equal(db_exec(c, "SELECT * FROM no_such_table", NULL, 0, NULL), DB_ERROR);
    assert_int_equal(db_error_count(db, DB_ERR_STATEMENT), 1);
    /* prepared fine, fails while its rows are stepped through (integer overflow at run time) */
    struct db_rows *r = NULL;
    assert_int_equal(db_query(c, "SELECT abs(-9223372036854775807 - 1)", NULL, 0, &r), DB_OK);
    assert_false(db_rows_next(r));
    db_rows_free(r);
    assert_int_equal(db_error_count(db, DB_ERR_STATEMENT), 2);
    /* a constraint violation is an answer, a rollback outside a transaction is tidying */
    struct db_param p[] = {DBP_TEXT("k"), DBP_TEXT("v")};
    assert_int_equal(db_exec(c, "INSERT INTO settings (name, value) VALUES (?, ?)", p, 2, NULL), DB_OK);
    assert_int_equal(db_exec(c, "INSERT INTO settings (name, value) VALUES (?, ?)", p, 2, NULL), DB_CONSTRAINT);
    db_rollback(c);
    /* a good query counts nothing */
    r = NULL;
    assert_int_equal(db_query(c, "SELECT value FROM settings WHERE name = ?", p, 1, &r), DB_OK);
    assert_true(db_rows_next(r));
    assert_false(db_rows_next(r));
    db_rows_free(r);
    assert_int_equal(db_error_count(db, DB_ERR_STATEMENT), 2);
    assert_int_equal(db_error_count(db, DB_ERR_CONNECT), 0);
    assert_string_equal(db_err_kind_name(DB_ERR_CONNECT), "connect");
    assert_string_equal(db_err_kind_name(DB_ERR_STATEMENT), "statement");
    db_release(c);
    db_close(db);
    static const char *const files[] = {"bulwark.db", "bulwark.db-wal", "bulwark.db-shm"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[sizeof dir + 32];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        remove(path);
    }
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    bw_log_set_level(BW_LOG_ERROR + 1); /* the failures above log errors by design */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sqlite_errors_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
