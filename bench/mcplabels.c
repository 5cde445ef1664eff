/* The MCP judgments measured against labelled sets (part of `make bench`; tests/data/mcp/README.md):
 *   tools.jsonl       tool definitions, server instructions, prompts and resources, each poisoned
 *                     or benign; the scan's verdict is "poisoned" when it reports one of
 *                     MCP-POISON-001..006 for the item. Precision and recall, per class the cases
 *                     missed or wrongly flagged.
 *   pin_pairs.jsonl   pairs of definitions of one tool, the same in meaning or changed; the pin's
 *                     verdict is "changed" when the two pins differ.
 * Usage: bench_mcplabels DIR [--check]. A benchmark reports, it does not judge: the exit status is
 * 0 unless a file cannot be read or, with --check (ctest), a pin pair is judged wrongly (pins are
 * exact by design, so any miss there is a bug) or poisoning precision or recall falls below its
 * floor (FLOOR: the values measured when the floors were set, rounded down to 2 decimals, so a
 * regression fails and an improvement is a reason to raise them). */
#include "common/embedded.h"
#include "engine/mcppin.h"
#include "engine/mcpprobe.h"
#include "engine/mcpscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tally {
    int tp, fp, fn, tn;
};

static void count(struct tally *t, bool truth, bool said)
{
    if (truth && said)
        t->tp++;
    else if (truth)
        t->fn++;
    else if (said)
        t->fp++;
    else
        t->tn++;
}

static double precision(const struct tally *t) { return t->tp + t->fp ? (double)t->tp / (t->tp + t->fp) : 1.0; }
static double recall(const struct tally *t) { return t->tp + t->fn ? (double)t->tp / (t->tp + t->fn) : 1.0; }

static void report(const char *what, const struct tally *t)
{
    printf("  %-34s precision %.3f  recall %.3f   (tp %d, fp %d, fn %d, tn %d)\n", what, precision(t), recall(t), t->tp,
           t->fp, t->fn, t->tn);
}

/* Poisoning floors for --check: all items, then per WHERE. Measured 2026-11-27 on tools.jsonl
 * (85 items): all 0.875 / 0.977, tool 0.860 / 0.974, the others 1.000 / 1.000. */
static const struct {
    double precision, recall;
} FLOOR[5] = {{0.87, 0.97}, {0.86, 0.97}, {1.00, 1.00}, {1.00, 1.00}, {1.00, 1.00}};

/* Whether t reaches floor k; if not, says so on stderr. */
static bool at_floor(const char *what, const struct tally *t, size_t k)
{
    /* the floors are rounded down, so a tiny epsilon only absorbs the printing of 1.00 */
    bool ok = precision(t) + 1e-9 >= FLOOR[k].precision && recall(t) + 1e-9 >= FLOOR[k].recall;
    if (!ok)
        fprintf(stderr, "bench_mcplabels: %s: precision %.3f recall %.3f, below the floor %.2f / %.2f\n", what,
                precision(t), recall(t), FLOOR[k].precision, FLOOR[k].recall);
    return ok;
}

/* Each line of path as a JSON object, handed to fn. -1 when the file cannot be read or a line is
 * not an object. */
static int each_line(const char *path, int (*fn)(const json_t *, void *), void *ctx)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "bench_mcplabels: cannot read %s\n", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int rc = 0, n = 0;
    while (rc == 0 && getline(&line, &cap, f) > 0) {
        n++;
        json_error_t e;
        json_t *o = json_loads(line, 0, &e);
        if (!json_is_object(o)) {
            fprintf(stderr, "bench_mcplabels: %s:%d: %s\n", path, n, o ? "not an object" : e.text);
            rc = -1;
        } else {
            rc = fn(o, ctx);
        }
        json_decref(o);
    }
    free(line);
    fclose(f);
    return rc;
}

struct poison_run {
    const struct bw_mcp_checks *checks;
    struct tally all, by_where[4];
    char missed[4096], flagged[4096];
};

static const char *const WHERE[4] = {"tool", "instructions", "prompt", "resource"};

static void note(char *list, size_t cap, const char *id)
{
    size_t n = strlen(list);
    snprintf(list + n, cap - n, "%s%s", n ? ", " : "", id);
}

/* Whether the scan of item (where: tool, instructions, prompt, resource) reports poisoning. */
static bool scan_poisoned(const struct bw_mcp_checks *checks, const char *where, const json_t *item, int *err)
{
    json_t *body = json_pack("{s:{s:s,s:s},s:b}", "mcp_config", "server_url", "https://mcp.example.com/mcp",
                             "auth_method", "oauth", "pin", 0);
    struct bw_mcp_live live = {.performed = true, .status = BW_MCP_PROBE_LISTED, .reachable = true,
                               .http_status = 200, .initialized = true};
    snprintf(live.info.protocol_version, sizeof live.info.protocol_version, "2025-06-18");
    const char *name = NULL;
    json_t *out = NULL, *errors = NULL;
    if (strcmp(where, "tool") == 0) {
        json_object_set_new(json_object_get(body, "mcp_config"), "tools", json_pack("[O]", item));
        name = json_string_value(json_object_get(item, "name"));
        out = bw_mcp_scan_body(checks, body, &errors);
    } else {
        live.tools = json_array();
        if (strcmp(where, "instructions") == 0)
            live.instructions = json_incref((json_t *)item);
        else if (strcmp(where, "prompt") == 0)
            live.prompts.items = json_pack("[O]", item);
        else
            live.resources.items = json_pack("[O]", item);
        out = bw_mcp_scan_body_live(checks, body, &live, &errors);
    }
    bool hit = false;
    size_t i;
    const json_t *f;
    json_array_foreach(json_object_get(out, "findings"), i, f) {
        const char *id = json_string_value(json_object_get(f, "id"));
        const char *tool = json_string_value(json_object_get(f, "tool"));
        if (strncmp(id, "MCP-POISON-", 11) == 0 && (!name || (tool && strcmp(tool, name) == 0)))
            hit = true;
    }
    if (!out)
        *err = 1;
    json_decref(errors);
    json_decref(out);
    json_decref(body);
    bw_mcp_live_free(&live);
    return hit;
}

static int poison_case(const json_t *c, void *ctx)
{
    struct poison_run *run = ctx;
    const char *id = json_string_value(json_object_get(c, "id"));
    const char *label = json_string_value(json_object_get(c, "label"));
    const char *where = json_string_value(json_object_get(c, "where"));
    const json_t *item = json_object_get(c, "item");
    int w = -1;
    for (int k = 0; where && k < 4; k++)
        if (strcmp(where, WHERE[k]) == 0)
            w = k;
    if (!id || !label || w < 0 || !item || (strcmp(label, "poisoned") != 0 && strcmp(label, "benign") != 0)) {
        fprintf(stderr, "bench_mcplabels: a case without id, label (poisoned, benign), where or item\n");
        return -1;
    }
    int err = 0;
    bool truth = strcmp(label, "poisoned") == 0, said = scan_poisoned(run->checks, where, item, &err);
    if (err) {
        fprintf(stderr, "bench_mcplabels: %s: the scan refused the item\n", id);
        return -1;
    }
    count(&run->all, truth, said);
    count(&run->by_where[w], truth, said);
    if (truth && !said)
        note(run->missed, sizeof run->missed, id);
    if (!truth && said)
        note(run->flagged, sizeof run->flagged, id);
    return 0;
}

struct pin_run {
    struct tally all;
    char wrong[2048];
};

static int pin_of(const json_t *t, struct bw_mcp_pin *p)
{
    const json_t *schema = json_object_get(t, "input_schema"), *ann = json_object_get(t, "annotations");
    struct bw_mcp_tooldef d = {json_string_value(json_object_get(t, "description")),
                               json_string_value(json_object_get(t, "title")), json_is_object(schema) ? schema : NULL,
                               json_is_object(ann) ? ann : NULL};
    return bw_mcp_pin_make(&d, p);
}

static int pin_case(const json_t *c, void *ctx)
{
    struct pin_run *run = ctx;
    const char *id = json_string_value(json_object_get(c, "id"));
    const char *label = json_string_value(json_object_get(c, "label"));
    struct bw_mcp_pin a, b;
    if (!id || !label || pin_of(json_object_get(c, "before"), &a) != 0) {
        fprintf(stderr, "bench_mcplabels: a pair without id, label or a definition\n");
        return -1;
    }
    if (pin_of(json_object_get(c, "after"), &b) != 0) {
        bw_mcp_pin_clear(&a);
        return -1;
    }
    bool truth = strcmp(label, "changed") == 0, said = strcmp(a.hash, b.hash) != 0;
    count(&run->all, truth, said);
    if (truth != said)
        note(run->wrong, sizeof run->wrong, id);
    bw_mcp_pin_clear(&a);
    bw_mcp_pin_clear(&b);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_mcplabels DIR [--check]\n");
        return 2;
    }
    bool check = argc > 2 && strcmp(argv[2], "--check") == 0;
    struct bw_mcp_checks *checks = NULL;
    char err[256], path[4096];
    if (bw_mcp_checks_load(bw_embedded_find(BW_MCP_CHECKS), &checks, err, sizeof err) != 0) {
        fprintf(stderr, "bench_mcplabels: %s\n", err);
        return 1;
    }
    struct poison_run pr = {.checks = checks};
    snprintf(path, sizeof path, "%s/tools.jsonl", argv[1]);
    int rc = each_line(path, poison_case, &pr);
    struct pin_run pn = {0};
    snprintf(path, sizeof path, "%s/pin_pairs.jsonl", argv[1]);
    if (rc == 0)
        rc = each_line(path, pin_case, &pn);
    bw_mcp_checks_free(checks);
    if (rc != 0)
        return 1;
    printf("mcp: labelled sets (tests/data/mcp)\n");
    report("poisoning, all items", &pr.all);
    bool floors = at_floor("poisoning, all items", &pr.all, 0);
    for (int k = 0; k < 4; k++) {
        char what[64];
        snprintf(what, sizeof what, "poisoning, %s", WHERE[k]);
        report(what, &pr.by_where[k]);
        floors = at_floor(what, &pr.by_where[k], (size_t)k + 1) && floors;
    }
    printf("    missed: %s\n    flagged benign: %s\n", pr.missed[0] ? pr.missed : "none",
           pr.flagged[0] ? pr.flagged : "none");
    report("pins, changed definitions", &pn.all);
    if (pn.wrong[0])
        printf("    judged wrongly: %s\n", pn.wrong);
    return check && (pn.wrong[0] || !floors) ? 1 : 0;
}
