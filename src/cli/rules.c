/* `bulwark rules`: check a rule catalog (every rule's own examples) and list it. */
#include "cli/cli.h"
#include "common/limits.h"
#include "engine/code/scanner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs one rule's examples; prints each failure; returns the number of failures. */
static int test_rule(const struct bw_scanner *sc, const struct bw_rule *r, FILE *out)
{
    static const char *const kinds[] = {"positive", "negative"};
    int fails = 0;
    for (int k = 0; k < 2; k++) {
        size_t i;
        json_t *ex;
        json_array_foreach(json_object_get(r->examples, kinds[k]), i, ex) {
            int l = bw_lang_parse(json_string_value(json_object_get(ex, "lang")));
            const char *code = json_string_value(json_object_get(ex, "code"));
            struct bw_findings f;
            if (l < 0 || !code || bw_scan(sc, (enum bw_lang)l, code, strlen(code), false, &f) != 0) {
                fprintf(out, "%s: %s example %zu: scan failed\n", r->id, kinds[k], i);
                fails++;
                continue;
            }
            bool hit = false;
            for (size_t j = 0; j < f.n; j++)
                hit |= f.v[j].rule == r;
            bw_findings_free(&f);
            if (hit != (k == 0)) {
                fprintf(out, "%s: %s example %zu (%s) %s: %s\n", r->id, kinds[k], i, bw_lang_name((enum bw_lang)l),
                        k == 0 ? "is not reported" : "is reported", code);
                fails++;
            }
        }
    }
    return fails;
}

int bw_rules_test_all(const struct bw_scanner *sc, FILE *out, int *nexamples)
{
    int fails = 0;
    *nexamples = 0;
    for (size_t i = 0; i < bw_scanner_rule_count(sc); i++) {
        const struct bw_rule *r = bw_scanner_rule(sc, i);
        *nexamples += (int)(json_array_size(json_object_get(r->examples, "positive")) +
                            json_array_size(json_object_get(r->examples, "negative")));
        fails += test_rule(sc, r, out);
    }
    return fails;
}

static const char USAGE[] =
    "usage: bulwark rules test [CATALOG.json...]   run every rule's examples (default: the embedded catalog)\n"
    "       bulwark rules list [CATALOG.json...]   the catalog as JSON\n"
    "Exit status: 0 every example passes, 1 one fails or a catalog is invalid, 2 usage error.\n";

int bw_cli_rules(int argc, char **argv)
{
    const char *args[66];
    int nargs = 0;
    int prc = bw_opts_parse("rules", USAGE, NULL, argc - 1, argv + 1, args, 66, &nargs);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    if (nargs == 0)
        return bw_cli_usage_error("rules", "expected test or list");
    if (strcmp(args[0], "test") != 0 && strcmp(args[0], "list") != 0)
        return bw_cli_usage_error("rules", "unknown subcommand '%s'; expected test or list", args[0]);
    const char *const *catalogs = args + 1;
    char err[512];
    struct bw_scanner *sc;
    char *bufs[64];
    size_t lens[64];
    int nfiles = nargs - 1;
    if (nfiles > 64)
        return bw_cli_usage_error("rules", "at most 64 catalog files");
    for (int i = 0; i < nfiles; i++) {
        char why[128];
        if (bw_cli_read_file(catalogs[i], BW_CLI_RULES_MAX_FILE_BYTES, &bufs[i], &lens[i], why, sizeof why) !=
            BW_READ_OK) {
            fprintf(stderr, "bulwark rules: %s: %s\n", catalogs[i], why);
            for (int j = 0; j < i; j++)
                free(bufs[j]);
            return 2;
        }
    }
    if (nfiles > 0)
        sc = bw_scanner_new((const char *const *)bufs, lens, (size_t)nfiles, err, sizeof err);
    else
        sc = bw_scanner_new_embedded(err, sizeof err);
    for (int i = 0; i < nfiles; i++)
        free(bufs[i]);
    if (!sc) {
        fprintf(stderr, "bulwark rules: %s\n", err);
        return 1;
    }
    int rc = 0;
    if (strcmp(args[0], "list") == 0) {
        size_t len;
        const char *cat = bw_scanner_catalog_json(sc, &len);
        fwrite(cat, 1, len, stdout);
        putchar('\n');
    } else {
        int n;
        int fails = bw_rules_test_all(sc, stdout, &n);
        printf("%zu rules, %d examples, %d failing\n", bw_scanner_rule_count(sc), n, fails);
        rc = fails ? 1 : 0;
    }
    bw_scanner_free(sc);
    return rc;
}
