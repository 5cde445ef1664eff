#include "common/vec.h"

#include <stdlib.h>

void *bw_vec_grow(void *entries, size_t elem, size_t need, size_t limit, size_t *capacity)
{
    /* no object may be larger than PTRDIFF_MAX bytes: pointer differences inside it must fit */
    size_t max = (size_t)PTRDIFF_MAX / elem;
    if (limit < max)
        max = limit;
    if (need <= *capacity)
        return entries;
    if (need > max)
        return entries;
    size_t cap = *capacity;
    if (!cap) {
        cap = 256 / elem; /* small elements: the first allocation is a few cache lines */
        if (cap < 16)
            cap = 16;
    }
    while (cap < need)
        cap = cap > max / 2 ? max : cap * 2;
    if (cap > max)
        cap = max;
    void *p = realloc(entries, cap * elem);
    if (!p)
        return entries;
    *capacity = cap;
    return p;
}
