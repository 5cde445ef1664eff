/* Rate-limiter contention benchmark: T threads each take() as fast as they can for a fixed time,
 * (a) every thread on its own keys, (b) every thread on one shared key. Prints operations per
 * second and the ratio of T threads to 1 thread; a global lock would show a ratio well under 1
 * for (a), sharding shows ~T. Usage: bench_limiter [seconds] */
#include "auth/ratelimit.h"
#include "common/timeutil.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_bool g_stop;

struct arg {
    struct bw_limiter *l;
    int id;
    int shared;
    long ops;
};

static void *run(void *p)
{
    struct arg *a = p;
    char key[64];
    struct bw_limit_result r;
    unsigned k = 0;
    while (!atomic_load_explicit(&g_stop, memory_order_relaxed)) {
        for (int i = 0; i < 256; i++) {
            if (a->shared)
                snprintf(key, sizeof key, "u:shared");
            else
                snprintf(key, sizeof key, "u:usr_%d_%u", a->id, k++ % 4096);
            bw_limiter_take(a->l, key, 1000000000L, bw_mono_us(), &r);
        }
        a->ops += 256;
    }
    return NULL;
}

static double measure(int threads, int shared, double secs)
{
    struct bw_limiter *l = bw_limiter_new(3600, 1u << 20);
    pthread_t th[64];
    struct arg args[64];
    atomic_store(&g_stop, false);
    for (int i = 0; i < threads; i++) {
        args[i] = (struct arg){l, i, shared, 0};
        pthread_create(&th[i], NULL, run, &args[i]);
    }
    struct timespec ts = {(time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9)};
    nanosleep(&ts, NULL);
    atomic_store(&g_stop, true);
    long total = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(th[i], NULL);
        total += args[i].ops;
    }
    bw_limiter_free(l);
    return (double)total / secs;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 2.0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int t = cores < 2 ? 2 : (int)(cores > 64 ? 64 : cores);
    double d1 = measure(1, 0, secs), dt = measure(t, 0, secs);
    double s1 = measure(1, 1, secs), st = measure(t, 1, secs);
    printf("limiter  distinct keys:  1 thread %.2f M/s (%.0f ns/op), %d threads %.2f M/s, scaling %.2fx\n",
           d1 / 1e6, 1e9 / d1, t, dt / 1e6, dt / d1);
    printf("limiter  one shared key: 1 thread %.2f M/s (%.0f ns/op), %d threads %.2f M/s, scaling %.2fx\n",
           s1 / 1e6, 1e9 / s1, t, st / 1e6, st / s1);
    return 0;
}
