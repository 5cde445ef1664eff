#include "common/pool.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct job {
    bw_job_fn fn;
    void *arg;
};

struct bw_pool {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct job *q;
    size_t cap, head, len;
    bool stopping;
    int n;
    pthread_t th[];
};

static void *worker(void *arg)
{
    struct bw_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->len && !p->stopping)
            pthread_cond_wait(&p->cv, &p->mu);
        if (!p->len) { /* stopping and drained */
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        struct job j = p->q[p->head];
        p->head = (p->head + 1) % p->cap;
        p->len--;
        pthread_mutex_unlock(&p->mu);
        j.fn(j.arg);
    }
}

struct bw_pool *bw_pool_new(int nthreads, size_t max_queued)
{
    if (nthreads < 1)
        nthreads = 1;
    struct bw_pool *p = calloc(1, sizeof *p + (size_t)nthreads * sizeof(pthread_t));
    if (!p)
        return NULL;
    p->q = calloc(max_queued ? max_queued : 1, sizeof *p->q);
    if (!p->q) {
        free(p);
        return NULL;
    }
    p->cap = max_queued ? max_queued : 1;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (int i = 0; i < nthreads; i++) {
        if (pthread_create(&p->th[i], NULL, worker, p) != 0)
            break;
        p->n++;
    }
    if (!p->n) {
        bw_pool_free(p);
        return NULL;
    }
    return p;
}

int bw_pool_submit(struct bw_pool *p, bw_job_fn fn, void *arg)
{
    pthread_mutex_lock(&p->mu);
    if (p->stopping || p->len == p->cap) {
        pthread_mutex_unlock(&p->mu);
        return -1;
    }
    p->q[(p->head + p->len) % p->cap] = (struct job){fn, arg};
    p->len++;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

void bw_pool_free(struct bw_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stopping = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n; i++)
        pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->q);
    free(p);
}
