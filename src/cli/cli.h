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

/* What a file of st_mode mode is, for messages: "a directory", "a FIFO", ... */
const char *bw_cli_file_kind(unsigned mode);

enum { BW_READ_OK, BW_READ_FAILED, BW_READ_NOT_REGULAR, BW_READ_TOO_LARGE };
/* Reads the regular file at path whole into *out (malloc'd, NUL-terminated; *len bytes without
 * the NUL; the caller frees it). Anything that is not a regular file (directory, FIFO, socket,
 * device) is refused without blocking: stat first, then open with O_NONBLOCK and fstat again.
 * Returns BW_READ_OK, or another BW_READ_* with why set (lowercase, e.g. "a FIFO, not a regular
 * file", "larger than N bytes", strerror) and *out NULL. */
int bw_cli_read_file(const char *path, size_t max, char **out, size_t *len, char *why, size_t whylen);

/* Pretty-prints j (stolen) on standard output. */
void bw_cli_print_json(json_t *j);

/* bulwark intel import|seed-build (src/cli/intel.c); argv[rest[1]] is the subcommand. */
int bw_cli_intel(struct bw_config *cfg, char **argv, const int *rest, int nrest);

#endif
