/* `bulwark scan`: the code scanner for CI. Walks the given paths (skipping .git, vendored
 * dependencies, binary and oversized files), infers each file's language from its extension,
 * scans files in parallel and prints text, JSON or SARIF 2.1.0 in a deterministic order.
 * Exit status: 0 clean, 1 a finding at or above --fail-on, 2 usage or I/O error. */
#include "cli/cli.h"
#include "common/limits.h"
#include "common/utf8.h"
#include "common/vec.h"
#include "engine/code/scanner.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const SKIP_DIRS[] = {".git", ".hg", ".svn", "node_modules", "vendor", "third_party",
                                        "bower_components", ".venv", "venv", "__pycache__", ".tox",
                                        "site-packages", ".mypy_cache", ".next", ".cargo"};

struct file {
    char *path;
    int lang;
    struct bw_findings f;
    char *real;          /* realpath: one file named twice (or walked and named) is scanned once */
    size_t seq;          /* order of collection: of duplicates the first stays */
    bool named;          /* named on the command line, not found in a walk */
    bool skipped, failed;
    char why[96];        /* why it was skipped or failed */
};

struct job {
    const struct bw_scanner *sc;
    struct file *files;
    size_t nfiles;
    atomic_size_t next;
    bool test_ctx;
    atomic_ulong bytes;
};

struct list {
    struct file *v;
    size_t n, cap;
};

static int add_file(struct list *l, const char *path, int lang, bool named)
{
    if (!BW_VEC_RESERVE(l->v, l->cap, l->n + 1, BW_CLI_SCAN_MAX_FILES))
        return -1;
    memset(&l->v[l->n], 0, sizeof l->v[0]);
    l->v[l->n].path = strdup(path);
    l->v[l->n].lang = lang;
    l->v[l->n].named = named;
    if (!l->v[l->n].path)
        return -1;
    l->n++;
    return 0;
}

static bool skip_dir(const char *name)
{
    for (size_t i = 0; i < sizeof SKIP_DIRS / sizeof SKIP_DIRS[0]; i++)
        if (strcmp(name, SKIP_DIRS[i]) == 0)
            return true;
    return false;
}

static int walk(struct list *l, const char *path, int force_lang, int depth)
{
    if (depth > BW_CLI_SCAN_MAX_DEPTH)
        return 0;
    DIR *d = opendir(path);
    if (!d)
        return 0; /* unreadable directory: nothing to scan there */
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || (e->d_name[1] == '.' && e->d_name[2] == '\0')))
            continue;
        char child[4096];
        int n = snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        if (n < 0 || (size_t)n >= sizeof child)
            continue;
        struct stat st;
        if (lstat(child, &st) != 0) /* symlinks are not followed: no loops, no escaping the tree */
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (!skip_dir(e->d_name))
                rc = walk(l, child, force_lang, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            int lang = bw_lang_from_path(child);
            if (lang >= 0 && (force_lang < 0 || lang == force_lang))
                rc = add_file(l, child, lang, false);
        }
    }
    closedir(d);
    return rc;
}

static int cmp_file(const void *a, const void *b)
{
    return strcmp(((const struct file *)a)->path, ((const struct file *)b)->path);
}

static const char *real_of(const struct file *f) { return f->real ? f->real : f->path; }

static int cmp_real(const void *a, const void *b)
{
    const struct file *x = a, *y = b;
    int c = strcmp(real_of(x), real_of(y));
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Drops the files that are another one of the list under another name (scan d d/a.py ./d): of
 * those the first collected stays. */
static void dedupe(struct list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        l->v[i].real = realpath(l->v[i].path, NULL); /* NULL (gone meanwhile): compared by path */
        l->v[i].seq = i;
    }
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, cmp_real);
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (k > 0 && strcmp(real_of(&l->v[k - 1]), real_of(&l->v[i])) == 0) {
            l->v[k - 1].named |= l->v[i].named;
            free(l->v[i].path);
            free(l->v[i].real);
        } else {
            l->v[k++] = l->v[i];
        }
    }
    l->n = k;
}

static char *slurp(const char *path, size_t *len, bool *skip, char *why, size_t whylen)
{
    char *buf = NULL;
    int rc = bw_cli_read_file(path, BW_CLI_SCAN_MAX_FILE_BYTES, &buf, len, why, whylen);
    if (rc != BW_READ_OK) {
        *skip = rc != BW_READ_FAILED;
        return NULL;
    }
    /* a NUL in the first 8 KiB marks a binary file */
    if (memchr(buf, '\0', *len < BW_CLI_SCAN_SNIFF_BYTES ? *len : BW_CLI_SCAN_SNIFF_BYTES)) {
        free(buf);
        snprintf(why, whylen, "a binary file");
        *skip = true;
        return NULL;
    }
    return buf;
}

static void *worker(void *arg)
{
    struct job *j = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->nfiles)
            break;
        struct file *f = &j->files[i];
        size_t len = 0;
        char *buf = slurp(f->path, &len, &f->skipped, f->why, sizeof f->why);
        if (!buf) {
            f->failed = !f->skipped;
            continue;
        }
        atomic_fetch_add(&j->bytes, len);
        if (bw_scan(j->sc, (enum bw_lang)f->lang, buf, len, j->test_ctx, &f->f) != 0) {
            f->failed = true;
            snprintf(f->why, sizeof f->why, "the scan failed");
        }
        free(buf);
    }
    return NULL;
}

static double security_severity(int s)
{
    static const double v[] = {0, 3.0, 5.5, 8.0, 9.5};
    return v[s];
}

static const char *sarif_level(int s) { return s >= BW_SEV_HIGH ? "error" : s == BW_SEV_MEDIUM ? "warning" : "note"; }

static const char *uri_of(const char *path)
{
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    return path;
}

/* Stable across runs and line moves: the rule, the file and the (masked) line text. */
static void fingerprint(const char *rule, const char *path, const char *snippet, unsigned occurrence, char out[40])
{
    crypto_generichash_state st;
    unsigned char h[8];
    crypto_generichash_init(&st, NULL, 0, sizeof h);
    crypto_generichash_update(&st, (const unsigned char *)rule, strlen(rule) + 1);
    crypto_generichash_update(&st, (const unsigned char *)path, strlen(path) + 1);
    crypto_generichash_update(&st, (const unsigned char *)snippet, strlen(snippet));
    crypto_generichash_final(&st, h, sizeof h);
    char hex[17];
    sodium_bin2hex(hex, sizeof hex, h, sizeof h);
    snprintf(out, 40, "%s:%u", hex, occurrence);
}

/* prefix then path percent-encoded as RFC 3986 wants in a URI path: unreserved characters and
 * '/' stay, every other byte (space, '#', '%', '?', bytes of non-ASCII characters) is %XX. */
static json_t *uri_json(const char *prefix, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t pl = strlen(prefix), n = strlen(path);
    char *u = malloc(pl + 3 * n + 1);
    if (!u)
        return NULL;
    memcpy(u, prefix, pl);
    size_t o = pl;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) && *p < 0x80)
            u[o++] = (char)*p;
        else if (strchr("-._~/", *p)) {
            u[o++] = (char)*p;
        } else {
            u[o++] = '%';
            u[o++] = hex[*p >> 4];
            u[o++] = hex[*p & 15];
        }
    }
    json_t *j = json_stringn(u, o);
    free(u);
    return j;
}

/* SARIF locations are relative to %SRCROOT% (the working directory) when the file is under it,
 * which is what GitHub code scanning maps onto the repository; otherwise an absolute file URI. */
static json_t *artifact_location(const char *path, const char *cwd)
{
    size_t cl = strlen(cwd);
    if (path[0] == '/' && cl > 1 && strncmp(path, cwd, cl) == 0 && path[cl] == '/')
        return json_pack("{s:o,s:s}", "uri", uri_json("", path + cl + 1), "uriBaseId", "%SRCROOT%");
    if (path[0] == '/')
        return json_pack("{s:o}", "uri", uri_json("file://", path));
    return json_pack("{s:o,s:s}", "uri", uri_json("", uri_of(path)), "uriBaseId", "%SRCROOT%");
}

/* A taint finding's trace as SARIF codeFlows: one thread flow from the source to the sink, each
 * step a location of the finding's file with what happened there. NULL without a trace. */
static json_t *code_flows(const struct bw_finding *x, const char *path, const char *cwd)
{
    if (!x->ntrace)
        return NULL;
    static const char *const what[] = {"", "untrusted data enters here", "it flows on here", "and reaches the sink here"};
    json_t *locs = json_array();
    for (uint8_t i = 0; locs && i < x->ntrace; i++) {
        const struct bw_trace_step *st = &x->trace[i];
        json_t *l = json_pack("{s:{s:{s:o,s:{s:i,s:i,s:i}},s:{s:s}},s:[s]}", "location", "physicalLocation",
                              "artifactLocation", artifact_location(path, cwd), "region", "startLine",
                              (json_int_t)st->line, "startColumn", (json_int_t)st->column, "endLine",
                              (json_int_t)st->end_line, "message", "text", what[st->kind <= 3 ? st->kind : 2], "kinds",
                              bw_trace_kind_name(st->kind));
        if (json_array_append_new(locs, l) != 0) {
            json_decref(locs);
            return NULL;
        }
    }
    return locs ? json_pack("[{s:[{s:o}]}]", "threadFlows", "locations", locs) : NULL;
}

static json_t *sarif_doc(const struct bw_scanner *sc, struct file *files, size_t n)
{
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    json_t *rules = json_array();
    size_t nr = bw_scanner_rule_count(sc);
    for (size_t i = 0; i < nr; i++) {
        const struct bw_rule *r = bw_scanner_rule(sc, i);
        char cwe_tag[48], sev[16];
        snprintf(cwe_tag, sizeof cwe_tag, "external/cwe/cwe-%s", r->cwe + 4);
        snprintf(sev, sizeof sev, "%.1f", security_severity(r->severity));
        json_t *tags = json_pack("[s,s,s]", "security", r->category, cwe_tag);
        if (r->owasp_llm)
            json_array_append_new(tags, json_sprintf("owasp-llm-2025/%s", r->owasp_llm));
        json_t *rule =
            json_pack("{s:s,s:s,s:{s:s},s:{s:s},s:{s:s,s:s},s:{s:s},s:{s:o,s:s,s:s}}", "id", r->id, "name", r->id,
                      "shortDescription", "text", r->title, "fullDescription", "text", r->description, "help", "text",
                      r->remediation, "markdown", r->remediation, "defaultConfiguration", "level",
                      sarif_level(r->severity), "properties", "tags", tags, "security-severity", sev, "precision",
                      "high");
        if (!rule || json_array_append_new(rules, rule) != 0) { /* ruleIndex would point at the wrong rule */
            fprintf(stderr, "bulwark scan: rule %s: the SARIF rule cannot be built\n", r->id);
            json_decref(rules);
            return NULL;
        }
    }
    json_t *results = json_array();
    for (size_t i = 0; i < n; i++) {
        const char *uri = uri_of(files[i].path);
        for (size_t k = 0; k < files[i].f.n; k++) {
            const struct bw_finding *x = &files[i].f.v[k];
            size_t ri = 0;
            while (ri < nr && bw_scanner_rule(sc, ri) != x->rule)
                ri++;
            unsigned occ = 1;
            for (size_t p = 0; p < k; p++)
                occ += files[i].f.v[p].rule == x->rule && strcmp(files[i].f.v[p].snippet, x->snippet) == 0;
            char fp[40];
            fingerprint(x->rule->id, uri, x->snippet, occ, fp);
            json_t *res = json_pack(
                "{s:s,s:i,s:s,s:{s:s},s:[{s:{s:o,s:{s:i,s:i,s:i,s:{s:o}}}}],s:{s:s}}", "ruleId", x->rule->id,
                "ruleIndex", (json_int_t)ri, "level", sarif_level(x->severity), "message", "text", x->rule->title,
                "locations", "physicalLocation", "artifactLocation", artifact_location(files[i].path, cwd), "region",
                "startLine", (json_int_t)x->line, "startColumn", (json_int_t)x->column, "endLine",
                (json_int_t)x->end_line, "snippet", "text", bw_utf8_json(x->snippet), "partialFingerprints",
                "primaryLocationLineHash", fp);
            json_t *flows = res ? code_flows(x, files[i].path, cwd) : NULL;
            if (flows && json_object_set_new(res, "codeFlows", flows) != 0)
                res = (json_decref(res), NULL);
            if (!res || json_array_append_new(results, res) != 0) {
                fprintf(stderr, "bulwark scan: %s:%u: the SARIF result cannot be built\n", uri, x->line);
                json_decref(rules);
                json_decref(results);
                return NULL;
            }
        }
    }
    return json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:s,s:s,s:o}},s:s,s:o}]}", "$schema",
                     "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool", "driver",
                     "name", "bulwark", "version", BULWARK_VERSION, "semanticVersion", BULWARK_VERSION,
                     "informationUri", "https://github.com/bulwark-security/bulwark", "rules", rules, "columnKind",
                     "unicodeCodePoints", "results", results);
}

/* truncated_files: the files with more than BW_SCAN_MAX_FINDINGS findings, of which only the
 * first are listed (the exit status still counts the rest). */
static json_t *json_doc(struct file *files, size_t n, size_t scanned, unsigned long bytes, const int counts[5])
{
    json_t *arr = json_array(), *cut = json_array();
    for (size_t i = 0; i < n; i++) {
        if (files[i].f.truncated)
            json_array_append_new(cut, bw_utf8_json(uri_of(files[i].path)));
        for (size_t k = 0; k < files[i].f.n; k++) {
            const struct bw_finding *x = &files[i].f.v[k];
            json_t *o = json_pack("{s:o,s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:o,s:s}", "path",
                                  bw_utf8_json(uri_of(files[i].path)),
                                  "rule_id", x->rule->id, "title", x->rule->title, "severity", bw_sev_name(x->severity),
                                  "category", x->rule->category, "cwe", x->rule->cwe, "line", (json_int_t)x->line,
                                  "column", (json_int_t)x->column, "end_line", (json_int_t)x->end_line, "snippet",
                                  bw_utf8_json(x->snippet), "remediation", x->rule->remediation);
            if (o && x->rule->owasp_llm && json_object_set_new(o, "owasp_llm", json_string(x->rule->owasp_llm)) != 0)
                o = (json_decref(o), NULL);
            json_t *trace = bw_finding_trace_json(x);
            if (o && trace && json_object_set_new(o, "trace", trace) != 0)
                o = (json_decref(o), NULL);
            else if (!o)
                json_decref(trace);
            if (!o || json_array_append_new(arr, o) != 0) {
                fprintf(stderr, "bulwark scan: %s:%u: the JSON finding cannot be built\n", uri_of(files[i].path),
                        x->line);
                json_decref(arr);
                json_decref(cut);
                return NULL;
            }
        }
    }
    return json_pack("{s:s,s:i,s:i,s:o,s:{s:i,s:i,s:i,s:i},s:b,s:o}", "tool", "bulwark " BULWARK_VERSION,
                     "files_scanned", (json_int_t)scanned, "bytes_scanned", (json_int_t)bytes, "findings", arr,
                     "summary", "critical", counts[4], "high", counts[3], "medium", counts[2], "low", counts[1],
                     "truncated", json_array_size(cut) > 0, "truncated_files", cut);
}

/* The files to scan: named files, and the files found walking named directories. 0, or 2
 * after a message. */
static int collect(struct list *files, const char *const *paths, int npaths, int force_lang)
{
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            fprintf(stderr, "bulwark scan: %s: %s\n", paths[i], strerror(errno));
            return 2;
        }
        int rc = 0;
        if (S_ISDIR(st.st_mode)) {
            rc = walk(files, paths[i], force_lang, 0);
        } else if (!S_ISREG(st.st_mode)) { /* a FIFO would block the scan */
            fprintf(stderr, "bulwark scan: %s: %s, not a regular file or directory\n", paths[i],
                    bw_cli_file_kind(st.st_mode));
            return 2;
        } else {
            int lang = bw_lang_from_path(paths[i]);
            if (force_lang >= 0)
                lang = force_lang; /* a named file is scanned as --lang says, whatever its name */
            if (lang < 0) {
                fprintf(stderr, "bulwark scan: %s: unknown language (use --lang)\n", paths[i]);
                return 2;
            }
            rc = add_file(files, paths[i], lang, true);
        }
        if (rc != 0) {
            fprintf(stderr, "bulwark scan: too many files (limit %d) or out of memory\n", BW_CLI_SCAN_MAX_FILES);
            return 2;
        }
    }
    return 0;
}

static void free_files(struct list *files)
{
    for (size_t i = 0; i < files->n; i++) {
        bw_findings_free(&files->v[i].f);
        free(files->v[i].path);
        free(files->v[i].real);
    }
    free(files->v);
}

static const char USAGE[] =
    "usage: bulwark scan [--format text|json|sarif] [--fail-on critical|high|medium|low|none]\n"
    "                    [--lang js|ts|py|go|java|php|rb|cs|rs] [--context TEXT] [--jobs N]\n"
    "                    [--output FILE] PATH...\n"
    "Options also take the form --option=VALUE; -o is --output, -j is --jobs.\n"
    "Directories are walked (.git, node_modules, vendor, virtualenvs and binary files skipped).\n"
    "Exit status: 0 no finding at or above --fail-on (default: low), 1 there is one, 2 usage error.\n";

int bw_cli_scan(int argc, char **argv)
{
    const char *format = "text", *context = NULL, *output = NULL, *fail_s = NULL, *lang_s = NULL, *jobs_s = NULL;
    int fail_on = BW_SEV_LOW, force_lang = -1;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    const struct bw_opt opts[] = {{"--format", NULL, &format, NULL}, {"--fail-on", NULL, &fail_s, NULL},
                                  {"--lang", NULL, &lang_s, NULL},   {"--context", NULL, &context, NULL},
                                  {"--output", "-o", &output, NULL}, {"--jobs", "-j", &jobs_s, NULL},
                                  {NULL, NULL, NULL, NULL}};
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    int npaths = 0;
    int prc = paths ? bw_opts_parse("scan", USAGE, opts, argc - 1, argv + 1, paths, argc, &npaths) : BW_OPTS_USAGE;
    if (prc != BW_OPTS_OK) {
        free(paths);
        return bw_opts_exit(prc);
    }
    int urc = 0;
    if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "sarif"))
        urc = bw_cli_usage_error("scan", "--format must be text, json or sarif, not '%s'", format);
    else if (fail_s && !(fail_on = strcasecmp(fail_s, "none") == 0 ? 99 : bw_sev_parse(fail_s)))
        urc = bw_cli_usage_error("scan", "--fail-on must be critical, high, medium, low or none, not '%s'", fail_s);
    else if (lang_s && (force_lang = bw_lang_parse(lang_s)) < 0)
        urc = bw_cli_usage_error("scan", "--lang must be one of js ts py go java php rb cs rs, not '%s'", lang_s);
    else if (npaths == 0)
        urc = bw_cli_usage_error("scan", "no PATH given");
    if (jobs_s && !urc) {
        char *end;
        jobs = strtol(jobs_s, &end, 10);
        if (!*jobs_s || *end || jobs < 1 || jobs > BW_CLI_SCAN_MAX_JOBS)
            urc = bw_cli_usage_error("scan", "--jobs must be 1..%d, not '%s'", BW_CLI_SCAN_MAX_JOBS, jobs_s);
    }
    if (urc) {
        free(paths);
        return urc;
    }
    struct list files = {0};
    urc = collect(&files, paths, npaths, force_lang);
    free(paths);
    if (urc) {
        free_files(&files);
        return urc;
    }
    dedupe(&files);
    if (files.n > 1)
        qsort(files.v, files.n, sizeof *files.v, cmp_file);

    char err[512];
    struct bw_scanner *sc = bw_scanner_new_embedded(err, sizeof err);
    if (!sc) {
        fprintf(stderr, "bulwark scan: %s\n", err);
        free_files(&files);
        return 2;
    }
    struct job j = {.sc = sc, .files = files.v, .nfiles = files.n, .test_ctx = bw_context_is_test(context)};
    if ((size_t)jobs > files.n)
        jobs = files.n ? (long)files.n : 1;
    pthread_t th[BW_CLI_SCAN_MAX_JOBS];
    long started = 0;
    for (; started < jobs; started++)
        if (pthread_create(&th[started], NULL, worker, &j) != 0)
            break;
    if (started == 0)
        worker(&j);
    for (long i = 0; i < started; i++)
        pthread_join(th[i], NULL);

    int counts[5] = {0}, worst = 0;
    size_t scanned = 0;
    for (size_t i = 0; i < files.n; i++) {
        scanned += !files.v[i].skipped && !files.v[i].failed;
        for (size_t k = 0; k < files.v[i].f.n; k++)
            counts[files.v[i].f.v[k].severity]++;
        if (files.v[i].f.worst > worst) /* past the cap too: findings not listed still fail the run */
            worst = files.v[i].f.worst;
        if (files.v[i].f.truncated)
            fprintf(stderr, "bulwark scan: %s: more than %d findings, only the first %d are listed\n",
                    uri_of(files.v[i].path), BW_SCAN_MAX_FINDINGS, BW_SCAN_MAX_FINDINGS);
        if (files.v[i].failed)
            fprintf(stderr, "bulwark scan: %s: %s\n", files.v[i].path, files.v[i].why);
        else if (files.v[i].skipped && files.v[i].named) /* in a walk, skipping them is the point */
            fprintf(stderr, "bulwark scan: note: %s: not scanned: %s\n", files.v[i].path, files.v[i].why);
    }
    FILE *out = stdout;
    if (output && !(out = fopen(output, "w"))) {
        fprintf(stderr, "bulwark scan: %s: %s\n", output, strerror(errno));
        worst = -1;
    }
    if (out && strcmp(format, "text") == 0) {
        for (size_t i = 0; i < files.n; i++) {
            for (size_t k = 0; k < files.v[i].f.n; k++) {
                const struct bw_finding *x = &files.v[i].f.v[k];
                fprintf(out, "%s:%u:%u: %s %s %s [%s]\n    %s\n", uri_of(files.v[i].path), x->line, x->column,
                        bw_sev_name(x->severity), x->rule->id, x->rule->title, x->rule->cwe, x->snippet);
            }
        }
        fprintf(out, "%zu file%s scanned, %d critical, %d high, %d medium, %d low\n", scanned, scanned == 1 ? "" : "s",
                counts[4], counts[3], counts[2], counts[1]);
    } else if (out) {
        json_t *doc = strcmp(format, "sarif") == 0
                          ? sarif_doc(sc, files.v, files.n)
                          : json_doc(files.v, files.n, scanned, atomic_load(&j.bytes), counts);
        /* one buffer, one write: json_dumpf goes through stdio token by token */
        char *text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
        size_t tl = text ? strlen(text) : 0;
        if (!doc) {
            worst = -1; /* the reason is on stderr already */
        } else if (!text || fwrite(text, 1, tl, out) != tl || fputc('\n', out) == EOF) {
            fprintf(stderr, "bulwark scan: cannot write the report\n");
            worst = -1;
        }
        free(text);
        json_decref(doc);
    }
    if (out && out != stdout)
        fclose(out);
    free_files(&files);
    bw_scanner_free(sc);
    if (worst < 0)
        return 2;
    return worst >= fail_on ? 1 : 0;
}
