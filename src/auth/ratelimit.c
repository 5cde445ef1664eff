#include "auth/ratelimit.h"

#include "common/limits.h"
#include "common/timeutil.h"
#include "store/store.h"
#include "store/store_ratelimit.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARDS 256

/* Keys longer than an entry holds (long emails in login throttle keys) are replaced by a digest,
 * so lookups and inserts agree on one short key: "~" + 32 hex of BLAKE2b-128. */
static const char *short_key(const char *key, char buf[BW_LIMITER_KEY_MAX + 1])
{
    size_t n = strlen(key);
    if (n <= BW_LIMITER_KEY_MAX)
        return key;
    unsigned char d[16];
    crypto_generichash(d, sizeof d, (const unsigned char *)key, n, NULL, 0);
    buf[0] = '~';
    sodium_bin2hex(buf + 1, BW_LIMITER_KEY_MAX, d, sizeof d);
    return buf;
}

struct entry {
    uint64_t h; /* 0 = empty slot */
    int64_t tat; /* theoretical arrival time, microseconds */
    /* Shared limiters: requests taken from the database ahead, answered here (see lease_take). */
    int64_t lease_tat;  /* the shared tat (wall clock) after the lease was taken */
    int64_t lease_mono; /* when it was taken (monotonic) */
    int32_t lease_left; /* requests of it not answered yet */
    int32_t lease_n;    /* its size */
    char key[BW_LIMITER_KEY_MAX + 1];
};

struct shard {
    pthread_mutex_t mu;
    struct entry *slots;
    size_t cap, used;
} __attribute__((aligned(64))); /* one cache line per lock: no false sharing between shards */

struct bw_limiter {
    int64_t window_us;
    size_t max_per_shard;
    atomic_ulong evictions; /* live entries dropped to make room (metrics) */
    struct db *db; /* shared: the table's database; NULL = this process's table only */
    char name[BW_LIMITER_NAME_MAX + 1];
    _Atomic int64_t next_sweep_us;
    struct shard shards[SHARDS];
};

static uint64_t hash_key(const char *k)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a, then a finaliser to spread the bits */
    for (; *k; k++) {
        h ^= (unsigned char)*k;
        h *= 1099511628211ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h ? h : 1;
}

struct bw_limiter *bw_limiter_new(long window_s, size_t max_entries)
{
    struct bw_limiter *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->window_us = (int64_t)window_s * 1000000;
    l->max_per_shard = max_entries / SHARDS < 16 ? 16 : max_entries / SHARDS;
    for (int i = 0; i < SHARDS; i++)
        pthread_mutex_init(&l->shards[i].mu, NULL);
    return l;
}

void bw_limiter_free(struct bw_limiter *l)
{
    if (!l)
        return;
    for (int i = 0; i < SHARDS; i++) {
        pthread_mutex_destroy(&l->shards[i].mu);
        free(l->shards[i].slots);
    }
    free(l);
}

static struct entry *find(struct shard *s, uint64_t h, const char *key)
{
    if (!s->cap)
        return NULL;
    size_t mask = s->cap - 1;
    for (size_t i = (h >> 8) & mask, n = 0; n < s->cap; i = (i + 1) & mask, n++) {
        struct entry *e = &s->slots[i];
        if (!e->h)
            return NULL;
        if (e->h == h && strcmp(e->key, key) == 0)
            return e;
    }
    return NULL;
}

static void put(struct entry *slots, size_t cap, const struct entry *src)
{
    size_t mask = cap - 1;
    size_t i = (src->h >> 8) & mask;
    while (slots[i].h)
        i = (i + 1) & mask;
    slots[i] = *src;
}

/* Rebuilds the shard's table at new_cap (>= the current one) keeping entries still holding state
 * at `now` (tat > now); an entry whose budget is fully back is the same as no entry. */
static int rebuild(struct shard *s, size_t new_cap, int64_t now)
{
    struct entry *ns = calloc(new_cap, sizeof *ns);
    if (!ns)
        return -1;
    size_t used = 0;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i].h && s->slots[i].tat > now) {
            put(ns, new_cap, &s->slots[i]);
            used++;
        }
    free(s->slots);
    s->slots = ns;
    s->cap = new_cap;
    s->used = used;
    return 0;
}

/* Removes slot i by backward-shift deletion, so the probe chains of linear probing stay whole
 * without tombstones. */
static void remove_at(struct shard *s, size_t i)
{
    size_t mask = s->cap - 1;
    s->slots[i].h = 0;
    s->used--;
    for (size_t j = (i + 1) & mask; s->slots[j].h; j = (j + 1) & mask) {
        size_t home = (s->slots[j].h >> 8) & mask;
        /* j's entry may move into the hole at i unless its home lies cyclically in (i, j] */
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (stays)
            continue;
        s->slots[i] = s->slots[j];
        s->slots[j].h = 0;
        i = j;
    }
}

/* The shard is at its bound and full of entries: makes room for one more. Expired entries (budget
 * fully back, the same as no entry) go first, by a rebuild when they are many, so the scan below is
 * paid rarely; otherwise the live entry nearest a full budget (the smallest tat) is evicted: the
 * sources that spent the most keep their state, and a flood of new sources can push out only
 * sources that were themselves close to their full budget. A new key is always tracked: refusing
 * it would let a flood of sources fail open, and refusing the request would let it lock everyone
 * out. */
static int make_room(struct bw_limiter *l, struct shard *s, int64_t now)
{
    size_t expired = 0, victim = SIZE_MAX;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slots[i].h)
            continue;
        if (s->slots[i].tat <= now)
            expired++;
        if (victim == SIZE_MAX || s->slots[i].tat < s->slots[victim].tat)
            victim = i;
    }
    if (expired > s->cap / 8)
        return rebuild(s, s->cap, now);
    if (victim == SIZE_MAX)
        return -1;
    if (s->slots[victim].tat > now)
        atomic_fetch_add_explicit(&l->evictions, 1, memory_order_relaxed);
    remove_at(s, victim);
    return 0;
}

static struct entry *find_or_add(struct bw_limiter *l, struct shard *s, uint64_t h, const char *key,
                                 int64_t now)
{
    struct entry *e = find(s, h, key);
    if (e)
        return e;
    if ((s->used + 1) * 2 > s->cap) { /* keep the load under 1/2 */
        if (s->cap < l->max_per_shard * 2) {
            if (rebuild(s, s->cap ? s->cap * 2 : 16, now) != 0)
                return NULL;
        } else if (make_room(l, s, now) != 0) {
            return NULL;
        }
    }
    struct entry ne = {.h = h, .tat = now};
    memcpy(ne.key, key, strlen(key) + 1); /* short_key made it fit */
    put(s->slots, s->cap, &ne);
    s->used++;
    return find(s, h, key);
}

unsigned long bw_limiter_evictions(struct bw_limiter *l)
{
    return atomic_load_explicit(&l->evictions, memory_order_relaxed);
}

void bw_limiter_share(struct bw_limiter *l, struct db *db, const char *name)
{
    l->db = db;
    snprintf(l->name, sizeof l->name, "%s", name);
}

bool bw_limiter_shared(const struct bw_limiter *l) { return l->db != NULL; }

/* The answer for a step that left the key at `tat` (allowed: the tat after this request). */
static void fill(struct bw_limit_result *out, bool allowed, int64_t tat, int64_t now, int64_t T, int64_t tau)
{
    out->allowed = allowed;
    out->reset_s = (long)((tat - now + 999999) / 1000000);
    if (!allowed) {
        out->remaining = 0;
        out->retry_after_s = (long)((tat - tau - now + 999999) / 1000000);
        if (out->retry_after_s < 1)
            out->retry_after_s = 1;
        return;
    }
    out->remaining = (long)((now + tau - (tat - T)) / T);
    if (out->remaining < 0)
        out->remaining = 0;
    out->retry_after_s = 0;
}

/* "<name>|<key>": one table serves every shared limiter. */
static void shared_key(const struct bw_limiter *l, const char *key, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s|%s", l->name, key);
}

/* At most one caller a minute, across threads, deletes the rows whose budget is whole again; a
 * failure is logged by the store and retried a minute later. */
static void maybe_sweep(struct bw_limiter *l, int64_t now)
{
    int64_t due = atomic_load_explicit(&l->next_sweep_us, memory_order_relaxed);
    if (now < due ||
        !atomic_compare_exchange_strong(&l->next_sweep_us, &due, now + BW_LIMITER_SWEEP_US))
        return;
    (void)store_rl_sweep(l->db, now, NULL);
}

/* The shared strict step; false when the database could not answer (the caller uses its own
 * table). */
static bool shared_take_strict(struct bw_limiter *l, const char *key, int64_t T, int64_t tau,
                               struct bw_limit_result *out)
{
    char k[BW_LIMITER_KEY_MAX + BW_LIMITER_NAME_MAX + 2];
    shared_key(l, key, k, sizeof k);
    int64_t now = bw_now_us();
    maybe_sweep(l, now);
    bool allowed = false;
    int64_t tat = 0;
    if (store_rl_take_strict(l->db, k, now, T, tau, &allowed, &tat) != ST_OK)
        return false;
    fill(out, allowed, tat, now, T, tau);
    return true;
}

/* A shared limiter would make every request a write to the database. A key that is busy takes
 * several requests at once instead (a lease: n intervals of its tat, granted only when all n fit
 * in its budget, so the instances together never pass the limit) and answers the next n - 1 from
 * memory. The size starts at 1 and doubles while each lease is used up within BW_LIMITER_LEASE_US,
 * up to a 1/BW_LIMITER_LEASE_DIV of the limit and BW_LIMITER_LEASE_MAX: a key with small limits
 * (FREE, anonymous, strict login throttles, which never lease) or sparse requests is counted in
 * the database request by request, exactly as before. A lease not used up in BW_LIMITER_LEASE_US
 * gives its rest back to the database before the key's next take. RateLimit-Remaining from a lease
 * counts the requests it still holds as unspent. True when this answered (out filled). */
static bool lease_take(struct bw_limiter *l, const char *key, long limit, int64_t mono, struct bw_limit_result *out)
{
    int64_t T = l->window_us / limit, tau = T * (limit - 1);
    uint64_t h = hash_key(key);
    struct shard *s = &l->shards[h & (SHARDS - 1)];
    long cap = limit / BW_LIMITER_LEASE_DIV;
    cap = cap > BW_LIMITER_LEASE_MAX ? BW_LIMITER_LEASE_MAX : cap < 1 ? 1 : cap;
    int32_t n = 1, give_back = 0;
    pthread_mutex_lock(&s->mu);
    struct entry *e = find(s, h, key);
    if (e) {
        bool fresh = mono - e->lease_mono < BW_LIMITER_LEASE_US;
        if (fresh && e->lease_left > 0) {
            e->lease_left--;
            int64_t tat = e->lease_tat - (int64_t)e->lease_left * T, now = bw_now_us();
            pthread_mutex_unlock(&s->mu);
            /* a tat the clock has passed is a full budget less this request */
            fill(out, true, tat < now + T ? now + T : tat, now, T, tau);
            return true;
        }
        if (fresh && e->lease_n > 0) /* the last one was used up in time: a bigger one */
            n = e->lease_n * 2 > cap ? (int32_t)cap : e->lease_n * 2;
        give_back = e->lease_left;
        e->lease_left = 0;
    }
    pthread_mutex_unlock(&s->mu);

    char k[BW_LIMITER_KEY_MAX + BW_LIMITER_NAME_MAX + 2];
    shared_key(l, key, k, sizeof k);
    if (give_back > 0)
        (void)store_rl_refund(l->db, k, (int64_t)give_back * T); /* a failure leaves them spent */
    int64_t now = bw_now_us();
    maybe_sweep(l, now);
    bool allowed = false;
    int64_t tat = 0;
    /* n intervals at once: allowed when the last of them fits (tat + (n - 1)T - now <= tau) */
    if (store_rl_take(l->db, k, now, n * T, tau - (int64_t)(n - 1) * T, &allowed, &tat) != ST_OK)
        return false;
    if (!allowed && n > 1) {
        n = 1;
        if (store_rl_take(l->db, k, now, T, tau, &allowed, &tat) != ST_OK)
            return false;
    }
    pthread_mutex_lock(&s->mu);
    if (!allowed) { /* refused: the next try asks for one, not for a bigger lease */
        if ((e = find(s, h, key)))
            e->lease_n = 0;
    } else if ((e = find_or_add(l, s, h, key, mono))) {
        /* added to, not replacing, what another thread's lease of the same moment left here */
        e->lease_left += n - 1;
        e->lease_tat = tat > e->lease_tat ? tat : e->lease_tat;
        e->lease_mono = mono;
        e->lease_n = n;
        int64_t local = mono + (tat - now); /* kept (and a fallback's start) while the lease lives */
        if (e->tat < local)
            e->tat = local;
    }
    pthread_mutex_unlock(&s->mu);
    if (allowed)
        tat -= (int64_t)(n - 1) * T;
    fill(out, allowed, tat, now, T, tau);
    return true;
}

/* One GCRA step; strict: a refused request moves the key's tat one interval on too, at most to
 * now + window (the whole budget then comes back one window after the last attempt). */
static void take_step(struct bw_limiter *l, const char *key, long limit, int64_t now, bool strict,
                      struct bw_limit_result *out)
{
    char kbuf[BW_LIMITER_KEY_MAX + 1];
    key = short_key(key, kbuf);
    int64_t T = l->window_us / limit;          /* emission interval */
    int64_t tau = T * (limit - 1);             /* burst tolerance: the whole budget at once */
    out->limit = limit;
    if (l->db && (strict ? shared_take_strict(l, key, T, tau, out) : lease_take(l, key, limit, now, out)))
        return;
    uint64_t h = hash_key(key);
    struct shard *s = &l->shards[h & (SHARDS - 1)];
    pthread_mutex_lock(&s->mu);
    struct entry *e = find_or_add(l, s, h, key, now);
    int64_t tat = e && e->tat > now ? e->tat : now;
    if (tat - now > tau) {
        if (strict && e) {
            int64_t cap = now + tau + T;
            e->tat = tat + T < cap ? tat + T : cap;
            tat = e->tat;
        }
        pthread_mutex_unlock(&s->mu);
        fill(out, false, tat, now, T, tau);
        return;
    }
    int64_t ntat = tat + T;
    if (e)
        e->tat = ntat;
    pthread_mutex_unlock(&s->mu);
    fill(out, true, ntat, now, T, tau);
}

void bw_limiter_take(struct bw_limiter *l, const char *key, long limit, int64_t now,
                     struct bw_limit_result *out)
{
    take_step(l, key, limit, now, false, out);
}

void bw_limiter_take_strict(struct bw_limiter *l, const char *key, long limit, int64_t now,
                            struct bw_limit_result *out)
{
    take_step(l, key, limit, now, true, out);
}

void bw_limiter_refund(struct bw_limiter *l, const char *key, long limit)
{
    char kbuf[BW_LIMITER_KEY_MAX + 1];
    key = short_key(key, kbuf);
    int64_t T = l->window_us / limit;
    if (l->db) {
        char k[BW_LIMITER_KEY_MAX + BW_LIMITER_NAME_MAX + 2];
        shared_key(l, key, k, sizeof k);
        if (store_rl_refund(l->db, k, T) == ST_OK)
            return;
        /* the database did not answer: the take may have fallen back to this table too */
    }
    uint64_t h = hash_key(key);
    struct shard *s = &l->shards[h & (SHARDS - 1)];
    pthread_mutex_lock(&s->mu);
    struct entry *e = find(s, h, key);
    if (e)
        e->tat -= T; /* at or before now it is the same as a whole budget */
    pthread_mutex_unlock(&s->mu);
}

/* The shared tat of key (now if it has none) and the wall clock it compares with; false when the
 * database could not answer. */
static bool shared_get(struct bw_limiter *l, const char *key, int64_t *now, int64_t *tat)
{
    char k[BW_LIMITER_KEY_MAX + BW_LIMITER_NAME_MAX + 2];
    shared_key(l, key, k, sizeof k);
    int64_t wall = bw_now_us(), t = 0;
    if (store_rl_get(l->db, k, &t) != ST_OK)
        return false;
    *now = wall;
    *tat = t ? t : wall;
    return true;
}

bool bw_limiter_exhausted(struct bw_limiter *l, const char *key, long limit, int64_t now,
                          long *retry_after_s)
{
    char kbuf[BW_LIMITER_KEY_MAX + 1];
    key = short_key(key, kbuf);
    int64_t T = l->window_us / limit;
    int64_t tau = T * (limit - 1);
    int64_t tat;
    if (!l->db || !shared_get(l, key, &now, &tat)) {
        uint64_t h = hash_key(key);
        struct shard *s = &l->shards[h & (SHARDS - 1)];
        pthread_mutex_lock(&s->mu);
        struct entry *e = find(s, h, key);
        tat = e ? e->tat : now;
        pthread_mutex_unlock(&s->mu);
    }
    if (tat - now > tau) {
        long r = (long)((tat - tau - now + 999999) / 1000000);
        *retry_after_s = r < 1 ? 1 : r;
        return true;
    }
    return false;
}

void bw_limiter_reset(struct bw_limiter *l, const char *key)
{
    char kbuf[BW_LIMITER_KEY_MAX + 1];
    key = short_key(key, kbuf);
    if (l->db) {
        char k[BW_LIMITER_KEY_MAX + BW_LIMITER_NAME_MAX + 2];
        shared_key(l, key, k, sizeof k);
        (void)store_rl_delete(l->db, k); /* a failure is logged; the key's budget returns with time */
    }
    uint64_t h = hash_key(key);
    struct shard *s = &l->shards[h & (SHARDS - 1)];
    pthread_mutex_lock(&s->mu);
    struct entry *e = find(s, h, key);
    if (e) {
        e->tat = 0; /* expired: dropped at the next rebuild, same as absent meanwhile */
        e->lease_left = e->lease_n = 0; /* the budget is whole again: nothing held here */
    }
    pthread_mutex_unlock(&s->mu);
}

size_t bw_limiter_size(struct bw_limiter *l)
{
    if (l->db) {
        int64_t rows = 0;
        return store_rl_count(l->db, &rows) == ST_OK && rows > 0 ? (size_t)rows : 0;
    }
    size_t n = 0;
    for (int i = 0; i < SHARDS; i++) {
        pthread_mutex_lock(&l->shards[i].mu);
        n += l->shards[i].used;
        pthread_mutex_unlock(&l->shards[i].mu);
    }
    return n;
}
