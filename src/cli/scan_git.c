/* git for `bulwark scan`, through libgit2 rather than parsing `git` output: the work tree's
 * root, .gitignore rules as git applies them, and the lines changed since a merge base. */
#include "cli/scan.h"

#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bw_git {
    git_repository *repo;
    char *root;
    json_t *changed; /* {rel path: [line, ...]} after bw_git_changed_since */
};

static void git_err(const char *what)
{
    const git_error *e = git_error_last();
    fprintf(stderr, "bulwark scan: %s: %s\n", what, e && e->message ? e->message : "git error");
}

struct bw_git *bw_git_open(const char *path)
{
    git_libgit2_init();
    struct bw_git *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    if (git_repository_open_ext(&g->repo, path, 0, NULL) != 0 || git_repository_is_bare(g->repo)) {
        bw_git_close(g);
        return NULL;
    }
    const char *wd = git_repository_workdir(g->repo);
    char *root = wd ? realpath(wd, NULL) : NULL;
    if (!root) {
        bw_git_close(g);
        return NULL;
    }
    g->root = root;
    return g;
}

const char *bw_git_root(const struct bw_git *g) { return g->root; }

bool bw_git_ignored(struct bw_git *g, const char *abs, bool is_dir)
{
    size_t rl = strlen(g->root);
    if (strncmp(abs, g->root, rl) != 0 || (abs[rl] != '/' && abs[rl] != '\0'))
        return false; /* outside the work tree: git's rules say nothing about it */
    const char *rel = abs[rl] == '/' ? abs + rl + 1 : abs + rl;
    if (!*rel)
        return false;
    char buf[4200];
    /* a trailing '/' tells libgit2 the path is a folder, so "build/" patterns apply */
    if (snprintf(buf, sizeof buf, "%s%s", rel, is_dir ? "/" : "") >= (int)sizeof buf)
        return false;
    int ignored = 0;
    return git_ignore_path_is_ignored(&ignored, g->repo, buf) == 0 && ignored;
}

int bw_git_exclude_files(const struct bw_git *g, char *info, size_t ilen, char *global, size_t glen)
{
    snprintf(info, ilen, "%sinfo/exclude", git_repository_path(g->repo));
    global[0] = '\0';
    git_config *cfg = NULL;
    git_buf b = {0};
    if (git_repository_config_snapshot(&cfg, g->repo) == 0 && git_config_get_path(&b, cfg, "core.excludesFile") == 0) {
        snprintf(global, glen, "%s", b.ptr);
    } else { /* git's default: $XDG_CONFIG_HOME/git/ignore, else ~/.config/git/ignore */
        const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
        if (xdg && *xdg)
            snprintf(global, glen, "%s/git/ignore", xdg);
        else if (home && *home)
            snprintf(global, glen, "%s/.config/git/ignore", home);
    }
    git_buf_dispose(&b);
    git_config_free(cfg);
    return 0;
}

static int on_line(const git_diff_delta *d, const git_diff_hunk *h, const git_diff_line *l, void *arg)
{
    (void)h;
    if (l->origin != GIT_DIFF_LINE_ADDITION || l->new_lineno <= 0 || !d->new_file.path)
        return 0;
    json_t *changed = arg, *lines = json_object_get(changed, d->new_file.path);
    if (!lines) {
        lines = json_array();
        if (!lines || json_object_set_new(changed, d->new_file.path, lines) != 0)
            return -1;
    }
    return json_array_append_new(lines, json_integer(l->new_lineno));
}

static int on_file(const git_diff_delta *d, float progress, void *arg)
{
    (void)progress;
    /* a file whose only change is its deletion has no line to report, but is still "changed" */
    if (d->new_file.path && d->status != GIT_DELTA_DELETED && !json_object_get(arg, d->new_file.path))
        return json_object_set_new(arg, d->new_file.path, json_array());
    return 0;
}

static const char FETCH_HINT[] = "fetch the history (actions/checkout with fetch-depth: 0, GitLab "
                                 "GIT_DEPTH: 0, or git fetch --unshallow)";

int bw_git_changed_since(struct bw_git *g, const char *rev)
{
    bool shallow = git_repository_is_shallow(g->repo) == 1;
    git_object *base_obj = NULL, *head_obj = NULL;
    git_oid mb;
    git_commit *mb_commit = NULL;
    git_tree *tree = NULL;
    git_diff *diff = NULL;
    int rc = 2;
    if (git_revparse_single(&base_obj, g->repo, rev) != 0) {
        fprintf(stderr, "bulwark scan: --changed-since %s: no such revision in this clone%s; %s\n", rev,
                shallow ? " (a shallow clone)" : "", FETCH_HINT);
        goto out;
    }
    if (git_revparse_single(&head_obj, g->repo, "HEAD^{commit}") != 0) {
        git_err("HEAD");
        goto out;
    }
    git_object *base_commit = NULL;
    if (git_object_peel(&base_commit, base_obj, GIT_OBJECT_COMMIT) != 0) {
        fprintf(stderr, "bulwark scan: --changed-since %s: not a commit\n", rev);
        goto out;
    }
    int mrc = git_merge_base(&mb, g->repo, git_object_id(base_commit), git_object_id(head_obj));
    git_object_free(base_commit);
    if (mrc != 0) {
        fprintf(stderr, "bulwark scan: --changed-since %s: no merge base with HEAD%s; %s\n", rev,
                shallow ? " (a shallow clone)" : "", FETCH_HINT);
        goto out;
    }
    if (git_commit_lookup(&mb_commit, g->repo, &mb) != 0 || git_commit_tree(&tree, mb_commit) != 0) {
        git_err("the merge base");
        goto out;
    }
    git_diff_options o;
    git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION); /* the macro's initializer is partial */
    o.context_lines = 0;
    o.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS | GIT_DIFF_SHOW_UNTRACKED_CONTENT;
    if (git_diff_tree_to_workdir_with_index(&diff, g->repo, tree, &o) != 0) {
        git_err("the diff");
        goto out;
    }
    json_decref(g->changed);
    g->changed = json_object();
    if (!g->changed || git_diff_foreach(diff, on_file, NULL, NULL, on_line, g->changed) != 0) {
        git_err("the diff");
        goto out;
    }
    rc = 0;
out:
    git_diff_free(diff);
    git_tree_free(tree);
    git_commit_free(mb_commit);
    git_object_free(head_obj);
    git_object_free(base_obj);
    return rc;
}

bool bw_git_file_changed(const struct bw_git *g, const char *rel) { return json_object_get(g->changed, rel) != NULL; }

bool bw_git_lines_changed(const struct bw_git *g, const char *rel, uint32_t from, uint32_t to)
{
    json_t *lines = json_object_get(g->changed, rel), *v;
    size_t i;
    if (to < from)
        to = from;
    json_array_foreach(lines, i, v) {
        json_int_t n = json_integer_value(v);
        if (n >= from && n <= to)
            return true;
    }
    return false;
}

void bw_git_close(struct bw_git *g)
{
    if (!g)
        return;
    json_decref(g->changed);
    git_repository_free(g->repo);
    free(g->root);
    free(g);
    /* libgit2 keeps the last error in a per-thread buffer freed only when the thread ends, which
     * the main thread never does before exit (LeakSanitizer reports it) */
    git_error_clear();
    git_libgit2_shutdown();
}
