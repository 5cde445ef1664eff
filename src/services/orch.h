/* The orchestrator: a 16-phase pipeline over what the service stores (threat intelligence,
 * assets and their scans, red-team engagements, its own audit events) that produces four packs
 * for a scope: the CISO pack, the ASPM snapshot, the compliance posture and the hunt pack.
 *
 * Scope: the admin key and accounts with role admin see everything ("all"); an mssp account sees
 * its own and the accounts it manages; any other privileged account (ENTERPRISE) its own.
 *
 * A run (POST .../run, a job of kind "orchestrator" on the durable queue) executes the phases on a
 * worker and persists the packs as a snapshot; the pack endpoints serve the scope's newest
 * snapshot and compute the same pipeline on demand (without side effects: stale playbooks are
 * counted, not regenerated, and nothing is saved) while none exists.
 *
 * What is analysed, bounded by max_items (1..BW_ORCH_MAX_ITEMS, default 100):
 * - active CVEs: records filed under a CVE id that are in CISA KEV or rated CRITICAL/HIGH, the
 *   riskiest max_items of them (risk re-scored at the time of the run);
 * - KEV entries: every record in KEV (at most BW_ORCH_KEV_MAX);
 * - the scope's assets with their latest scans, completed engagements, audit anomalies (24 h).
 *
 * Posture score (0..100, higher is better) = 100 minus five capped deductions:
 *   findings   10 per open CRITICAL finding + 4 per HIGH (latest asset scans and red-team
 *              critical findings), at most 40
 *   coverage   20 x the share of registered assets not scanned in the last 30 days; 20 when no
 *              asset is registered (nothing inventoried is nothing known)
 *   assets     (100 - mean security score of scanned assets) / 5, at most 20
 *   exposure   5 per KEV entry and 2 per other active CVE matching a scoped asset, at most 10
 *   abuse      5 per HIGH and 2 per other zero-trust anomaly, at most 10
 * Grade: >= 90 A, >= 80 B, >= 70 C, >= 60 D, else F.
 *
 * An intel record matches an asset when a product or package name of the record (a word of at
 * least 4 characters that is not a generic term) equals a word of the asset's name, provider or
 * endpoint host. */
#ifndef BW_SERVICES_ORCH_H
#define BW_SERVICES_ORCH_H
#include "auth/auth.h"
#include "common/ids.h"
#include "common/limits.h"
#include "store/db.h"
#include "store/store_orch.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#define BW_ORCH_PHASES             16

extern const char *const bw_orch_phase_names[BW_ORCH_PHASES];

/* A phase as a run shows it: done, pending, or the run's running or failed while it is the
 * current phase. */
enum bw_orch_phase_status { BW_PHASE_PENDING, BW_PHASE_RUNNING, BW_PHASE_DONE, BW_PHASE_FAILED };
#define BW_ORCH_PHASE__STATUSES 4
/* "pending", "running", "done", "failed"; NULL for a value outside the enum. */
const char *bw_orch_phase_status_name(enum bw_orch_phase_status s);

struct bw_orch_scope {
    bool all;
    char kind[8];                         /* "all" | "account" | "mssp" */
    char owner[BW_ID_MAX];                /* the account; "" for all */
    char key[BW_ORCH_SCOPE_KEY_MAX];      /* "all" | "acct:<owner>" */
    json_t *accounts;                     /* account ids, owner first; NULL for all */
};

/* The scope of a privileged principal (accounts resolved now). ST_OK or ST_ERROR. */
int bw_orch_scope_of(struct db *db, const struct bw_principal *p, struct bw_orch_scope *out);
/* The scope a stored key names (a queued run): ST_NOTFOUND when its account is gone. */
int bw_orch_scope_from_key(struct db *db, const char *key, struct bw_orch_scope *out);
void bw_orch_scope_free(struct bw_orch_scope *s);
/* The scope as clients see it: {kind, account_id, accounts}. */
json_t *bw_orch_scope_json(const struct bw_orch_scope *s);

/* Called when phase `index` (1-based) starts; false stops the pipeline (shutdown, lost lease). */
typedef bool (*bw_orch_phase_fn)(void *arg, int index);

struct bw_orch_packs {
    json_t *ciso, *aspm, *compliance, *hunt;
};
void bw_orch_packs_free(struct bw_orch_packs *p);

struct bw_orch_opts {
    long max_items;
    int64_t now_s;
    const char *job_id; /* a run: regenerate stale playbooks and persist the snapshot; NULL: on demand */
    bw_orch_phase_fn phase;
    void *arg;
};

/* Runs the pipeline. 0 with the packs; 1 when phase() asked to stop; -1 with why. */
int bw_orch_compute(struct db *db, const struct bw_orch_scope *s, const struct bw_orch_opts *o,
                    struct bw_orch_packs *out, char *why, size_t cap);

/* The grade of a posture score. */
const char *bw_orch_grade(int score);

#endif
