/* `bulwark user` and `bulwark admin-key`: managing and recovering accounts from the host.
 *
 *   user add|list|set-tier          create, list, change a plan
 *   user passwd EMAIL               set a password (a lost one included); ends the account's sessions
 *   user disable|enable EMAIL       stop or allow an account; disable ends its sessions and revokes
 *                                   its API keys (enable brings neither back)
 *   user set-role EMAIL ROLE        change the role; ends the account's sessions
 *   user delete EMAIL               the account and everything it owns (store_user_delete)
 *   admin-key rotate                a new generated admin key, printed once
 *
 * Exit: 0 done, 1 no such account or the database failed, 2 usage error, 3 refused (the last
 * enabled admin account; a configured admin key to rotate). After a change, the servers on the
 * database are told (PostgreSQL: they forget the account at once; SQLite cannot notify, but the
 * server watches the database's files and empties its credential cache when this command closes
 * the database: from its next request). */
#include "cli/cli.h"

#include "auth/apikey.h"
#include "auth/auth.h"
#include "auth/password.h"
#include "common/config.h"
#include "common/ids.h"
#include "common/limits.h"
#include "common/timeutil.h"
#include "services/accounts.h"
#include "store/store.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_REFUSED = 3 };

struct db *bw_cli_open_db(struct bw_config *cfg, const char *cmd)
{
    struct db *db = NULL;
    char err[1024]; /* room for the paths of a file-mode refusal */
    unsigned dbf = (cfg->allow_insecure_file_modes ? DB_OPEN_ALLOW_INSECURE_MODES : 0) |
                   (cfg->sqlite_sync_full ? DB_OPEN_SYNC_FULL : 0);
    if (db_open(cfg->database_url, cfg->data_dir, dbf, 2, &db, err, sizeof err) != 0) {
        fprintf(stderr, "bulwark %s: %s\n", cmd, err);
        return NULL;
    }
    return db;
}

/* The running servers forget what they cached of the account (PostgreSQL; a no-op on SQLite). */
static void tell_servers(struct db *db, const char *user_id)
{
    char msg[BW_ID_MAX + 8];
    snprintf(msg, sizeof msg, "user:%s", user_id);
    (void)db_notify(db, BW_AUTH_CHANNEL, msg);
}

static const char USER_USAGE[] =
    "usage: bulwark user add EMAIL --tier TIER [--role ROLE] [--managed-by EMAIL]\n"
    "                        (--password PASSWORD | --password-stdin)\n"
    "       bulwark user list\n"
    "       bulwark user set-tier EMAIL TIER\n"
    "       bulwark user passwd EMAIL (--password PASSWORD | --password-stdin)\n"
    "       bulwark user disable EMAIL | enable EMAIL\n"
    "       bulwark user set-role EMAIL ROLE\n"
    "       bulwark user delete EMAIL\n"
    "TIER: FREE, STARTER, PRO or ENTERPRISE. ROLE: user, mssp or admin. Options also take the form\n"
    "--option=VALUE. passwd, disable, set-role and delete end the account's sessions (disable and\n"
    "delete its API keys too); delete removes everything the account owns. The last enabled admin\n"
    "account cannot be disabled, demoted or deleted (exit 3). Exit 1: no such account or a\n"
    "database failure; 2: usage error.\n";

/* The password of add and passwd: from --password or one line of standard input, 8..256 bytes.
 * Returns it (password or buf), or NULL after a message (exit 2). */
static const char *take_password(const char *cmd, const char *password, bool from_stdin, char *buf, size_t cap)
{
    if (from_stdin) {
        if (password) {
            fprintf(stderr, "bulwark %s: give --password or --password-stdin, not both\n", cmd);
            return NULL;
        }
        if (!fgets(buf, (int)cap, stdin)) {
            fprintf(stderr, "bulwark %s: no password on standard input\n", cmd);
            return NULL;
        }
        buf[strcspn(buf, "\r\n")] = '\0';
        password = buf;
    }
    if (!password) {
        bw_cli_usage_error(cmd, "a password (--password or --password-stdin) is missing");
        return NULL;
    }
    if (!bw_account_password_ok(password)) {
        fprintf(stderr, "bulwark %s: the password " BW_ACCOUNT_PASSWORD_WORDS "\n", cmd);
        return NULL;
    }
    return password;
}

static int user_add(struct bw_config *cfg, int nargs, char **args)
{
    const char *email = NULL, *tier = NULL, *role = "user", *managed = NULL, *password = NULL;
    bool from_stdin = false;
    const struct bw_opt opts[] = {{"--tier", NULL, &tier, NULL, NULL},
                                  {"--role", NULL, &role, NULL, NULL},
                                  {"--managed-by", NULL, &managed, NULL, NULL},
                                  {"--password", NULL, &password, NULL, NULL},
                                  {"--password-stdin", NULL, NULL, &from_stdin, NULL},
                                  {NULL, NULL, NULL, NULL, NULL}};
    int np;
    int prc = bw_opts_parse("user add", USER_USAGE, opts, nargs, args, &email, 1, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    if (!email || !tier)
        return bw_cli_usage_error("user add", "%s is missing", !email ? "EMAIL" : "--tier");
    char pwbuf[BW_PASSWORD_MAX + 2];
    int rc = EXIT_USAGE;
    struct db *db = NULL;
    int t = bw_tier_parse(tier), ro = bw_role_parse(role);
    if (!(password = take_password("user add", password, from_stdin, pwbuf, sizeof pwbuf)))
        goto out;
    if (t < 0) {
        fprintf(stderr, "bulwark user add: --tier " BW_ACCOUNT_TIER_WORDS "\n");
        goto out;
    }
    if (ro < 0) {
        fprintf(stderr, "bulwark user add: --role " BW_ACCOUNT_ROLE_WORDS "\n");
        goto out;
    }
    if (!bw_account_email_ok(email)) {
        fprintf(stderr, "bulwark user add: '%s' " BW_ACCOUNT_EMAIL_WORDS "\n", email);
        goto out;
    }
    rc = EXIT_FAILED;
    if (!(db = bw_cli_open_db(cfg, "user add")))
        goto out;
    struct store_user u, m;
    const char *manager = NULL;
    if (managed) {
        char lm[BW_EMAIL_MAX + 1];
        bw_account_email_lower(managed, lm);
        if (store_user_by_email(db, lm, &m) != ST_OK) {
            fprintf(stderr, "bulwark user add: --managed-by %s: no such account\n", managed);
            goto out;
        }
        manager = m.id;
    }
    bool hash_failed;
    int st = bw_account_create(db, email, password, (enum bw_tier)t, (enum bw_role)ro, manager, &u, &hash_failed);
    if (hash_failed) {
        fprintf(stderr, "bulwark user add: password hashing failed\n");
        goto out;
    }
    if (st == ST_CONFLICT) {
        fprintf(stderr, "bulwark user add: an account with email %s exists\n", u.email);
        goto out;
    }
    if (st != ST_OK) {
        fprintf(stderr, "bulwark user add: the database refused the account\n");
        goto out;
    }
    bw_cli_print_json(bw_account_json(&u));
    rc = EXIT_OK;
out:
    sodium_memzero(pwbuf, sizeof pwbuf);
    db_close(db);
    return rc;
}

static int user_list(struct bw_config *cfg, int nargs, char **args)
{
    int prc = bw_opts_none("user list", USER_USAGE, nargs, args);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    struct db *db = bw_cli_open_db(cfg, "user list");
    if (!db)
        return EXIT_FAILED;
    struct store_user *users = NULL;
    size_t n = 0;
    int rc = store_user_list(db, &users, &n) == ST_OK ? EXIT_OK : EXIT_FAILED;
    if (rc == EXIT_OK) {
        json_t *arr = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(arr, bw_account_json(&users[i]));
        bw_cli_print_json(json_pack("{s:o,s:i}", "users", arr, "count", (json_int_t)n));
    }
    free(users);
    db_close(db);
    return rc;
}

/* The exit status (with its message) of a store result for the account `email`. */
static int store_exit(const char *cmd, int st, const char *email)
{
    switch (st) {
    case ST_OK:
        return EXIT_OK;
    case ST_NOTFOUND:
        fprintf(stderr, "bulwark %s: no account %s\n", cmd, email);
        return EXIT_FAILED;
    case ST_CONFLICT:
        fprintf(stderr,
                "bulwark %s: refused: %s is the last enabled admin account (make another account admin "
                "first: bulwark user set-role EMAIL admin)\n",
                cmd, email);
        return EXIT_REFUSED;
    default:
        fprintf(stderr, "bulwark %s: the database failed; nothing was changed\n", cmd);
        return EXIT_FAILED;
    }
}

static int user_set_tier(struct bw_config *cfg, int nargs, char **args)
{
    const char *pos[2];
    int np;
    int prc = bw_opts_parse("user set-tier", USER_USAGE, NULL, nargs, args, pos, 2, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    if (np < 2)
        return bw_cli_usage_error("user set-tier", "%s missing", np == 0 ? "EMAIL and TIER are" : "TIER is");
    int t = bw_tier_parse(pos[1]);
    if (t < 0)
        return bw_cli_usage_error("user set-tier", "TIER must be FREE, STARTER, PRO or ENTERPRISE, not '%s'", pos[1]);
    struct db *db = bw_cli_open_db(cfg, "user set-tier");
    if (!db)
        return EXIT_FAILED;
    char email[BW_EMAIL_MAX + 1];
    bw_account_email_lower(pos[0], email);
    struct store_user u;
    int st = store_user_set_tier(db, email, (enum bw_tier)t);
    if (st == ST_OK)
        st = store_user_by_email(db, email, &u);
    if (st == ST_OK) {
        tell_servers(db, u.id); /* the account's cached tier is dropped */
        bw_cli_print_json(bw_account_json(&u));
    }
    db_close(db);
    return store_exit("user set-tier", st, email);
}

static int user_passwd(struct bw_config *cfg, int nargs, char **args)
{
    const char *email = NULL, *password = NULL;
    bool from_stdin = false;
    const struct bw_opt opts[] = {{"--password", NULL, &password, NULL, NULL},
                                  {"--password-stdin", NULL, NULL, &from_stdin, NULL},
                                  {NULL, NULL, NULL, NULL, NULL}};
    int np;
    int prc = bw_opts_parse("user passwd", USER_USAGE, opts, nargs, args, &email, 1, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    if (!email)
        return bw_cli_usage_error("user passwd", "EMAIL is missing");
    char pwbuf[BW_PASSWORD_MAX + 2], hash[BW_PWHASH_MAX];
    int rc = EXIT_USAGE;
    struct db *db = NULL;
    if (!(password = take_password("user passwd", password, from_stdin, pwbuf, sizeof pwbuf)))
        goto out;
    rc = EXIT_FAILED;
    if (!(db = bw_cli_open_db(cfg, "user passwd")))
        goto out;
    char le[BW_EMAIL_MAX + 1];
    bw_account_email_lower(email, le);
    struct store_user u;
    int st = store_user_by_email(db, le, &u);
    if (st == ST_OK && bw_password_hash(password, hash) != 0) {
        fprintf(stderr, "bulwark user passwd: password hashing failed\n");
        goto out;
    }
    int64_t gen = 0;
    if (st == ST_OK) /* whatever its generation: the operator's word is final */
        st = store_user_set_password(db, u.id, hash, -1, &gen);
    if (st == ST_OK) {
        u.token_gen = gen;
        tell_servers(db, u.id);
        bw_cli_print_json(bw_account_json(&u));
    }
    rc = store_exit("user passwd", st, le);
out:
    sodium_memzero(pwbuf, sizeof pwbuf);
    sodium_memzero(hash, sizeof hash);
    db_close(db);
    return rc;
}

/* disable, enable, set-role and delete: one account change each (store.h). */
enum change { CHANGE_DISABLE, CHANGE_ENABLE, CHANGE_SET_ROLE, CHANGE_DELETE };

static int user_change(struct bw_config *cfg, enum change what, const char *cmd, int nargs, char **args)
{
    const char *pos[2] = {NULL, NULL};
    int np, want = what == CHANGE_SET_ROLE ? 2 : 1;
    int prc = bw_opts_parse(cmd, USER_USAGE, NULL, nargs, args, pos, want, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    if (np < want)
        return bw_cli_usage_error(cmd, "%s missing",
                                  want == 1 ? "EMAIL is" : np == 0 ? "EMAIL and ROLE are" : "ROLE is");
    int role = what == CHANGE_SET_ROLE ? bw_role_parse(pos[1]) : 0;
    if (role < 0)
        return bw_cli_usage_error(cmd, "ROLE must be user, mssp or admin, not '%s'", pos[1]);
    struct db *db = bw_cli_open_db(cfg, cmd);
    if (!db)
        return EXIT_FAILED;
    char email[BW_EMAIL_MAX + 1];
    bw_account_email_lower(pos[0], email);
    struct store_user u;
    int st = what == CHANGE_DISABLE    ? store_user_disable(db, email, &u)
             : what == CHANGE_ENABLE   ? store_user_enable(db, email, &u)
             : what == CHANGE_SET_ROLE ? store_user_set_role(db, email, (enum bw_role)role, &u)
                                       : store_user_delete(db, email, &u);
    if (st == ST_OK) {
        tell_servers(db, u.id);
        if (what == CHANGE_DELETE)
            bw_cli_print_json(json_pack("{s:b,s:s,s:s}", "deleted", 1, "id", u.id, "email", u.email));
        else
            bw_cli_print_json(bw_account_json(&u));
    }
    db_close(db);
    return store_exit(cmd, st, email);
}

/* args[0] is "user" */
int bw_cli_user(struct bw_config *cfg, int nargs, char **args)
{
    static const struct {
        const char *name, *cmd;
        int change; /* -1: not a user_change */
        int (*fn)(struct bw_config *, int, char **);
    } subs[] = {
        {"add", NULL, -1, user_add},
        {"list", NULL, -1, user_list},
        {"set-tier", NULL, -1, user_set_tier},
        {"passwd", NULL, -1, user_passwd},
        {"disable", "user disable", CHANGE_DISABLE, NULL},
        {"enable", "user enable", CHANGE_ENABLE, NULL},
        {"set-role", "user set-role", CHANGE_SET_ROLE, NULL},
        {"delete", "user delete", CHANGE_DELETE, NULL},
    };
    const char *sub = nargs > 1 ? args[1] : "";
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        fputs(USER_USAGE, stdout);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(sub, subs[i].name) == 0)
            return subs[i].fn ? subs[i].fn(cfg, nargs - 2, args + 2)
                              : user_change(cfg, (enum change)subs[i].change, subs[i].cmd, nargs - 2, args + 2);
    static const char expected[] = "add, list, set-tier, passwd, disable, enable, set-role or delete";
    if (!sub[0])
        return bw_cli_usage_error("user", "expected %s", expected);
    return bw_cli_usage_error("user", "unknown subcommand '%s'; expected %s", sub, expected);
}

static const char ADMIN_KEY_USAGE[] =
    "usage: bulwark admin-key rotate\n"
    "Replaces the generated admin key (the one a server without BULWARK_ADMIN_KEY made at its first\n"
    "start) with a new one, printed once as JSON; only its SHA-256 is stored. Running servers keep\n"
    "the old key until they restart. With BULWARK_ADMIN_KEY set, that variable is the admin key:\n"
    "change it instead (exit 3).\n";

/* args[0] is "admin-key" */
int bw_cli_admin_key(struct bw_config *cfg, int nargs, char **args)
{
    const char *sub = NULL;
    int np;
    int prc = bw_opts_parse("admin-key", ADMIN_KEY_USAGE, NULL, nargs - 1, args + 1, &sub, 1, &np);
    if (prc != BW_OPTS_OK)
        return bw_opts_exit(prc);
    if (!sub)
        return bw_cli_usage_error("admin-key", "expected rotate");
    if (strcmp(sub, "rotate") != 0)
        return bw_cli_usage_error("admin-key", "unknown subcommand '%s'; expected rotate", sub);
    if (cfg->admin_key) {
        fprintf(stderr, "bulwark admin-key rotate: refused: BULWARK_ADMIN_KEY is set, so it is the admin key; "
                        "change that variable and restart the servers\n");
        return EXIT_REFUSED;
    }
    struct db *db = bw_cli_open_db(cfg, "admin-key rotate");
    if (!db)
        return EXIT_FAILED;
    char key[BW_ADMIN_KEY_LEN + 1], hex[65];
    bw_admin_key_generate(key, hex);
    int rc = EXIT_FAILED;
    if (store_setting_put(db, "admin_key_sha256", hex) != ST_OK)
        fprintf(stderr, "bulwark admin-key rotate: the database failed; the old key stays\n");
    else {
        bw_cli_print_json(json_pack("{s:s,s:s}", "admin_key", key, "note",
                                    "shown once; the servers take it at their next start, the old key until then"));
        rc = EXIT_OK;
    }
    sodium_memzero(key, sizeof key);
    db_close(db);
    return rc;
}
