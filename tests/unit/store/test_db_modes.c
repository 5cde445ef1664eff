/* db_open on SQLite and file modes: the directory it creates is 0700 and the database 0600 even
 * under umask 000 (no help from the caller's umask), SQLite gives the -wal and -shm files the
 * database's mode, and a directory or database group or others may read or write is refused with
 * its path and the fix, unless DB_OPEN_ALLOW_INSECURE_MODES. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "store/db.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char g_root[] = "/tmp/bulwark-dbmodes-XXXXXX";

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb;
    (void)flag;
    (void)f;
    return remove(p);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(g_root) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return nftw(g_root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static unsigned mode_of(const char *dir, const char *name)
{
    char p[512];
    snprintf(p, sizeof p, "%s%s%s", dir, name[0] ? "/" : "", name);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    return (unsigned)(st.st_mode & 07777);
}

static void created_private_whatever_the_umask(void **state)
{
    (void)state;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/fresh", g_root);
    mode_t old = umask(0);
    struct db *db = NULL;
    char err[1024] = "";
    int rc = db_open(NULL, dir, 0, 2, &db, err, sizeof err);
    assert_int_equal(rc, 0);
    struct db_conn *c = db_acquire(db); /* a write: the -wal and -shm files exist while it is open */
    assert_non_null(c);
    struct db_param p[] = {DBP_TEXT("modes"), DBP_TEXT("v")};
    assert_int_equal(db_exec(c, "INSERT INTO settings(name, value) VALUES (?, ?)", p, 2, NULL), DB_OK);
    db_release(c);
    umask(old);
    assert_int_equal(mode_of(dir, ""), 0700);
    assert_int_equal(mode_of(dir, "bulwark.db"), 0600);
    assert_int_equal(mode_of(dir, "bulwark.db-wal"), 0600);
    assert_int_equal(mode_of(dir, "bulwark.db-shm"), 0600);
    db_close(db);
}

static void open_to_others_refused_unless_allowed(void **state)
{
    (void)state;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/open", g_root);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(chmod(dir, 0755), 0);
    struct db *db = NULL;
    char err[1024] = "";
    assert_int_equal(db_open(NULL, dir, 0, 2, &db, err, sizeof err), -1);
    assert_null(db);
    char want[700];
    snprintf(want, sizeof want, "data directory %s is readable or writable by group or others (mode 0755)", dir);
    assert_non_null(strstr(err, want));
    snprintf(want, sizeof want, "run chmod 700 %s", dir);
    assert_non_null(strstr(err, want));
    assert_int_equal(access(strcat(strcpy(want, dir), "/bulwark.db"), F_OK), -1); /* nothing created */

    assert_int_equal(db_open(NULL, dir, DB_OPEN_ALLOW_INSECURE_MODES, 2, &db, err, sizeof err), 0);
    db_close(db);
    assert_int_equal(mode_of(dir, "bulwark.db"), 0600); /* what it creates is private all the same */

    /* the directory put right, the database file is judged: opened up by hand, refused */
    assert_int_equal(chmod(dir, 0700), 0);
    assert_int_equal(chmod(want, 0640), 0);
    db = NULL;
    assert_int_equal(db_open(NULL, dir, 0, 2, &db, err, sizeof err), -1);
    char file[800];
    snprintf(file, sizeof file, "database file %s is readable or writable by group or others (mode 0640)", want);
    assert_non_null(strstr(err, file));
    snprintf(file, sizeof file, "run chmod 600 %s", want);
    assert_non_null(strstr(err, file));
    assert_int_equal(chmod(want, 0600), 0);
    assert_int_equal(db_open(NULL, dir, 0, 2, &db, err, sizeof err), 0);
    db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(created_private_whatever_the_umask),
        cmocka_unit_test(open_to_others_refused_unless_allowed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
