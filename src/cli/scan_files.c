/* What `bulwark scan` does with each kind of file: source in the engine's languages, notebooks
 * cell by cell, configuration files (.env, YAML, TOML, JSON, INI) for secrets, shell scripts and
 * Dockerfiles for secrets and piped downloads; lockfiles and minified bundles are skipped. */
#include "cli/scan.h"
#include "common/limits.h"
#include "common/vec.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const LOCKFILES[] = {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "npm-shrinkwrap.json",
                                        "Cargo.lock", "Gemfile.lock", "poetry.lock", "Pipfile.lock",
                                        "composer.lock", "go.sum", "packages.lock.json", "uv.lock", "bun.lockb"};

static bool ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcasecmp(s + n - m, suf) == 0;
}

int bw_scan_kind_of(const char *path, int *lang, const char **why)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    *why = "";
    *lang = -1;
    for (size_t i = 0; i < sizeof LOCKFILES / sizeof LOCKFILES[0]; i++)
        if (strcmp(base, LOCKFILES[i]) == 0) {
            *why = "a lockfile";
            return BW_KIND_NONE;
        }
    if (ends_with(base, ".min.js") || ends_with(base, ".min.css") || ends_with(base, ".bundle.js") ||
        ends_with(base, ".js.map")) {
        *why = "generated (minified)";
        return BW_KIND_NONE;
    }
    if (ends_with(base, ".ipynb")) {
        *lang = BW_LANG_PY;
        return BW_KIND_NOTEBOOK;
    }
    int l = bw_lang_from_path(path);
    if (l >= 0) {
        *lang = l;
        return BW_KIND_CODE;
    }
    /* configuration: read with the Python lexer ('#' comments, quoted strings), secrets only */
    *lang = BW_LANG_PY;
    if (strcmp(base, ".env") == 0 || strncmp(base, ".env.", 5) == 0 || ends_with(base, ".env") ||
        ends_with(base, ".yml") || ends_with(base, ".yaml") || ends_with(base, ".toml") || ends_with(base, ".ini") ||
        ends_with(base, ".cfg") || ends_with(base, ".conf") || ends_with(base, ".properties") ||
        strcmp(base, ".npmrc") == 0 || strcmp(base, ".pypirc") == 0 || strcmp(base, ".netrc") == 0)
        return BW_KIND_SECRETS;
    if (ends_with(base, ".json")) {
        *lang = BW_LANG_JS; /* JSON strings are JS strings */
        return BW_KIND_SECRETS;
    }
    if (ends_with(base, ".sh") || ends_with(base, ".bash") || ends_with(base, ".zsh") || strcmp(base, "Dockerfile") == 0 ||
        strncmp(base, "Dockerfile.", 11) == 0 || ends_with(base, ".dockerfile") || strcmp(base, "Containerfile") == 0)
        return BW_KIND_SHELL;
    *lang = -1;
    return BW_KIND_NONE;
}

bool bw_scan_shebang_shell(const char *head, size_t n)
{
    static const char *const shells[] = {"sh", "bash", "zsh", "dash", "ksh"};
    if (n < 2 || head[0] != '#' || head[1] != '!')
        return false;
    size_t e = 2;
    while (e < n && head[e] != '\n')
        e++;
    /* the words of the line: an interpreter path, then its arguments */
    const char *w[4];
    size_t wl[4], nw = 0;
    for (size_t i = 2; i < e && nw < 4;) {
        while (i < e && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r'))
            i++;
        size_t st = i;
        while (i < e && head[i] != ' ' && head[i] != '\t' && head[i] != '\r')
            i++;
        if (i > st) {
            w[nw] = head + st;
            wl[nw++] = i - st;
        }
    }
    for (size_t k = 0; k < nw; k++) {
        const char *base = w[k];
        size_t bl = wl[k];
        for (size_t i = 0; i < wl[k]; i++)
            if (w[k][i] == '/') {
                base = w[k] + i + 1;
                bl = wl[k] - i - 1;
            }
        if (k > 0 && bl > 0 && base[0] == '-') /* env's options: "env -S bash -e"; a word may end in '/' */
            continue;
        if (k == 0 && bl == 3 && memcmp(base, "env", 3) == 0)
            continue;
        for (size_t s = 0; s < sizeof shells / sizeof shells[0]; s++)
            if (bl == strlen(shells[s]) && memcmp(base, shells[s], bl) == 0)
                return true;
        return false; /* another interpreter */
    }
    return false;
}

bool bw_scan_is_minified(const char *text, size_t len)
{
    size_t lines = 1, longest = 0, cur = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            lines++;
            if (cur > longest)
                longest = cur;
            cur = 0;
        } else {
            cur++;
        }
    }
    if (cur > longest)
        longest = cur;
    return len / lines > BW_CLI_SCAN_MINIFIED_LINE || (longest > 20 * BW_CLI_SCAN_MINIFIED_LINE);
}

/* ---- notebooks ---- */

struct nb_build {
    char *code;
    size_t len, cap;
    uint32_t *cell, *cell_line, *file_line;
    size_t nlines, lcap, clcap, flcap; /* the capacities of cell, cell_line and file_line */
};

static int nb_push_line(struct nb_build *b, const char *s, size_t n, uint32_t cell, uint32_t cline, uint32_t fline)
{
    if (!BW_VEC_RESERVE(b->code, b->cap, b->len + n + 2, BW_CLI_SCAN_MAX_FILE_BYTES * 2))
        return -1;
    if (!BW_VEC_RESERVE(b->cell, b->lcap, b->nlines + 1, BW_VEC_UNBOUNDED) ||
        !BW_VEC_RESERVE(b->cell_line, b->clcap, b->nlines + 1, BW_VEC_UNBOUNDED) ||
        !BW_VEC_RESERVE(b->file_line, b->flcap, b->nlines + 1, BW_VEC_UNBOUNDED))
        return -1;
    memcpy(b->code + b->len, s, n);
    b->len += n;
    b->code[b->len++] = '\n';
    b->code[b->len] = '\0';
    b->cell[b->nlines] = cell;
    b->cell_line[b->nlines] = cline;
    b->file_line[b->nlines] = fline;
    b->nlines++;
    return 0;
}

/* The line of the .ipynb file holding the JSON string js, searched from *pos on (nbformat
 * writes each source line as a string of its own, in order); *pos advances past it. 0 when it
 * cannot be found (the cell's first line is used then). */
static uint32_t find_line(const char *text, size_t len, size_t *pos, uint32_t *line_at_pos, const char *js)
{
    size_t n = strlen(js);
    uint32_t line = *line_at_pos; /* committed only when found: a miss leaves *pos, so its newlines
                                   * must not be counted again by the next search */
    for (size_t i = *pos; i + n <= len; i++) {
        if (text[i] == '\n')
            line++;
        if (memcmp(text + i, js, n) == 0) {
            *pos = i + n;
            *line_at_pos = line;
            return line;
        }
    }
    return 0;
}

int bw_notebook_read(const char *text, size_t len, struct bw_notebook *nb, char *why, size_t whylen)
{
    memset(nb, 0, sizeof *nb);
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    json_t *cells = json_object_get(doc, "cells");
    if (!json_is_array(cells)) {
        snprintf(why, whylen, "not a notebook (%s)", doc ? "no cells list" : je.text);
        json_decref(doc);
        return -1;
    }
    const char *kl = json_string_value(json_object_get(
        json_object_get(json_object_get(doc, "metadata"), "language_info"), "name"));
    nb->lang = !kl || strcasecmp(kl, "python") == 0 ? BW_LANG_PY : bw_lang_parse(kl);
    struct nb_build b = {0};
    size_t pos = 0;
    uint32_t line_at = 1;
    int rc = 0;
    size_t ci;
    json_t *cell;
    json_array_foreach(cells, ci, cell) {
        if (ci >= BW_CLI_SCAN_MAX_CELLS)
            break;
        const char *type = json_string_value(json_object_get(cell, "cell_type"));
        if (!type || strcmp(type, "code") != 0)
            continue;
        json_t *src = json_object_get(cell, "source");
        /* source: a list of lines each ending in "\n", or one string */
        json_t *parts = json_is_string(src) ? json_pack("[O]", src) : json_incref(src);
        char *joined = NULL;
        size_t jl = 0;
        FILE *m = open_memstream(&joined, &jl);
        size_t pi;
        json_t *p;
        uint32_t first_fline = 0;
        /* file line of each source string, to map the cell's lines back onto the .ipynb */
        uint32_t *plines = calloc(json_array_size(parts) + 1, sizeof *plines);
        size_t *pstart = calloc(json_array_size(parts) + 1, sizeof *pstart);
        if (!m || !plines || !pstart) {
            rc = -1;
        } else {
            json_array_foreach(parts, pi, p) {
                const char *s = json_string_value(p);
                if (!s)
                    continue;
                pstart[pi] = (size_t)ftello(m);
                fputs(s, m);
                char *js = json_dumps(p, JSON_ENCODE_ANY);
                plines[pi] = js ? find_line(text, len, &pos, &line_at, js) : 0;
                if (!first_fline)
                    first_fline = plines[pi];
                free(js);
            }
            fclose(m);
            m = NULL;
            size_t np = json_array_size(parts);
            uint32_t cline = 1;
            size_t off = 0, part = 0;
            while (rc == 0 && joined && off < jl) {
                const char *nl = memchr(joined + off, '\n', jl - off);
                size_t e = nl ? (size_t)(nl - joined) : jl;
                while (part + 1 < np && pstart[part + 1] <= off)
                    part++;
                uint32_t fl = np && plines[part] ? plines[part] : first_fline;
                rc = nb_push_line(&b, joined + off, e - off, (uint32_t)ci + 1, cline++, fl ? fl : 1);
                off = e + 1;
            }
        }
        if (m)
            fclose(m);
        free(joined);
        free(plines);
        free(pstart);
        json_decref(parts);
        if (rc != 0)
            break;
    }
    json_decref(doc);
    if (rc != 0) {
        snprintf(why, whylen, "out of memory");
        free(b.code), free(b.cell), free(b.cell_line), free(b.file_line);
        return -1;
    }
    nb->code = b.code ? b.code : strdup("");
    nb->len = b.len;
    nb->cell = b.cell, nb->cell_line = b.cell_line, nb->file_line = b.file_line;
    nb->nlines = b.nlines;
    if (!nb->code) {
        snprintf(why, whylen, "out of memory");
        bw_notebook_free(nb);
        return -1;
    }
    return 0;
}

void bw_notebook_free(struct bw_notebook *nb)
{
    free(nb->code);
    free(nb->cell);
    free(nb->cell_line);
    free(nb->file_line);
    memset(nb, 0, sizeof *nb);
}

/* ---- piped downloads in shell and Dockerfiles ---- */

static const struct bw_rule SHELL_RULE = {
    .id = "BW-SH-001",
    .title = "Downloaded script piped straight into a shell or interpreter",
    .category = "supply_chain",
    .cwe = "CWE-494",
    .description = "A script is fetched with curl or wget and piped into sh, bash or an interpreter: whatever the "
                   "server (or anyone between it and the build) sends at that moment runs with the build's rights, "
                   "with no pinned version and no integrity check.",
    .remediation = "Download to a file, check it against a pinned SHA-256 (sha256sum -c) or a signature, then run it; "
                   "better, install a pinned package.",
    .severity = BW_SEV_MEDIUM,
    .langs = 0,
};

const struct bw_rule *bw_scan_shell_rule(void) { return &SHELL_RULE; }

static bool word_at(const char *s, size_t n, size_t i, const char *w)
{
    size_t m = strlen(w);
    return i + m <= n && memcmp(s + i, w, m) == 0 && (i == 0 || !isalnum((unsigned char)s[i - 1]) ) &&
           (i + m == n || !isalnum((unsigned char)s[i + m]));
}

int bw_scan_shell_check(const char *text, size_t len, struct bw_findings *f)
{
    static const char *const fetch[] = {"curl", "wget"};
    static const char *const shells[] = {"sh", "bash", "zsh", "dash", "ksh", "python", "python3", "perl", "ruby", "node"};
    uint32_t line = 1;
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        const char *s = text + i;
        size_t n = e - i;
        bool fetched = false;
        for (size_t k = 0; k < n; k++) {
            if (s[k] == '#' && (k == 0 || isspace((unsigned char)s[k - 1])))
                break; /* a comment */
            for (size_t w = 0; w < 2 && !fetched; w++)
                fetched = word_at(s, n, k, fetch[w]);
            /* a pipe, not "||" (either half) */
            if (!fetched || s[k] != '|' || (k + 1 < n && s[k + 1] == '|') || (k > 0 && s[k - 1] == '|'))
                continue;
            size_t j = k + 1;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            if (word_at(s, n, j, "sudo")) { /* sudo and its options: "| sudo -E bash" */
                j += 4;
                for (;;) {
                    while (j < n && s[j] == ' ')
                        j++;
                    if (j >= n || s[j] != '-')
                        break;
                    while (j < n && s[j] != ' ')
                        j++;
                }
            }
            if (j + 5 < n && strncmp(s + j, "/bin/", 5) == 0)
                j += 5;
            else if (j + 9 < n && strncmp(s + j, "/usr/bin/", 9) == 0)
                j += 9;
            bool hit = false;
            for (size_t w = 0; w < sizeof shells / sizeof shells[0] && !hit; w++)
                hit = word_at(s, n, j, shells[w]);
            if (!hit)
                continue;
            if (!BW_VEC_RESERVE(f->v, f->cap, f->n + 1, BW_SCAN_MAX_FINDINGS + 1))
                return -1;
            struct bw_finding *x = &f->v[f->n++];
            memset(x, 0, sizeof *x);
            x->rule = &SHELL_RULE;
            x->severity = SHELL_RULE.severity;
            x->line = x->end_line = line;
            x->column = 1;
            x->offset = i;
            size_t sn = n < sizeof x->snippet - 1 ? n : sizeof x->snippet - 1;
            memcpy(x->snippet, s, sn);
            x->snippet[sn] = '\0';
            if (x->severity > f->worst)
                f->worst = x->severity;
            break;
        }
        line++;
        i = e + 1;
    }
    return 0;
}
