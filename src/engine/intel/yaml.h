/* Source documents (YAML through libyaml, JSON through jansson) as jansson trees that remember
 * where each node came from, so an importer can reject bad input with file:line:column.
 *
 * YAML is mapped onto JSON: mappings -> objects (keys must be scalars, duplicates are an
 * error), sequences -> arrays, scalars -> strings, except plain scalars that the YAML 1.2 core
 * schema resolves to null, booleans, integers (within int64) or finite floats. Quoted, block and
 * `!!str`-tagged scalars stay strings. Anchors and aliases work; an alias shares the anchored
 * node (one reference more), and its expanded size counts against BW_INTEL_TREE_NODES so that
 * an "alias bomb" is refused. One document per stream.
 *
 * Ownership: the tree owns root and its positions; bw_tree_free releases both. Positions are
 * kept for every node that is its own allocation; jansson's true/false/null are shared
 * singletons, so their position is their container's. */
#ifndef BW_ENGINE_INTEL_YAML_H
#define BW_ENGINE_INTEL_YAML_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct bw_srcpos {
    int line, column; /* 1-based; 0 when unknown */
};

struct bw_tree_mark;

struct bw_tree {
    json_t *root;
    struct bw_tree_mark *marks; /* sorted by node address once loading is done */
    size_t nmarks, cap;
};

struct bw_parse_error {
    struct bw_srcpos at;
    char msg[240];
};

/* Parse buf[0..len) (need not be NUL-terminated). 0 with *out filled, or -1 with *err set (and
 * nothing to free). */
int bw_tree_yaml(const char *buf, size_t len, struct bw_tree *out, struct bw_parse_error *err);
int bw_tree_json(const char *buf, size_t len, struct bw_tree *out, struct bw_parse_error *err);

/* Where node starts; when node has no position of its own, where `container` starts; else 0:0. */
struct bw_srcpos bw_tree_pos(const struct bw_tree *t, const json_t *node, const json_t *container);

void bw_tree_free(struct bw_tree *t);

#endif
