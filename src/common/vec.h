/* A typed growable array in the style of h2o's H2O_VECTOR, and the one growth rule under every
 * growable array and byte buffer of the code base (sbuf.h included): geometric, overflow-checked,
 * bounded by a limit the caller names.
 *
 *     BW_VEC(struct file) files = {0};
 *     if (!bw_vec_reserve(&files, files.size + 1, BW_CLI_SCAN_MAX_FILES))
 *         return -1;                      // out of memory, or past the limit: nothing changed
 *     files.entries[files.size++] = f;
 *     ...
 *     free(files.entries);
 *
 * A struct whose fields have names of their own (a public struct whose readers use v/n/cap)
 * grows through BW_VEC_RESERVE(entries, capacity, need, limit) with the same rule.
 *
 * Ownership: entries is malloc'ed and belongs to the vector's owner (free(v.entries)); a zeroed
 * vector is empty. A reserve that fails leaves entries and capacity as they were. */
#ifndef BW_COMMON_VEC_H
#define BW_COMMON_VEC_H
#include <stddef.h>
#include <stdint.h>

#define BW_VEC(T)                                                                                  \
    struct {                                                                                       \
        T *entries;                                                                                \
        size_t size, capacity;                                                                     \
    }

/* For a limit argument: no limit of the caller's own (what fills the array bounds it); the
 * element count is still held below PTRDIFF_MAX bytes. */
#define BW_VEC_UNBOUNDED SIZE_MAX

/* The growth rule: entries, an array of *capacity elements of elem bytes, is reallocated to hold
 * at least need elements (doubling from max(16, 256 / elem), never past limit). Returns the
 * (possibly moved) array; when need exceeds limit, would overflow, or memory runs out, returns
 * entries unchanged and leaves *capacity as it was, so the caller tests need <= *capacity. */
void *bw_vec_grow(void *entries, size_t elem, size_t need, size_t limit, size_t *capacity);

/* Room for need elements: true, or false when out of memory or past limit (nothing changed).
 * need and limit may be evaluated more than once: pass plain expressions. */
#define BW_VEC_RESERVE(entries, capacity, need, limit)                                             \
    ((need) <= (capacity) ||                                                                       \
     ((entries) = bw_vec_grow((entries), sizeof *(entries), (need), (limit), &(capacity)), (need) <= (capacity)))
#define bw_vec_reserve(v, need, limit) BW_VEC_RESERVE((v)->entries, (v)->capacity, (need), (limit))

#endif
