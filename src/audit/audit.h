/* The service's own audit events and the zero-trust anomalies computed from them.
 *
 * Recording: bw_audit_register makes bw_audit_record the HTTP layer's response hook, called once
 * per finished request with its final status (src/http/http.h). Most requests are
 * not events and return at once. An event is counted in memory per (kind, principal, minute
 * bucket[, sub]) in one of 64 mutex-guarded shards (no global lock, no database call on the
 * request path); a background thread writes the aggregates every BW_AUDIT_FLUSH_MS as upserts
 * into `audit_counts` (src/store/store_audit.h), so a flood from one principal is one row a
 * minute. At most BW_AUDIT_MAX_PENDING aggregates wait between flushes; events that find no room
 * are dropped and counted (bw_audit_dropped). The same thread deletes rows older than
 * BW_AUDIT_RETENTION_MS (first sweep BW_AUDIT_PURGE_FIRST_MS after start, then hourly).
 *
 * Kinds (principal, detail):
 *   auth_failure       every 401; the client IP; the key prefix when a well-formed svc_ key
 *                      prefix was presented in X-API-Key, else the route
 *   rate_limited       every 429; the caller (see below); the route
 *   privileged_denied  401/403 on a route of access level privileged, admin or manager, by a
 *                      caller the policy does not let in; the caller; the route
 *   account_change     an account created, disabled or enabled through /api/accounts (recorded by
 *                      its handlers); the acting account; "create|disable|enable usr_..." (also
 *                      the row's sub, so each change in a minute keeps a row of its own)
 *   key_use            a non-401 request authenticated by an API key; the key prefix; the client
 *                      IP (also the row's sub). Counted once per (key, IP, minute) per process.
 * "The caller" is the key prefix (api_key) for a key, the account id (account) for a session, else
 * the client IP (ip). IPv6 clients are recorded as their /64 ("2001:db8:1:2::/64"), IPv4-mapped
 * IPv6 as the IPv4 address, so one host cannot spread over addresses. account_id is set whenever
 * the principal belongs to an account (key or session), which is what scoping filters on.
 *
 * Anomalies (bw_audit_anomalies), over the 24 h before now, thresholds in common/limits.h:
 *   AUTH_FAILURE_BURST      >= BW_AUDIT_AUTH_FAILURE_MIN (10) auth_failure in any window of
 *                           BW_AUDIT_AUTH_FAILURE_WINDOW_S (300 s = 5 consecutive minute buckets);
 *                           MEDIUM, HIGH from 5x the threshold
 *   RATE_LIMIT_BURST        >= BW_AUDIT_RATE_LIMIT_MIN (10) rate_limited in 300 s; LOW, MEDIUM from 5x
 *   KEY_MULTI_IP            one key used from >= BW_AUDIT_KEY_IPS_MIN (5) distinct client IPs within
 *                           BW_AUDIT_KEY_IPS_WINDOW_S (3600 s = 60 buckets); HIGH, CRITICAL from 5x
 *   PRIVILEGED_ROUTE_PROBE  >= BW_AUDIT_PRIV_PROBE_MIN (3) privileged_denied within 3600 s; HIGH,
 *                           CRITICAL from 5x
 * Windows slide over whole minute buckets (a window of W minutes is W consecutive buckets).
 * `count` is the events (distinct IPs for KEY_MULTI_IP) in the principal's worst window;
 * first_seen/last_seen span the principal's events of that kind over the 24 h. The work is
 * bounded whatever the table holds: per rule the newest BW_AUDIT_SCAN_ROWS rows (per scope
 * account) pick the BW_AUDIT_TOP_PRINCIPALS largest totals, and each of those reads at most
 * BW_AUDIT_ROWS_PER_PRINCIPAL rows; at most BW_AUDIT_MAX_ANOMALIES are returned.
 *
 * Ownership: bw_audit_start's recorder is the caller's until bw_audit_stop; it borrows db, which
 * must outlive it. bw_audit_anomalies gives the caller a new reference (*out, json_decref it). */
#ifndef BW_AUDIT_AUDIT_H
#define BW_AUDIT_AUDIT_H
#include "store/db.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bw_audit;
struct bw_http_ctx;
struct bw_req;

enum bw_audit_kind {
    BW_AUDIT_AUTH_FAILURE,
    BW_AUDIT_RATE_LIMITED,
    BW_AUDIT_PRIVILEGED_DENIED,
    BW_AUDIT_KEY_USE,
    BW_AUDIT_ACCOUNT_CHANGE,
};
enum bw_audit_ptype { BW_AUDIT_P_IP, BW_AUDIT_P_API_KEY, BW_AUDIT_P_ACCOUNT };

struct bw_audit *bw_audit_start(struct db *db); /* NULL on failure (logged) */
void bw_audit_stop(struct bw_audit *a);         /* flushes, joins, frees; NULL ok */
void bw_audit_flush(struct bw_audit *a);        /* synchronous: pending events are in the DB on return; NULL ok */

/* Records the events of one finished request, with the status answered. */
void bw_audit_record(struct bw_audit *a, const struct bw_req *r, unsigned status);
/* Registers a as h's response hook (bw_audit_record on every answered request); a must outlive
 * the server. */
void bw_audit_register(struct bw_audit *a, struct bw_http_ctx *h);

/* Records one event at now_ms (what bw_audit_record does per event; tests call it directly).
 * principal is taken as given (cut to BW_AUDIT_PRINCIPAL_MAX - 1 bytes); account_id and detail
 * may be NULL. For BW_AUDIT_KEY_USE and BW_AUDIT_ACCOUNT_CHANGE, detail is also part of the row's key. Bytes outside
 * printable ASCII are stored as '?'. Returns false when the event was dropped (no room). */
bool bw_audit_record_event(struct bw_audit *a, enum bw_audit_kind kind, const char *principal,
                           enum bw_audit_ptype ptype, const char *account_id, const char *detail, int64_t now_ms);

/* Events dropped since start: no room in memory, or their rows could not be written. */
uint64_t bw_audit_dropped(const struct bw_audit *a);

/* Deletes audit rows older than now_ms - BW_AUDIT_RETENTION_MS (the recorder does this on its
 * own; exposed for tests and tools). Returns the rows deleted, or -1. */
int64_t bw_audit_purge(struct db *db, int64_t now_ms);

struct bw_audit_scope {
    bool all;
    const char *const *accounts;
    size_t naccounts;
};
/* Anomalies over the 24 h before now_ms visible to the scope: `all` sees everything; otherwise
 * only events whose account_id is in accounts (IP-only events are visible to `all` only).
 * *out: new JSON array, ordered by severity then last_seen desc. 0 or -1.
 * Each item: {"type","severity","principal","principal_type","account_id" (string or null),
 * "count","window_s","first_seen","last_seen" (ISO 8601 UTC),"detail"}. */
int bw_audit_anomalies(struct db *db, const struct bw_audit_scope *s, int64_t now_ms, json_t **out);

#endif
