/* The name tables of job states, run, scan and assessment statuses (src/common/states.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/states.h"

#include <string.h>

/* One table: value[i] is named want[i], every name leads back to its value, and no two values
 * share a name. The enums' functions, as ints, so one check serves both tables. */
struct table {
    int n;
    const int *value;
    const char *const *want;
    const char *(*name)(int);
    int (*parse)(const char *);
    int (*stored)(const char *);
};

static void check_table(const struct table *t)
{
    for (int i = 0; i < t->n; i++) {
        const char *n = t->name(t->value[i]);
        assert_non_null(n);
        assert_string_equal(n, t->want[i]);
        assert_int_equal(t->parse(n), t->value[i]);
        assert_int_equal(t->stored(n), t->value[i]);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(n, t->name(t->value[j]));
    }
}

static const char *job_name(int s) { return bw_job_state_name((enum bw_job_state)s); }
static int job_stored(const char *n) { return (int)bw_job_state_stored(n); }
static const char *run_name(int s) { return bw_run_status_name((enum bw_run_status)s); }
static int run_stored(const char *n) { return (int)bw_run_status_stored(n); }

/* The names are stored in the database and written as literals in SQL statements and migrations:
 * they must never change. */
static void test_round_trip(void **state)
{
    (void)state;
    static const int jobs[BW_JOB__STATES] = {BW_JOB_STATE_QUEUED, BW_JOB_STATE_RUNNING, BW_JOB_STATE_DONE,
                                             BW_JOB_STATE_FAILED, BW_JOB_STATE_CANCELLED};
    static const char *const job_names[BW_JOB__STATES] = {"queued", "running", "done", "failed", "cancelled"};
    check_table(&(struct table){BW_JOB__STATES, jobs, job_names, job_name, bw_job_state_parse, job_stored});
    static const int runs[BW_RUN__STATUSES] = {BW_RUN_QUEUED, BW_RUN_RUNNING, BW_RUN_COMPLETED, BW_RUN_FAILED,
                                               BW_RUN_CANCELLED};
    static const char *const run_names[BW_RUN__STATUSES] = {"queued", "running", "completed", "failed", "cancelled"};
    check_table(&(struct table){BW_RUN__STATUSES, runs, run_names, run_name, bw_run_status_parse, run_stored});
}

static void test_unknown(void **state)
{
    (void)state;
    /* the other table's names, case and near misses are not names */
    static const char *const bad_job[] = {"completed", "QUEUED", "Done", "", "cancel", "running ", "retry"};
    for (size_t i = 0; i < sizeof bad_job / sizeof *bad_job; i++) {
        assert_int_equal(bw_job_state_parse(bad_job[i]), -1);
        assert_int_equal(bw_job_state_stored(bad_job[i]), BW_JOB_STATE_FAILED);
    }
    static const char *const bad_run[] = {"done", "Completed", "", "canceled", "pending", "queued\n"};
    for (size_t i = 0; i < sizeof bad_run / sizeof *bad_run; i++) {
        assert_int_equal(bw_run_status_parse(bad_run[i]), -1);
        assert_int_equal(bw_run_status_stored(bad_run[i]), BW_RUN_FAILED);
    }
    assert_int_equal(bw_job_state_parse(NULL), -1);
    assert_int_equal(bw_run_status_parse(NULL), -1);
    assert_int_equal(bw_job_state_stored(NULL), BW_JOB_STATE_FAILED);
    assert_int_equal(bw_run_status_stored(NULL), BW_RUN_FAILED);
    /* values outside the enums have no name */
    assert_null(bw_job_state_name((enum bw_job_state)BW_JOB__STATES));
    assert_null(bw_run_status_name((enum bw_run_status)BW_RUN__STATUSES));
    assert_null(bw_run_status_name((enum bw_run_status)-1));
}

static void test_run_active(void **state)
{
    (void)state;
    assert_true(bw_run_active(BW_RUN_QUEUED));
    assert_true(bw_run_active(BW_RUN_RUNNING));
    assert_false(bw_run_active(BW_RUN_COMPLETED));
    assert_false(bw_run_active(BW_RUN_FAILED));
    assert_false(bw_run_active(BW_RUN_CANCELLED));
}

/* The statuses of what is done at once, and the list a message shows (from the table, in order). */
static void test_done_at_once(void **state)
{
    (void)state;
    assert_string_equal(bw_scan_status_name(BW_SCAN_COMPLETED), "completed");
    assert_string_equal(bw_scan_status_name(BW_SCAN_INCOMPLETE), "incomplete");
    assert_null(bw_scan_status_name((enum bw_scan_status)BW_SCAN__STATUSES));
    assert_string_equal(bw_assessment_status_name(BW_ASSESSMENT_COMPLETED), "completed");
    assert_null(bw_assessment_status_name((enum bw_assessment_status)BW_ASSESSMENT__STATUSES));
    char list[96];
    bw_run_status_list(list, sizeof list);
    assert_string_equal(list, "queued, running, completed, failed, cancelled");
    char small[10];
    bw_run_status_list(small, sizeof small); /* cut, terminated */
    assert_string_equal(small, "queued, r");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_unknown),
        cmocka_unit_test(test_run_active),
        cmocka_unit_test(test_done_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
