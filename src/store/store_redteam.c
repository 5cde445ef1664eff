#include "store/store_redteam.h"

#include "store/store.h"
#include "store/store_internal.h"
#include "store/store_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENG_COLS                                                                                   \
    "id, user_id, asset_id, asset_type, target_url, categories, intensity, canary, status, attack_ids,"  \
    " attack_count, attacks_done, attacks_succeeded, eta_seconds, overall_risk, error, created_at,"  \
    " started_at, finished_at, created_us, report, budget_requests, budget_seconds"

static int read_eng(struct db_rows *r, void *item)
{
    struct store_engagement *e = item;
    COPY(e->id, db_rows_text(r, 0));
    COPY(e->user_id, db_rows_text(r, 1));
    COPY(e->asset_id, db_rows_text(r, 2));
    COPY(e->asset_type, db_rows_text(r, 3));
    COPY(e->target_url, db_rows_text(r, 4));
    COPY(e->categories, db_rows_text(r, 5));
    COPY(e->intensity, db_rows_text(r, 6));
    COPY(e->canary, db_rows_text(r, 7));
    e->status = bw_run_status_stored(db_rows_text(r, 8));
    const char *ids = db_rows_text(r, 9);
    e->attack_ids = strdup(ids ? ids : "[]");
    e->attack_count = (int)db_rows_int(r, 10);
    e->attacks_done = (int)db_rows_int(r, 11);
    e->attacks_succeeded = (int)db_rows_int(r, 12);
    e->eta_seconds = (int)db_rows_int(r, 13);
    COPY(e->overall_risk, db_rows_text(r, 14));
    COPY(e->error, db_rows_text(r, 15));
    COPY(e->created_at, db_rows_text(r, 16));
    COPY(e->started_at, db_rows_text(r, 17));
    COPY(e->finished_at, db_rows_text(r, 18));
    e->created_us = db_rows_int(r, 19);
    e->budget_requests = (int)db_rows_int(r, 21);
    e->budget_seconds = (int)db_rows_int(r, 22);
    const char *rep = db_rows_text(r, 20);
    e->report = rep ? strdup(rep) : NULL;
    return ST_OK; /* a failed copy of attack_ids is the caller's to see */
}

void store_engagement_clear(struct store_engagement *e)
{
    free(e->report);
    free(e->attack_ids);
    e->report = NULL;
    e->attack_ids = NULL;
}

struct engagement_create {
    const struct store_engagement *e;
    const char *job_id;
    int max_attempts;
    long max_active;
    int64_t now_ms;
    int64_t *active;
};

static int engagement_create_tx(struct db_conn *c, void *arg)
{
    const struct engagement_create *a = arg;
    const struct store_engagement *e = a->e;
    int rc = store_capped(c, e->user_id,
                          "SELECT COUNT(*) FROM engagements WHERE user_id = ? AND status IN ('queued', 'running')",
                          a->max_active, a->active);
    if (rc != ST_OK)
        return rc;
    struct db_param p[] = {DBP_TEXT(e->id),         DBP_TEXT(e->user_id),    DBP_TEXT(e->asset_id),
                           DBP_TEXT(e->asset_type), DBP_TEXT(e->target_url), DBP_TEXT(e->categories),
                           DBP_TEXT(e->intensity),  DBP_TEXT(e->canary),     DBP_TEXT(e->attack_ids),
                           DBP_INT(e->attack_count), DBP_INT(e->eta_seconds), DBP_TEXT(e->created_at),
                           DBP_INT(e->created_us),   DBP_INT(e->budget_requests), DBP_INT(e->budget_seconds)};
    if (store_conn_exec(c,
                        "INSERT INTO engagements (id, user_id, asset_id, asset_type, target_url, categories, intensity,"
                        " canary, status, attack_ids, attack_count, eta_seconds, created_at, created_us,"
                        " budget_requests, budget_seconds)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?)",
                        p, 15, NULL) != ST_OK)
        return ST_ERROR;
    return store_job_enqueue_conn(c, a->job_id, "redteam", e->id, a->max_attempts, a->now_ms);
}

int store_engagement_create(struct db *db, const struct store_engagement *e, const char *job_id, int max_attempts,
                            long max_active, int64_t now_ms, int64_t *active)
{
    *active = 0;
    return store_tx(db, engagement_create_tx,
                    &(struct engagement_create){e, job_id, max_attempts, max_active, now_ms, active});
}

int store_engagement_get(struct db *db, const char *user_id, const char *id, struct store_engagement *out)
{
    struct db_param p[] = {DBP_TEXT(id), DBP_OPT(user_id)};
    int st = user_id ? store_query_one(db, "SELECT " ENG_COLS " FROM engagements WHERE id = ? AND user_id = ?", p, 2,
                                       read_eng, out)
                     : store_query_one(db, "SELECT " ENG_COLS " FROM engagements WHERE id = ?", p, 1, read_eng, out);
    if (st == ST_OK && !out->attack_ids) {
        store_engagement_clear(out);
        st = ST_ERROR;
    }
    return st;
}

static int read_ms(struct db_rows *r, void *ms)
{
    *(int *)ms = (int)db_rows_int(r, 0);
    return ST_OK;
}

int store_engagement_avg_ms(struct db *db, const char *asset_id, int *ms)
{
    struct db_param p[] = {DBP_TEXT(asset_id)};
    return store_query_one(db,
                           "SELECT avg_attack_ms FROM engagements WHERE asset_id = ? AND status = 'completed'"
                           " AND avg_attack_ms IS NOT NULL ORDER BY created_us DESC LIMIT 1",
                           p, 1, read_ms, ms);
}

int store_engagement_start(struct db *db, const char *id, const char *started_at)
{
    struct db_param p[] = {DBP_TEXT(started_at), DBP_TEXT(id)};
    return store_exec_changed(db,
                        "UPDATE engagements SET status = 'running', started_at = COALESCE(started_at, ?)"
                        " WHERE id = ? AND status IN ('queued', 'running')",
                        p, 2, ST_CONFLICT);
}

static int read_status(struct db_rows *r, void *status)
{
    *(enum bw_run_status *)status = bw_run_status_stored(db_rows_text(r, 0));
    return ST_OK;
}

int store_engagement_status(struct db *db, const char *id, enum bw_run_status *status)
{
    struct db_param p[] = {DBP_TEXT(id)};
    return store_query_one(db, "SELECT status FROM engagements WHERE id = ?", p, 1, read_status, status);
}

struct attack_save {
    const char *id;
    const struct store_attack_row *a;
    int64_t now_us;
};

static int attack_save_tx(struct db_conn *c, void *arg)
{
    const struct attack_save *s = arg;
    const char *id = s->id;
    const struct store_attack_row *a = s->a;
    int64_t ch = 0;
    struct db_param ins[] = {DBP_TEXT(id),          DBP_TEXT(a->attack_id), DBP_INT(a->seq),
                             DBP_INT(a->succeeded), DBP_INT(a->errored),    DBP_TEXT(a->severity),
                             DBP_TEXT(a->detector), DBP_TEXT(a->prompt),    DBP_TEXT(a->response_excerpt),
                             DBP_INT(a->elapsed_ms), DBP_INT(s->now_us),
                             a->findings[0] ? DBP_TEXT(a->findings) : DBP_NULL,
                             a->path[0] ? DBP_TEXT(a->path) : DBP_NULL, DBP_INT(a->requests > 0 ? a->requests : 1),
                             a->search[0] ? DBP_TEXT(a->search) : DBP_NULL};
    struct db_param up[] = {DBP_TEXT(id), DBP_TEXT(id), DBP_TEXT(id)};
    /* a row that exists (the attack ran before a crash) wins: nothing is counted twice. The
     * recompute only touches a running engagement: when a cancel (or any final state) committed
     * first, nothing changes and the row goes with the rollback. On PostgreSQL the update waits
     * for a concurrent cancel's row lock and then sees its status; SQLite's write lock orders them. */
    if (store_conn_exec(c,
                        "INSERT INTO engagement_attacks (engagement_id, attack_id, seq, succeeded, errored, severity,"
                        " detector, prompt, response_excerpt, elapsed_ms, created_us, findings, path, requests, search)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        ins, 15, NULL) != ST_OK ||
        store_conn_exec(c,
                        "UPDATE engagements SET"
                        " attacks_done = (SELECT COUNT(*) FROM engagement_attacks WHERE engagement_id = ?),"
                        " attacks_succeeded = (SELECT COUNT(*) FROM engagement_attacks WHERE engagement_id = ?"
                        " AND succeeded = 1) WHERE id = ? AND status = 'running'",
                        up, 3, &ch) != ST_OK)
        return ST_ERROR;
    return ch ? ST_OK : ST_CONFLICT;
}

int store_engagement_attack_save(struct db *db, const char *id, const struct store_attack_row *a, int64_t now_us)
{
    return store_tx(db, attack_save_tx, &(struct attack_save){id, a, now_us});
}

static int read_attack(struct db_rows *r, void *item)
{
    struct store_attack_row *a = item;
    COPY(a->attack_id, db_rows_text(r, 0));
    a->seq = (int)db_rows_int(r, 1);
    a->succeeded = (int)db_rows_int(r, 2);
    a->errored = (int)db_rows_int(r, 3);
    COPY(a->severity, db_rows_text(r, 4));
    COPY(a->detector, db_rows_text(r, 5));
    COPY(a->prompt, db_rows_text(r, 6));
    COPY(a->response_excerpt, db_rows_text(r, 7));
    a->elapsed_ms = (int)db_rows_int(r, 8);
    COPY(a->findings, db_rows_text(r, 9));
    COPY(a->path, db_rows_text(r, 10));
    a->requests = (int)db_rows_int(r, 11);
    COPY(a->search, db_rows_text(r, 12));
    return ST_OK;
}

int store_engagement_attacks(struct db *db, const char *id, struct store_attack_row **out, size_t *n)
{
    struct db_param p[] = {DBP_TEXT(id)};
    void *items = NULL;
    int rc = store_query_list(db,
                              "SELECT attack_id, seq, succeeded, errored, severity, detector, prompt, response_excerpt,"
                              " elapsed_ms, findings, path, requests, search FROM engagement_attacks WHERE engagement_id = ? ORDER BY seq, attack_id",
                              p, 1, sizeof **out, read_attack, &items, n);
    *out = items;
    return rc;
}

int store_engagement_finish(struct db *db, const char *id, enum bw_run_status status, const char *overall_risk,
                            const char *error, const char *report, int avg_ms, const char *finished_at)
{
    struct db_param p[] = {DBP_TEXT(bw_run_status_name(status)),DBP_OPT(overall_risk), DBP_OPT(error),
                           DBP_OPT(report),       avg_ms >= 0 ? DBP_INT(avg_ms) : DBP_NULL,
                           DBP_TEXT(finished_at), DBP_TEXT(id)};
    return store_exec_changed(db,
                        "UPDATE engagements SET status = ?, overall_risk = ?, error = ?, report = ?,"
                        " avg_attack_ms = ?, finished_at = ? WHERE id = ? AND status IN ('queued', 'running')",
                        p, 7, ST_CONFLICT);
}

struct engagement_cancel {
    const char *user_id, *id, *finished_at;
    int64_t now_ms;
    int64_t changed; /* engagements cancelled: 0 or 1 */
};

static int engagement_cancel_tx(struct db_conn *c, void *arg)
{
    struct engagement_cancel *a = arg;
    struct db_param p[] = {DBP_TEXT(a->finished_at), DBP_TEXT(a->id), DBP_TEXT(a->user_id)};
    if (store_conn_exec(c,
                        "UPDATE engagements SET status = 'cancelled', finished_at = ?"
                        " WHERE id = ? AND user_id = ? AND status IN ('queued', 'running')",
                        p, 3, &a->changed) != ST_OK ||
        (a->changed && store_job_cancel_ref_conn(c, a->id, a->now_ms) != ST_OK))
        return ST_ERROR;
    return ST_OK;
}

int store_engagement_cancel(struct db *db, const char *user_id, const char *id, const char *finished_at,
                            int64_t now_ms, struct store_engagement *out)
{
    struct engagement_cancel a = {user_id, id, finished_at, now_ms, 0};
    int rc = store_tx(db, engagement_cancel_tx, &a);
    if (rc != ST_OK)
        return rc;
    /* the state afterwards; unchanged means final already, or not the caller's */
    rc = store_engagement_get(db, user_id, id, out);
    if (rc == ST_OK && !a.changed)
        rc = ST_CONFLICT;
    return rc;
}

/* A list item: read_eng without the two texts a list does not show (EL_COLS reads neither). */
static int read_eng_item(struct db_rows *r, void *item)
{
    struct store_engagement *e = item;
    read_eng(r, e);
    store_engagement_clear(e);
    return ST_OK;
}

#define EL_COUNT(w) "SELECT COUNT(*) FROM engagements WHERE user_id = ?" w
/* ENG_COLS with NULL for attack_ids and report, which a list does not show: a page reads no report. */
#define EL_COLS                                                                                     \
    "id, user_id, asset_id, asset_type, target_url, categories, intensity, canary, status, NULL,"      \
    " attack_count, attacks_done, attacks_succeeded, eta_seconds, overall_risk, error, created_at,"  \
    " started_at, finished_at, created_us, NULL"
#define EL_SELECT(w) "SELECT " EL_COLS ", (" EL_COUNT(w) ") FROM engagements WHERE user_id = ?" w
#define EL_ORDER " ORDER BY created_us DESC, id DESC"
#define EL_PAGE(w) EL_SELECT(w) EL_ORDER " LIMIT ? OFFSET ?"
#define EL_AFTER(w) EL_SELECT(w) " AND " STORE_AFTER("created_us", "id") EL_ORDER " LIMIT ?"
#define EL_W ""
#define EL_WS " AND status = ?"
#define EL_WA " AND asset_id = ?"
#define EL_WB " AND asset_id = ? AND status = ?"

int store_engagement_list(struct db *db, const char *user_id, const char *status, const char *asset_id,
                          struct store_page *pg, struct store_engagement **out, size_t *n, int64_t *total)
{
    static const char *const sql[2][4] = {{EL_PAGE(EL_W), EL_PAGE(EL_WS), EL_PAGE(EL_WA), EL_PAGE(EL_WB)},
                                          {EL_AFTER(EL_W), EL_AFTER(EL_WS), EL_AFTER(EL_WA), EL_AFTER(EL_WB)}};
    static const char *const count_sql[4] = {EL_COUNT(EL_W), EL_COUNT(EL_WS), EL_COUNT(EL_WA), EL_COUNT(EL_WB)};
    static const struct store_page_cols cols = {.key = 19, .id = 0, .total = 21};
    int which = (status ? 1 : 0) | (asset_id ? 2 : 0);
    struct db_param p[12];
    int np = 0;
    for (int twice = 0; twice < 2; twice++) { /* the count's parameters, then the rows' */
        p[np++] = DBP_TEXT(user_id);
        if (asset_id)
            p[np++] = DBP_TEXT(asset_id);
        if (status)
            p[np++] = DBP_TEXT(status);
    }
    int ncount = np / 2;
    np = store_page_params(pg, false, p, np);
    void *items = NULL;
    int rc = store_query_page_list(db, sql[pg->after_id ? 1 : 0][which], p, np, pg, &cols, count_sql[which], ncount,
                                   total, sizeof **out, read_eng_item, &items, n);
    *out = items;
    return rc;
}

struct turn_save {
    const char *id, *attack_id;
    const struct store_turn *t;
    int64_t now_us;
};

static int turn_save_tx(struct db_conn *c, void *arg)
{
    const struct turn_save *s = arg;
    struct db_param st[] = {DBP_TEXT(s->id)};
    int64_t running = 0;
    /* the status row first: on PostgreSQL this waits for a concurrent cancel and then sees it */
    if (store_conn_exec(c, "UPDATE engagements SET status = status WHERE id = ? AND status = 'running'", st, 1,
                        &running) != ST_OK)
        return ST_ERROR;
    if (!running)
        return ST_CONFLICT;
    struct db_param p[] = {DBP_TEXT(s->id),          DBP_TEXT(s->attack_id),    DBP_INT(s->t->step),
                           DBP_TEXT(s->t->path),     DBP_INT(s->t->turn),       DBP_INT(s->t->status),
                           DBP_TEXT(s->t->exchange), DBP_INT(s->t->elapsed_ms), DBP_INT(s->now_us)};
    return store_conn_exec(c,
                           "INSERT INTO engagement_turns (engagement_id, attack_id, step, path, turn, status, exchange,"
                           " elapsed_ms, created_us) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                           p, 9, NULL) == ST_OK
               ? ST_OK
               : ST_ERROR;
}

int store_engagement_turn_save(struct db *db, const char *id, const char *attack_id, const struct store_turn *t,
                               int64_t now_us)
{
    return store_tx(db, turn_save_tx, &(struct turn_save){id, attack_id, t, now_us});
}

static int read_turn(struct db_rows *r, void *item)
{
    struct store_turn *t = item;
    t->step = (int)db_rows_int(r, 0);
    COPY(t->path, db_rows_text(r, 1));
    t->turn = (int)db_rows_int(r, 2);
    t->status = (int)db_rows_int(r, 3);
    const char *x = db_rows_text(r, 4);
    t->exchange = strdup(x ? x : "");
    t->elapsed_ms = (int)db_rows_int(r, 5);
    return t->exchange ? ST_OK : ST_ERROR;
}

static void clear_turn(void *item) { free(((struct store_turn *)item)->exchange); }

void store_turns_free(struct store_turn *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++)
        free(t[i].exchange);
    free(t);
}

int store_engagement_turns(struct db *db, const char *id, const char *attack_id, struct store_turn **out, size_t *n)
{
    struct db_param p[] = {DBP_TEXT(id), DBP_TEXT(attack_id)};
    void *items = NULL;
    int rc = store_query_list_owned(db,
                                    "SELECT step, path, turn, status, exchange, elapsed_ms FROM engagement_turns"
                                    " WHERE engagement_id = ? AND attack_id = ? ORDER BY step",
                                    p, 2, sizeof **out, read_turn, clear_turn, &items, n);
    *out = items;
    return rc;
}

int store_engagement_turns_purge(struct db *db, const char *finished_before, int batch, int64_t *deleted)
{
    if (deleted)
        *deleted = 0;
    for (;;) {
        struct db_param p[] = {DBP_TEXT(finished_before), DBP_INT(batch)};
        int64_t n = 0;
        /* a batch of ended engagements that still have turns, then theirs (portable: LIMIT in the
         * subquery, not on DELETE) */
        if (store_exec(db,
                       "DELETE FROM engagement_turns WHERE engagement_id IN (SELECT e.id FROM engagements e"
                       " WHERE e.status IN ('completed', 'failed', 'cancelled') AND e.finished_at IS NOT NULL"
                       " AND e.finished_at <> '' AND e.finished_at <= ? AND EXISTS (SELECT 1 FROM engagement_turns t"
                       " WHERE t.engagement_id = e.id) LIMIT ?)",
                       p, 2, &n) != ST_OK)
            return ST_ERROR;
        if (deleted)
            *deleted += n;
        if (n == 0)
            return ST_OK;
    }
}

struct usage {
    long *requests, *ms;
};

static int read_usage(struct db_rows *r, void *arg)
{
    struct usage *u = arg;
    *u->requests = (long)db_rows_int(r, 0);
    *u->ms = (long)db_rows_int(r, 1);
    return ST_OK;
}

int store_engagement_turn_usage(struct db *db, const char *id, const char *attack_id, long *requests, long *ms)
{
    *requests = 0;
    *ms = 0;
    struct db_param p[] = {DBP_TEXT(id), DBP_TEXT(attack_id)};
    return store_query_one(db,
                           "SELECT COUNT(*), COALESCE(SUM(elapsed_ms), 0) FROM engagement_turns"
                           " WHERE engagement_id = ? AND attack_id <> ?",
                           p, 2, read_usage, &(struct usage){requests, ms});
}
