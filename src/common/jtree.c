/* Write-only JSON trees in an arena (jtree.h). */
#include "common/jtree.h"

#include "common/jsonx.h"
#include "common/limits.h"
#include "common/sbuf.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct bw_jt_chunk {
    struct bw_jt_chunk *next;
    alignas(max_align_t) char data[];
};

void bw_jt_arena_free(struct bw_jt_arena *a)
{
    struct bw_jt_chunk *c = a->chunks;
    while (c) {
        struct bw_jt_chunk *next = c->next;
        free(c);
        c = next;
    }
    memset(a, 0, sizeof *a);
}

static void *alloc(struct bw_jt_arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    if (n > SIZE_MAX - sizeof(struct bw_jt_chunk) - align) {
        a->oom = true; /* no such size fits in memory: refused before the sums below wrap */
        return NULL;
    }
    n = (n + align - 1) & ~(align - 1);
    if (n > a->left) {
        /* a new chunk; one larger than the usual size holds only this allocation, and the current
         * chunk keeps its free space for the next small ones */
        size_t size = n > BW_JT_CHUNK ? n : BW_JT_CHUNK;
        struct bw_jt_chunk *c = malloc(sizeof *c + size);
        if (!c) {
            a->oom = true;
            return NULL;
        }
        if (size > BW_JT_CHUNK && a->chunks) {
            c->next = a->chunks->next;
            a->chunks->next = c;
            return c->data;
        }
        c->next = a->chunks;
        a->chunks = c;
        a->p = c->data;
        a->left = size;
    }
    void *p = a->p;
    a->p += n;
    a->left -= n;
    return p;
}

static struct bw_jt *node(struct bw_jt_arena *a, enum bw_jt_kind kind)
{
    struct bw_jt *v = alloc(a, sizeof *v);
    if (v) {
        memset(v, 0, sizeof *v);
        v->kind = kind;
    }
    return v;
}

struct bw_jt *bw_jt_object(struct bw_jt_arena *a) { return node(a, BW_JT_OBJECT); }
struct bw_jt *bw_jt_array(struct bw_jt_arena *a) { return node(a, BW_JT_ARRAY); }
struct bw_jt *bw_jt_null(struct bw_jt_arena *a) { return node(a, BW_JT_NULL); }
struct bw_jt *bw_jt_bool(struct bw_jt_arena *a, bool v) { return node(a, v ? BW_JT_TRUE : BW_JT_FALSE); }

struct bw_jt *bw_jt_int(struct bw_jt_arena *a, int64_t i)
{
    struct bw_jt *v = node(a, BW_JT_INT);
    if (v)
        v->u.i = i;
    return v;
}

struct bw_jt *bw_jt_real(struct bw_jt_arena *a, double d)
{
    struct bw_jt *v = node(a, BW_JT_REAL);
    if (v)
        v->u.d = d;
    return v;
}

struct bw_jt *bw_jt_stringn(struct bw_jt_arena *a, const char *s, size_t n)
{
    if (!s)
        return NULL;
    struct bw_jt *v = n < SIZE_MAX ? node(a, BW_JT_STRING) : NULL;
    char *copy = v ? alloc(a, n + 1) : NULL;
    if (!copy)
        return NULL;
    memcpy(copy, s, n);
    copy[n] = '\0';
    v->u.str.s = copy;
    v->u.str.n = n;
    return v;
}

struct bw_jt *bw_jt_string(struct bw_jt_arena *a, const char *s)
{
    return s ? bw_jt_stringn(a, s, strlen(s)) : NULL;
}

static bool add(struct bw_jt *parent, struct bw_jt *v)
{
    if (parent->u.kids.last)
        parent->u.kids.last->next = v;
    else
        parent->u.kids.first = v;
    parent->u.kids.last = v;
    parent->u.kids.n++;
    return true;
}

bool bw_jt_set(struct bw_jt *o, const char *key, struct bw_jt *v)
{
    if (!o || !v || !key || o->kind != BW_JT_OBJECT)
        return false;
    v->key = key;
    v->klen = strlen(key);
    return add(o, v);
}

bool bw_jt_setn_copy(struct bw_jt_arena *a, struct bw_jt *o, const char *key, size_t klen, struct bw_jt *v)
{
    if (!o || !v || !key || o->kind != BW_JT_OBJECT || klen == SIZE_MAX)
        return false;
    char *k = alloc(a, klen + 1);
    if (!k)
        return false;
    memcpy(k, key, klen);
    k[klen] = '\0';
    v->key = k;
    v->klen = klen;
    return add(o, v);
}

bool bw_jt_append(struct bw_jt *arr, struct bw_jt *v)
{
    if (!arr || !v || arr->kind != BW_JT_ARRAY)
        return false;
    v->key = NULL;
    return add(arr, v);
}

struct bw_jt *bw_jt_get(const struct bw_jt *o, const char *key)
{
    if (!o || o->kind != BW_JT_OBJECT || !key)
        return NULL;
    size_t n = strlen(key);
    for (struct bw_jt *m = o->u.kids.first; m; m = m->next)
        if (m->klen == n && memcmp(m->key, key, n) == 0)
            return m;
    return NULL;
}

size_t bw_jt_size(const struct bw_jt *v)
{
    return v && (v->kind == BW_JT_ARRAY || v->kind == BW_JT_OBJECT) ? v->u.kids.n : 0;
}

const char *bw_jt_str(const struct bw_jt *v)
{
    return v && v->kind == BW_JT_STRING ? v->u.str.s : NULL;
}

static bool put(struct bw_sb *b, const struct bw_jt *v, int precision, int depth)
{
    if (depth > BW_JSON_DUMP_MAX_DEPTH)
        return false;
    switch (v->kind) {
    case BW_JT_OBJECT:
    case BW_JT_ARRAY: {
        bool obj = v->kind == BW_JT_OBJECT;
        bw_sb_putc(b, obj ? '{' : '[');
        for (const struct bw_jt *k = v->u.kids.first; k; k = k->next) {
            if (k != v->u.kids.first)
                bw_sb_putc(b, ',');
            if (obj) {
                bw_json_put_string(b, k->key, k->klen);
                bw_sb_putc(b, ':');
            }
            if (!put(b, k, precision, depth + 1))
                return false;
        }
        bw_sb_putc(b, obj ? '}' : ']');
        return true;
    }
    case BW_JT_STRING:
        bw_json_put_string(b, v->u.str.s, v->u.str.n);
        return true;
    case BW_JT_INT:
        bw_sb_printf(b, "%lld", (long long)v->u.i);
        return true;
    case BW_JT_REAL:
        return bw_json_put_real(b, v->u.d, precision);
    case BW_JT_TRUE:
        bw_sb_putn(b, "true", 4);
        return true;
    case BW_JT_FALSE:
        bw_sb_putn(b, "false", 5);
        return true;
    case BW_JT_NULL:
        bw_sb_putn(b, "null", 4);
        return true;
    }
    return false;
}

bool bw_jt_write(struct bw_sb *b, const struct bw_jt *v, int precision)
{
    if (!v)
        return false;
    return put(b, v, precision > 0 && precision <= 17 ? precision : 17, 0) && !b->oom;
}
