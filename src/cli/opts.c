/* The one option parser of the subcommands: --name VALUE, --name=VALUE, -x VALUE, flags, "--",
 * --help / -h; usage errors name the word at fault. */
#include "cli/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int bw_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bulwark %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see bulwark %s --help)\n", cmd);
    va_end(ap);
    return BW_OPTS_USAGE;
}

static const struct bw_opt *find(const struct bw_opt *opts, const char *a, size_t len, bool has_eq)
{
    for (const struct bw_opt *o = opts; o && o->name; o++)
        if ((strlen(o->name) == len && strncmp(a, o->name, len) == 0) || (!has_eq && o->alias && strcmp(a, o->alias) == 0))
            return o;
    return NULL;
}

int bw_opts_parse(const char *cmd, const char *usage, const struct bw_opt *opts, int n, char **args, const char **pos,
                  int maxpos, int *npos)
{
    *npos = 0;
    bool only_pos = false;
    for (int i = 0; i < n; i++) {
        const char *a = args[i];
        if (!only_pos && strcmp(a, "--") == 0) {
            only_pos = true;
            continue;
        }
        if (only_pos || a[0] != '-' || a[1] == '\0') {
            if (*npos >= maxpos)
                return bw_cli_usage_error(cmd, "unexpected argument '%s'", a);
            pos[(*npos)++] = a;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return BW_OPTS_HELP;
        }
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const struct bw_opt *o = find(opts, a, len, eq != NULL);
        if (!o)
            return bw_cli_usage_error(cmd, "unknown option %.*s", (int)len, a);
        if (!o->value && !o->list) {
            if (eq)
                return bw_cli_usage_error(cmd, "%s takes no value", o->name);
            *o->set = true;
            continue;
        }
        const char *val;
        if (eq)
            val = eq + 1;
        else if (i + 1 < n)
            val = args[++i];
        else
            return bw_cli_usage_error(cmd, "%s needs a value", a);
        if (o->list) {
            if (o->list->n >= o->list->max)
                return bw_cli_usage_error(cmd, "%s given more than %d times", o->name, o->list->max);
            o->list->v[o->list->n++] = val;
        }
        if (o->value)
            *o->value = val;
        if (o->set)
            *o->set = true;
    }
    return BW_OPTS_OK;
}
