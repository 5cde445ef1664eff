/* The YAML -> jansson converter (src/engine/intel/yaml.c): any bytes either parse into a tree whose
 * nodes all have a position inside the input, or fail with a message and a position. */
#include "engine/intel/yaml.h"

#include <stdint.h>
#include <stdlib.h>

static size_t lines;

static void walk(const struct bw_tree *t, json_t *node, json_t *container, int depth)
{
    struct bw_srcpos p = bw_tree_pos(t, node, container);
    if (depth > 64 || p.line < 0 || (size_t)p.line > lines + 1)
        abort();
    const char *k;
    size_t i;
    json_t *v;
    if (json_is_object(node))
        json_object_foreach(node, k, v) walk(t, v, node, depth + 1);
    else if (json_is_array(node))
        json_array_foreach(node, i, v) walk(t, v, node, depth + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct bw_tree t;
    struct bw_parse_error e;
    lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n' || data[i] == '\r';
    if (bw_tree_yaml((const char *)data, size, &t, &e) != 0) {
        if (t.root || !e.msg[0] || e.at.line < 0)
            abort();
        return 0;
    }
    if (!t.root)
        abort();
    walk(&t, t.root, NULL, 0);
    bw_tree_free(&t);
    return 0;
}
