/* `bulwark intel`: import threat intelligence into the store, and build the embedded seed.
 *
 *   bulwark intel import --format kev|osv|atlas|epss PATH
 *       PATH: the KEV catalog JSON, ATLAS.yaml, FIRST's EPSS CSV (plain or .gz), or for osv one
 *       advisory (.yaml/.yml/.json) or a directory searched recursively for them. EPSS scores go
 *       to the records of their CVEs; scores of CVEs without a record are counted (unknown), not
 *       kept (src/services/intel_ingest.h says why). Everything is parsed and checked first; any
 *       malformed file rejects the whole import (nothing is written) with file:line:column.
 *       Prints a JSON report; its records = added + updated + unchanged + skipped + merged. Exit: 0 imported (also when nothing changed), 1 input rejected,
 *       2 usage error, 3 the database failed.
 *   bulwark intel seed-build --kev FILE --osv DIR --atlas FILE [--at TIME] [--output FILE]
 *       Writes data/intel/seed.json from the source files (no database involved): OSV advisories,
 *       the KEV entries bw_intel_kev_is_ai accepts or that name an OSV advisory's CVE, and the
 *       ATLAS LLM/agent techniques and case studies. --at (default: the newest `updated` among
 *       the records) is the snapshot time: every record's enriched_at, and the risk reference. */
#include "cli/cli.h"

#include "common/config.h"
#include "common/limits.h"
#include "common/timeutil.h"
#include "common/utf8.h"
#include "common/vec.h"
#include "net/egress.h"
#include "services/intel_ingest.h"
#include "services/intel_sync.h"
#include "engine/intel/epss.h"
#include "engine/intel/intel.h"
#include "engine/intel/sources.h"
#include "engine/intel/yaml.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { EXIT_REJECTED = 1, EXIT_USAGE = 2, EXIT_DB = 3 };
/* the service's numbering (bw_intel_format) */
enum fmt { F_KEV = BW_INTEL_KEV, F_OSV = BW_INTEL_OSV, F_ATLAS = BW_INTEL_ATLAS };

struct files {
    char **v;
    size_t n, cap;
};

static int files_add(struct files *f, const char *path)
{
    if (!BW_VEC_RESERVE(f->v, f->cap, f->n + 1, BW_VEC_UNBOUNDED)) /* walk() stops past BW_INTEL_MAX_FILES */
        return -1;
    f->v[f->n] = strdup(path);
    if (!f->v[f->n])
        return -1;
    f->n++;
    return 0;
}

static void files_free(struct files *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->v[i]);
    free(f->v);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bool advisory_file(const char *name)
{
    return ends_with(name, ".yaml") || ends_with(name, ".yml") || ends_with(name, ".json");
}

/* OSV advisory files under dir (hidden entries skipped), depth-limited. */
static int walk(const char *dir, int depth, struct files *out)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "bulwark intel import: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
            continue;
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth < 16)
            rc = walk(path, depth + 1, out);
        else if (S_ISREG(st.st_mode) && advisory_file(e->d_name))
            rc = files_add(out, path);
        if (out->n > BW_INTEL_MAX_FILES) {
            fprintf(stderr, "bulwark intel import: more than %d files under %s\n", BW_INTEL_MAX_FILES, dir);
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

static int cmp_path(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Parses and normalises one file; its records are appended to out. 0, or -1 with *rej set. */
static int load_file(enum fmt fmt, const char *path, json_t *out, struct bw_intel_reject *rej)
{
    memset(rej, 0, sizeof *rej);
    snprintf(rej->file, sizeof rej->file, "%s", path);
    size_t len = 0;
    char *buf;
    if (bw_cli_read_file(path, BW_INTEL_MAX_FILE, &buf, &len, rej->msg, sizeof rej->msg) != BW_READ_OK)
        return -1;
    int rc = bw_intel_parse_source((enum bw_intel_format)fmt, buf, len, fmt == F_KEV || ends_with(path, ".json"), out,
                                   rej);
    free(buf);
    return rc;
}

static json_t *reject_json(const struct bw_intel_reject *r)
{
    return json_pack("{s:o,s:i,s:i,s:o}", "file", bw_utf8_json(r->file), "line", r->at.line, "column", r->at.column,
                     "message", bw_utf8_json(r->msg));
}

static int parse_format(const char *s, enum fmt *out)
{
    static const char *const names[] = {"kev", "osv", "atlas"};
    for (int i = 0; s && i < 3; i++)
        if (strcmp(s, names[i]) == 0)
            return (*out = (enum fmt)i), 0;
    return -1;
}

/* Parses every file of the import; *records gets all their records. Rejections go to rejected. */
static int collect(enum fmt fmt, const char *path, json_t *records, json_t *rejected, size_t *nfiles)
{
    struct files files = {0};
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "bulwark intel import: %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    int rc = 0;
    if (S_ISDIR(st.st_mode)) {
        if (fmt != F_OSV) {
            fprintf(stderr, "bulwark intel import: %s is a directory; only --format osv reads directories\n", path);
            return EXIT_USAGE;
        }
        if (walk(path, 0, &files) != 0) {
            files_free(&files);
            return EXIT_USAGE;
        }
        if (files.n == 0) {
            fprintf(stderr, "bulwark intel import: no .yaml, .yml or .json files under %s\n", path);
            files_free(&files);
            return EXIT_USAGE;
        }
        qsort(files.v, files.n, sizeof *files.v, cmp_path);
    } else if (!S_ISREG(st.st_mode)) { /* a FIFO would block the import */
        fprintf(stderr, "bulwark intel import: %s: %s, not a regular file%s\n", path, bw_cli_file_kind(st.st_mode),
                fmt == F_OSV ? " or directory" : "");
        return EXIT_USAGE;
    } else if (files_add(&files, path) != 0) {
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < files.n; i++) {
        struct bw_intel_reject rej;
        if (load_file(fmt, files.v[i], records, &rej) != 0) {
            fprintf(stderr, "bulwark intel import: %s:%d:%d: %s\n", rej.file, rej.at.line, rej.at.column, rej.msg);
            if (json_array_size(rejected) < BW_INTEL_MAX_ERRORS)
                json_array_append_new(rejected, reject_json(&rej));
            rc = EXIT_REJECTED;
        }
    }
    *nfiles = files.n;
    files_free(&files);
    return rc;
}

static const char IMPORT_USAGE[] =
    "usage: bulwark intel import --format kev|osv|atlas|epss PATH\n"
    "PATH: the KEV catalog JSON, ATLAS.yaml, FIRST's EPSS CSV (plain or .gz), or for osv an advisory\n"
    "(.yaml/.yml/.json) or a directory searched for them. Prints a JSON report: records (normalised\n"
    "from the input) = added + updated + unchanged + skipped (KEV entries not about AI/ML) + merged\n"
    "(folded into another record of the same id from this import); for epss, scores = updated +\n"
    "unchanged + unknown (CVEs without a record: not kept). Exit: 0 imported, 1 input rejected\n"
    "(nothing imported), 2 usage error, 3 database failure.\n";
static const char SEED_USAGE[] =
    "usage: bulwark intel seed-build --kev FILE --osv DIR --atlas FILE [--at TIME] [--output FILE]\n"
    "Builds the embedded seed (data/intel/seed.json) from the source files; no database involved.\n";

static int open_db(struct bw_config *cfg, struct db **db)
{
    char err[1024]; /* room for the paths of a file-mode refusal */
    unsigned dbf = (cfg->allow_insecure_file_modes ? DB_OPEN_ALLOW_INSECURE_MODES : 0) |
                   (cfg->sqlite_sync_full ? DB_OPEN_SYNC_FULL : 0);
    if (db_open(cfg->database_url, cfg->data_dir, dbf, 2, db, err, sizeof err) != 0) {
        fprintf(stderr, "bulwark intel import: %s\n", err);
        return -1;
    }
    return 0;
}

/* --format epss: one CSV (plain or gzip), all or nothing. */
static int import_epss(struct bw_config *cfg, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "bulwark intel import: %s: %s\n", path,
                stat(path, &st) != 0 ? strerror(errno) : "not a regular file");
        return EXIT_USAGE;
    }
    struct bw_intel_reject rej;
    memset(&rej, 0, sizeof rej);
    snprintf(rej.file, sizeof rej.file, "%s", path);
    char *buf = NULL;
    size_t len = 0;
    struct bw_epss_file f;
    memset(&f, 0, sizeof f);
    int rc = bw_cli_read_file(path, BW_INTEL_MAX_FILE, &buf, &len, rej.msg, sizeof rej.msg) == BW_READ_OK &&
                     bw_intel_epss_load(buf, len, &f, &rej) == 0
                 ? 0
                 : EXIT_REJECTED;
    free(buf);
    if (rc == EXIT_REJECTED) {
        fprintf(stderr, "bulwark intel import: %s:%d:%d: %s\n", rej.file, rej.at.line, rej.at.column, rej.msg);
        json_t *rejected = json_array();
        json_array_append_new(rejected, reject_json(&rej));
        bw_cli_print_json(json_pack("{s:b,s:s,s:i,s:i,s:i,s:i,s:o}", "imported", 0, "format", "epss", "scores", 0,
                                    "updated", 0, "unchanged", 0, "unknown", 0, "rejected", rejected));
        return rc;
    }
    struct db *db = NULL;
    struct bw_epss_report rep;
    if (open_db(cfg, &db) != 0) {
        rc = EXIT_DB;
    } else if (bw_ingest_epss(db, &f, bw_now_us(), &rep) != 0) {
        fprintf(stderr, "bulwark intel import: the database refused the import; nothing was written\n");
        rc = EXIT_DB;
    } else {
        bw_cli_print_json(json_pack("{s:b,s:s,s:s,s:s,s:I,s:I,s:I,s:I}", "imported", 1, "format", "epss", "score_date",
                                    f.date, "model_version", f.model_version, "scores", (json_int_t)f.n, "updated",
                                    (json_int_t)rep.updated, "unchanged", (json_int_t)rep.unchanged, "unknown",
                                    (json_int_t)rep.unknown));
    }
    db_close(db);
    bw_epss_free(&f);
    return rc;
}

static int cmd_import(struct bw_config *cfg, int nargs, char **args)
{
    const char *format = NULL, *path = NULL;
    const struct bw_opt opts[] = {{"--format", NULL, &format, NULL, NULL}, {NULL, NULL, NULL, NULL, NULL}};
    int np;
    int prc = bw_opts_parse("intel import", IMPORT_USAGE, opts, nargs, args, &path, 1, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    enum fmt fmt;
    if (!format)
        return bw_cli_usage_error("intel import", "--format is missing");
    if (strcmp(format, "epss") == 0)
        return path ? import_epss(cfg, path) : bw_cli_usage_error("intel import", "PATH is missing");
    if (parse_format(format, &fmt) != 0)
        return bw_cli_usage_error("intel import", "--format must be kev, osv, atlas or epss, not '%s'", format);
    if (!path)
        return bw_cli_usage_error("intel import", "PATH is missing");
    json_t *records = json_array(), *rejected = json_array();
    size_t nfiles = 0;
    int rc = records && rejected ? collect(fmt, path, records, rejected, &nfiles) : EXIT_DB;
    if (rc == EXIT_REJECTED) {
        bw_cli_print_json(json_pack("{s:b,s:s,s:I,s:i,s:i,s:i,s:i,s:i,s:O}", "imported", 0, "format", format, "files",
                             (json_int_t)nfiles, "added", 0, "updated", 0, "unchanged", 0, "skipped", 0, "merged", 0,
                             "rejected", rejected));
    } else if (rc == 0) {
        struct db *db = NULL;
        char err[1024]; /* room for the paths of a file-mode refusal */
        struct bw_ingest_report rep;
        unsigned dbf = (cfg->allow_insecure_file_modes ? DB_OPEN_ALLOW_INSECURE_MODES : 0) |
                   (cfg->sqlite_sync_full ? DB_OPEN_SYNC_FULL : 0);
        if (db_open(cfg->database_url, cfg->data_dir, dbf, 2, &db, err, sizeof err) != 0) {
            fprintf(stderr, "bulwark intel import: %s\n", err);
            rc = EXIT_DB;
        } else if (bw_ingest(db, records, fmt == F_KEV, bw_now_us(), &rep) != 0) {
            fprintf(stderr, "bulwark intel import: the database refused the import; nothing was written\n");
            rc = EXIT_DB;
        } else {
            bw_cli_print_json(json_pack("{s:b,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "imported", 1, "format", format,
                                 "files", (json_int_t)nfiles, "records", (json_int_t)json_array_size(records), "added",
                                 (json_int_t)rep.added, "updated", (json_int_t)rep.updated, "unchanged",
                                 (json_int_t)rep.unchanged, "skipped", (json_int_t)rep.skipped, "merged",
                                 (json_int_t)rep.merged));
        }
        db_close(db);
    }
    json_decref(records);
    json_decref(rejected);
    return rc;
}

/* One record per line, so that a regenerated seed diffs record by record. */
static int write_seed(const json_t *doc, FILE *out)
{
    fprintf(out, "{\"about\":\"Generated by bulwark intel seed-build from the sources in data/intel/SOURCES.md; "
                 "do not edit\",\"generated_at\":\"%s\",\"records\":[\n",
            json_string_value(json_object_get(doc, "generated_at")));
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "records"), i, r) {
        char *s = bw_intel_dump(r);
        if (!s)
            return -1;
        fprintf(out, "%s%s\n", s, i + 1 < json_array_size(json_object_get(doc, "records")) ? "," : "");
        free(s);
    }
    fprintf(out, "]}\n");
    return ferror(out) ? -1 : 0;
}

static int seed_sources(const char *kev, const char *osv, const char *atlas, json_t *index)
{
    json_t *recs[3] = {json_array(), json_array(), json_array()};
    json_t *rejected = json_array();
    size_t n;
    int rc = 0;
    if (collect(F_OSV, osv, recs[0], rejected, &n) || collect(F_ATLAS, atlas, recs[1], rejected, &n) ||
        collect(F_KEV, kev, recs[2], rejected, &n))
        rc = -1;
    size_t i;
    json_t *r;
    for (int k = 0; k < 2 && rc == 0; k++)
        json_array_foreach(recs[k], i, r)
            if (bw_intel_fold(index, r) != 0)
                rc = -1;
    /* KEV after OSV: an entry joins when it is about AI, or about a CVE an advisory already has */
    json_array_foreach(recs[2], i, r) {
        bool known = json_object_get(index, json_string_value(json_object_get(r, "id"))) != NULL;
        if (rc == 0 && (bw_intel_kev_is_ai(r) || known) && bw_intel_fold(index, r) != 0)
            rc = -1;
    }
    for (int k = 0; k < 3; k++)
        json_decref(recs[k]);
    json_decref(rejected);
    return rc;
}

static int cmd_seed_build(int nargs, char **args)
{
    const char *kev = NULL, *osv = NULL, *atlas = NULL, *at = NULL, *output = NULL;
    const struct bw_opt opts[] = {{"--kev", NULL, &kev, NULL, NULL},       {"--osv", NULL, &osv, NULL, NULL},
                                  {"--atlas", NULL, &atlas, NULL, NULL},   {"--at", NULL, &at, NULL, NULL},
                                  {"--output", NULL, &output, NULL, NULL}, {NULL, NULL, NULL, NULL, NULL}};
    int np;
    int prc = bw_opts_parse("intel seed-build", SEED_USAGE, opts, nargs, args, NULL, 0, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    char at_iso[21];
    int64_t at_s = 0;
    if (!kev || !osv || !atlas)
        return bw_cli_usage_error("intel seed-build", "%s is missing", !kev ? "--kev" : !osv ? "--osv" : "--atlas");
    if (at && (bw_intel_date(at, at_iso) != 0 || bw_parse_iso8601(at_iso, &at_s) != 0))
        return bw_cli_usage_error("intel seed-build", "--at must be a date or an ISO 8601 time, not '%s'", at);
    json_t *index = json_object();
    if (!index || seed_sources(kev, osv, atlas, index) != 0) {
        json_decref(index);
        return EXIT_REJECTED;
    }
    if (!at) { /* the snapshot time: the newest source change, so a rebuild of the same data is identical */
        const char *k;
        json_t *r;
        json_object_foreach(index, k, r) {
            int64_t u;
            if (bw_parse_iso8601(json_string_value(json_object_get(r, "updated")), &u) == 0 && u > at_s)
                at_s = u;
        }
    }
    json_t *doc = bw_intel_seed_doc(index, at_s);
    json_decref(index);
    FILE *out = output ? fopen(output, "w") : stdout;
    int rc = doc && out && write_seed(doc, out) == 0 ? 0 : EXIT_DB;
    if (out && out != stdout && fclose(out) != 0)
        rc = EXIT_DB;
    if (rc != 0)
        fprintf(stderr, "bulwark intel seed-build: cannot write %s\n", output ? output : "the output");
    else
        fprintf(stderr, "bulwark intel seed-build: %zu records\n", json_array_size(json_object_get(doc, "records")));
    json_decref(doc);
    return rc;
}

static const char SYNC_USAGE[] =
    "usage: bulwark intel sync [--source kev|atlas|epss|osv]\n"
    "Fetches CISA KEV, MITRE ATLAS and FIRST's EPSS from BULWARK_INTEL_KEV_URL, _ATLAS_URL and\n"
    "_EPSS_URL (the public feeds by default; an empty value turns a source off), and OSV advisories\n"
    "(a zip such as OSV's <ecosystem>/all.zip, or a JSON list) from BULWARK_INTEL_OSV_URL (unset:\n"
    "off) kept to the packages of BULWARK_INTEL_OSV_PACKAGES, through the egress\n"
    "guard (BULWARK_EGRESS_ALLOW), conditionally (ETag / Last-Modified of the last import), and\n"
    "imports what changed as `intel import` does. Prints a JSON report, one entry per source.\n"
    "Exit: 0 every source imported or unchanged, 1 a source was rejected or failed (the others\n"
    "still ran), 2 usage error, 3 the database could not be opened.\n";

static int cmd_sync(struct bw_config *cfg, int nargs, char **args)
{
    const char *only = NULL;
    const struct bw_opt opts[] = {{"--source", NULL, &only, NULL, NULL}, {NULL, NULL, NULL, NULL, NULL}};
    int np;
    int prc = bw_opts_parse("intel sync", SYNC_USAGE, opts, nargs, args, NULL, 0, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    bool known = !only;
    for (int i = 0; only && i < BW_SYNC_SOURCES; i++)
        known = known || strcmp(only, bw_sync_source_names[i]) == 0;
    if (!known)
        return bw_cli_usage_error("intel sync", "--source must be kev, atlas, epss or osv, not '%s'", only);
    unsigned allow = 0;
    if (bw_egress_parse_allow(cfg->egress_allow ? cfg->egress_allow : "", &allow) != 0)
        return bw_cli_usage_error("intel sync", "BULWARK_EGRESS_ALLOW is not valid");
    struct bw_sync_opts so = bw_sync_opts_of(cfg, allow);
    so.only = only;
    if (bw_egress_global_init() != 0)
        return EXIT_DB;
    struct db *db = NULL;
    if (open_db(cfg, &db) != 0)
        return EXIT_DB;
    struct bw_sync_outcome out[BW_SYNC_SOURCES];
    int rc = bw_intel_sync(db, &so, bw_now_us(), out) == 0 ? 0 : EXIT_REJECTED;
    db_close(db);
    json_t *sources = json_array();
    for (int i = 0; i < BW_SYNC_SOURCES; i++) {
        const struct bw_sync_outcome *o = &out[i];
        const char *status = bw_sync_status_name(o->status);
        if (o->status == BW_SYNC_FAILED || o->status == BW_SYNC_REJECTED)
            fprintf(stderr, "bulwark intel sync: %s: %s: %s\n", o->source, status, o->error);
        json_t *e = json_pack("{s:s,s:s,s:I}", "source", o->source, "status", status, "http_status",
                              (json_int_t)o->http_status);
        if (o->error[0])
            json_object_set_new(e, "error", bw_utf8_json(o->error));
        if (o->status == BW_SYNC_IMPORTED) {
            if (strcmp(o->source, "epss") == 0)
                json_object_update_new(e, json_pack("{s:I,s:I,s:I}", "updated", (json_int_t)o->updated, "unchanged",
                                                    (json_int_t)o->unchanged, "unknown", (json_int_t)o->unknown));
            else
                json_object_update_new(e, json_pack("{s:I,s:I,s:I,s:I,s:I}", "added", (json_int_t)o->added, "updated",
                                                    (json_int_t)o->updated, "unchanged", (json_int_t)o->unchanged,
                                                    "skipped", (json_int_t)o->skipped, "merged", (json_int_t)o->merged));
        }
        json_array_append_new(sources, e);
    }
    bw_cli_print_json(json_pack("{s:b,s:o}", "ok", rc == 0, "sources", sources));
    return rc;
}

int bw_cli_intel(struct bw_config *cfg, int nargs, char **args)
{
    const char *sub = nargs > 1 ? args[1] : "";
    if (strcmp(sub, "import") == 0)
        return cmd_import(cfg, nargs - 2, args + 2);
    if (strcmp(sub, "seed-build") == 0)
        return cmd_seed_build(nargs - 2, args + 2);
    if (strcmp(sub, "sync") == 0)
        return cmd_sync(cfg, nargs - 2, args + 2);
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        fputs(IMPORT_USAGE, stdout);
        fputs(SEED_USAGE, stdout);
        fputs(SYNC_USAGE, stdout);
        return 0;
    }
    if (!sub[0])
        return bw_cli_usage_error("intel", "expected import, sync or seed-build");
    return bw_cli_usage_error("intel", "unknown subcommand '%s'; expected import, sync or seed-build", sub);
}
