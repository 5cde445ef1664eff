#include "auth/inflight.h"

#include <pthread.h>
#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Keys are held as a 128-bit BLAKE2b digest: fixed size whatever the email's length. */
struct slot {
    unsigned char d[16];
    int n; /* 0 = empty */
};

struct bw_inflight {
    pthread_mutex_t mu;
    size_t cap, used, max_used; /* cap: a power of two, at least twice max_used */
    struct slot *slots;
};

struct bw_inflight *bw_inflight_new(size_t slots)
{
    struct bw_inflight *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->max_used = slots ? slots : 1;
    f->cap = 16;
    while (f->cap < f->max_used * 2)
        f->cap *= 2;
    f->slots = calloc(f->cap, sizeof *f->slots);
    if (!f->slots) {
        free(f);
        return NULL;
    }
    pthread_mutex_init(&f->mu, NULL);
    return f;
}

void bw_inflight_free(struct bw_inflight *f)
{
    if (!f)
        return;
    pthread_mutex_destroy(&f->mu);
    free(f->slots);
    free(f);
}

static size_t home(const struct bw_inflight *f, const unsigned char d[16])
{
    uint64_t h;
    memcpy(&h, d, sizeof h);
    return (size_t)h & (f->cap - 1);
}

/* The key's slot, or the empty slot where it would go (linear probing; the load stays under 1/2,
 * so an empty slot is always reached). */
static size_t lookup(const struct bw_inflight *f, const unsigned char d[16])
{
    size_t i = home(f, d);
    while (f->slots[i].n && memcmp(f->slots[i].d, d, 16) != 0)
        i = (i + 1) & (f->cap - 1);
    return i;
}

/* Empties slot i by backward-shift deletion, so probe chains stay whole without tombstones. */
static void remove_at(struct bw_inflight *f, size_t i)
{
    size_t mask = f->cap - 1;
    f->slots[i].n = 0;
    f->used--;
    for (size_t j = (i + 1) & mask; f->slots[j].n; j = (j + 1) & mask) {
        size_t h = home(f, f->slots[j].d);
        /* j's entry may move into the hole at i unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (stays)
            continue;
        f->slots[i] = f->slots[j];
        f->slots[j].n = 0;
        i = j;
    }
}

static void digest(const char *key, unsigned char d[16])
{
    crypto_generichash(d, 16, (const unsigned char *)key, strlen(key), NULL, 0);
}

enum bw_inflight_rc bw_inflight_enter(struct bw_inflight *f, const char *key, int max)
{
    unsigned char d[16];
    digest(key, d);
    enum bw_inflight_rc rc = BW_INFLIGHT_CAP;
    pthread_mutex_lock(&f->mu);
    size_t i = lookup(f, d);
    if (f->slots[i].n) {
        if (f->slots[i].n < max) {
            f->slots[i].n++;
            rc = BW_INFLIGHT_OK;
        }
    } else if (max > 0) {
        if (f->used < f->max_used) {
            memcpy(f->slots[i].d, d, 16);
            f->slots[i].n = 1;
            f->used++;
            rc = BW_INFLIGHT_OK;
        } else {
            rc = BW_INFLIGHT_FULL;
        }
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

void bw_inflight_leave(struct bw_inflight *f, const char *key)
{
    unsigned char d[16];
    digest(key, d);
    pthread_mutex_lock(&f->mu);
    size_t i = lookup(f, d);
    if (f->slots[i].n && --f->slots[i].n == 0)
        remove_at(f, i);
    pthread_mutex_unlock(&f->mu);
}

int bw_inflight_count(struct bw_inflight *f, const char *key)
{
    unsigned char d[16];
    digest(key, d);
    pthread_mutex_lock(&f->mu);
    int n = f->slots[lookup(f, d)].n;
    pthread_mutex_unlock(&f->mu);
    return n;
}
