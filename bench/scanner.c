/* Scanner engine throughput: every source file under DIR is read into memory first, then scanned
 * with the embedded catalog by 1 thread (MB/s per core) and by N threads; reading files and
 * starting the process are left out (bench/scanner.sh times the whole CLI separately).
 *   bench_scanner DIR [THREADS] */
#include "engine/code/scanner.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct src {
    char *buf;
    size_t len;
    int lang;
};
static struct src *srcs;
static size_t nsrcs, capsrcs, total;
static struct bw_scanner *sc;
static atomic_size_t next_i;
static atomic_size_t nfindings;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void add(const char *path)
{
    int lang = bw_lang_from_path(path);
    FILE *f = lang >= 0 ? fopen(path, "rb") : NULL;
    if (!f)
        return;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size <= 0) {
        fclose(f);
        return;
    }
    if (nsrcs == capsrcs) {
        capsrcs = capsrcs ? capsrcs * 2 : 1024;
        srcs = realloc(srcs, capsrcs * sizeof *srcs);
        if (!srcs)
            exit(1);
    }
    struct src *s = &srcs[nsrcs];
    s->len = (size_t)st.st_size;
    s->buf = malloc(s->len);
    s->lang = lang;
    if (s->buf && fread(s->buf, 1, s->len, f) == s->len) {
        nsrcs++;
        total += s->len;
    } else {
        free(s->buf);
    }
    fclose(f);
}

static void walk(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk(p);
        else if (S_ISREG(st.st_mode))
            add(p);
    }
    closedir(d);
}

static void *run(void *arg)
{
    (void)arg;
    for (;;) {
        size_t i = atomic_fetch_add(&next_i, 1);
        if (i >= nsrcs)
            return NULL;
        struct bw_findings f;
        if (bw_scan(sc, (enum bw_lang)srcs[i].lang, srcs[i].buf, srcs[i].len, false, &f) == 0) {
            atomic_fetch_add(&nfindings, f.n);
            bw_findings_free(&f);
        }
    }
}

static double timed(int threads)
{
    atomic_store(&next_i, 0);
    atomic_store(&nfindings, 0);
    pthread_t th[64];
    double t0 = now();
    for (int i = 0; i < threads; i++)
        pthread_create(&th[i], NULL, run, NULL);
    for (int i = 0; i < threads; i++)
        pthread_join(th[i], NULL);
    return now() - t0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_scanner DIR [THREADS]\n");
        return 2;
    }
    int threads = argc > 2 ? atoi(argv[2]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1 || threads > 64)
        threads = 1;
    char err[512];
    double t0 = now();
    sc = bw_scanner_new_embedded(err, sizeof err);
    if (!sc || bw_scanner_load_all(sc) != 0) {
        fprintf(stderr, "bench_scanner: %s\n", sc ? "cannot load databases" : err);
        return 1;
    }
    double load = now() - t0;
    walk(argv[1]);
    timed(1); /* warm-up: JIT, scratch, caches */
    double best1 = 1e9, bestn = 1e9;
    for (int r = 0; r < 3; r++) {
        double a = timed(1), b = timed(threads);
        best1 = a < best1 ? a : best1;
        bestn = b < bestn ? b : bestn;
    }
    printf("engine: %zu files, %.1f MiB, %zu findings, databases loaded in %.0f ms\n", nsrcs,
           (double)total / 1048576.0, (size_t)atomic_load(&nfindings), load * 1000);
    printf("engine_mbps_1=%.1f engine_mbps_%d=%.1f\n", (double)total / 1e6 / best1, threads,
           (double)total / 1e6 / bestn);
    bw_scanner_free(sc);
    for (size_t i = 0; i < nsrcs; i++)
        free(srcs[i].buf);
    free(srcs);
    return 0;
}
