/* A bounded cache of byte strings by text key, for documents that are a pure function of their key
 * (a generated playbook of a record version): at most max_entries entries and max_bytes bytes of
 * values, the least recently used given up first. Thread-safe (16 shards, a mutex each); a hit
 * copies the value out, so nothing handed out is ever freed under a reader. */
#ifndef BW_COMMON_BCACHE_H
#define BW_COMMON_BCACHE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BW_BCACHE_TAG_MAX 64 /* bytes of the tag kept beside a value (an ETag), with its NUL */

struct bw_bcache;

struct bw_bcache *bw_bcache_new(size_t max_entries, size_t max_bytes);
void bw_bcache_free(struct bw_bcache *c);

/* On a hit: true, *val a malloc'ed copy of the value with a NUL after its len bytes (free it) and
 * tag (optional) its tag. False on a miss or out of memory. */
bool bw_bcache_get(struct bw_bcache *c, const char *key, char **val, size_t *len, char tag[BW_BCACHE_TAG_MAX]);
/* Keeps a copy of val (len bytes) and tag under key, replacing what key had; a value larger than
 * a shard's share of max_bytes is not kept. */
void bw_bcache_put(struct bw_bcache *c, const char *key, const char *val, size_t len, const char *tag);

/* Counters since bw_bcache_new, for /metrics and tests. */
struct bw_bcache_stats {
    uint64_t hits, misses, evictions;
    size_t entries, bytes;
};
void bw_bcache_stats(struct bw_bcache *c, struct bw_bcache_stats *out);

#endif
