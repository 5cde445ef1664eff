#include "store/store_jobs.h"

#include "store/store.h"
#include "store/store_internal.h"

#include <stdio.h>
#include <string.h>

#define JOB_COLS "id, kind, ref, state, attempts, max_attempts, lease_until, run_after, lease_owner, last_error"

static int read_job(struct db_rows *r, void *item)
{
    struct store_job *j = item;
    COPY(j->id, db_rows_text(r, 0));
    COPY(j->kind, db_rows_text(r, 1));
    COPY(j->ref, db_rows_text(r, 2));
    j->state = bw_job_state_stored(db_rows_text(r, 3));
    j->attempts = (int)db_rows_int(r, 4);
    j->max_attempts = (int)db_rows_int(r, 5);
    j->lease_until = db_rows_int(r, 6);
    j->run_after = db_rows_int(r, 7);
    COPY(j->lease_owner, db_rows_text(r, 8));
    COPY(j->last_error, db_rows_text(r, 9));
    return ST_OK;
}

int store_job_enqueue_conn(struct db_conn *c, const char *id, const char *kind, const char *ref, int max_attempts,
                           int64_t now_ms)
{
    struct db_param p[] = {DBP_TEXT(id),     DBP_TEXT(kind),   DBP_TEXT(ref),
                           DBP_INT(max_attempts), DBP_INT(now_ms), DBP_INT(now_ms), DBP_INT(now_ms)};
    return store_conn_exec(c,
                           "INSERT INTO jobs (id, kind, ref, state, max_attempts, run_after, created_ms, updated_ms)"
                           " VALUES (?, ?, ?, 'queued', ?, ?, ?, ?)",
                           p, 7, NULL);
}

int store_job_enqueue_once(struct db *db, const char *id, const char *kind, const char *ref, int max_attempts,
                           int64_t now_ms, bool *created)
{
    struct db_param p[] = {DBP_TEXT(id),          DBP_TEXT(kind),  DBP_TEXT(ref),
                           DBP_INT(max_attempts), DBP_INT(now_ms), DBP_INT(now_ms), DBP_INT(now_ms)};
    int64_t n = 0;
    /* the primary key decides between instances racing for the slot: one insert wins, the others
     * change nothing (on both backends) */
    int rc = store_exec(db,
                        "INSERT INTO jobs (id, kind, ref, state, max_attempts, run_after, created_ms, updated_ms)"
                        " VALUES (?, ?, ?, 'queued', ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                        p, 7, &n);
    *created = rc == ST_OK && n > 0;
    return rc;
}

int store_job_prune_kind(struct db *db, const char *kind, int keep)
{
    struct db_param p[] = {DBP_TEXT(kind), DBP_TEXT(kind), DBP_INT(keep)};
    return store_exec(db,
                      "DELETE FROM jobs WHERE kind = ? AND state IN ('done', 'failed', 'cancelled') AND id NOT IN"
                      " (SELECT id FROM jobs WHERE kind = ? ORDER BY created_ms DESC, id DESC LIMIT ?)",
                      p, 3, NULL);
}

/* The claimable set, shared by both claim statements: queued and due, or running with an expired
 * lease and attempts left. Parameters: now, now. */
#define CLAIMABLE                                                                                  \
    "((state = 'queued' AND run_after <= ?) OR"                                                    \
    " (state = 'running' AND lease_until < ? AND attempts < max_attempts))"
#define CLAIM_SET                                                                                  \
    "state = 'running', lease_owner = ?, lease_until = ?, heartbeat_at = ?, attempts = attempts + 1," \
    " updated_ms = ?"

struct claim {
    const char *owner;
    int64_t now, lease;
    struct store_job *out;
};

static int read_id(struct db_rows *r, void *id)
{
    store_copy(id, BW_ID_MAX, db_rows_text(r, 0));
    return ST_OK;
}

/* A store_tx body: the candidate, locked, then its update. ST_NOTFOUND when none is claimable. */
static int claim_pg(struct db_conn *c, void *arg)
{
    const struct claim *a = arg;
    struct db_param sel[] = {DBP_INT(a->now), DBP_INT(a->now)};
    char id[BW_ID_MAX] = "";
    /* SKIP LOCKED: a row another claimer holds is passed over, not waited for */
    int rc = store_conn_one(c,
                            "SELECT id FROM jobs WHERE " CLAIMABLE
                            " ORDER BY created_ms, id LIMIT 1 FOR UPDATE SKIP LOCKED",
                            sel, 2, read_id, id);
    if (rc != ST_OK)
        return rc;
    struct db_param up[] = {DBP_TEXT(a->owner), DBP_INT(a->now + a->lease), DBP_INT(a->now), DBP_INT(a->now),
                            DBP_TEXT(id)};
    rc = store_conn_one(c, "UPDATE jobs SET " CLAIM_SET " WHERE id = ? RETURNING " JOB_COLS, up, 5, read_job, a->out);
    return rc == ST_NOTFOUND ? ST_ERROR : rc; /* the row is locked: it cannot have gone */
}

/* A store_tx body (SQLite's writer thread): one statement, so select and update cannot interleave. */
static int claim_sqlite(struct db_conn *c, void *arg)
{
    const struct claim *a = arg;
    struct db_param p[] = {DBP_TEXT(a->owner), DBP_INT(a->now + a->lease), DBP_INT(a->now), DBP_INT(a->now),
                           DBP_INT(a->now),   DBP_INT(a->now)};
    return store_conn_one(c,
                          "UPDATE jobs SET " CLAIM_SET " WHERE id = (SELECT id FROM jobs WHERE " CLAIMABLE
                          " ORDER BY created_ms, id LIMIT 1) RETURNING " JOB_COLS,
                          p, 6, read_job, a->out);
}

int store_job_claim(struct db *db, const char *owner, int64_t now_ms, int64_t lease_ms, struct store_job *out)
{
    struct claim a = {owner, now_ms, lease_ms, out};
    if (strcmp(db_backend(db), "postgres") == 0)
        return store_tx(db, claim_pg, &a);
    /* nothing to claim (ST_NOTFOUND) rolls back nothing: the statement changed no row */
    return store_tx(db, claim_sqlite, &a);
}

/* One UPDATE on the owner's running job; ST_NOTFOUND when nothing matched. */
static int owned_update(struct db *db, const char *sql, const struct db_param *p, int np)
{
    return store_exec_changed(db, sql, p, np, ST_NOTFOUND);
}

int store_job_heartbeat(struct db *db, const char *id, const char *owner, int64_t now_ms, int64_t lease_ms)
{
    struct db_param p[] = {DBP_INT(now_ms + lease_ms), DBP_INT(now_ms), DBP_INT(now_ms), DBP_TEXT(id),
                           DBP_TEXT(owner)};
    return owned_update(db,
                        "UPDATE jobs SET lease_until = ?, heartbeat_at = ?, updated_ms = ?"
                        " WHERE id = ? AND lease_owner = ? AND state = 'running'",
                        p, 5);
}

int store_job_finish(struct db *db, const char *id, const char *owner, enum bw_job_state state, const char *error,
                     int64_t now_ms)
{
    struct db_param p[] = {DBP_TEXT(bw_job_state_name(state)), DBP_OPT(error), DBP_INT(now_ms), DBP_TEXT(id), DBP_TEXT(owner)};
    return owned_update(db,
                        "UPDATE jobs SET state = ?, last_error = ?, lease_until = 0, updated_ms = ?"
                        " WHERE id = ? AND lease_owner = ? AND state = 'running'",
                        p, 5);
}

int store_job_retry(struct db *db, const char *id, const char *owner, const char *error, int64_t now_ms,
                    int64_t backoff_ms, bool *failed)
{
    *failed = false;
    struct db_param q[] = {DBP_INT(now_ms + backoff_ms), DBP_OPT(error), DBP_INT(now_ms), DBP_TEXT(id),
                           DBP_TEXT(owner)};
    int rc = owned_update(db,
                          "UPDATE jobs SET state = 'queued', run_after = ?, last_error = ?, lease_until = 0,"
                          " updated_ms = ? WHERE id = ? AND lease_owner = ? AND state = 'running'"
                          " AND attempts < max_attempts",
                          q, 5);
    if (rc != ST_NOTFOUND)
        return rc;
    /* no attempts left (or the lease is gone, in which case this changes nothing either) */
    rc = store_job_finish(db, id, owner, BW_JOB_STATE_FAILED, error, now_ms);
    if (rc == ST_OK)
        *failed = true;
    return rc;
}

int store_job_release(struct db *db, const char *id, const char *owner, int64_t now_ms)
{
    struct db_param p[] = {DBP_INT(now_ms), DBP_INT(now_ms), DBP_TEXT(id), DBP_TEXT(owner)};
    return owned_update(db,
                        "UPDATE jobs SET state = 'queued', attempts = attempts - 1, run_after = ?, lease_until = 0,"
                        " updated_ms = ? WHERE id = ? AND lease_owner = ? AND state = 'running'",
                        p, 4);
}

/* Running with an expired lease and no attempts left: nobody will finish it. Parameter: now. */
#define REAPABLE "state = 'running' AND lease_until < ? AND attempts >= max_attempts"

/* The jobs failed so far: up to cap in out. */
struct reaped {
    struct store_job *out;
    size_t cap, n;
};

static int read_reaped(struct db_rows *r, void *arg)
{
    struct reaped *k = arg;
    if (k->n < k->cap) /* the LIMIT keeps every row within cap; this keeps out within bounds */
        read_job(r, &k->out[k->n++]);
    return ST_OK;
}

struct reap {
    int64_t now_ms;
    struct reaped k;
};

static int reap_tx(struct db_conn *c, void *arg)
{
    struct reap *r = arg;
    struct db_param p[] = {DBP_INT(r->now_ms), DBP_INT(r->now_ms), DBP_INT(r->now_ms), DBP_INT((int64_t)r->k.cap)};
    r->k.n = 0;
    /* At most cap jobs, so each job failed here comes back to the caller for its failure hook. The
     * condition is repeated outside the subquery: on PostgreSQL a row another reaper failed
     * meanwhile is re-checked after its lock and skipped, never failed and returned twice. */
    return store_conn_each(c,
                           "UPDATE jobs SET state = 'failed', last_error = 'the worker stopped answering and no"
                           " attempts are left', updated_ms = ? WHERE " REAPABLE " AND id IN (SELECT id FROM jobs"
                           " WHERE " REAPABLE " ORDER BY created_ms, id LIMIT ?) RETURNING " JOB_COLS,
                           p, 4, read_reaped, &r->k);
}

int store_job_reap(struct db *db, int64_t now_ms, struct store_job *out, size_t cap, size_t *n)
{
    struct reap r = {now_ms, {out, cap, 0}};
    /* a transaction (SQLite: the writer thread's), so the rows handed back are the rows failed */
    int rc = store_tx(db, reap_tx, &r);
    *n = rc == ST_OK ? r.k.n : 0;
    return rc;
}

int store_job_cancel_ref_conn(struct db_conn *c, const char *ref, int64_t now_ms)
{
    struct db_param p[] = {DBP_INT(now_ms), DBP_TEXT(ref)};
    return store_conn_exec(c, "UPDATE jobs SET state = 'cancelled', updated_ms = ? WHERE ref = ? AND state = 'queued'",
                           p, 2, NULL) == ST_OK
               ? ST_OK
               : ST_ERROR;
}

int store_job_get(struct db *db, const char *id, struct store_job *out)
{
    struct db_param p[] = {DBP_TEXT(id)};
    return store_query_one(db, "SELECT " JOB_COLS " FROM jobs WHERE id = ?", p, 1, read_job, out);
}

/* The kinds so far: up to cap in out. */
struct queue_stats {
    struct store_job_queue *out;
    size_t cap, n;
};

/* A (kind, state) group into its kind's entry. */
static int read_group(struct db_rows *r, void *arg)
{
    struct queue_stats *q = arg;
    const char *kind = db_rows_text(r, 0);
    int state = bw_job_state_parse(db_rows_text(r, 1));
    if (!kind || state < 0)
        return ST_OK;
    size_t i = 0;
    while (i < q->n && strcmp(q->out[i].kind, kind) != 0)
        i++;
    if (i == q->n) {
        if (q->n == q->cap)
            return ST_OK; /* more kinds than asked for: the rest are left out */
        memset(&q->out[i], 0, sizeof q->out[i]);
        COPY(q->out[i].kind, kind);
        q->n++;
    }
    if (state == BW_JOB_STATE_QUEUED) {
        q->out[i].queued = db_rows_int(r, 2);
        q->out[i].oldest_queued_ms = db_rows_int(r, 3);
    } else {
        q->out[i].running = db_rows_int(r, 2);
    }
    return ST_OK;
}

int store_job_queue_stats(struct db *db, struct store_job_queue *out, size_t cap, size_t *n)
{
    struct queue_stats q = {out, cap, 0};
    int rc = store_query_each(db,
                              "SELECT kind, state, COUNT(*), MIN(created_ms) FROM jobs WHERE state IN ('queued',"
                              " 'running') GROUP BY kind, state ORDER BY kind",
                              NULL, 0, read_group, &q);
    *n = q.n;
    return rc;
}
