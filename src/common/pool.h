/* A small pool of threads for blocking work (argon2id, outbound calls) so the HTTP event
 * threads never wait on it. Jobs run in submission order. */
#ifndef BW_COMMON_POOL_H
#define BW_COMMON_POOL_H
#include <stddef.h>

struct bw_pool;
typedef void (*bw_job_fn)(void *arg);

/* nthreads workers, at most max_queued jobs waiting. NULL on failure. */
struct bw_pool *bw_pool_new(int nthreads, size_t max_queued);
/* Queues fn(arg). -1 when the queue is full or the pool is stopping (the caller answers 503). */
int bw_pool_submit(struct bw_pool *p, bw_job_fn fn, void *arg);
/* Runs every queued job, then joins the workers and frees the pool. */
void bw_pool_free(struct bw_pool *p);

#endif
