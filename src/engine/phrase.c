#include "engine/phrase.h"

#include <stdlib.h>
#include <string.h>

bool bw_phrase_parse(const char *s, unsigned flags, size_t max_words, struct bw_phrase *out)
{
    out->buf = NULL;
    out->n = out->fixed = 0;
    size_t len = strlen(s);
    if (len == 0 || len > BW_AGENT_PHRASE_MAX || max_words > BW_PHRASE_WORDS_MAX || !(out->buf = strdup(s)))
        return false;
    for (char *p = out->buf; p;) {
        char *sp = strchr(p, ' ');
        if (sp)
            *sp = '\0';
        if (out->n == max_words)
            return false;
        size_t l = strlen(p);
        if ((flags & BW_PHRASE_GAPS) && strcmp(p, "*") == 0) {
            /* a gap between two words: not first, not last, not after another gap */
            if (out->n == 0 || !sp || !out->w[out->n - 1])
                return false;
            out->w[out->n] = NULL;
            out->wl[out->n] = 0;
            out->prefix[out->n++] = false;
        } else {
            bool star = (flags & BW_PHRASE_PREFIX) && l > 0 && p[l - 1] == '*';
            if (star)
                p[--l] = '\0';
            if (l == 0 || (star && l < 2) || strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789") != l)
                return false;
            out->w[out->n] = p;
            out->wl[out->n] = l;
            out->prefix[out->n++] = star;
            out->fixed++;
        }
        p = sp ? sp + 1 : NULL;
    }
    return true;
}

bool bw_plist_parse(const json_t *a, unsigned flags, size_t max_words, struct bw_plist *out, size_t *bad)
{
    *out = (struct bw_plist){0};
    if (!(out->v = calloc(json_array_size(a) + 1, sizeof *out->v))) {
        *bad = SIZE_MAX;
        return false;
    }
    size_t i;
    json_t *x;
    json_array_foreach(a, i, x) {
        const char *s = json_string_value(x);
        struct bw_phrase *p = &out->v[out->n];
        if (!s || !bw_phrase_parse(s, flags, max_words, p)) {
            free(p->buf);
            p->buf = NULL;
            *bad = i;
            return false;
        }
        out->n++;
    }
    return true;
}

void bw_plist_free(struct bw_plist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].buf);
    free(l->v);
    *l = (struct bw_plist){0};
}

static size_t match_from(const struct bw_phrase *p, size_t pi, const struct bw_words *x, size_t i, size_t end,
                         size_t *pos)
{
    if (pi == p->n)
        return i;
    if (!p->w[pi]) { /* the shortest gap that lets the rest match */
        for (size_t g = 0; g <= BW_AGENT_PATTERN_GAP && i + g < end; g++) {
            size_t r = match_from(p, pi + 1, x, i + g, end, pos);
            if (r)
                return r;
        }
        return 0;
    }
    if (i >= end)
        return 0;
    const char *w = bw_word(x, i);
    if (p->prefix[pi] ? strncmp(w, p->w[pi], p->wl[pi]) != 0 : strcmp(w, p->w[pi]) != 0)
        return 0;
    if (pos)
        pos[pi] = i;
    return match_from(p, pi + 1, x, i + 1, end, pos);
}

size_t bw_phrase_match(const struct bw_phrase *p, const struct bw_words *x, size_t i, size_t end, size_t *pos)
{
    return match_from(p, 0, x, i, end, pos);
}

bool bw_plist_any_at(const struct bw_plist *l, const struct bw_words *x, size_t i, size_t end)
{
    for (size_t k = 0; k < l->n; k++)
        if (bw_phrase_match(&l->v[k], x, i, end, NULL))
            return true;
    return false;
}

bool bw_plist_has_word(const struct bw_plist *l, const char *w)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i].n == 1 && !l->v[i].prefix[0] && strcmp(l->v[i].w[0], w) == 0)
            return true;
    return false;
}
