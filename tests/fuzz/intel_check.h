/* Shared by the intel normaliser fuzzers: what a normaliser accepts must make complete, valid
 * records (src/engine/intel/intel.h) that serialise and merge with themselves without a change. */
#ifndef BW_FUZZ_INTEL_CHECK_H
#define BW_FUZZ_INTEL_CHECK_H
#include "engine/intel/intel.h"
#include "engine/intel/sources.h"
#include "engine/intel/yaml.h"

#include <stdint.h>
#include <stdlib.h>

static void check_record(json_t *r)
{
    char why[256];
    bw_intel_finalize(r, 1, 1700000000);
    if (bw_intel_check(r, why, sizeof why) != 0)
        abort();
    char *text = bw_intel_dump(r), *entry = bw_intel_entry(r);
    json_t *self = bw_intel_merge(r, r);
    if (!text || !entry || !self || !bw_intel_same_facts(r, self))
        abort();
    free(text);
    free(entry);
    json_decref(self);
}

/* Runs a normaliser over a parsed tree and checks its output, or that it said why it refused. */
static void check_normaliser(int (*fn)(const struct bw_tree *, json_t **, struct bw_intel_reject *),
                             const struct bw_tree *t)
{
    json_t *out = NULL;
    struct bw_intel_reject rej = {0};
    if (fn(t, &out, &rej) != 0) {
        if (out || !rej.msg[0])
            abort();
        return;
    }
    if (json_is_array(out)) {
        size_t i;
        json_t *r;
        json_array_foreach(out, i, r) check_record(r);
    } else if (out) {
        check_record(out);
    }
    json_decref(out);
}

/* A YAML document through a normaliser: the body of the OSV and ATLAS targets. */
static inline int fuzz_yaml_normaliser(int (*fn)(const struct bw_tree *, json_t **, struct bw_intel_reject *),
                                const uint8_t *data, size_t size)
{
    struct bw_tree t;
    struct bw_parse_error e;
    if (bw_tree_yaml((const char *)data, size, &t, &e) != 0)
        return 0;
    check_normaliser(fn, &t);
    bw_tree_free(&t);
    return 0;
}

#endif
