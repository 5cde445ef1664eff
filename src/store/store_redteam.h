/* Red-team engagements and their per-attack results (migration 0006).
 *
 * An engagement row is created together with its job (one transaction) after the account's
 * active engagements (queued + running) are counted under the per-user lock, so the tier cap
 * holds under concurrent requests. Each attack's result is one row keyed (engagement_id,
 * attack_id) and inserted with ON CONFLICT DO NOTHING; the engagement's counters are recomputed
 * from the rows in the same transaction, never incremented, so an attack repeated after a crash
 * neither adds a row nor counts twice. Rows are only stored while the engagement is running, so
 * a final engagement (cancelled) keeps the rows and counters it had when it ended.
 *
 * Ownership: struct store_engagement is filled by value except `report`, which is malloc'ed by
 * store_engagement_get (free it); attack rows from store_engagement_attacks are one malloc'ed
 * array (free it). */
#ifndef BW_STORE_STORE_REDTEAM_H
#define BW_STORE_STORE_REDTEAM_H
#include "common/ids.h"
#include "common/limits.h"
#include "common/states.h"
#include "store/db.h"

#include <stddef.h>
#include <stdint.h>

struct store_engagement {
    char id[BW_ID_MAX], user_id[BW_ID_MAX], asset_id[BW_ID_MAX];
    char asset_type[16];
    char target_url[8200];
    char categories[256]; /* JSON array text */
    char intensity[16];
    char canary[32];
    enum bw_run_status status;
    char *attack_ids; /* JSON array text of the selected attack ids; malloc'ed by _get, borrowed by _create */
    int attack_count, attacks_done, attacks_succeeded, eta_seconds;
    char overall_risk[16]; /* "" until completed */
    char error[256];
    char created_at[24], started_at[24], finished_at[24];
    int64_t created_us;
    char *report; /* the final report JSON when completed; malloc'ed by _get */
    int budget_requests, budget_seconds; /* the escalation budget (0: none, engagements before 0036) */
};

struct store_attack_row {
    char attack_id[BW_RT_ATTACK_ID_MAX];
    int seq;
    int succeeded, errored;
    char severity[16];
    char detector[32];
    char prompt[BW_RT_PROMPT_MAX + 8];
    char response_excerpt[BW_RT_EXCERPT_MAX + 8];
    int elapsed_ms;
    char findings[BW_RT_FINDINGS_MAX]; /* JSON array of what fired; "" = none recorded (rows before 0021) */
    char path[BW_RT_PATH_MAX];         /* the escalation path of the kept reply; "" = the attack as written */
    int requests;                      /* requests the attack took (escalation included) */
    char search[16];                   /* how its escalation ended (bw_rt_search_end_name); "" = none */
};

/* One stored request of an attack's escalation (migration 0036). */
struct store_turn {
    int step, turn, status, elapsed_ms;
    char path[BW_RT_PATH_MAX];
    char *exchange; /* the sealed {reply, body}; malloc'ed by store_engagement_turns */
};

/* Creates e (status queued) and a queued job (job_id, kind "redteam", ref e->id) in one
 * transaction, unless the user already has max_active queued or running engagements (ST_LIMIT;
 * *active gets the count either way). */
int store_engagement_create(struct db *db, const struct store_engagement *e, const char *job_id, int max_attempts,
                            long max_active, int64_t now_ms, int64_t *active);
/* The engagement; user_id NULL = any account (workers). Another account's is ST_NOTFOUND. Free
 * out->report and out->attack_ids (store_engagement_clear). */
int store_engagement_get(struct db *db, const char *user_id, const char *id, struct store_engagement *out);
void store_engagement_clear(struct store_engagement *e);
/* The measured mean attack latency of the latest completed engagement on the asset; ST_NOTFOUND
 * when there is none. */
int store_engagement_avg_ms(struct db *db, const char *asset_id, int *ms);
/* queued|running -> running (started_at kept from the first start). ST_CONFLICT when the
 * engagement is final (cancelled meanwhile). */
int store_engagement_start(struct db *db, const char *id, const char *started_at);
/* The status only (the worker's cancellation check between attacks). */
int store_engagement_status(struct db *db, const char *id, enum bw_run_status *status);
/* Stores one attack result (idempotent) and recomputes the counters, in one transaction and only
 * while the engagement is running: ST_CONFLICT (nothing stored) once it is final, e.g. cancelled
 * while the attack was in flight. */
int store_engagement_attack_save(struct db *db, const char *id, const struct store_attack_row *a, int64_t now_us);
/* Stores one request of attack_id's escalation (idempotent: a step stored before wins), only while
 * the engagement is running (ST_CONFLICT once it is final). */
int store_engagement_turn_save(struct db *db, const char *id, const char *attack_id, const struct store_turn *t,
                               int64_t now_us);
/* attack_id's stored requests by step (*out malloc'ed; store_turns_free). */
int store_engagement_turns(struct db *db, const char *id, const char *attack_id, struct store_turn **out, size_t *n);
void store_turns_free(struct store_turn *t, size_t n);
/* Retention: deletes the stored requests of engagements that ended (completed, failed, cancelled)
 * at or before finished_before (ISO 8601, as finished_at is written), at most batch engagements'
 * worth a statement until none is left; *deleted (may be NULL) gets the rows deleted. Nothing
 * else reads them after the end: the report is kept in the engagement and its attack rows. */
int store_engagement_turns_purge(struct db *db, const char *finished_before, int batch, int64_t *deleted);
/* The engagement's stored requests of every attack but attack_id: how many, and their target time. */
int store_engagement_turn_usage(struct db *db, const char *id, const char *attack_id, long *requests, long *ms);
/* Every attack row, in selection order; *out malloc'ed. */
int store_engagement_attacks(struct db *db, const char *id, struct store_attack_row **out, size_t *n);
/* queued|running -> status (completed or failed) with the report (may be NULL), overall risk
 * (may be NULL), error (may be NULL) and the mean attack latency (<0: unknown). ST_CONFLICT when
 * the engagement was already final (a cancel won). */
int store_engagement_finish(struct db *db, const char *id, enum bw_run_status status, const char *overall_risk,
                            const char *error, const char *report, int avg_ms, const char *finished_at);
/* The caller's engagements, newest first (created_us, id), one page (store.h struct store_page);
 * status and asset_id NULL = any. Items are filled without attack_ids and report (both NULL);
 * *out malloc'ed. Each filter combination reads its own index of migration 0013. */
struct store_page;
int store_engagement_list(struct db *db, const char *user_id, const char *status, const char *asset_id,
                          struct store_page *pg, struct store_engagement **out, size_t *n, int64_t *total);

/* The owner's cancel: queued|running -> cancelled, and its queued job with it. ST_CONFLICT: it
 * was already final; ST_NOTFOUND: not the caller's. *out gets the state afterwards. */
int store_engagement_cancel(struct db *db, const char *user_id, const char *id, const char *finished_at,
                            int64_t now_ms, struct store_engagement *out);

#endif
