/* Threat-intelligence storage (migration 0004): records, the feed over them, saved playbook
 * generations. Built on db.h like store.h; return codes are store.h's ST_*.
 *
 * Writers hand store_intel_write a body that it runs in a write transaction after taking the
 * intel lock row, so imports and the first-start seed run one after another, also across
 * instances on one PostgreSQL. intel_counts (records per type and severity) is kept in step
 * inside the same transaction, which is what lets the feed answer `total` without counting.
 *
 * Ownership: char ** results are malloc'ed (free them); the feed's bw_sb belongs to the caller. */
#ifndef BW_STORE_STORE_INTEL_H
#define BW_STORE_STORE_INTEL_H
#include "common/limits.h"
#include "common/sbuf.h"
#include "store/db.h"
#include "store/store.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- writing records ---- */

struct store_intel_tx;

/* The columns of one record row; doc and entry are its canonical text and feed entry. */
struct store_intel_row {
    const char *id, *type, *title, *severity, *published, *updated, *enriched_at, *source;
    int64_t enriched_us, version;
    int64_t epss;       /* the current EPSS score in parts per billion; -1 when none */
    int64_t changed_us; /* the last change of facts or EPSS */
    int risk_score;
    bool kev;
    const char *doc, *entry;
};

/* An intel write's body: reads and writes through tx (valid only during the call). ST_OK commits;
 * any other answer rolls back and is what store_intel_write answers. */
typedef int (*store_intel_fn)(struct store_intel_tx *tx, void *arg);
/* Opens a write transaction, takes the intel lock row (a second writer waits there until the
 * first commits), runs body(tx, arg), commits on ST_OK and rolls back otherwise. body's answer,
 * or ST_ERROR when the database failed before or after it. */
int store_intel_write(struct db *db, store_intel_fn body, void *arg);
/* The stored document of id (*doc malloc'ed), or ST_NOTFOUND. */
int store_intel_tx_get(struct store_intel_tx *tx, const char *id, char **doc);
/* Inserts the row (old_type NULL) or replaces it (old_type/old_severity: what the row had). New
 * rows are written in multi-row INSERTs of up to 32 (when 32 wait, when store_intel_tx_get asks
 * for one of them, and when the body returns ST_OK), and the counters once at the end, so an id
 * inserted twice is a failure of the whole write (ST_CONFLICT), not of this call. */
int store_intel_tx_put(struct store_intel_tx *tx, const struct store_intel_row *row, const char *old_type,
                       const char *old_severity);
int store_intel_tx_count(struct store_intel_tx *tx, int64_t *n);
/* Hands fn every stored record id that is a CVE id ("CVE-..."), in id order; fn answers 0, or -1
 * to stop (then ST_ERROR). The EPSS import reads these few thousand ids instead of looking up
 * each of the file's ~300,000 CVEs. */
typedef int (*store_intel_id_fn)(const char *id, void *arg);
int store_intel_tx_cves(struct store_intel_tx *tx, store_intel_id_fn fn, void *arg);

/* ---- reading records ---- */

/* The document and version of a record; ST_NOTFOUND. */
int store_intel_get(struct db *db, const char *id, char **doc, int64_t *version);
int store_intel_count(struct db *db, int64_t *n);
/* The intel generation: a number that every write of records, counts or sync state raises in its
 * own transaction (the writers' lock row), so two reads that see the same generation see the same
 * feed. One point read. */
int store_intel_generation(struct db *db, int64_t *gen);
/* The generation without a round trip per call where that is safe: on PostgreSQL every intel
 * write notifies BW_INTEL_CHANNEL at its commit, so a watcher reads the generation again only
 * after a notification, after one of this process's own writes, after its listener (re)connects,
 * and at least every ttl_ms (BULWARK_INTEL_CACHE_MS: a notification lost while the listener was
 * disconnected; 0 reads on every call). Another instance's write is seen within moments, this process's at once. On
 * SQLite the other writer is the CLI, a process that writes the file unannounced: the database's
 * files are watched (db_watch), and every call polls the watch and reads again after another
 * process closed them (it wrote, or may have), so a CLI command that has finished is seen by the
 * next call; a process that keeps the file open after its commit, within ttl_ms
 * (docs/architecture.md). Without a watch, every call is a point read. */
struct store_intel_gen;
struct store_intel_gen *store_intel_gen_new(struct db *db, long ttl_ms);
int store_intel_gen_get(struct store_intel_gen *g, int64_t *gen);
void store_intel_gen_free(struct store_intel_gen *g);

/* The feed's orders, newest / riskiest / most likely exploited first, each then by id. */
enum store_feed_sort { STORE_FEED_PUBLISHED = 0, STORE_FEED_RISK = 1, STORE_FEED_EPSS = 2 };

struct store_feed_query {
    const char *type, *severity; /* NULL: any */
    int64_t epss_min;            /* EPSS score >= this (parts per billion); -1: no filter (records
                                    without a score match only then) */
    int64_t since_us;            /* changed_us > this; -1: no filter */
    enum store_feed_sort sort;   /* keyset key: published (text), risk_score or epss (integers;
                                    epss -1 for records without a score, so they come last) */
};

/* One feed page in q's order: the entries' JSON texts appended to out, separated by commas; pg
 * pages by offset or after a row (keyset); *total counts every match; *updated_us is the newest
 * change of any record (0 when the store is empty). One statement on the index of the order and
 * filters (see store_intel.c) with the totals alongside (a second only for an empty page).
 * ST_ERROR also when out runs out of memory. */
int store_intel_feed(struct db *db, const struct store_feed_query *q, struct store_page *pg, struct bw_sb *out,
                     int64_t *total, int64_t *updated_us);
/* The backend's plan of the feed's page statement for q, by offset or after a row (keyset), one
 * line per plan row, for tests. */
int store_intel_feed_plan(struct db *db, const struct store_feed_query *q, bool keyset, char *out, size_t cap);

/* ---- the sync's state per source (migration 0026) ---- */

struct store_sync_state {
    char source[8];
    char url[2048], etag[256], last_modified[64];
    char checked_at[21], imported_at[21], status[16], error[400];
};
/* The state of source; ST_NOTFOUND before its first attempt. */
int store_intel_sync_get(struct db *db, const char *source, struct store_sync_state *out);
/* Every source's state, by source name: fn(state, arg) for each (ST_OK goes on, ST_ERROR stops). */
typedef int (*store_intel_sync_fn)(const struct store_sync_state *s, void *arg);
int store_intel_sync_each(struct db *db, store_intel_sync_fn fn, void *arg);
/* Inserts or replaces the state of s->source. */
int store_intel_sync_put(struct db *db, const struct store_sync_state *s);

/* Records in the order they changed here (changed_us, then id, ascending), for STIX bundles and
 * TAXII: from the record (from_us, from_id) on, that record included (from_id NULL: every record
 * whose changed_us is greater than from_us). At most limit rows; fn(id, doc, changed_us, arg)
 * for each (the texts are the row's, valid during the call; a non-ST_OK answer stops and is
 * returned). *more: a row followed the last one handed over. One statement on intel_feed_changed
 * (migration 0025), so an EPSS update shows as a change too. */
typedef int (*store_intel_changed_fn)(const char *id, const char *doc, int64_t changed_us, void *arg);
int store_intel_changed(struct db *db, int64_t from_us, const char *from_id, long limit, store_intel_changed_fn fn,
                        void *arg, bool *more);
int store_intel_changed_plan(struct db *db, bool from_record, char *out, size_t cap);

/* ---- saved playbooks ---- */

struct store_playbook {
    char id[BW_ID_MAX];
    char user_id[BW_ID_MAX];
    char threat_id[BW_INTEL_ID_MAX + 1];
    int64_t record_version;  /* the record version it was generated from */
    int64_t current_version; /* the record's version now (filled by reads) */
    char risk_tier[16];
    char generated_at[21];
    int64_t generated_us;
};

int store_playbook_insert(struct db *db, const struct store_playbook *p, const char *playbook_text);
/* The caller's newest generation for threat_id (*text malloc'ed); ST_NOTFOUND when none. */
int store_playbook_latest(struct db *db, const char *user_id, const char *threat_id, struct store_playbook *out,
                          char **text);
/* The caller's generations, newest first (generated_us, then id; keyset key: generated_us, an
 * integer); *out malloc'ed, *total counts all of them. */
int store_playbook_history(struct db *db, const char *user_id, struct store_page *pg, struct store_playbook **out,
                           size_t *n, int64_t *total);
int store_playbook_history_plan(struct db *db, bool keyset, char *out, size_t cap);

#endif
