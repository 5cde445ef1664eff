/* The shared rate-limit table (migration 0009, `rate_limits`): the GCRA step of
 * src/auth/ratelimit.c done as one statement, so that several instances on one database spend one
 * budget. Keys are "<limiter>|<key>", times epoch microseconds from the caller's wall clock
 * (instances are expected to keep their clocks in step, e.g. NTP: a skew of s shifts budgets by
 * s, nothing worse). */
#ifndef BW_STORE_STORE_RATELIMIT_H
#define BW_STORE_STORE_RATELIMIT_H
#include "store/db.h"

#include <stdbool.h>
#include <stdint.h>

/* One request against key: when max(tat, now) - now <= tau the request is allowed and tat moves
 * to max(tat, now) + T; otherwise it is refused and tat stays. ST_OK with *allowed and *tat (the
 * state after the step), or ST_ERROR. */
int store_rl_take(struct db *db, const char *key, int64_t now_us, int64_t T, int64_t tau, bool *allowed,
                  int64_t *tat);

/* store_rl_take, except that a refused request moves tat on by T too, never past now + tau + T
 * (bw_limiter_take_strict). */
int store_rl_take_strict(struct db *db, const char *key, int64_t now_us, int64_t T, int64_t tau, bool *allowed,
                         int64_t *tat);

/* Moves the key's tat back by T (one request given back). ST_OK (also when the key has no row) or
 * ST_ERROR. */
int store_rl_refund(struct db *db, const char *key, int64_t T);

/* The key's tat, or 0 when it has none. ST_OK or ST_ERROR. */
int store_rl_get(struct db *db, const char *key, int64_t *tat);

/* Forgets key. ST_OK or ST_ERROR. */
int store_rl_delete(struct db *db, const char *key);

/* Deletes the rows whose tat is before now (their budget is whole again); *deleted (optional)
 * gets how many. ST_OK or ST_ERROR. */
int store_rl_sweep(struct db *db, int64_t now_us, int64_t *deleted);

/* Rows held (metrics). ST_OK or ST_ERROR. */
int store_rl_count(struct db *db, int64_t *n);

#endif
