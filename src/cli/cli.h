/* Command-line tools that do not need the server's configuration or database. */
#ifndef BW_CLI_CLI_H
#define BW_CLI_CLI_H
#include <stdio.h>

struct bw_scanner;

/* bulwark scan [--format text|json|sarif] [--fail-on SEVERITY] [--lang L] PATH... */
int bw_cli_scan(int argc, char **argv);
/* bulwark rules test [FILE.json...] | bulwark rules list */
int bw_cli_rules(int argc, char **argv);
/* Runs every rule's examples; prints failures to out; returns how many failed. */
int bw_rules_test_all(const struct bw_scanner *sc, FILE *out, int *nexamples);

#endif
