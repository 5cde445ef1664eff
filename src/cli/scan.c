/* `bulwark scan`: the code scanner for CI and for adoption on an existing repository. Collects
 * files (walking folders with .gitignore, .bulwarkignore and --exclude applied), scans them in
 * parallel by kind (source, notebooks, configuration and shell files), applies .bulwark.yml's
 * rule selection, --changed-since and --baseline, and prints text, JSON, SARIF 2.1.0, GitLab SAST
 * or JUnit in a deterministic order. Exit status: 0 clean, 1 a finding at or above --fail-on,
 * 2 usage, configuration or I/O error. */
#include "cli/cli.h"
#include "cli/scan.h"
#include "common/embedded.h"
#include "common/limits.h"
#include "common/vec.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const SKIP_DIRS[] = {".git", ".hg", ".svn", "node_modules", "vendor", "third_party",
                                        "bower_components", ".venv", "venv", "__pycache__", ".tox",
                                        "site-packages", ".mypy_cache", ".next", ".cargo"};

struct file {
    char *path;          /* as named or walked */
    char *abs;           /* absolute (realpath of the folder it was found in, plus its name) */
    const char *rel;     /* relative to the report root, or abs when outside it */
    int kind, lang;
    bool test_ctx;
    struct bw_findings f;
    struct bw_notebook nb;
    size_t seq;
    bool named, skipped, failed;
    char why[96];
};

struct list {
    struct file *v;
    size_t n, cap;
};

struct run {
    struct bw_git *git;     /* NULL outside a repository or with --no-ignore-vcs */
    struct bw_ignore ign;   /* .bulwarkignore and --exclude, relative to ign_base */
    const char *ign_base;
    const char *root;       /* report root */
    json_t *notes;
    size_t skipped;
};

/* "PATH: WHAT: WHY" on stderr and in the SARIF invocation's notifications */
static void note(struct run *r, const char *path, const char *what, const char *why)
{
    char buf[4400];
    snprintf(buf, sizeof buf, "%s: %s: %s", path, what, why);
    fprintf(stderr, "bulwark scan: note: %s\n", buf);
    json_array_append_new(r->notes, json_string(buf));
}

/* abs relative to base ("" for base itself), or NULL when outside it. */
static const char *rel_to(const char *abs, const char *base)
{
    size_t bl = strlen(base);
    if (bl == 1 && base[0] == '/')
        return abs + 1;
    if (strncmp(abs, base, bl) != 0 || (abs[bl] != '/' && abs[bl] != '\0'))
        return NULL;
    return abs[bl] == '/' ? abs + bl + 1 : abs + bl;
}

static bool excluded(struct run *r, const char *abs, bool is_dir)
{
    const char *rel = rel_to(abs, r->ign_base);
    return rel && *rel && bw_ignore_match(&r->ign, rel, is_dir);
}

/* A file no name makes a kind of: a script without an extension (bin/deploy, scripts/install) is
 * a shell file when its #! line names a shell; only those few bytes are read. */
static int kind_by_shebang(const char *path, int *lang)
{
    const char *slash = strrchr(path, '/');
    if (strchr(slash ? slash + 1 : path, '.'))
        return BW_KIND_NONE;
    char head[BW_CLI_SCAN_SHEBANG_BYTES];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    if (!bw_scan_shebang_shell(head, n))
        return BW_KIND_NONE;
    *lang = BW_LANG_PY; /* as other shell files: '#' comments, quoted strings */
    return BW_KIND_SHELL;
}

static int add_file(struct list *l, const char *path, const char *abs, int kind, int lang, bool named)
{
    if (!BW_VEC_RESERVE(l->v, l->cap, l->n + 1, BW_CLI_SCAN_MAX_FILES))
        return -1;
    struct file *f = &l->v[l->n];
    memset(f, 0, sizeof *f);
    f->path = strdup(path);
    f->abs = strdup(abs);
    f->kind = kind;
    f->lang = lang;
    f->named = named;
    if (!f->path || !f->abs) {
        free(f->path);
        free(f->abs);
        return -1;
    }
    f->seq = l->n++;
    return 0;
}

static bool skip_dir(const char *name)
{
    for (size_t i = 0; i < sizeof SKIP_DIRS / sizeof SKIP_DIRS[0]; i++)
        if (strcmp(name, SKIP_DIRS[i]) == 0)
            return true;
    return false;
}

/* The .gitignore files from the work tree's root down to the folder being walked: the deepest
 * with a verdict on a path decides (as in git), each file's last matching pattern within it. */
struct frame {
    const struct frame *up;
    struct bw_ignore ig;
    char *dir; /* absolute */
};

/* Adds the patterns of the ignore file at path (relative to dir) to f; a missing file adds none. */
static void frame_add(struct frame *f, const char *dir, const char *path)
{
    char *text = NULL, why[128];
    size_t len = 0;
    if (access(path, F_OK) != 0)
        return;
    if (bw_cli_read_file(path, BW_CLI_SCAN_MAX_CONFIG_BYTES, &text, &len, why, sizeof why) != BW_READ_OK ||
        (!f->dir && !(f->dir = strdup(dir))) || bw_ignore_add_text(&f->ig, text, len) != 0)
        fprintf(stderr, "bulwark scan: note: %s: %s; some of its patterns are not applied\n", path,
                text ? "too many or too long patterns" : why);
    free(text);
}

static void frame_load(struct frame *f, const struct frame *up, const char *dir)
{
    memset(f, 0, sizeof *f);
    f->up = up;
    char path[4200];
    snprintf(path, sizeof path, "%s/.gitignore", strcmp(dir, "/") ? dir : "");
    frame_add(f, dir, path);
}

static void frame_free(struct frame *f)
{
    bw_ignore_free(&f->ig);
    free(f->dir);
}

static bool vcs_ignored(const struct frame *fr, const char *abs, bool dir)
{
    for (; fr; fr = fr->up) {
        const char *rel = fr->dir ? rel_to(abs, fr->dir) : NULL;
        int v = rel && *rel ? bw_ignore_verdict(&fr->ig, rel, dir) : -1;
        if (v >= 0)
            return v == 1;
    }
    return false;
}

static int walk(struct run *r, struct list *l, const struct frame *up, const char *path, const char *abs,
                int force_lang, int depth)
{
    if (depth > BW_CLI_SCAN_MAX_DEPTH)
        return 0;
    DIR *d = opendir(path);
    if (!d)
        return 0; /* unreadable directory: nothing to scan there */
    struct frame fr;
    if (r->git)
        frame_load(&fr, up, abs);
    else
        memset(&fr, 0, sizeof fr);
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || (e->d_name[1] == '.' && e->d_name[2] == '\0')))
            continue;
        char child[4096], cabs[4096];
        int n = snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        int m = snprintf(cabs, sizeof cabs, "%s/%s", strcmp(abs, "/") ? abs : "", e->d_name);
        if (n < 0 || (size_t)n >= sizeof child || m < 0 || (size_t)m >= sizeof cabs)
            continue;
        struct stat st;
        if (lstat(child, &st) != 0) /* symlinks are not followed: no loops, no escaping the tree */
            continue;
        bool dir = S_ISDIR(st.st_mode);
        if (!dir && !S_ISREG(st.st_mode))
            continue;
        if ((dir && skip_dir(e->d_name)) || excluded(r, cabs, dir) || (r->git && vcs_ignored(&fr, cabs, dir)))
            continue;
        if (dir) {
            rc = walk(r, l, &fr, child, cabs, force_lang, depth + 1);
            continue;
        }
        int lang;
        const char *why;
        int kind = bw_scan_kind_of(child, &lang, &why);
        if (kind == BW_KIND_NONE && !*why)
            kind = kind_by_shebang(child, &lang);
        if (kind == BW_KIND_NONE) {
            r->skipped += *why != '\0'; /* lockfiles and bundles: counted; other files are no concern */
            continue;
        }
        if (force_lang >= 0 && !(kind == BW_KIND_CODE && lang == force_lang))
            continue;
        rc = add_file(l, child, cabs, kind, lang, false);
    }
    closedir(d);
    frame_free(&fr);
    return rc;
}

/* Walks a named folder, with the .gitignore files of the folders between the work tree's root
 * and it in effect (scanning src/ still honours the root's .gitignore). */
static int walk_named(struct run *r, struct list *l, const char *path, const char *abs, int force_lang)
{
    const char *rel = r->git ? rel_to(abs, bw_git_root(r->git)) : NULL;
    if (!rel)
        return walk(r, l, NULL, path, abs, force_lang, 0);
    struct frame frames[BW_CLI_SCAN_MAX_DEPTH + 2];
    char dir[4096], info[4200], global[4200];
    snprintf(dir, sizeof dir, "%s", bw_git_root(r->git));
    /* lowest: core.excludesFile, then .git/info/exclude, both relative to the work tree's root */
    memset(frames, 0, 2 * sizeof frames[0]);
    bw_git_exclude_files(r->git, info, sizeof info, global, sizeof global);
    if (*global)
        frame_add(&frames[0], dir, global);
    frames[1].up = &frames[0];
    frame_add(&frames[1], dir, info);
    size_t nf = 2;
    /* each folder from the root down to abs's parent (walk loads abs's own .gitignore) */
    for (const char *p = rel; *p && nf < BW_CLI_SCAN_MAX_DEPTH;) {
        frame_load(&frames[nf], &frames[nf - 1], dir);
        nf++;
        const char *slash = strchr(p, '/');
        size_t dl = strlen(dir);
        if (!slash || dl + 1 + (size_t)(slash - p) >= sizeof dir)
            break;
        snprintf(dir + dl, sizeof dir - dl, "/%.*s", (int)(slash - p), p);
        p = slash + 1;
    }
    int rc = walk(r, l, &frames[nf - 1], path, abs, force_lang, 0);
    while (nf > 0)
        frame_free(&frames[--nf]);
    return rc;
}

/* The absolute form of path without resolving its last component (which may be gone). */
static char *absolute(const char *path)
{
    char *rp = realpath(path, NULL);
    if (rp)
        return rp;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    char *rd = dir ? realpath(dir, NULL) : NULL;
    free(dir);
    if (!rd)
        return NULL;
    char *out = NULL;
    if (asprintf(&out, "%s/%s", strcmp(rd, "/") ? rd : "", slash ? slash + 1 : path) < 0)
        out = NULL;
    free(rd);
    return out;
}

/* The files to scan. Named files that are gone or of no kind we read are skipped with a note
 * (`git diff --name-only | xargs bulwark scan` lists deleted files and READMEs). 0, or 2. */
static int collect(struct run *r, struct list *files, const char *const *paths, int npaths, int force_lang)
{
    for (int i = 0; i < npaths; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            if (errno != ENOENT) {
                fprintf(stderr, "bulwark scan: %s: %s\n", paths[i], strerror(errno));
                return 2;
            }
            note(r, paths[i], "skipped", "no such file (deleted?)");
            r->skipped++;
            continue;
        }
        char *abs = absolute(paths[i]);
        if (!abs) {
            fprintf(stderr, "bulwark scan: %s: %s\n", paths[i], strerror(errno));
            return 2;
        }
        int rc = 0;
        if (S_ISDIR(st.st_mode)) {
            rc = walk_named(r, files, paths[i], abs, force_lang);
        } else if (!S_ISREG(st.st_mode)) { /* a FIFO would block the scan */
            fprintf(stderr, "bulwark scan: %s: %s, not a regular file or directory\n", paths[i],
                    bw_cli_file_kind(st.st_mode));
            free(abs);
            return 2;
        } else if (excluded(r, abs, false)) {
            /* named files skip .gitignore (naming one is deliberate) but not the scan's own excludes */
        } else {
            int lang;
            const char *why;
            int kind = bw_scan_kind_of(paths[i], &lang, &why);
            if (kind == BW_KIND_NONE && !*why)
                kind = kind_by_shebang(paths[i], &lang);
            if (force_lang >= 0) { /* a named file is scanned as --lang says, whatever its name */
                kind = BW_KIND_CODE;
                lang = force_lang;
            }
            if (kind == BW_KIND_NONE) {
                note(r, paths[i], "skipped", *why ? why : "not a language bulwark scans (use --lang)");
                r->skipped++;
            } else {
                rc = add_file(files, paths[i], abs, kind, lang, true);
            }
        }
        free(abs);
        if (rc != 0) {
            fprintf(stderr, "bulwark scan: too many files (limit %d) or out of memory\n", BW_CLI_SCAN_MAX_FILES);
            return 2;
        }
    }
    return 0;
}

static int cmp_abs(const void *a, const void *b)
{
    const struct file *x = a, *y = b;
    int c = strcmp(x->abs, y->abs);
    return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(((const struct file *)a)->path, ((const struct file *)b)->path);
}

static void free_file(struct file *f)
{
    bw_findings_free(&f->f);
    bw_notebook_free(&f->nb);
    free(f->path);
    free(f->abs);
}

/* One file named twice (or walked and named) is scanned once: the first collected stays. */
static void dedupe(struct list *l)
{
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, cmp_abs);
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (k > 0 && strcmp(l->v[k - 1].abs, l->v[i].abs) == 0) {
            l->v[k - 1].named |= l->v[i].named;
            free_file(&l->v[i]);
        } else {
            l->v[k++] = l->v[i];
        }
    }
    l->n = k;
    if (l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, cmp_path);
}

struct job {
    const struct bw_scanner *sc;
    struct file *files;
    size_t nfiles;
    atomic_size_t next;
    atomic_ulong bytes;
};

static void keep_secrets(struct bw_findings *f)
{
    size_t k = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].rule->secret_group)
            f->v[k++] = f->v[i];
    f->n = k;
    f->worst = 0;
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].severity > f->worst)
            f->worst = f->v[i].severity;
}

static void scan_one(struct job *j, struct file *f)
{
    char *buf = NULL;
    size_t len = 0;
    int rc = bw_cli_read_file(f->path, BW_CLI_SCAN_MAX_FILE_BYTES, &buf, &len, f->why, sizeof f->why);
    if (rc != BW_READ_OK) {
        f->skipped = rc != BW_READ_FAILED;
        f->failed = !f->skipped;
        return;
    }
    /* a NUL in the first 8 KiB marks a binary file */
    if (memchr(buf, '\0', len < BW_CLI_SCAN_SNIFF_BYTES ? len : BW_CLI_SCAN_SNIFF_BYTES)) {
        snprintf(f->why, sizeof f->why, "a binary file");
        f->skipped = true;
    } else if (f->kind == BW_KIND_CODE && (f->lang == BW_LANG_JS || f->lang == BW_LANG_TS) &&
               bw_scan_is_minified(buf, len)) {
        snprintf(f->why, sizeof f->why, "generated (minified)");
        f->skipped = true;
    }
    if (f->skipped) {
        free(buf);
        return;
    }
    atomic_fetch_add(&j->bytes, len);
    const char *text = buf;
    size_t tlen = len;
    int lang = f->lang;
    if (f->kind == BW_KIND_NOTEBOOK) {
        if (bw_notebook_read(buf, len, &f->nb, f->why, sizeof f->why) != 0) {
            f->skipped = true;
            free(buf);
            return;
        }
        if (f->nb.lang < 0) {
            snprintf(f->why, sizeof f->why, "a notebook in a language bulwark does not scan");
            f->skipped = true;
            free(buf);
            return;
        }
        text = f->nb.code, tlen = f->nb.len, lang = f->nb.lang;
    }
    if (bw_scan(j->sc, (enum bw_lang)lang, text, tlen, f->test_ctx, &f->f) != 0) {
        f->failed = true;
        snprintf(f->why, sizeof f->why, "the scan failed");
    } else if (f->kind == BW_KIND_SECRETS || f->kind == BW_KIND_SHELL) {
        keep_secrets(&f->f); /* code rules read these files as Python; only secrets mean anything */
        if (f->kind == BW_KIND_SHELL && bw_scan_shell_check(text, tlen, &f->f) != 0) {
            f->failed = true;
            snprintf(f->why, sizeof f->why, "out of memory");
        }
    }
    free(buf);
}

static void *worker(void *arg)
{
    struct job *j = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->nfiles)
            break;
        scan_one(j, &j->files[i]);
    }
    return NULL;
}

/* ---- rule selection (.bulwark.yml) ---- */

static bool in_list(char **v, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], id) == 0)
            return true;
    return false;
}

static bool ov_applies(const struct bw_scan_config *c, const struct bw_scan_override *o, const struct file *f)
{
    const char *rel = c->dir ? rel_to(f->abs, c->dir) : NULL;
    if (!rel)
        return false;
    struct bw_ignore ig = {0};
    bool hit = false;
    for (size_t i = 0; i < o->npaths && !hit; i++) {
        if (bw_ignore_add(&ig, o->paths[i]) == 0)
            hit = bw_ignore_match(&ig, rel, false);
        bw_ignore_free(&ig);
    }
    return hit;
}

/* The finding's severity after the configuration, or 0 when its rule is switched off there. */
static int configured(const struct bw_scan_config *c, const struct file *f, const struct bw_finding *x)
{
    const char *id = x->rule->id;
    if (c->nenable_only && !in_list(c->enable_only, c->nenable_only, id))
        return 0;
    if (in_list(c->base.disable, c->base.ndisable, id))
        return 0;
    int sev = x->severity;
    for (size_t i = 0; i < c->base.nsev; i++)
        if (strcmp(c->base.sev_rule[i], id) == 0)
            sev = c->base.sev[i];
    for (size_t o = 0; o < c->nov; o++) {
        if (!ov_applies(c, &c->ov[o], f))
            continue;
        if (in_list(c->ov[o].disable, c->ov[o].ndisable, id))
            return 0;
        for (size_t i = 0; i < c->ov[o].nsev; i++)
            if (strcmp(c->ov[o].sev_rule[i], id) == 0)
                sev = c->ov[o].sev[i];
    }
    return sev;
}

/* ---- configuration file ---- */

static int load_config(const char *explicit, const char *start, struct bw_scan_config *c)
{
    char *path = NULL;
    if (explicit) {
        path = strdup(explicit);
    } else {
        char *dir = start ? absolute(start) : NULL;
        struct stat st;
        if (dir && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
            char *slash = strrchr(dir, '/');
            if (slash)
                slash == dir ? (void)(slash[1] = '\0') : (void)(*slash = '\0');
        }
        /* from the scanned folder upwards, as git finds .git */
        while (dir && !path) {
            char cand[4200];
            snprintf(cand, sizeof cand, "%s/.bulwark.yml", strcmp(dir, "/") ? dir : "");
            if (access(cand, F_OK) == 0)
                path = strdup(cand);
            else if (strcmp(dir, "/") == 0)
                break;
            else {
                char *slash = strrchr(dir, '/');
                slash == dir ? (void)(slash[1] = '\0') : (void)(*slash = '\0');
            }
        }
        free(dir);
        if (!path)
            return 0;
    }
    char *text = NULL, why[128];
    size_t len = 0;
    if (!path || bw_cli_read_file(path, BW_CLI_SCAN_MAX_CONFIG_BYTES, &text, &len, why, sizeof why) != BW_READ_OK) {
        fprintf(stderr, "bulwark scan: %s: %s\n", path ? path : "config", path ? why : "out of memory");
        free(path);
        return 2;
    }
    char err[600];
    int rc = bw_scan_config_parse(path, text, len, c, err, sizeof err);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "bulwark scan: %s\n", err);
        free(path);
        return 2;
    }
    char *ap = absolute(path);
    c->path = path;
    if (ap) {
        char *slash = strrchr(ap, '/');
        if (slash)
            slash == ap ? (void)(slash[1] = '\0') : (void)(*slash = '\0');
    }
    c->dir = ap;
    return 0;
}

static int check_config_ids(const struct bw_scan_config *c, const struct bw_scanner *sc)
{
    size_t nr = bw_scanner_rule_count(sc);
    for (size_t i = 0; i < c->nids; i++) {
        bool ok = strcmp(c->ids[i], bw_scan_shell_rule()->id) == 0;
        for (size_t k = 0; k < nr && !ok; k++)
            ok = strcmp(bw_scanner_rule(sc, k)->id, c->ids[i]) == 0;
        if (!ok) {
            fprintf(stderr, "bulwark scan: %s:%u: rules: unknown rule id '%s' (bulwark rules list)\n", c->path,
                    c->id_lines[i], c->ids[i]);
            return 2;
        }
    }
    return 0;
}

static void utc_now(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
}

static int cmp_item_line(const void *a, const void *b)
{
    const struct bw_finding *x = *(const struct bw_finding *const *)a, *y = *(const struct bw_finding *const *)b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return (x->column > y->column) - (x->column < y->column);
}

static const char USAGE[] =
    "usage: bulwark scan [OPTION]... PATH...\n"
    "Scans source files, notebooks, configuration and shell files under PATH (files or folders).\n"
    "\n"
    "Output:\n"
    "  --format FORMAT        text (default), json, sarif, gitlab-sast or junit\n"
    "  -o, --output FILE      write the report to FILE instead of standard output\n"
    "  --sarif-root DIR       SARIF paths relative to DIR (default: the git work tree's root, else\n"
    "                         the current folder); also the root of fingerprints' paths\n"
    "Failing:\n"
    "  --fail-on SEVERITY     critical, high, medium, low (default) or none\n"
    "  --baseline REPORT      a previous bulwark JSON or SARIF report: its findings are not reported\n"
    "                         and do not fail the run\n"
    "  --baseline-state       keep them, with SARIF baselineState new, unchanged or absent (and\n"
    "                         baseline_state in JSON); needs --baseline\n"
    "  --changed-since REV    only findings on lines added or changed since merge-base(REV, HEAD),\n"
    "                         staged, unstaged and untracked files included (needs the history:\n"
    "                         fetch-depth: 0)\n"
    "Selecting files:\n"
    "  --exclude GLOB         skip paths matching GLOB (gitignore syntax; repeatable)\n"
    "  --no-ignore-vcs        scan files that .gitignore excludes (honoured by default)\n"
    "  --lang LANG            only files of LANG, and named files read as LANG: js, ts, py, go,\n"
    "                         java, php, rb, cs or rs\n"
    "  --config FILE          read FILE instead of the .bulwark.yml found from PATH upwards\n"
    "  --no-config            read no .bulwark.yml\n"
    "Scanning:\n"
    "  --context CONTEXT      production (default), test, example or fixture: in a test, example\n"
    "                         or fixture context secrets findings drop one severity level\n"
    "  -j, --jobs N           scanning threads, 1..256 (default: the CPUs)\n"
    "\n"
    "Options also take the form --option=VALUE. Always skipped: .git, node_modules, vendor,\n"
    "virtualenvs, binary files, lockfiles and minified bundles (counted as skipped). A named file\n"
    "that is gone or of no known kind is skipped with a note. .bulwarkignore (gitignore syntax) at\n"
    "the repository root adds excludes.\n"
    "Exit status: 0 no finding at or above --fail-on, 1 there is one, 2 usage, configuration or\n"
    "I/O error (an unreadable file, a bad .bulwark.yml, a missing --changed-since revision).\n";

static const char *const CONTEXTS[] = {"production", "test", "tests", "testing", "example", "examples",
                                       "fixture", "fixtures"};

static bool context_ok(const char *s)
{
    for (size_t i = 0; i < sizeof CONTEXTS / sizeof CONTEXTS[0]; i++)
        if (strcasecmp(s, CONTEXTS[i]) == 0)
            return true;
    return false;
}

struct opts {
    const char *format, *context, *output, *fail_s, *lang_s, *jobs_s, *baseline, *changed, *config, *sarif_root;
    bool baseline_state, no_vcs, no_config;
    struct bw_opt_list excl;
    /* baseline and sarif-root taken from .bulwark.yml: the paths (owned) and what messages call
     * them ("FILE:LINE: key: "); NULL when given on the command line */
    char *baseline_cfg, *root_cfg, *baseline_from, *root_from;
};

/* A path from .bulwark.yml resolved against the file's folder, as its other paths are; *from
 * gets how messages name it. NULL when out of memory. */
static char *cfg_path(const struct bw_scan_config *c, const char *p, const char *key, unsigned line, char **from)
{
    char *out = NULL;
    if (asprintf(from, "%s:%u: %s: ", c->path, line, key) < 0) {
        *from = NULL;
        return NULL;
    }
    if (p[0] == '/' || !c->dir)
        out = strdup(p);
    else if (asprintf(&out, "%s/%s", c->dir, p) < 0)
        out = NULL;
    return out;
}

static int finish(struct run *r, struct list *files, struct bw_scan_config *cfg, const struct opts *o,
                  const struct bw_scanner *sc, struct job *j, int fail_on);

int bw_cli_scan(int argc, char **argv)
{
    struct opts o = {.format = NULL};
    const char *excl_v[256];
    o.excl = (struct bw_opt_list){excl_v, 0, 256};
    const struct bw_opt opts[] = {
        {"--format", NULL, &o.format, NULL, NULL},        {"--fail-on", NULL, &o.fail_s, NULL, NULL},
        {"--lang", NULL, &o.lang_s, NULL, NULL},          {"--context", NULL, &o.context, NULL, NULL},
        {"--output", "-o", &o.output, NULL, NULL},        {"--jobs", "-j", &o.jobs_s, NULL, NULL},
        {"--baseline", NULL, &o.baseline, NULL, NULL},    {"--baseline-state", NULL, NULL, &o.baseline_state, NULL},
        {"--changed-since", NULL, &o.changed, NULL, NULL}, {"--exclude", NULL, NULL, NULL, &o.excl},
        {"--no-ignore-vcs", NULL, NULL, &o.no_vcs, NULL}, {"--config", NULL, &o.config, NULL, NULL},
        {"--no-config", NULL, NULL, &o.no_config, NULL},  {"--sarif-root", NULL, &o.sarif_root, NULL, NULL},
        {NULL, NULL, NULL, NULL, NULL}};
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    int npaths = 0;
    int prc = paths ? bw_opts_parse("scan", USAGE, opts, argc - 1, argv + 1, paths, argc, &npaths) : BW_OPTS_USAGE;
    if (prc != BW_OPTS_OK) {
        free(paths);
        return bw_opts_exit(prc);
    }
    struct bw_scan_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ignore_vcs = -1;
    int urc = 0;
    if (npaths == 0)
        urc = bw_cli_usage_error("scan", "no PATH given");
    else if (o.config && o.no_config)
        urc = bw_cli_usage_error("scan", "--config and --no-config exclude each other");
    else if (!o.no_config)
        urc = load_config(o.config, paths[0], &cfg);
    /* the command line wins over the file */
    if (!o.format)
        o.format = cfg.format ? cfg.format : "text";
    if (!o.fail_s)
        o.fail_s = cfg.fail_on;
    if (!o.context)
        o.context = cfg.context;
    if (!o.lang_s)
        o.lang_s = cfg.lang;
    if (!o.baseline && cfg.baseline)
        o.baseline = o.baseline_cfg = cfg_path(&cfg, cfg.baseline, "baseline", cfg.baseline_line, &o.baseline_from);
    if (!o.sarif_root && cfg.sarif_root)
        o.sarif_root = o.root_cfg = cfg_path(&cfg, cfg.sarif_root, "sarif-root", cfg.sarif_root_line, &o.root_from);
    if (!urc && ((cfg.baseline && !o.baseline) || (cfg.sarif_root && !o.sarif_root))) {
        fprintf(stderr, "bulwark scan: out of memory\n");
        urc = 2;
    }
    if (!o.no_vcs && cfg.ignore_vcs == 0)
        o.no_vcs = true;
    int fail_on = BW_SEV_LOW, force_lang = -1;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    static const char *const FORMATS[] = {"text", "json", "sarif", "gitlab-sast", "junit"};
    bool fmt_ok = false;
    for (size_t i = 0; i < 5; i++)
        fmt_ok |= strcmp(o.format, FORMATS[i]) == 0;
    if (urc)
        ;
    else if (!fmt_ok)
        urc = bw_cli_usage_error("scan", "--format must be text, json, sarif, gitlab-sast or junit, not '%s'", o.format);
    else if (o.fail_s && !(fail_on = strcasecmp(o.fail_s, "none") == 0 ? 99 : bw_sev_parse(o.fail_s)))
        urc = bw_cli_usage_error("scan", "--fail-on must be critical, high, medium, low or none, not '%s'", o.fail_s);
    else if (o.lang_s && (force_lang = bw_lang_parse(o.lang_s)) < 0)
        urc = bw_cli_usage_error("scan", "--lang must be one of js ts py go java php rb cs rs, not '%s'", o.lang_s);
    else if (o.context && !context_ok(o.context))
        urc = bw_cli_usage_error("scan", "--context must be production, test, example or fixture, not '%s'", o.context);
    else if (o.baseline_state && !o.baseline)
        urc = bw_cli_usage_error("scan", "--baseline-state needs --baseline");
    if (o.jobs_s && !urc) {
        char *end;
        jobs = strtol(o.jobs_s, &end, 10);
        if (!*o.jobs_s || *end || jobs < 1 || jobs > BW_CLI_SCAN_MAX_JOBS)
            urc = bw_cli_usage_error("scan", "--jobs must be 1..%d, not '%s'", BW_CLI_SCAN_MAX_JOBS, o.jobs_s);
    }
    struct run r = {.notes = json_array()};
    struct list files = {0};
    char *cwd = realpath(".", NULL), *root = NULL, *ign_text = NULL;
    struct bw_git *git = urc ? NULL : bw_git_open(paths[0]);
    if (!urc && !cwd) {
        fprintf(stderr, "bulwark scan: the current folder: %s\n", strerror(errno));
        urc = 2;
    }
    if (!urc && o.changed && !git) {
        fprintf(stderr, "bulwark scan: --changed-since needs a git repository; %s is in none\n", paths[0]);
        urc = 2;
    }
    if (!urc) {
        root = o.sarif_root ? realpath(o.sarif_root, NULL) : strdup(git ? bw_git_root(git) : cwd);
        if (!root) {
            fprintf(stderr, "bulwark scan: %s%s: %s\n", o.root_from ? o.root_from : "--sarif-root ", o.sarif_root,
                    strerror(errno));
            urc = 2;
        }
    }
    if (!urc) {
        r.root = root;
        r.ign_base = cfg.dir ? cfg.dir : git ? bw_git_root(git) : cwd;
        r.git = o.no_vcs ? NULL : git;
        char ipath[4200], why[128];
        size_t ilen = 0;
        snprintf(ipath, sizeof ipath, "%s/.bulwarkignore", r.ign_base);
        if (access(ipath, F_OK) == 0 &&
            (bw_cli_read_file(ipath, BW_CLI_SCAN_MAX_CONFIG_BYTES, &ign_text, &ilen, why, sizeof why) != BW_READ_OK ||
             bw_ignore_add_text(&r.ign, ign_text, ilen) != 0)) {
            fprintf(stderr, "bulwark scan: %s: %s\n", ipath, ign_text ? "too many or too long patterns" : why);
            urc = 2;
        }
        for (size_t i = 0; !urc && i < cfg.nexclude; i++)
            if (bw_ignore_add(&r.ign, cfg.exclude[i]) != 0)
                urc = bw_cli_usage_error("scan", "exclude '%s' is too long", cfg.exclude[i]);
        for (int i = 0; !urc && i < o.excl.n; i++)
            if (bw_ignore_add(&r.ign, o.excl.v[i]) != 0)
                urc = bw_cli_usage_error("scan", "--exclude '%s' is too long", o.excl.v[i]);
    }
    if (!urc && o.changed)
        urc = bw_git_changed_since(git, o.changed);
    if (!urc)
        urc = collect(&r, &files, paths, npaths, force_lang);
    free(paths);
    free(ign_text);
    struct bw_scanner *sc = NULL;
    if (!urc) {
        dedupe(&files);
        char err[512];
        if (!(sc = bw_scanner_new_embedded(err, sizeof err))) {
            fprintf(stderr, "bulwark scan: %s\n", err);
            urc = 2;
        } else {
            urc = check_config_ids(&cfg, sc);
        }
    }
    if (!urc) {
        /* --changed-since: files with no change are not read at all */
        size_t k = 0;
        for (size_t i = 0; i < files.n; i++) {
            struct file *f = &files.v[i];
            const char *grel = git ? rel_to(f->abs, bw_git_root(git)) : NULL;
            if (o.changed && !(grel && bw_git_file_changed(git, grel))) {
                free_file(f);
                continue;
            }
            const char *rel = rel_to(f->abs, root);
            f->rel = rel && *rel ? rel : f->abs;
            f->test_ctx = bw_context_is_test(o.context);
            for (size_t v = 0; v < cfg.nov; v++)
                if (cfg.ov[v].context && ov_applies(&cfg, &cfg.ov[v], f))
                    f->test_ctx = bw_context_is_test(cfg.ov[v].context);
            files.v[k++] = *f;
        }
        files.n = k;
        struct job j = {.sc = sc, .files = files.v, .nfiles = files.n};
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
        r.git = git;
        urc = finish(&r, &files, &cfg, &o, sc, &j, fail_on);
    }
    for (size_t i = 0; i < files.n; i++)
        free_file(&files.v[i]);
    free(files.v);
    bw_ignore_free(&r.ign);
    json_decref(r.notes);
    bw_git_close(git);
    bw_scanner_free(sc);
    bw_scan_config_free(&cfg);
    free(o.baseline_cfg);
    free(o.root_cfg);
    free(o.baseline_from);
    free(o.root_from);
    free(root);
    free(cwd);
    return urc;
}

/* After the scan: configuration, changed lines, fingerprints and baseline; then the report. */
static int finish(struct run *r, struct list *files, struct bw_scan_config *cfg, const struct opts *o,
                  const struct bw_scanner *sc, struct job *j, int fail_on)
{
    struct bw_baseline base = {0};
    struct bw_aliases *aliases = NULL;
    char err[600];
    if (o->baseline && bw_baseline_load(o->baseline, &base, err, sizeof err) != 0) {
        fprintf(stderr, "bulwark scan: %s%s\n", o->baseline_from ? o->baseline_from : "--baseline ", err);
        return 2;
    }
    const struct bw_embedded *ae = bw_embedded_find("data/scan/rule_aliases.json");
    if (ae && !(aliases = bw_aliases_parse((const char *)ae->data, ae->len, err, sizeof err))) {
        fprintf(stderr, "bulwark scan: %s\n", err);
        bw_baseline_free(&base);
        return 2;
    }
    struct bw_scan_report rep = {.sc = sc, .root = r->root, .notes = r->notes, .truncated = json_array(),
                                 .baseline_state = o->baseline_state, .skipped = r->skipped};
    utc_now(rep.start);
    size_t cap = 0;
    int worst = 0, rc = 0;
    for (size_t i = 0; i < files->n && rc == 0; i++) {
        struct file *f = &files->v[i];
        rep.scanned += !f->skipped && !f->failed;
        rep.parsed += !f->skipped && !f->failed && f->f.parsed;
        if (f->failed) { /* one unreadable file does not hide the others' findings */
            fprintf(stderr, "bulwark scan: %s: %s\n", f->path, f->why);
            continue;
        }
        if (f->skipped) {
            rep.skipped++;
            if (f->named) /* in a walk, skipping them is the point */
                note(r, f->path, "not scanned", f->why);
            continue;
        }
        if (f->f.truncated) {
            fprintf(stderr, "bulwark scan: %s: more than %d findings, only the first %d are listed\n", f->rel,
                    BW_SCAN_MAX_FINDINGS, BW_SCAN_MAX_FINDINGS);
            json_array_append_new(rep.truncated, json_string(f->rel));
            if (!o->baseline && !o->changed && f->f.worst > worst) /* the findings not listed still count */
                worst = f->f.worst;
        }
        /* occurrence indexes count in line order, so they do not depend on severities */
        const struct bw_finding **byline = malloc((f->f.n + 1) * sizeof *byline);
        if (!byline || !BW_VEC_RESERVE(rep.items, cap, rep.n + f->f.n, BW_VEC_UNBOUNDED)) {
            free(byline);
            rc = 2;
            fprintf(stderr, "bulwark scan: out of memory\n");
            break;
        }
        for (size_t k = 0; k < f->f.n; k++)
            byline[k] = &f->f.v[k];
        qsort(byline, f->f.n, sizeof *byline, cmp_item_line);
        for (size_t k = 0; k < f->f.n; k++) {
            const struct bw_finding *x = byline[k];
            unsigned occ = 1;
            for (size_t p = 0; p < k; p++)
                occ += byline[p]->rule == x->rule && strcmp(byline[p]->snippet, x->snippet) == 0;
            int sev = configured(cfg, f, x);
            if (!sev)
                continue;
            struct bw_scan_item it = {.x = x, .rel = f->rel, .shown = f->path, .severity = sev,
                                      .line = x->line, .end_line = x->end_line};
            while (it.shown[0] == '.' && it.shown[1] == '/')
                it.shown += 2;
            if (f->kind == BW_KIND_NOTEBOOK && x->line >= 1 && x->line <= f->nb.nlines) {
                it.cell = f->nb.cell[x->line - 1];
                it.cell_line = f->nb.cell_line[x->line - 1];
                it.line = it.end_line = f->nb.file_line[x->line - 1];
            }
            if (o->changed) {
                const char *grel = rel_to(f->abs, bw_git_root(r->git));
                if (!grel || !bw_git_lines_changed(r->git, grel, it.line, it.end_line))
                    continue;
            }
            bw_fp_make(x->rule->id, f->rel, x->snippet, occ, it.fp);
            if (o->baseline) {
                bool known = bw_baseline_has(&base, aliases, x->rule->id, f->rel, x->snippet, occ);
                if (known && !o->baseline_state)
                    continue;
                it.state = known ? "unchanged" : "new";
            }
            if (!it.state || strcmp(it.state, "new") == 0) {
                rep.counts[sev]++;
                if (sev > worst)
                    worst = sev;
            }
            rep.items[rep.n++] = it;
        }
        free(byline);
    }
    if (rc == 0 && o->baseline_state) {
        rep.absent = json_array();
        const char *k;
        json_t *v;
        json_object_foreach(base.fps, k, v) {
            if (!json_object_get(base.seen, k))
                json_array_append(rep.absent, v);
        }
    }
    rep.bytes = atomic_load(&j->bytes);
    rep.exit_code = rc ? rc : worst >= fail_on ? 1 : 0;
    utc_now(rep.end);
    FILE *out = stdout;
    if (rc == 0 && o->output && !(out = fopen(o->output, "w"))) {
        fprintf(stderr, "bulwark scan: %s: %s\n", o->output, strerror(errno));
        rc = 2;
    }
    if (rc == 0 && strcmp(o->format, "text") == 0) {
        bw_report_text(out, &rep);
    } else if (rc == 0) {
        char *text = NULL;
        if (strcmp(o->format, "junit") == 0) {
            text = bw_report_junit(&rep);
        } else {
            json_t *doc = strcmp(o->format, "sarif") == 0         ? bw_report_sarif(&rep)
                          : strcmp(o->format, "gitlab-sast") == 0 ? bw_report_gitlab(&rep)
                                                                  : bw_report_json(&rep);
            /* one buffer, one write: json_dumpf goes through stdio token by token */
            text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
            json_decref(doc);
        }
        size_t tl = text ? strlen(text) : 0;
        if (!text || fwrite(text, 1, tl, out) != tl || (text[tl ? tl - 1 : 0] != '\n' && fputc('\n', out) == EOF)) {
            fprintf(stderr, "bulwark scan: cannot write the report\n");
            rc = 2;
        }
        free(text);
    }
    if (out && out != stdout && fclose(out) != 0 && rc == 0) {
        fprintf(stderr, "bulwark scan: %s: %s\n", o->output, strerror(errno));
        rc = 2;
    }
    free(rep.items);
    json_decref(rep.truncated);
    json_decref(rep.absent);
    bw_aliases_free(aliases);
    bw_baseline_free(&base);
    return rc ? rc : rep.exit_code;
}
