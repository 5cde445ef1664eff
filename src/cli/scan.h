/* The pieces of `bulwark scan` (src/cli/scan*.c): ignore patterns, .bulwark.yml, notebooks and
 * other file kinds, git (ignore rules, --changed-since), baselines and fingerprints, reports.
 * They sit in the CLI layer: the code engine (engine/code/scanner.h) sees only text and a
 * language, and everything about files, repositories and report formats lives here. */
#ifndef BW_CLI_SCAN_H
#define BW_CLI_SCAN_H
#include "engine/code/scanner.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- ignore patterns (gitignore syntax: .bulwarkignore and --exclude) -------------------- */
struct bw_ignore_pat {
    char *glob;     /* without the leading '!', leading '/' and trailing '/' */
    bool negate;    /* "!pat": re-includes */
    bool dir_only;  /* "pat/": directories only */
    bool anchored;  /* a '/' at the start or in the middle: matched against the whole path */
};
struct bw_ignore {
    struct bw_ignore_pat *v;
    size_t n, cap;
};
/* Adds the lines of text[0..len) (gitignore syntax: '#' comments, blank lines, '\' escapes of a
 * leading '#' or '!', trailing spaces dropped). 0, or -1 (out of memory, too many patterns). */
int bw_ignore_add_text(struct bw_ignore *ig, const char *text, size_t len);
/* Adds one pattern (an --exclude value). 0, or -1. */
int bw_ignore_add(struct bw_ignore *ig, const char *pat);
/* Whether rel (a '/'-separated path relative to the ignore file's folder, no leading "./") is
 * excluded: a parent folder excluded excludes it whatever follows (as in git). */
bool bw_ignore_match(const struct bw_ignore *ig, const char *rel, bool is_dir);
/* The verdict of the patterns on rel itself (its parents not looked at): 1 excluded, 0
 * re-included by a '!' pattern, -1 no pattern matches. */
int bw_ignore_verdict(const struct bw_ignore *ig, const char *rel, bool is_dir);
void bw_ignore_free(struct bw_ignore *ig);
/* glob matching with '*' (not across '/'), '**' (across), '?', [a-z] and [!x] classes and '\'
 * escapes; the work is bounded (BW_CLI_SCAN_GLOB_STEPS): a pathological pattern does not match. */
bool bw_glob_match(const char *glob, const char *s);

/* ---- .bulwark.yml ----------------------------------------------------------------------- */
struct bw_scan_override {
    char **paths; /* globs, gitignore syntax, relative to the config file's folder */
    size_t npaths;
    char **disable;
    size_t ndisable;
    char **sev_rule; /* severity overrides: rule id -> severity */
    int *sev;
    size_t nsev;
    const char *context; /* NULL: the run's */
    unsigned line;
};
struct bw_scan_config {
    char *path; /* the file as named (--config) or found, for messages */
    char *dir;  /* folder of the file, for its paths: overrides, excludes, baseline, sarif-root */
    const char *format, *fail_on, *context, *baseline, *sarif_root, *lang;
    unsigned baseline_line, sarif_root_line;
    int ignore_vcs; /* -1 unset, 0, 1 */
    char **exclude;
    size_t nexclude;
    struct bw_scan_override base; /* rules: disable and severity, paths empty */
    char **enable_only;
    size_t nenable_only;
    struct bw_scan_override *ov;
    size_t nov;
    /* every rule id named, with its line, checked against the catalog once it is loaded */
    char **ids;
    unsigned *id_lines;
    size_t nids, ids_cap, id_lines_cap; /* capacities: common/vec.h */
    void *strings; /* owner of the strings above */
};
/* Parses a .bulwark.yml text. 0, or -1 with err "FILE:LINE: KEY: what is wrong". */
int bw_scan_config_parse(const char *name, const char *text, size_t len, struct bw_scan_config *c, char *err,
                         size_t errlen);
void bw_scan_config_free(struct bw_scan_config *c);

/* ---- notebooks -------------------------------------------------------------------------- */
/* A notebook's code cells as one text (each cell's lines in order) and, per line of that text,
 * its cell (1-based, counting every cell), its line in the cell and its line in the .ipynb file
 * (where GitHub shows it). */
struct bw_notebook {
    char *code;
    size_t len;
    uint32_t *cell, *cell_line, *file_line;
    size_t nlines;
    int lang; /* the kernel's language when known (python by default), -1 if not one we scan */
};
/* 0, or -1 with why set (not JSON, not a notebook, out of memory). */
int bw_notebook_read(const char *text, size_t len, struct bw_notebook *nb, char *why, size_t whylen);
void bw_notebook_free(struct bw_notebook *nb);

/* ---- file kinds ------------------------------------------------------------------------- */
enum bw_scan_kind {
    BW_KIND_NONE,      /* not scanned */
    BW_KIND_CODE,      /* one of the engine's languages */
    BW_KIND_NOTEBOOK,  /* .ipynb: the code cells */
    BW_KIND_SECRETS,   /* .env, YAML, TOML, JSON, INI, properties: secrets only */
    BW_KIND_SHELL,     /* shell scripts and Dockerfiles: secrets and piping a download to a shell */
};
/* The kind of a file by its name; *lang the language the engine reads it as. why (for NONE,
 * when the file is a lockfile or generated) says why it is not scanned, else "". */
int bw_scan_kind_of(const char *path, int *lang, const char **why);
/* Whether the first bytes of a file (head, n of them) are a #! line naming a shell (sh, bash,
 * zsh, dash, ksh; directly or through env): a script without an extension is a shell file. */
bool bw_scan_shebang_shell(const char *head, size_t n);
/* Whether a JS or CSS text is minified (one very long line, or an average past
 * BW_CLI_SCAN_MINIFIED_LINE). */
bool bw_scan_is_minified(const char *text, size_t len);
/* The rule of the piped-download check (BW-SH-001), which lives here rather than in the
 * catalog because it reads shell and Dockerfiles, which the engine does not know. */
const struct bw_rule *bw_scan_shell_rule(void);
/* Appends a BW-SH-001 finding for each `curl ... | sh` (or wget, bash, python) in text. */
int bw_scan_shell_check(const char *text, size_t len, struct bw_findings *f);

/* ---- fingerprints and baselines --------------------------------------------------------- */
/* The whitespace-free form of a snippet: reindenting or respacing a line keeps its fingerprint. */
void bw_fp_normalise(const char *snippet, char *out, size_t outlen);
/* "HEX16:OCC": a hash of rule id, path and normalised snippet, and the occurrence index (1 for
 * the first finding of that rule with that snippet in the file, 2 for the next, ...). */
void bw_fp_make(const char *rule, const char *path, const char *snippet, unsigned occ, char out[48]);

/* Renamed and split rules: the ids a rule had before (data/scan/rule_aliases.json). */
struct bw_aliases;
/* Parses {"aliases":[{"old":"ID","new":["ID",...]}]}. NULL with err on a malformed table. */
struct bw_aliases *bw_aliases_parse(const char *text, size_t len, char *err, size_t errlen);
/* The old ids of rule id, *n of them (borrowed; NULL when none). */
const char *const *bw_aliases_of(const struct bw_aliases *a, const char *id, size_t *n);
void bw_aliases_free(struct bw_aliases *a);

struct bw_baseline {
    json_t *fps;    /* {fingerprint: entry} ; entry: the SARIF result or JSON finding (for "absent") */
    json_t *seen;   /* fingerprints matched in this run */
    bool sarif;
};
/* Reads a bulwark JSON or SARIF report. 0, or -1 with err. */
int bw_baseline_load(const char *path, struct bw_baseline *b, char *err, size_t errlen);
/* Whether fingerprint fp (or the same finding under one of the rule's old ids) is in the
 * baseline; marks it seen. */
bool bw_baseline_has(struct bw_baseline *b, const struct bw_aliases *a, const char *rule, const char *path,
                     const char *snippet, unsigned occ);
void bw_baseline_free(struct bw_baseline *b);

/* ---- git -------------------------------------------------------------------------------- */
struct bw_git;
/* Opens the repository holding path (searching upwards); NULL when there is none. */
struct bw_git *bw_git_open(const char *path);
/* The work tree's root, absolute, no trailing '/'. */
const char *bw_git_root(const struct bw_git *g);
/* Whether abs (an absolute path inside the work tree) is ignored as libgit2 sees it. scan.c
 * reads the ignore files itself instead: libgit2 1.5 drops a nested file's negation of a pattern
 * from a parent folder's file (libgit2#7284), and asking it per path costs more than the scan. */
bool bw_git_ignored(struct bw_git *g, const char *abs, bool is_dir);
/* The repository's .git/info/exclude and the core.excludesFile that applies (git's default
 * when unset; "" when there is none): patterns below every .gitignore. */
int bw_git_exclude_files(const struct bw_git *g, char *info, size_t ilen, char *global, size_t glen);
/* Lines added or changed in the work tree (index, unstaged and untracked files that are not
 * ignored) since merge-base(rev, HEAD). 0; 2 after a message on stderr (rev or the merge base
 * missing: a shallow clone names fetch-depth: 0). */
int bw_git_changed_since(struct bw_git *g, const char *rev);
/* After bw_git_changed_since: whether rel (relative to the root) changed at all, and whether a
 * line in [from, to] did. */
bool bw_git_file_changed(const struct bw_git *g, const char *rel);
bool bw_git_lines_changed(const struct bw_git *g, const char *rel, uint32_t from, uint32_t to);
void bw_git_close(struct bw_git *g);

/* ---- reports ---------------------------------------------------------------------------- */
struct bw_scan_item {
    const struct bw_finding *x;
    const char *rel;           /* path relative to the report root ('/'-separated) */
    const char *shown;         /* path as the text and JSON reports show it */
    uint32_t line, end_line;   /* in the file (a notebook's: the .ipynb line) */
    uint32_t cell, cell_line;  /* a notebook's cell and line in it, else 0 */
    int severity;              /* after .bulwark.yml severity overrides */
    char fp[48];
    const char *state;         /* baselineState: "new", "unchanged", or NULL */
};
struct bw_scan_report {
    const struct bw_scanner *sc;
    struct bw_scan_item *items;
    size_t n;
    json_t *absent;            /* baseline entries not found again (with --baseline-state) */
    json_t *notes;             /* [string]: files skipped and why, shown in SARIF invocations */
    json_t *truncated;         /* [path]: files with more findings than listed */
    const char *root;          /* absolute report root (--sarif-root) */
    size_t scanned, skipped;
    size_t parsed;             /* files that needed a syntax tree (files_parsed) */
    unsigned long bytes;
    int counts[5];
    int exit_code;
    bool baseline_state;
    char start[32], end[32];   /* UTC, YYYY-MM-DDTHH:MM:SS */
};
json_t *bw_report_sarif(const struct bw_scan_report *r);
json_t *bw_report_json(const struct bw_scan_report *r);
json_t *bw_report_gitlab(const struct bw_scan_report *r);
/* JUnit XML, malloc'd. */
char *bw_report_junit(const struct bw_scan_report *r);
void bw_report_text(FILE *out, const struct bw_scan_report *r);

#endif
