/* YAML and JSON source documents as jansson trees with node positions (see yaml.h). */
#include "engine/intel/yaml.h"

#include "common/limits.h"
#include "common/vec.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct bw_tree_mark {
    uintptr_t node;
    struct bw_srcpos at;
};

static bool singleton(const json_t *j) { return j == json_true() || j == json_false() || j == json_null(); }

static int mark_add(struct bw_tree *t, const json_t *node, struct bw_srcpos at)
{
    if (singleton(node))
        return 0;
    if (!BW_VEC_RESERVE(t->marks, t->cap, t->nmarks + 1, BW_VEC_UNBOUNDED))
        return -1;
    t->marks[t->nmarks++] = (struct bw_tree_mark){(uintptr_t)node, at};
    return 0;
}

static int cmp_mark(const void *a, const void *b)
{
    uintptr_t x = ((const struct bw_tree_mark *)a)->node, y = ((const struct bw_tree_mark *)b)->node;
    return x < y ? -1 : x > y;
}

static const struct bw_tree_mark *mark_find(const struct bw_tree *t, const json_t *node)
{
    if (!node || singleton(node) || !t->nmarks)
        return NULL;
    struct bw_tree_mark key = {(uintptr_t)node, {0, 0}};
    return bsearch(&key, t->marks, t->nmarks, sizeof key, cmp_mark);
}

struct bw_srcpos bw_tree_pos(const struct bw_tree *t, const json_t *node, const json_t *container)
{
    const struct bw_tree_mark *m = mark_find(t, node);
    if (!m)
        m = mark_find(t, container);
    return m ? m->at : (struct bw_srcpos){0, 0};
}

void bw_tree_free(struct bw_tree *t)
{
    if (!t)
        return;
    json_decref(t->root);
    free(t->marks);
    memset(t, 0, sizeof *t);
}

static void set_err(struct bw_parse_error *err, struct bw_srcpos at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(struct bw_parse_error *err, struct bw_srcpos at, const char *fmt, ...)
{
    err->at = at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

/* ---- YAML ---------------------------------------------------------------------------------------- */

struct frame {
    json_t *node;      /* object or array being filled (owned until attached) */
    char *key;         /* object: the key read, its value pending */
    struct bw_srcpos at, key_at;
    char *anchor;      /* registered when the node is complete */
    size_t nodes_at_start;
};

struct anchor {
    char *name;
    json_t *node; /* borrowed from the tree */
    size_t nodes; /* size of the subtree, for the expansion budget */
};

struct ystate {
    struct bw_tree *t;
    struct frame stack[BW_INTEL_TREE_DEPTH];
    int depth;
    struct anchor *anchors;
    size_t nanchors, acap;
    size_t nodes;
    json_t *root;
    struct bw_parse_error *err;
};

static struct bw_srcpos ypos(yaml_mark_t m) { return (struct bw_srcpos){(int)m.line + 1, (int)m.column + 1}; }

static int anchor_put(struct ystate *s, const char *name, json_t *node, size_t nodes)
{
    for (size_t i = 0; i < s->nanchors; i++)
        if (strcmp(s->anchors[i].name, name) == 0) { /* redefinition: the latest wins */
            s->anchors[i].node = node;
            s->anchors[i].nodes = nodes;
            return 0;
        }
    if (!BW_VEC_RESERVE(s->anchors, s->acap, s->nanchors + 1, BW_VEC_UNBOUNDED))
        return -1;
    char *n = strdup(name);
    if (!n)
        return -1;
    s->anchors[s->nanchors++] = (struct anchor){n, node, nodes};
    return 0;
}

static const struct anchor *anchor_get(const struct ystate *s, const char *name)
{
    for (size_t i = 0; i < s->nanchors; i++)
        if (strcmp(s->anchors[i].name, name) == 0)
            return &s->anchors[i];
    return NULL;
}

static bool all_digits(const char *s, size_t n, const char *set)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr(set, s[i]) || !s[i])
            return false;
    return true;
}

/* YAML 1.2 core schema for plain scalars; NULL = a string. */
static json_t *resolve_plain(const char *s, size_t n)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL"};
    static const char *const trues[] = {"true", "True", "TRUE"};
    static const char *const falses[] = {"false", "False", "FALSE"};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        if (strlen(nulls[i]) == n && memcmp(nulls[i], s, n) == 0)
            return json_null();
    for (size_t i = 0; i < 3; i++) {
        if (strlen(trues[i]) == n && memcmp(trues[i], s, n) == 0)
            return json_true();
        if (strlen(falses[i]) == n && memcmp(falses[i], s, n) == 0)
            return json_false();
    }
    if (n > 40 || memchr(s, '\0', n))
        return NULL;
    char buf[48];
    memcpy(buf, s, n);
    buf[n] = '\0';
    const char *d = buf + (buf[0] == '-' || buf[0] == '+');
    int base = 0;
    const char *digits = NULL;
    if (all_digits(d, strlen(d), "0123456789"))
        base = 10, digits = buf;
    else if (buf[0] == '0' && buf[1] == 'o' && all_digits(buf + 2, n - 2, "01234567"))
        base = 8, digits = buf + 2;
    else if (buf[0] == '0' && buf[1] == 'x' && all_digits(buf + 2, n - 2, "0123456789abcdefABCDEF"))
        base = 16, digits = buf + 2;
    if (base) {
        errno = 0;
        char *end;
        long long v = strtoll(digits, &end, base);
        if (errno || *end)
            return NULL; /* out of int64 range: keep the text */
        return json_integer(v);
    }
    /* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
    const char *p = d;
    size_t intd = strspn(p, "0123456789");
    p += intd;
    size_t frac = 0;
    if (*p == '.') {
        p++;
        frac = strspn(p, "0123456789");
        p += frac;
    }
    if (intd == 0 && frac == 0)
        return NULL;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+')
            p++;
        size_t ed = strspn(p, "0123456789");
        if (!ed)
            return NULL;
        p += ed;
    }
    if (*p)
        return NULL;
    errno = 0;
    double v = strtod(buf, NULL);
    if (!isfinite(v))
        return NULL;
    return json_real(v);
}

static json_t *scalar_value(const yaml_event_t *ev)
{
    const char *v = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    const char *tag = (const char *)ev->data.scalar.tag;
    bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    bool resolve = false;
    if (tag) {
        static const char core[] = "tag:yaml.org,2002:";
        if (strncmp(tag, core, sizeof core - 1) == 0) {
            const char *t = tag + sizeof core - 1;
            resolve = strcmp(t, "null") == 0 || strcmp(t, "bool") == 0 || strcmp(t, "int") == 0 ||
                      strcmp(t, "float") == 0;
        } else {
            resolve = plain && strcmp(tag, "!") != 0; /* "!" forces a string */
        }
    } else {
        resolve = plain;
    }
    json_t *r = resolve ? resolve_plain(v, n) : NULL;
    return r ? r : json_stringn(v, n);
}

/* Puts a complete node (stolen) into its place: the root, the open array, or the open object
 * under its pending key. */
static int attach(struct ystate *s, json_t *v, struct bw_srcpos at)
{
    if (mark_add(s->t, v, at) != 0) {
        json_decref(v);
        set_err(s->err, at, "out of memory");
        return -1;
    }
    if (s->depth == 0) {
        json_decref(s->root);
        s->root = v;
        return 0;
    }
    struct frame *f = &s->stack[s->depth - 1];
    if (json_is_array(f->node))
        return json_array_append_new(f->node, v) == 0 ? 0 : (set_err(s->err, at, "out of memory"), -1);
    int rc = json_object_set_new(f->node, f->key, v);
    free(f->key);
    f->key = NULL;
    if (rc != 0)
        set_err(s->err, at, "out of memory");
    return rc;
}

static bool wants_key(const struct ystate *s)
{
    return s->depth > 0 && json_is_object(s->stack[s->depth - 1].node) && !s->stack[s->depth - 1].key;
}

static int count_node(struct ystate *s, size_t n, struct bw_srcpos at)
{
    s->nodes += n;
    if (s->nodes > BW_INTEL_TREE_NODES) {
        set_err(s->err, at, "document too large: more than %u nodes (aliases expanded)", BW_INTEL_TREE_NODES);
        return -1;
    }
    return 0;
}

static int on_scalar(struct ystate *s, const yaml_event_t *ev)
{
    struct bw_srcpos at = ypos(ev->start_mark);
    const char *v = (const char *)ev->data.scalar.value;
    size_t n = ev->data.scalar.length;
    if (wants_key(s)) {
        struct frame *f = &s->stack[s->depth - 1];
        if (memchr(v, '\0', n)) {
            set_err(s->err, at, "mapping key contains a NUL character");
            return -1;
        }
        json_t *probe = json_stringn(v, n);
        if (!probe) {
            set_err(s->err, at, "mapping key is not valid UTF-8");
            return -1;
        }
        json_decref(probe);
        if (json_object_get(f->node, v)) {
            set_err(s->err, at, "duplicate mapping key '%.120s'", v);
            return -1;
        }
        f->key = strdup(v);
        f->key_at = at;
        return f->key ? 0 : (set_err(s->err, at, "out of memory"), -1);
    }
    if (count_node(s, 1, at) != 0)
        return -1;
    json_t *j = scalar_value(ev);
    if (!j) {
        set_err(s->err, at, "scalar is not valid UTF-8");
        return -1;
    }
    if (ev->data.scalar.anchor && anchor_put(s, (const char *)ev->data.scalar.anchor, j, 1) != 0) {
        json_decref(j);
        set_err(s->err, at, "out of memory");
        return -1;
    }
    return attach(s, j, at);
}

static int on_start(struct ystate *s, const yaml_event_t *ev, bool mapping)
{
    struct bw_srcpos at = ypos(ev->start_mark);
    if (wants_key(s)) {
        set_err(s->err, at, "mapping keys must be scalars");
        return -1;
    }
    if (s->depth >= BW_INTEL_TREE_DEPTH) {
        set_err(s->err, at, "nested deeper than %d levels", BW_INTEL_TREE_DEPTH);
        return -1;
    }
    if (count_node(s, 1, at) != 0)
        return -1;
    const unsigned char *anchor = mapping ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
    struct frame *f = &s->stack[s->depth];
    memset(f, 0, sizeof *f);
    f->node = mapping ? json_object() : json_array();
    f->at = at;
    f->nodes_at_start = s->nodes - 1;
    f->anchor = anchor ? strdup((const char *)anchor) : NULL;
    if (!f->node || (anchor && !f->anchor)) {
        json_decref(f->node);
        free(f->anchor);
        set_err(s->err, at, "out of memory");
        return -1;
    }
    s->depth++;
    return 0;
}

static int on_end(struct ystate *s)
{
    struct frame f = s->stack[--s->depth];
    free(f.key); /* only set when the mapping ended right after a key, which libyaml rejects */
    int rc = 0;
    if (f.anchor)
        rc = anchor_put(s, f.anchor, f.node, s->nodes - f.nodes_at_start);
    free(f.anchor);
    if (rc != 0) {
        json_decref(f.node);
        set_err(s->err, f.at, "out of memory");
        return -1;
    }
    return attach(s, f.node, f.at);
}

static int on_alias(struct ystate *s, const yaml_event_t *ev)
{
    struct bw_srcpos at = ypos(ev->start_mark);
    const char *name = (const char *)ev->data.alias.anchor;
    if (wants_key(s)) {
        set_err(s->err, at, "an alias cannot be a mapping key");
        return -1;
    }
    const struct anchor *a = anchor_get(s, name);
    if (!a) {
        set_err(s->err, at, "unknown alias '*%.100s'", name);
        return -1;
    }
    if (count_node(s, a->nodes, at) != 0)
        return -1;
    /* shared, not copied: a container refers to it once more */
    json_t *node = json_incref(a->node);
    if (s->depth == 0) {
        json_decref(s->root);
        s->root = node;
        return 0;
    }
    struct frame *f = &s->stack[s->depth - 1];
    int rc;
    if (json_is_array(f->node)) {
        rc = json_array_append_new(f->node, node);
    } else {
        rc = json_object_set_new(f->node, f->key, node);
        free(f->key);
        f->key = NULL;
    }
    if (rc != 0)
        set_err(s->err, at, "out of memory");
    return rc;
}

/* The position of a reader error, which libyaml gives as a byte offset. */
static struct bw_srcpos offset_pos(const char *buf, size_t len, size_t off)
{
    struct bw_srcpos p = {1, 1};
    for (size_t i = 0; i < off && i < len; i++) {
        if (buf[i] == '\n') {
            p.line++;
            p.column = 1;
        } else if (((unsigned char)buf[i] & 0xC0) != 0x80) {
            p.column++;
        }
    }
    return p;
}

static void parser_error(const yaml_parser_t *p, const char *buf, size_t len, struct bw_parse_error *err)
{
    struct bw_srcpos at = p->error == YAML_READER_ERROR ? offset_pos(buf, len, p->problem_offset)
                                                         : ypos(p->problem_mark);
    if (p->context)
        snprintf(err->msg, sizeof err->msg, "%s %s", p->problem ? p->problem : "invalid YAML", p->context);
    else
        snprintf(err->msg, sizeof err->msg, "%s", p->problem ? p->problem : "invalid YAML");
    err->at = at;
}

int bw_tree_yaml(const char *buf, size_t len, struct bw_tree *out, struct bw_parse_error *err)
{
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
    struct ystate s = {.t = out, .err = err};
    int rc = -1, docs = 0;
    bool done = false;
    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&p, &ev)) {
            parser_error(&p, buf, len, err);
            break;
        }
        int e = 0;
        switch (ev.type) {
        case YAML_DOCUMENT_START_EVENT:
            if (++docs > 1) {
                set_err(err, ypos(ev.start_mark), "more than one YAML document in the stream");
                e = -1;
            }
            break;
        case YAML_SCALAR_EVENT: e = on_scalar(&s, &ev); break;
        case YAML_SEQUENCE_START_EVENT: e = on_start(&s, &ev, false); break;
        case YAML_MAPPING_START_EVENT: e = on_start(&s, &ev, true); break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: e = on_end(&s); break;
        case YAML_ALIAS_EVENT: e = on_alias(&s, &ev); break;
        case YAML_STREAM_END_EVENT:
            done = true;
            if (!docs) {
                set_err(err, ypos(ev.start_mark), "empty document");
                e = -1;
            } else {
                rc = 0;
            }
            break;
        default: break;
        }
        yaml_event_delete(&ev);
        if (e != 0)
            break;
    }
    yaml_parser_delete(&p);
    while (s.depth > 0) { /* an error left containers open */
        struct frame *f = &s.stack[--s.depth];
        json_decref(f->node);
        free(f->key);
        free(f->anchor);
    }
    for (size_t i = 0; i < s.nanchors; i++)
        free(s.anchors[i].name);
    free(s.anchors);
    if (rc != 0) {
        json_decref(s.root);
        free(out->marks);
        memset(out, 0, sizeof *out);
        return -1;
    }
    out->root = s.root ? s.root : json_null();
    if (out->nmarks) /* qsort wants a non-null base even for no elements */
        qsort(out->marks, out->nmarks, sizeof *out->marks, cmp_mark);
    return 0;
}

/* ---- JSON ---------------------------------------------------------------------------------------- */

struct scan {
    const char *s;
    size_t n, i, line_start;
    int line;
    size_t col_at; /* column col is that of byte col_at: positions are counted on from there */
    int col;
    struct bw_srcpos *pos;
    size_t npos, cap;
};

static void skip_ws(struct scan *c)
{
    while (c->i < c->n && strchr(" \t\r\n", c->s[c->i]) && c->s[c->i]) {
        if (c->s[c->i] == '\n') {
            c->line++;
            c->line_start = c->i + 1;
        }
        c->i++;
    }
}

static void skip_string(struct scan *c)
{
    c->i++; /* the opening quote */
    while (c->i < c->n) {
        char ch = c->s[c->i];
        c->i += ch == '\\' ? 2 : 1;
        if (ch == '"')
            break;
    }
}

static int push_pos(struct scan *c)
{
    if (!BW_VEC_RESERVE(c->pos, c->cap, c->npos + 1, BW_VEC_UNBOUNDED))
        return -1;
    /* values come in document order: count on from the previous one (on a minified document
     * recounting from the start of the line for every value was quadratic) */
    if (c->col_at < c->line_start || c->col == 0) {
        c->col_at = c->line_start;
        c->col = 1;
    }
    for (; c->col_at < c->i; c->col_at++)
        c->col += ((unsigned char)c->s[c->col_at] & 0xC0) != 0x80;
    c->pos[c->npos++] = (struct bw_srcpos){c->line, c->col};
    return 0;
}

/* Records where each value of already-validated JSON text starts, in document order, and
 * enforces the depth and node limits. */
static int scan_positions(struct scan *c, struct bw_parse_error *err)
{
    char stack[BW_INTEL_TREE_DEPTH];
    int depth = 0;
    enum { VALUE, AFTER, KEY_OR_END, VALUE_OR_END } st = VALUE;
    for (;;) {
        skip_ws(c);
        if (c->i >= c->n)
            return 0;
        char ch = c->s[c->i];
        if ((st == KEY_OR_END || st == VALUE_OR_END) && (ch == '}' || ch == ']')) {
            depth--;
            c->i++;
            st = AFTER;
            continue;
        }
        if (st == KEY_OR_END) {
            skip_string(c);
            skip_ws(c);
            c->i++; /* ':' */
            st = VALUE;
            continue;
        }
        if (st == VALUE || st == VALUE_OR_END) {
            if (push_pos(c) != 0) {
                set_err(err, (struct bw_srcpos){c->line, 1}, "out of memory");
                return -1;
            }
            if (c->npos > BW_INTEL_TREE_NODES) {
                set_err(err, c->pos[c->npos - 1], "document too large: more than %u nodes", BW_INTEL_TREE_NODES);
                return -1;
            }
            if (ch == '{' || ch == '[') {
                if (depth >= BW_INTEL_TREE_DEPTH) {
                    set_err(err, c->pos[c->npos - 1], "nested deeper than %d levels", BW_INTEL_TREE_DEPTH);
                    return -1;
                }
                stack[depth++] = ch;
                c->i++;
                st = ch == '{' ? KEY_OR_END : VALUE_OR_END;
                continue;
            }
            if (ch == '"')
                skip_string(c);
            else
                while (c->i < c->n && !strchr(" \t\r\n,]}", c->s[c->i]))
                    c->i++;
            st = AFTER;
            continue;
        }
        /* AFTER a value: ',' or the end of the container */
        if (ch == ',') {
            c->i++;
            st = depth > 0 && stack[depth - 1] == '{' ? KEY_OR_END : VALUE;
        } else if (ch == '}' || ch == ']') {
            depth--;
            c->i++;
        } else {
            return 0; /* trailing bytes: jansson has judged the text already */
        }
    }
}

/* Pairs the positions with the nodes: jansson keeps object members in insertion order, so a
 * pre-order walk meets the values in document order. */
static int pair(struct bw_tree *t, json_t *node, const struct scan *c, size_t *k)
{
    if (*k >= c->npos)
        return 0;
    if (mark_add(t, node, c->pos[(*k)++]) != 0)
        return -1;
    if (json_is_object(node)) {
        const char *key;
        json_t *v;
        json_object_foreach(node, key, v)
            if (pair(t, v, c, k) != 0)
                return -1;
    } else if (json_is_array(node)) {
        size_t i;
        json_t *v;
        json_array_foreach(node, i, v)
            if (pair(t, v, c, k) != 0)
                return -1;
    }
    return 0;
}

int bw_tree_json(const char *buf, size_t len, struct bw_tree *out, struct bw_parse_error *err)
{
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    json_error_t je;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    if (!root) {
        err->at = (struct bw_srcpos){je.line > 0 ? je.line : 1, je.column > 0 ? je.column : 1};
        snprintf(err->msg, sizeof err->msg, "%s", je.text);
        return -1;
    }
    struct scan c = {.s = buf, .n = len, .line = 1};
    size_t k = 0;
    if (scan_positions(&c, err) != 0 || pair(out, root, &c, &k) != 0) {
        if (!err->msg[0])
            snprintf(err->msg, sizeof err->msg, "out of memory");
        free(c.pos);
        free(out->marks);
        json_decref(root);
        memset(out, 0, sizeof *out);
        return -1;
    }
    free(c.pos);
    out->root = root;
    if (out->nmarks) /* qsort wants a non-null base even for no elements */
        qsort(out->marks, out->nmarks, sizeof *out->marks, cmp_mark);
    return 0;
}
