/* On-demand orchestrator packs, computed once per scope and shared.
 *
 * While no run has persisted a snapshot for a scope, its packs are computed by the pipeline
 * (bw_orch_compute, without side effects) on the caller's thread, which must be a pool thread
 * (never an HTTP event thread: a computation takes 0.1-0.3 s with the seed intel). The four packs
 * of one computation are kept as JSON text for ttl_s seconds and handed to every caller of that
 * scope meanwhile. A caller that finds its scope being computed waits for that computation and
 * gets its result, whatever the ttl: concurrent requests of a scope cost one computation and see
 * one generated_at. A failed computation is shared by its waiters and not kept.
 *
 * A scope is identified by everything its packs depend on besides the store: its kind, owner and
 * accounts (an mssp that gains a managed account is another scope). At most
 * BW_ORCH_PACK_CACHE_SCOPES scopes are kept; a new one takes the place of the oldest computation
 * not in progress (when every place is being computed, the result is handed over and not kept).
 *
 * Thread-safe. What is returned is a copy the caller frees; db and audit are borrowed and outlive
 * the cache. */
#ifndef BW_SERVICES_ORCH_CACHE_H
#define BW_SERVICES_ORCH_CACHE_H
#include "services/orch.h"
#include "store/store_orch.h"

#include <stddef.h>
#include <stdint.h>

struct bw_audit;
struct bw_orch_cache;

/* ttl_s: how long a computation is reused (0: only by the requests that waited for it). audit
 * (may be NULL) is flushed before each computation, so this instance's latest events count. NULL
 * when out of memory. */
struct bw_orch_cache *bw_orch_cache_new(struct db *db, struct bw_audit *audit, long ttl_s);
void bw_orch_cache_free(struct bw_orch_cache *c);

/* The text of scope s's pack, computed at now_s unless a computation of the scope younger than
 * ttl_s is kept or one is in progress: ST_OK with *text (malloc'ed, NUL-terminated; the caller
 * frees it) and *len, or ST_ERROR (the pipeline failed: storage, logged, or memory). */
int bw_orch_cache_get(struct bw_orch_cache *c, const struct bw_orch_scope *s, enum store_orch_pack pack,
                      int64_t now_s, char **text, size_t *len);

/* Drops what is kept for scope_key: a run persisted a snapshot, which is served from now on. */
void bw_orch_cache_forget(struct bw_orch_cache *c, const char *scope_key);

/* Computations started so far (GET /metrics: bulwark_orch_pack_computations_total). */
unsigned long bw_orch_cache_computations(struct bw_orch_cache *c);

#endif
