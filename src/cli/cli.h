/* Command-line tools. scan and rules need neither the server's configuration nor a database;
 * intel takes the configuration (BULWARK_DATABASE_URL, BULWARK_DATA_DIR) to reach the store. */
#ifndef BW_CLI_CLI_H
#define BW_CLI_CLI_H
#include <jansson.h>
#include <stdio.h>

struct bw_scanner;
struct bw_config;

/* bulwark scan [--format text|json|sarif] [--fail-on SEVERITY] [--lang L] PATH... */
int bw_cli_scan(int argc, char **argv);
/* bulwark rules test [FILE.json...] | bulwark rules list */
int bw_cli_rules(int argc, char **argv);
/* Runs every rule's examples; prints failures to out; returns how many failed. */
int bw_rules_test_all(const struct bw_scanner *sc, FILE *out, int *nexamples);

/* Pretty-prints j (stolen) on standard output. */
void bw_cli_print_json(json_t *j);

/* bulwark intel import|seed-build (src/cli/intel.c); argv[rest[1]] is the subcommand. */
int bw_cli_intel(struct bw_config *cfg, char **argv, const int *rest, int nrest);

#endif
