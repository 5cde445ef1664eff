/* `bulwark packages`: the imported indexes of existing package names the red team's LLM09 check
 * asks after its embedded lists (src/services/packages.h).
 *
 *   bulwark packages import --ecosystem npm|pypi [--format F] [--replace] FILE
 *       F: auto (default), lines, pypi-simple-html, pypi-simple-json, npm-names, npm-all-docs;
 *       FILE plain or gzip-compressed. The whole file is read and checked first: a malformed one
 *       changes nothing (file:line:column on stderr). Prints a JSON report. Exit: 0 imported, 1
 *       input rejected, 2 usage error, 3 the database failed.
 *   bulwark packages status
 *       Every ecosystem's index as JSON: names, the last file imported, its format and time.
 *   bulwark packages clear [--ecosystem npm|pypi]
 *       Empties one index, or every one. */
#include "cli/cli.h"

#include "common/config.h"
#include "common/limits.h"
#include "common/utf8.h"
#include "services/packages.h"
#include "store/store.h"
#include "store/store_packages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_REJECTED = 1, EXIT_USAGE = 2, EXIT_DB = 3 };

static const char IMPORT_USAGE[] =
    "usage: bulwark packages import --ecosystem npm|pypi [--format FORMAT] [--replace] FILE\n"
    "Imports a list of existing package names (plain or gzip-compressed); the red team's check of\n"
    "invented packages (LLM09) then knows them. FORMAT: auto (default: by the file's first\n"
    "character), lines (one name a line, # comments), pypi-simple-html (PyPI's /simple/ page),\n"
    "pypi-simple-json (the same as application/vnd.pypi.simple.v1+json), npm-names (a JSON array of\n"
    "names), npm-all-docs (the registry's _all_docs rows). Names are kept in their ecosystem's normal\n"
    "form and added to the index; --replace makes them the whole index. Prints a JSON report.\n"
    "Exit: 0 imported, 1 input rejected (nothing imported), 2 usage error, 3 database failure.\n";
static const char STATUS_USAGE[] = "usage: bulwark packages status\n"
                                   "Prints every ecosystem's imported index as JSON.\n";
static const char CLEAR_USAGE[] = "usage: bulwark packages clear [--ecosystem npm|pypi]\n"
                                  "Empties the ecosystem's imported index (without --ecosystem: every one).\n";

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int reject(const char *path, const char *eco, const struct bw_pkg_reject *r)
{
    if (r->line > 0)
        fprintf(stderr, "bulwark packages import: %s:%d:%d: %s\n", path, r->line, r->column, r->msg);
    else /* the file as a whole: unreadable, too large, not gzip after all */
        fprintf(stderr, "bulwark packages import: %s: %s\n", path, r->msg);
    bw_cli_print_json(json_pack("{s:b,s:s,s:{s:o,s:i,s:i,s:o}}", "imported", 0, "ecosystem", eco, "rejected", "file",
                                bw_utf8_json(path), "line", r->line, "column", r->column, "message",
                                bw_utf8_json(r->msg)));
    return EXIT_REJECTED;
}

static int cmd_import(struct bw_config *cfg, int nargs, char **args)
{
    const char *eco_s = NULL, *format_s = NULL, *path = NULL;
    bool replace = false;
    const struct bw_opt opts[] = {{"--ecosystem", NULL, &eco_s, NULL, NULL},
                                  {"--format", NULL, &format_s, NULL, NULL},
                                  {"--replace", NULL, NULL, &replace, NULL},
                                  {NULL, NULL, NULL, NULL, NULL}};
    int np;
    int prc = bw_opts_parse("packages import", IMPORT_USAGE, opts, nargs, args, &path, 1, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    if (!eco_s)
        return bw_cli_usage_error("packages import", "--ecosystem is missing");
    int eco = bw_pkg_eco_parse(eco_s);
    if (eco < 0)
        return bw_cli_usage_error("packages import", "--ecosystem must be npm or pypi, not '%s'", eco_s);
    int format = format_s ? bw_pkg_format_parse(format_s) : BW_PKGF_AUTO;
    if (format < 0)
        return bw_cli_usage_error("packages import",
                                  "--format must be auto, lines, pypi-simple-html, pypi-simple-json, npm-names or "
                                  "npm-all-docs, not '%s'",
                                  format_s);
    if (!path)
        return bw_cli_usage_error("packages import", "FILE is missing");
    struct bw_pkg_reject rej = {0};
    char *buf = NULL;
    size_t len = 0;
    if (bw_cli_read_file(path, BW_PKG_INDEX_MAX_FILE, &buf, &len, rej.msg, sizeof rej.msg) != BW_READ_OK)
        return reject(path, eco_s, &rej);
    struct db *db = bw_cli_open_db(cfg, "packages import");
    if (!db) {
        free(buf);
        return EXIT_DB;
    }
    struct bw_pkg_report rep;
    int rc = bw_packages_import(db, eco, format, buf, len, replace, base_name(path), &rep, &rej);
    free(buf);
    db_close(db);
    if (rc == -1)
        return reject(path, eco_s, &rej);
    if (rc != 0) {
        fprintf(stderr, "bulwark packages import: the database refused the import\n");
        return EXIT_DB;
    }
    bw_cli_print_json(json_pack("{s:b,s:s,s:o,s:s,s:b,s:b,s:I,s:I,s:I,s:I}", "imported", 1, "ecosystem", eco_s, "file",
                                bw_utf8_json(path), "format", bw_pkg_format_name(rep.format), "gzip", rep.gzip,
                                "replaced", replace, "read", (json_int_t)rep.read, "distinct",
                                (json_int_t)rep.distinct, "added", (json_int_t)rep.added, "total",
                                (json_int_t)rep.total));
    return 0;
}

static int cmd_status(struct bw_config *cfg, int nargs, char **args)
{
    int prc = bw_opts_none("packages status", STATUS_USAGE, nargs, args);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    struct db *db = bw_cli_open_db(cfg, "packages status");
    if (!db)
        return EXIT_DB;
    struct store_pkg_index *v = NULL;
    size_t n = 0;
    int rc = store_packages_status(db, &v, &n) == ST_OK ? 0 : EXIT_DB;
    db_close(db);
    if (rc) {
        fprintf(stderr, "bulwark packages status: the database failed\n");
        return rc;
    }
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s,s:I,s:o,s:s,s:s}", "ecosystem", v[i].ecosystem, "names",
                                           (json_int_t)v[i].names, "source", bw_utf8_json(v[i].source), "format",
                                           v[i].format, "imported_at", v[i].imported_at));
    free(v);
    bw_cli_print_json(json_pack("{s:o}", "indexes", a));
    return 0;
}

static int cmd_clear(struct bw_config *cfg, int nargs, char **args)
{
    const char *eco_s = NULL;
    const struct bw_opt opts[] = {{"--ecosystem", NULL, &eco_s, NULL, NULL}, {NULL, NULL, NULL, NULL, NULL}};
    int np;
    int prc = bw_opts_parse("packages clear", CLEAR_USAGE, opts, nargs, args, NULL, 0, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    if (eco_s && bw_pkg_eco_parse(eco_s) < 0)
        return bw_cli_usage_error("packages clear", "--ecosystem must be npm or pypi, not '%s'", eco_s);
    struct db *db = bw_cli_open_db(cfg, "packages clear");
    if (!db)
        return EXIT_DB;
    int64_t removed = 0;
    int rc = store_packages_clear(db, eco_s, &removed) == ST_OK ? 0 : EXIT_DB;
    db_close(db);
    if (rc) {
        fprintf(stderr, "bulwark packages clear: the database failed\n");
        return rc;
    }
    bw_cli_print_json(json_pack("{s:b,s:s?,s:I}", "cleared", 1, "ecosystem", eco_s, "removed", (json_int_t)removed));
    return 0;
}

int bw_cli_packages(struct bw_config *cfg, int nargs, char **args)
{
    const char *sub = nargs > 1 ? args[1] : "";
    if (strcmp(sub, "import") == 0)
        return cmd_import(cfg, nargs - 2, args + 2);
    if (strcmp(sub, "status") == 0)
        return cmd_status(cfg, nargs - 2, args + 2);
    if (strcmp(sub, "clear") == 0)
        return cmd_clear(cfg, nargs - 2, args + 2);
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        fputs(IMPORT_USAGE, stdout);
        fputs(STATUS_USAGE, stdout);
        fputs(CLEAR_USAGE, stdout);
        return 0;
    }
    if (!sub[0])
        return bw_cli_usage_error("packages", "expected import, status or clear");
    return bw_cli_usage_error("packages", "unknown subcommand '%s'; expected import, status or clear", sub);
}
