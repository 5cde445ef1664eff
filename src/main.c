/* bulwark: the server and its command-line tools.
 *   bulwark serve                      run the API server (and BULWARK_WORKERS job workers)
 *   bulwark worker                     run job workers only, until SIGTERM
 *   bulwark user add|list|set-tier|passwd|disable|enable|set-role|delete   manage accounts
 *   bulwark admin-key rotate           replace a generated admin key
 *   bulwark intel import|seed-build    load threat intelligence (KEV, OSV, ATLAS), build the seed
 *   bulwark packages import|status|clear  the imported indexes of existing package names
 *   bulwark migrate                    apply database migrations and exit
 *   bulwark secrets rekey              re-seal the secrets kept at rest with a new key
 *   bulwark scan PATH...               scan source code (text, JSON or SARIF)
 *   bulwark rules test|list            check or print the scanner's rule catalog
 *   bulwark version                    print the version */
#include "api/api.h"
#include "app/app.h"
#include "cli/cli.h"
#include "common/config.h"
#include "common/limits.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "http/http.h"
#include "jobs/jobs.h"
#include "jobs/redteam_job.h"
#include "net/egress.h"
#include "services/intel_sync.h"
#include "store/store.h"

#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("usage: bulwark COMMAND [options]\n"
          "  serve                          run the API server (BULWARK_* environment, or --flags)\n"
          "                                 with BULWARK_WORKERS job workers (red-team engagements)\n"
          "  worker                         run job workers only (same configuration), until SIGTERM\n"
          "  user add EMAIL --tier TIER [--role user|mssp|admin] [--managed-by EMAIL]\n"
          "           (--password PASSWORD | --password-stdin)\n"
          "  user list                      list accounts as JSON\n"
          "  user set-tier EMAIL TIER       change an account's tier\n"
          "  user passwd EMAIL (--password PASSWORD | --password-stdin)\n"
          "                                 set an account's password (ends its sessions)\n"
          "  user disable|enable EMAIL      stop or allow an account (disable also revokes its keys)\n"
          "  user set-role EMAIL ROLE       change an account's role (ends its sessions)\n"
          "  user delete EMAIL              delete an account and everything it owns\n"
          "                                 (exit 1: no such account; 3: refused, the last admin)\n"
          "  admin-key rotate               replace a generated admin key (printed once; the\n"
          "                                 servers take it at their next start)\n"
          "  intel import --format kev|osv|atlas PATH\n"
          "                                 import threat intelligence (exit 1: input rejected, nothing\n"
          "                                 imported; 2: usage error; 3: database failure)\n"
          "  intel seed-build --kev FILE --osv DIR --atlas FILE [--at TIME] [--output FILE]\n"
          "                                 build the embedded seed (data/intel/seed.json)\n"
          "  packages import --ecosystem npm|pypi [--format F] [--replace] FILE\n"
          "                                 import existing package names for the red team's LLM09\n"
          "                                 check (exit 1: input rejected; 2: usage; 3: database)\n"
          "  packages status | clear [--ecosystem E]\n"
          "                                 show or empty the imported package indexes\n"
          "  migrate                        apply database migrations and exit\n"
          "  secrets rekey                  re-seal the secrets sealed at rest with a new key\n"
          "  scan [--format text|json|sarif] [--fail-on SEVERITY] [--lang L] [--context TEXT] PATH...\n"
          "                                 scan source files and directories (exit 1: findings at or\n"
          "                                 above --fail-on, 2: usage error)\n"
          "  rules test [CATALOG.json...]   run every rule's own examples\n"
          "  rules list                     print the rule catalog as JSON\n"
          "  version                        print the version\n"
          "Every BULWARK_X variable has a flag --x (e.g. --listen 127.0.0.1:8080, --data-dir ./var).\n"
          "Every command takes --help; options are --option VALUE or --option=VALUE.\n",
          f);
}

/* Blocks SIGINT and SIGTERM (every thread started later inherits the mask; the main thread takes
 * them with sigwait), ignores SIGPIPE and starts the log flusher. */
static void take_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, set, NULL);
    signal(SIGPIPE, SIG_IGN);
    bw_log_start_flusher();
}

#define CONFIG_FLAGS_HELP                                                                              \
    "Configuration comes from BULWARK_* environment variables; every BULWARK_X also has a flag --x\n"  \
    "(--x VALUE or --x=VALUE, e.g. --listen 127.0.0.1:8080, --data-dir ./var, --workers 4).\n"          \
    "The variables and their ranges: docs/operations.md.\n"

static int cmd_serve(struct bw_config *cfg, int nargs, char **args)
{
    int prc = bw_opts_none("serve",
                           "usage: bulwark serve [--FLAG VALUE]...\n"
                           "Runs the API server, with BULWARK_WORKERS job workers (red-team engagements),\n"
                           "until SIGTERM or SIGINT.\n" CONFIG_FLAGS_HELP, nargs, args);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    sigset_t set;
    take_signals(&set);
    struct bw_listener l;
    if (bw_http_listen(cfg, bw_routes, bw_routes_count, &l) != 0) { /* before storage, migrations and the bootstrap account */
        bw_log_shutdown();
        return 1;
    }
    struct bw_app app;
    int rc = 1;
    if (bw_app_init(&app, cfg) == 0) {
        struct bw_sync_opts so = bw_sync_opts_of(cfg, app.egress_allow);
        struct bw_jobs_opts jo = {.workers = (int)cfg->workers, .lease_ms = cfg->job_lease_ms,
                                  .poll_ms = cfg->job_poll_ms, .egress_allow = app.egress_allow, .seal = &app.seal,
                                  .intel_sync = &so, .intel_sync_interval_ms = cfg->intel_sync_interval_s * 1000,
                                  .webhook_backoff_scale = cfg->webhook_backoff_scale,
                                  .rt_turns_retention_ms = bw_rt_turns_retention_ms(cfg->rt_turns_retention_days)};
        struct bw_jobs *jobs = bw_jobs_start(app.db, &jo);
        if ((jobs || cfg->workers == 0) && bw_http_serve(&app.http, &l) == 0)
            rc = 0;
        bw_jobs_stop(jobs); /* running jobs go back to the queue at their next step */
    }
    bw_http_listener_close(&l);
    bw_app_free(&app);
    bw_log_shutdown();
    return rc;
}

/* Job workers without the HTTP server: the same database and egress settings as serve. */
static int cmd_worker(struct bw_config *cfg, int nargs, char **args)
{
    int prc = bw_opts_none("worker",
                           "usage: bulwark worker [--FLAG VALUE]...\n"
                           "Runs BULWARK_WORKERS job workers (no HTTP server) against the server's\n"
                           "database, until SIGTERM or SIGINT.\n" CONFIG_FLAGS_HELP, nargs, args);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    unsigned allow = 0;
    if (bw_egress_parse_allow(cfg->egress_allow ? cfg->egress_allow : "", &allow) != 0) {
        fprintf(stderr, "bulwark: BULWARK_EGRESS_ALLOW: expected a comma list of loopback, private, or none alone\n");
        return 2;
    }
    if (cfg->workers < 1) {
        fprintf(stderr, "bulwark worker: BULWARK_WORKERS must be at least 1\n");
        return 2;
    }
    sigset_t set;
    take_signals(&set);
    int rc = 1;
    struct db *db = NULL;
    struct bw_seal seal;
    char err[1024]; /* room for the paths of a file-mode refusal */
    unsigned dbf = (cfg->allow_insecure_file_modes ? DB_OPEN_ALLOW_INSECURE_MODES : 0) |
                   (cfg->sqlite_sync_full ? DB_OPEN_SYNC_FULL : 0);
    if (db_open(cfg->database_url, cfg->data_dir, dbf, (int)cfg->workers + 2, &db, err, sizeof err) != 0) {
        bw_log_json(BW_LOG_ERROR, NULL, "cannot open the database", json_pack("{s:s}", "detail", err));
    } else if (bw_app_seal_open(cfg, db, &seal, err, sizeof err) != 0) {
        bw_log_json(BW_LOG_ERROR, NULL, "refusing to work", json_pack("{s:s}", "detail", err));
    } else if (bw_egress_global_init() != 0) {
        bw_logf(BW_LOG_ERROR, NULL, "libcurl could not be initialised");
    } else {
        struct bw_sync_opts so = bw_sync_opts_of(cfg, allow);
        struct bw_jobs_opts jo = {.workers = (int)cfg->workers, .lease_ms = cfg->job_lease_ms,
                                  .poll_ms = cfg->job_poll_ms, .egress_allow = allow, .seal = &seal,
                                  .intel_sync = &so, .intel_sync_interval_ms = cfg->intel_sync_interval_s * 1000,
                                  .webhook_backoff_scale = cfg->webhook_backoff_scale,
                                  .rt_turns_retention_ms = bw_rt_turns_retention_ms(cfg->rt_turns_retention_days)};
        struct bw_jobs *jobs = bw_jobs_start(db, &jo);
        if (jobs) {
            int sig = 0;
            sigwait(&set, &sig);
            bw_log_json(BW_LOG_INFO, NULL, "worker stopping",
                        json_pack("{s:s}", "signal", sig == SIGINT ? "SIGINT" : "SIGTERM"));
            bw_jobs_stop(jobs);
            rc = 0;
        }
    }
    db_close(db);
    sodium_memzero(&seal, sizeof seal);
    bw_log_shutdown();
    return rc;
}

/* Applies the migrations (opening the database does) and says so. */
static int cmd_migrate(struct bw_config *cfg, int nargs, char **args)
{
    int prc = bw_opts_none("migrate",
                           "usage: bulwark migrate [--FLAG VALUE]...\n"
                           "Applies the database migrations not applied yet and exits (serve does it\n"
                           "too).\n" CONFIG_FLAGS_HELP, nargs, args);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    struct db *db = bw_cli_open_db(cfg, "migrate");
    if (db)
        printf("{\"migrated\":true,\"backend\":\"%s\"}\n", db_backend(db));
    db_close(db);
    return db ? 0 : 1;
}

struct rekey {
    const struct bw_seal *old, *fresh;
};

/* Opens a value with the old key and seals it with the new one; NULL when it does not open. */
static char *reseal_one(void *arg, const char *sealed)
{
    const struct rekey *k = arg;
    size_t n = 0;
    char *plain = bw_unseal_text(k->old, sealed, &n);
    char *out = plain ? bw_seal_text(k->fresh, plain, n) : NULL;
    bw_unsealed_free(plain);
    return out;
}

static const char SECRETS_USAGE[] =
    "usage: bulwark secrets rekey [--FLAG VALUE]...\n"
    "Re-seals every secret sealed at rest (assets' connection credentials) with a new key, in one\n"
    "transaction. With the key file (BULWARK_DATA_DIR/secret.key) a new key is generated, written\n"
    "to secret.key.new first and moved over secret.key once the database holds the new seals.\n"
    "With BULWARK_SECRET_KEY, give the new key in BULWARK_NEW_SECRET_KEY (64 hex digits or\n"
    "base64 of 32 bytes) and restart every instance with it. Stop the instances first: one still\n"
    "running with the old key refuses to open the new seals.\n";

/* args[0] is "secrets" */
static int cmd_secrets(struct bw_config *cfg, int nargs, char **args)
{
    if (nargs < 2 || strcmp(args[1], "--help") == 0 || strcmp(args[1], "-h") == 0) {
        fputs(SECRETS_USAGE, nargs < 2 ? stderr : stdout);
        return nargs < 2 ? 2 : 0;
    }
    if (strcmp(args[1], "rekey") != 0)
        return bw_cli_usage_error("secrets", "unknown subcommand '%s'; expected rekey", args[1]);
    int prc = bw_opts_none("secrets rekey", SECRETS_USAGE, nargs - 2, args + 2);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    const char *env_new = getenv("BULWARK_NEW_SECRET_KEY");
    bool file_mode = !(cfg->secret_key && *cfg->secret_key);
    if (!file_mode && !(env_new && *env_new))
        return bw_cli_usage_error("secrets", "BULWARK_SECRET_KEY is set: give the new key in BULWARK_NEW_SECRET_KEY");
    struct db *db = bw_cli_open_db(cfg, "secrets rekey");
    if (!db)
        return 1;
    struct bw_seal old, fresh;
    char why[1024], path[4200] = "", next[4300] = "";
    int rc = 1;
    if (bw_app_seal_open(cfg, db, &old, why, sizeof why) != 0) {
        fprintf(stderr, "bulwark: %s\n", why);
        goto out;
    }
    if (env_new && *env_new) {
        if (bw_seal_key_parse(env_new, fresh.key) != 0) {
            fprintf(stderr, "bulwark: BULWARK_NEW_SECRET_KEY must be a 32-byte key: 64 hex digits or base64\n");
            goto out;
        }
    } else {
        randombytes_buf(fresh.key, sizeof fresh.key);
    }
    if (file_mode) {
        snprintf(path, sizeof path, "%s/%s", cfg->data_dir, BW_SEAL_KEY_FILE);
        snprintf(next, sizeof next, "%s.new", path);
        if (bw_seal_key_write(next, fresh.key) != 0) {
            fprintf(stderr, "bulwark: cannot write %s\n", next);
            goto out;
        }
    }
    struct rekey k = {&old, &fresh};
    int64_t n = 0;
    if (store_secrets_reseal(db, BW_SEAL_CHECK_SETTING, reseal_one, &k, &n) != ST_OK) {
        fprintf(stderr, "bulwark: re-sealing failed (a value does not open with the current key, or the database "
                        "failed); nothing was changed\n");
        if (file_mode)
            (void)unlink(next);
        goto out;
    }
    if (file_mode && rename(next, path) != 0) {
        fprintf(stderr, "bulwark: the database holds the new seals but %s could not replace %s: move it there "
                        "before starting\n", next, path);
        goto out;
    }
    printf("{\"rekeyed\":true,\"secrets\":%lld,\"key\":\"%s\"}\n", (long long)n, file_mode ? "file" : "environment");
    rc = 0;
out:
    sodium_memzero(&old, sizeof old);
    sodium_memzero(&fresh, sizeof fresh);
    db_close(db);
    return rc;
}

int main(int argc, char **argv)
{
    /* what bulwark creates (the data directory, the database and its -wal and -shm files, report
     * files) is its owner's alone whatever umask it was started with: the database holds the JWT
     * signing secret. db_open creates the database 0600 by itself too, for its other callers */
    umask(077);
    if (sodium_init() < 0) {
        fprintf(stderr, "bulwark: libsodium failed to initialise\n");
        return 1;
    }
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
        printf("bulwark %s\n", BULWARK_VERSION);
        return 0;
    }
    /* the scanner tools need no configuration or database, and have flags of their own */
    if (strcmp(argv[1], "scan") == 0)
        return bw_cli_scan(argc - 1, argv + 1);
    if (strcmp(argv[1], "rules") == 0)
        return bw_cli_rules(argc - 1, argv + 1);
    struct bw_config cfg;
    int *rest = calloc((size_t)argc + 1, sizeof *rest);
    int nrest = 0;
    if (!rest || bw_config_load(&cfg, argc, argv, 1, rest, &nrest) != 0) {
        free(rest);
        bw_config_free(&cfg);
        return 2;
    }
    bw_log_set_level(cfg.log_level);
    if (nrest == 0) { /* configuration flags only */
        fprintf(stderr, "bulwark: no command\n");
        usage(stderr);
        free(rest);
        bw_config_free(&cfg);
        return 2;
    }
    /* the words that are not configuration flags, the command first */
    char **args = calloc((size_t)nrest + 1, sizeof *args);
    if (!args) {
        free(rest);
        bw_config_free(&cfg);
        return 1;
    }
    for (int i = 0; i < nrest; i++)
        args[i] = argv[rest[i]];
    const char *cmd = args[0];
    int rc;
    if (strcmp(cmd, "serve") == 0)
        rc = cmd_serve(&cfg, nrest - 1, args + 1);
    else if (strcmp(cmd, "worker") == 0)
        rc = cmd_worker(&cfg, nrest - 1, args + 1);
    else if (strcmp(cmd, "user") == 0)
        rc = bw_cli_user(&cfg, nrest, args);
    else if (strcmp(cmd, "admin-key") == 0)
        rc = bw_cli_admin_key(&cfg, nrest, args);
    else if (strcmp(cmd, "intel") == 0)
        rc = bw_cli_intel(&cfg, nrest, args);
    else if (strcmp(cmd, "packages") == 0)
        rc = bw_cli_packages(&cfg, nrest, args);
    else if (strcmp(cmd, "secrets") == 0)
        rc = cmd_secrets(&cfg, nrest, args);
    else if (strcmp(cmd, "migrate") == 0)
        rc = cmd_migrate(&cfg, nrest - 1, args + 1);
    else {
        fprintf(stderr, "bulwark: unknown command '%s'\n", cmd);
        usage(stderr);
        rc = 2;
    }
    free(args);
    free(rest);
    bw_config_free(&cfg);
    return rc;
}
