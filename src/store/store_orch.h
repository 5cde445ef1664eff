/* The orchestrator's storage (migration 0008): runs, persisted snapshots, and the bounded reads
 * the pipeline makes over what other modules stored (intel records, assets and their latest
 * scans, engagements, saved playbooks). Return codes are store.h's ST_*.
 *
 * The store parses no document: reads of rows that carry one (an asset's latest scan, an
 * engagement's report, an intel record) hand each row to a caller's function, the document as the
 * stored text; src/services/orch.c decides what it means. Reads of plain columns (managed
 * accounts, stale playbooks) append JSON values to a caller's array. Every read is capped by the
 * caller, so a huge store costs a bounded pipeline.
 *
 * Ownership: the texts of a row are borrowed for the duration of the callback. */
#ifndef BW_STORE_STORE_ORCH_H
#define BW_STORE_STORE_ORCH_H
#include "common/ids.h"
#include "common/limits.h"
#include "common/states.h"
#include "store/db.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store_orch_run {
    char job_id[BW_ID_MAX];
    char scope_key[BW_ORCH_SCOPE_KEY_MAX];
    char requested_by[BW_ID_MAX];
    enum bw_run_status status; /* queued, running, completed, failed */
    long max_items;
    int phase, phases_done;
    char accepted_at[24], started_at[24], finished_at[24]; /* "" when not yet */
    char error[256];
};

/* Inserts the run and its job in one transaction. ST_CONFLICT when the scope has an active run:
 * *active_job then names it. */
int store_orch_run_create(struct db *db, const struct store_orch_run *run, int64_t accepted_us, int max_attempts,
                          int64_t now_ms, char active_job[BW_ID_MAX]);
int store_orch_run_get(struct db *db, const char *job_id, struct store_orch_run *out);
/* The newest run of the scope (scope_key NULL: of any scope). ST_NOTFOUND when none. */
int store_orch_run_latest(struct db *db, const char *scope_key, struct store_orch_run *out);
/* The scope's queued or running run; ST_NOTFOUND when none. */
int store_orch_run_active(struct db *db, const char *scope_key, struct store_orch_run *out);
int store_orch_run_count(struct db *db, const char *scope_key, int64_t *n); /* NULL: every scope */
/* running, started_at set the first time (a resumed run keeps its first start). */
int store_orch_run_start(struct db *db, const char *job_id, const char *now_iso);
int store_orch_run_progress(struct db *db, const char *job_id, int phase, int phases_done);
/* completed or failed; the run stops being active. */
int store_orch_run_finish(struct db *db, const char *job_id, enum bw_run_status status, const char *error,
                          const char *now_iso);

enum store_orch_pack { STORE_PACK_CISO, STORE_PACK_ASPM, STORE_PACK_COMPLIANCE, STORE_PACK_HUNT };

struct store_orch_snapshot {
    char id[BW_ID_MAX], scope_key[BW_ORCH_SCOPE_KEY_MAX], job_id[BW_ID_MAX];
    long max_items;
    char created_at[24];
    int64_t created_us;
};
/* Saves the four packs (JSON texts) and keeps the newest `keep` snapshots of the scope. */
int store_orch_snapshot_save(struct db *db, const struct store_orch_snapshot *s, const char *const texts[4],
                             int keep);
/* The scope's newest snapshot: its metadata and one pack's text (*text malloc'ed). ST_NOTFOUND. */
int store_orch_snapshot_latest(struct db *db, const char *scope_key, enum store_orch_pack pack,
                               struct store_orch_snapshot *meta, char **text);

/* ---- the pipeline's reads ---- */

/* Ids of the accounts managed by manager_id (`user add --managed-by`), at most cap, appended as
 * JSON strings. */
int store_orch_managed(struct db *db, const char *manager_id, size_t cap, json_t *ids);

/* An asset with its latest scan; NULL for SQL NULL. */
struct store_orch_asset {
    const char *id, *user_id, *name, *type, *provider, *endpoint, *env;
    int64_t security_score;
    const char *risk_level, *created_at, *last_scan_id, *last_scanned_at;
    const char *scan; /* the latest scan's document as stored, or NULL */
    const char *score_basis; /* "static" or "live" */
};
typedef void (*store_orch_asset_fn)(void *arg, const struct store_orch_asset *a);
/* Calls fn for the assets of user_id (NULL: every account), newest first, at most cap. */
int store_orch_assets(struct db *db, const char *user_id, size_t cap, store_orch_asset_fn fn, void *arg);

/* A completed engagement; NULL for SQL NULL. */
struct store_orch_engagement {
    const char *id, *user_id, *asset_id, *overall_risk, *finished_at;
    const char *report; /* the scored report as stored, or NULL */
};
typedef void (*store_orch_engagement_fn)(void *arg, const struct store_orch_engagement *e);
/* Calls fn for the completed engagements of user_id (NULL: every account), newest first, at most
 * cap. */
int store_orch_engagements(struct db *db, const char *user_id, size_t cap, store_orch_engagement_fn fn, void *arg);

/* An intel record's stored document (NULL for SQL NULL). */
typedef void (*store_orch_doc_fn)(void *arg, const char *doc);
/* Calls fn for the records with a CVE id that are in KEV or rated CRITICAL/HIGH, riskiest first
 * (then id), at most limit. */
int store_orch_active_cves(struct db *db, size_t limit, store_orch_doc_fn fn, void *arg);
/* Calls fn for the records in KEV, riskiest first, at most cap. */
int store_orch_kev(struct db *db, size_t cap, store_orch_doc_fn fn, void *arg);

/* Assets of user_id (NULL: every account). */
int store_orch_asset_count(struct db *db, const char *user_id, int64_t *n);

struct store_orch_counts {
    int64_t records;       /* every intel record */
    int64_t cves;          /* records filed under a CVE id */
    int64_t cves_kev;
    int64_t critical;      /* CVE records rated CRITICAL */
    int64_t critical_kev;  /* ... of them in KEV */
    int64_t critical_ai;   /* ... of them with an AI impact or an ATLAS technique */
    int64_t kev;           /* every KEV record */
};
int store_orch_counts(struct db *db, struct store_orch_counts *out);

/* The account's saved playbooks whose newest generation is older than the record (stale), at
 * most cap: {threat_id, record_version, current_version}. */
int store_orch_stale_playbooks(struct db *db, const char *user_id, size_t cap, json_t *out);

#endif
