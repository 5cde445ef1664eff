/* Rolling-window rate limiter (GCRA): N requests per window, spread so that a client that used
 * its whole budget gets one request back every window/N. State is one timestamp per key in a
 * sharded hash table (256 shards, a mutex each), so threads rarely meet on a lock. Entries whose
 * budget is fully restored are dropped when a shard needs room; at the memory bound the live entry
 * nearest a full budget is evicted (counted), so the limiter never fails open for new keys.
 *
 * Shared (bw_limiter_share): the timestamps live in the database's rate_limits table instead and
 * each step is one upsert, so every instance on that database spends one budget. The shared state
 * runs on the wall clock (instances keep their clocks in step); when the database cannot be
 * reached the step falls back to this instance's own table (budgets then hold per instance until
 * it is back) rather than refusing or failing the request. */
#ifndef BW_AUTH_RATELIMIT_H
#define BW_AUTH_RATELIMIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bw_limiter;
struct db;

struct bw_limit_result {
    bool allowed;
    long limit;        /* N */
    long remaining;    /* requests still allowed now, after this one */
    long reset_s;      /* seconds until the whole budget is back */
    long retry_after_s;/* when refused: seconds until one request is allowed (>= 1) */
};

/* window_s: the window in seconds; max_entries: keys tracked at most (memory bound). */
struct bw_limiter *bw_limiter_new(long window_s, size_t max_entries);
void bw_limiter_free(struct bw_limiter *l);

/* Keeps l's state in db's rate_limits table under keys "<name>|<key>" (name: a short constant
 * naming the limiter, e.g. "rate"); db outlives l. */
void bw_limiter_share(struct bw_limiter *l, struct db *db, const char *name);
bool bw_limiter_shared(const struct bw_limiter *l);

/* Counts one request of `key` against `limit` per window (limit > 0) at now_us (monotonic; a
 * shared limiter reads the wall clock itself). */
void bw_limiter_take(struct bw_limiter *l, const char *key, long limit, int64_t now_us,
                     struct bw_limit_result *out);

/* bw_limiter_take for throttles whose requests are reserved before costly work (a login's
 * password check): a refused request is counted too, moving the key's state one interval on, but
 * never past now + window, so a client that keeps trying while refused stays refused, and has
 * its whole budget back at most one window after its last attempt. */
void bw_limiter_take_strict(struct bw_limiter *l, const char *key, long limit, int64_t now_us,
                            struct bw_limit_result *out);

/* Gives back one request that take allowed (a reserved attempt that succeeded, or that was never
 * made): the key's state moves one interval back. On a shared limiter, one statement. */
void bw_limiter_refund(struct bw_limiter *l, const char *key, long limit);

/* Whether `key` has no budget left, without counting (for throttles that count failures only). */
bool bw_limiter_exhausted(struct bw_limiter *l, const char *key, long limit, int64_t now_us,
                          long *retry_after_s);

/* Forgets `key` (e.g. after a successful login). */
void bw_limiter_reset(struct bw_limiter *l, const char *key);

/* Live entries evicted so far to make room for new keys when the table was at its bound (the
 * entry nearest a full budget goes; a request is never refused because the table is full). */
unsigned long bw_limiter_evictions(struct bw_limiter *l);

/* Number of tracked keys (tests, metrics): for a shared limiter, the rows of the shared table
 * (every limiter sharing it), 0 when the database cannot say. */
size_t bw_limiter_size(struct bw_limiter *l);

#endif
