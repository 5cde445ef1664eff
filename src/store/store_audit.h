/* The audit aggregates' table (migration 0007, `audit_counts`): upserts from the recorder
 * (src/audit), retention, and the two bounded reads the anomaly rules make: the principals of one
 * kind with the largest totals over a period, then one principal's minute buckets.
 *
 * A row is (kind, principal, bucket_ms, sub) -> n, first_ms, last_ms, principal_type, account_id,
 * detail. Writing adds n and widens first/last, so rows written by several flushes or several
 * instances of one bucket add up. Times are epoch milliseconds passed in by the caller.
 *
 * Ownership: everything is filled into caller-provided arrays; nothing returned needs freeing. */
#ifndef BW_STORE_STORE_AUDIT_H
#define BW_STORE_STORE_AUDIT_H
#include "common/ids.h"
#include "common/limits.h"
#include "store/db.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store_audit_row {
    const char *kind;           /* a static string: "auth_failure", "rate_limited", ... */
    const char *principal_type; /* a static string: "ip", "api_key", "account" */
    char principal[BW_AUDIT_PRINCIPAL_MAX];
    char sub[BW_AUDIT_PRINCIPAL_MAX]; /* "" unless the kind keys on it (key_use: the IP) */
    char account_id[BW_ID_MAX];       /* "" = none (stored as NULL) */
    char detail[BW_AUDIT_DETAIL_MAX];
    int64_t bucket_ms, n, first_ms, last_ms;
    bool written; /* set by store_audit_upsert for the rows that reached the database */
};

/* Sorts rows by key (so concurrent writers lock rows in one order) and upserts them, in
 * transactions of a few hundred rows. ST_OK, or ST_ERROR (logged) when some transaction failed:
 * then `written` tells which rows are in. */
int store_audit_upsert(struct db *db, struct store_audit_row *rows, size_t n);

/* Deletes up to batch rows of kind whose bucket is older than before_ms; *deleted (optional) gets
 * how many. Call again while it deletes a whole batch. */
int store_audit_purge(struct db *db, const char *kind, int64_t before_ms, long batch, int64_t *deleted);

struct store_audit_cand {
    char principal[BW_AUDIT_PRINCIPAL_MAX];
    char account_id[BW_ID_MAX]; /* "" = none */
    int64_t total;              /* events, or distinct subs when asked for */
};

/* The principals of kind with buckets in [from_ms, to_ms] whose total is at least min_total,
 * largest first, up to cap into out. Only the newest scan_rows rows are looked at. account_id
 * NULL: every principal; else only rows of that account. distinct_sub: the total counts distinct
 * `sub` values instead of events. */
int store_audit_candidates(struct db *db, const char *kind, const char *account_id, bool distinct_sub,
                           int64_t from_ms, int64_t to_ms, int64_t min_total, long scan_rows,
                           struct store_audit_cand *out, size_t cap, size_t *n);

struct store_audit_bucket {
    int64_t bucket_ms, n, first_ms, last_ms;
    char sub[BW_AUDIT_PRINCIPAL_MAX];
};

/* One principal's rows of kind in [from_ms, to_ms] (account_id NULL: any account), the newest
 * cap of them, returned oldest first. ptype (16 bytes) and detail (BW_AUDIT_DETAIL_MAX) get the
 * principal type and the newest row's detail. */
int store_audit_buckets(struct db *db, const char *kind, const char *principal, const char *account_id,
                        int64_t from_ms, int64_t to_ms, struct store_audit_bucket *out, size_t cap, size_t *n,
                        char ptype[16], char detail[BW_AUDIT_DETAIL_MAX]);

#endif
