/* Bounded byte cache (bcache.h): 16 shards, each a doubly linked list in use order and a hash
 * table of its keys. A shard holds at most a sixteenth of the entries and bytes. (A shard found a
 * key by walking its list: a miss in the playbook cache compared 256 keys, each in memory of its
 * own, ~8% of an anonymous playbook request's CPU.) */
#include "common/bcache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SHARDS 16

struct entry {
    struct entry *prev, *next;
    struct entry *hnext; /* the next in its hash bucket */
    uint64_t h;
    char *key, *val;
    size_t len;
    char tag[BW_BCACHE_TAG_MAX];
};

struct shard {
    pthread_mutex_t mu;
    struct entry *head, *tail; /* head: most recently used */
    struct entry **bucket;     /* by hash (its bits above the shard's), at least twice the entries */
    size_t mask;
    size_t n, bytes;
    uint64_t hits, misses, evictions;
};

struct bw_bcache {
    size_t max_entries, max_bytes; /* per shard */
    struct shard s[SHARDS];
};

static uint64_t hash(const char *k)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a: spreads ids over the shards, not a defence */
    for (; *k; k++)
        h = (h ^ (unsigned char)*k) * 1099511628211ull;
    return h;
}

struct bw_bcache *bw_bcache_new(size_t max_entries, size_t max_bytes)
{
    struct bw_bcache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->max_entries = max_entries / SHARDS ? max_entries / SHARDS : 1;
    c->max_bytes = max_bytes / SHARDS;
    size_t nb = 16;
    while (nb < 2 * c->max_entries)
        nb *= 2;
    for (int i = 0; i < SHARDS; i++) {
        c->s[i].bucket = calloc(nb, sizeof *c->s[i].bucket);
        c->s[i].mask = nb - 1;
        if (!c->s[i].bucket) {
            for (int j = 0; j < i; j++)
                free(c->s[j].bucket);
            free(c);
            return NULL;
        }
        pthread_mutex_init(&c->s[i].mu, NULL);
    }
    return c;
}

static void unlink_entry(struct shard *s, struct entry *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        s->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        s->tail = e->prev;
    e->prev = e->next = NULL;
}

static void push_front(struct shard *s, struct entry *e)
{
    e->prev = NULL;
    e->next = s->head;
    if (s->head)
        s->head->prev = e;
    s->head = e;
    if (!s->tail)
        s->tail = e;
}

static struct entry **slot(struct shard *s, uint64_t h) { return &s->bucket[(h / SHARDS) & s->mask]; }

static void drop(struct shard *s, struct entry *e)
{
    unlink_entry(s, e);
    struct entry **p = slot(s, e->h);
    while (*p != e)
        p = &(*p)->hnext;
    *p = e->hnext;
    s->n--;
    s->bytes -= e->len;
    free(e->key);
    free(e->val);
    free(e);
}

void bw_bcache_free(struct bw_bcache *c)
{
    if (!c)
        return;
    for (int i = 0; i < SHARDS; i++) {
        while (c->s[i].head)
            drop(&c->s[i], c->s[i].head);
        free(c->s[i].bucket);
        pthread_mutex_destroy(&c->s[i].mu);
    }
    free(c);
}

static struct entry *find(struct shard *s, uint64_t h, const char *key)
{
    for (struct entry *e = *slot(s, h); e; e = e->hnext)
        if (e->h == h && strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

bool bw_bcache_get(struct bw_bcache *c, const char *key, char **val, size_t *len, char tag[BW_BCACHE_TAG_MAX])
{
    uint64_t h = hash(key);
    struct shard *s = &c->s[h % SHARDS];
    *val = NULL;
    *len = 0;
    pthread_mutex_lock(&s->mu);
    struct entry *e = find(s, h, key);
    if (e) {
        *val = malloc(e->len + 1);
        if (*val) {
            memcpy(*val, e->val, e->len);
            (*val)[e->len] = '\0';
            *len = e->len;
            if (tag)
                memcpy(tag, e->tag, BW_BCACHE_TAG_MAX);
            unlink_entry(s, e);
            push_front(s, e);
        }
    }
    if (*val)
        s->hits++;
    else
        s->misses++;
    pthread_mutex_unlock(&s->mu);
    return *val != NULL;
}

void bw_bcache_put(struct bw_bcache *c, const char *key, const char *val, size_t len, const char *tag)
{
    if (len > c->max_bytes)
        return;
    struct entry *e = calloc(1, sizeof *e);
    if (!e)
        return;
    e->key = strdup(key);
    e->val = malloc(len ? len : 1);
    if (!e->key || !e->val) {
        free(e->key);
        free(e->val);
        free(e);
        return;
    }
    memcpy(e->val, val, len);
    e->len = len;
    size_t tl = tag ? strnlen(tag, BW_BCACHE_TAG_MAX - 1) : 0;
    memcpy(e->tag, tag ? tag : "", tl);
    e->tag[tl] = '\0';
    e->h = hash(key);
    struct shard *s = &c->s[e->h % SHARDS];
    pthread_mutex_lock(&s->mu);
    struct entry *old = find(s, e->h, key);
    if (old)
        drop(s, old);
    while (s->tail && (s->n + 1 > c->max_entries || s->bytes + len > c->max_bytes)) {
        drop(s, s->tail);
        s->evictions++;
    }
    push_front(s, e);
    struct entry **b = slot(s, e->h);
    e->hnext = *b;
    *b = e;
    s->n++;
    s->bytes += len;
    pthread_mutex_unlock(&s->mu);
}

void bw_bcache_stats(struct bw_bcache *c, struct bw_bcache_stats *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < SHARDS; i++) {
        struct shard *s = &c->s[i];
        pthread_mutex_lock(&s->mu);
        out->hits += s->hits;
        out->misses += s->misses;
        out->evictions += s->evictions;
        out->entries += s->n;
        out->bytes += s->bytes;
        pthread_mutex_unlock(&s->mu);
    }
}
