/* Command-line tools. scan and rules need neither the server's configuration nor a database;
 * intel takes the configuration (BULWARK_DATABASE_URL, BULWARK_DATA_DIR) to reach the store. */
#ifndef BW_CLI_CLI_H
#define BW_CLI_CLI_H
#include <jansson.h>
#include <stdbool.h>
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

/* An option of a subcommand: name "--format", alias "-o" or NULL. value: where the option's
 * value goes (a pointer into argv), NULL for a flag without a value; set: made true when the
 * option is given (required for flags, optional otherwise); list: a repeatable option's values.
 * Arrays end with {NULL}. */
struct bw_opt_list {
    const char **v; /* the values of a repeatable option, in order */
    int n, max;
};
struct bw_opt {
    const char *name, *alias;
    const char **value;
    bool *set;
    struct bw_opt_list *list; /* repeatable: each value is appended here (value may be NULL) */
};

enum { BW_OPTS_OK = 0, BW_OPTS_HELP = -1, BW_OPTS_USAGE = 2 };
/* Parses args[0..n) (what follows the subcommand): --name VALUE, --name=VALUE, -a VALUE,
 * flags, operands anywhere, "--" ending the options. Operands go to pos[0..maxpos) (*npos of
 * them). BW_OPTS_OK; BW_OPTS_HELP for --help or -h, after usage went to stdout; BW_OPTS_USAGE
 * after a message naming the word at fault ("unknown option --x", "--format needs a value",
 * "unexpected argument 'x'") on stderr. A command returns bw_opts_exit(rc) unless rc is OK. */
int bw_opts_parse(const char *cmd, const char *usage, const struct bw_opt *opts, int n, char **args, const char **pos,
                  int maxpos, int *npos);
/* The exit status after bw_opts_parse returned rc != BW_OPTS_OK: 0 after help, else 2. */
static inline int bw_opts_exit(int rc) { return rc == BW_OPTS_HELP ? 0 : rc; }
/* bw_opts_parse for a command that takes no options or operands of its own (the BULWARK_* flags
 * were taken before it): BW_OPTS_OK, or the rc to hand to bw_opts_exit. */
static inline int bw_opts_none(const char *cmd, const char *usage, int n, char **args)
{
    int np;
    return bw_opts_parse(cmd, usage, NULL, n, args, NULL, 0, &np);
}
/* Prints "bulwark CMD: MESSAGE (see bulwark CMD --help)" on stderr; returns BW_OPTS_USAGE (2). */
int bw_cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Pretty-prints j (stolen) on standard output. */
void bw_cli_print_json(json_t *j);

struct db;
/* Opens the configured database (applying the migrations), or prints why not as "bulwark CMD: ..."
 * and returns NULL. */
struct db *bw_cli_open_db(struct bw_config *cfg, const char *cmd);

/* bulwark user add|list|set-tier|passwd|disable|enable|set-role|delete and bulwark admin-key
 * rotate (src/cli/user.c); args[0] is "user" or "admin-key". */
int bw_cli_user(struct bw_config *cfg, int nargs, char **args);
int bw_cli_admin_key(struct bw_config *cfg, int nargs, char **args);

/* bulwark intel import|seed-build (src/cli/intel.c); args[0] is "intel", args[1] the subcommand
 * (configuration flags are gone already). */
int bw_cli_intel(struct bw_config *cfg, int nargs, char **args);

/* bulwark packages import|status|clear (src/cli/packages.c): the imported indexes of existing
 * package names; args[0] is "packages", args[1] the subcommand. */
int bw_cli_packages(struct bw_config *cfg, int nargs, char **args);

#endif
