/* MCP configuration scanner: validation of the request body, then the checks listed in
 * mcpscan.h. Everything here is a pure function of the input (no I/O, no clock). */
#include "engine/mcpscan.h"

#include "common/utf8.h"
#include "engine/risk.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------------------------------ */
/* check table                                                                                 */

enum { S_LOW = 1, S_MEDIUM, S_HIGH, S_CRITICAL };

/* The fixed order of the checks: findings of equal severity are listed in this order. */
enum check {
    C_AUTH_NONE_REMOTE,
    C_AUTH_NONE_LOCAL,
    C_AUTH_CLEAR,
    C_AUTH_UNKNOWN,
    C_TRANSPORT_PLAIN,
    C_TRANSPORT_STDIO,
    C_NET_WILDCARD,
    C_NET_PRIVATE,
    C_NET_PUBLIC,
    C_POISON,
    C_TOOL_SHELL,
    C_TOOL_FILE,
    C_TOOL_DB,
    C_TOOL_SEND,
    C_TOOL_FETCH,
    C_SHADOW_DUP,
    C_SHADOW_KNOWN,
    C_SCHEMA_MISSING,
    C_SCHEMA_FREEFORM,
    C_SCHEMA_ADDL,
    C_TOOLS_MANY,
    C_COUNT
};

struct check_def {
    const char *id, *type;
    int sev;
    const char *title, *detail, *remediation;
};

static const struct check_def CHECKS[C_COUNT] = {
    [C_AUTH_NONE_REMOTE] = {"MCP-AUTH-001", "authentication", S_CRITICAL, "No authentication on a remote MCP server",
                            "The server is reachable over the network and declares no authentication: anyone who can "
                            "reach it can list and call its tools.",
                            "Require authentication (OAuth 2.1 as in the MCP authorization spec, or mTLS) on every request."},
    [C_AUTH_NONE_LOCAL] = {"MCP-AUTH-001", "authentication", S_HIGH, "No authentication on a local MCP server",
                           "The server listens on a loopback address without authentication: any local process or "
                           "web page using DNS rebinding can call its tools.",
                           "Require a token even on localhost, and check the Origin and Host headers."},
    [C_AUTH_CLEAR] = {"MCP-AUTH-002", "authentication", S_HIGH, "Credentials sent in clear text",
                      "Static credentials (basic, API key or bearer token) are sent over plain http/ws to a "
                      "non-local host, where anyone on the path can read and replay them.",
                      "Use https/wss (TLS) for every connection that carries credentials, and rotate the exposed ones."},
    [C_AUTH_UNKNOWN] = {"MCP-AUTH-003", "authentication", S_MEDIUM, "Unknown authentication method",
                        "auth_method is not one of none, api_key, bearer, oauth, oauth2, mtls, basic; its strength "
                        "cannot be assessed.",
                        "Use a standard method: OAuth 2.1 (per the MCP authorization spec), mTLS, or bearer tokens over TLS."},
    [C_TRANSPORT_PLAIN] = {"MCP-TRANSPORT-001", "transport", S_HIGH, "Unencrypted transport to a remote host",
                           "The server is reached over plain http or ws: tool calls, results and any tokens can be "
                           "read and modified in transit.",
                           "Serve the MCP endpoint over https or wss only."},
    [C_TRANSPORT_STDIO] = {"MCP-TRANSPORT-002", "transport", S_LOW, "Local stdio server runs with the user's privileges",
                           "A stdio server is a child process of the client: it can do anything the user can, "
                           "whatever its tools declare.",
                           "Run only trusted, pinned server packages; sandbox them (container, restricted user) where possible."},
    [C_NET_WILDCARD] = {"MCP-NET-001", "network_exposure", S_LOW, "Server bound to all interfaces",
                        "The address is a wildcard (0.0.0.0 or ::): the server accepts connections on every "
                        "network interface of the host.",
                        "Bind to 127.0.0.1 for local use, or put the server behind an authenticating TLS proxy."},
    [C_NET_PRIVATE] = {"MCP-NET-002", "network_exposure", S_LOW, "Server addressed by a private IP literal",
                       "The server is addressed by a private-network IP address rather than a name: it is exposed "
                       "to the internal network and TLS certificates cannot be checked against a hostname.",
                       "Use a DNS name with a valid certificate and restrict network access to the clients that need it."},
    [C_NET_PUBLIC] = {"MCP-NET-003", "network_exposure", S_LOW, "Server addressed by a public IP literal",
                      "The server is addressed by a public IP address rather than a name: it is exposed to the "
                      "internet and TLS certificates cannot be checked against a hostname.",
                      "Use a DNS name with a valid certificate, and firewall the server to known clients."},
    [C_POISON] = {"MCP-POISON-001", "tool_poisoning", S_CRITICAL, "Hidden instructions in a tool description",
                  "The tool's description carries instructions aimed at the model rather than the user (tool "
                  "poisoning): the agent may follow them silently, e.g. to read secrets or call other tools.",
                  "Remove the tool; review the server's source; pin tool descriptions and alert when they change."},
    [C_TOOL_SHELL] = {"MCP-TOOL-001", "dangerous_tool", S_CRITICAL, "Tool executes shell commands",
                      "The tool runs commands or code on the host: a prompt injection reaching the agent becomes "
                      "remote code execution.",
                      "Remove it, or replace it with narrow tools taking enumerated arguments; require human approval "
                      "for every call and sandbox the server."},
    [C_TOOL_FILE] = {"MCP-TOOL-002", "dangerous_tool", S_HIGH, "Tool writes or deletes files",
                     "The tool modifies the file system: an injected instruction can overwrite configuration, plant "
                     "code or destroy data.",
                     "Restrict it to an allow-listed directory, make it read-only where possible, and require "
                     "approval for writes and deletions."},
    [C_TOOL_DB] = {"MCP-TOOL-004", "dangerous_tool", S_HIGH, "Tool accesses a database",
                   "The tool queries or changes a database: free-form queries allow data theft and destructive "
                   "statements.",
                   "Use a read-only database role, parameterised named queries instead of raw SQL, and row limits."},
    [C_TOOL_SEND] = {"MCP-TOOL-005", "dangerous_tool", S_HIGH, "Tool sends messages or moves money",
                     "The tool sends email/messages or makes payments: an injected instruction can exfiltrate data "
                     "or cause financial loss on the user's behalf.",
                     "Require explicit human confirmation for every send or payment, with recipient and amount allow-lists."},
    [C_TOOL_FETCH] = {"MCP-TOOL-003", "dangerous_tool", S_MEDIUM, "Tool fetches URLs (SSRF)",
                      "The tool retrieves arbitrary URLs: it can reach internal services and cloud metadata, and "
                      "fetched pages can inject instructions into the agent.",
                      "Allow-list destinations, block private and link-local addresses, and treat fetched content as untrusted."},
    [C_SHADOW_DUP] = {"MCP-SHADOW-001", "tool_shadowing", S_MEDIUM, "Duplicate tool name",
                      "Two tools share this name: which one the client calls is undefined, and one can shadow the other.",
                      "Give every tool a unique name; prefix tool names with the server's namespace."},
    [C_SHADOW_KNOWN] = {"MCP-SHADOW-002", "tool_shadowing", S_MEDIUM, "Tool name shadows a well-known tool",
                        "The tool re-declares the name of a common tool of other MCP servers (filesystem, fetch, "
                        "shell...): with several servers connected, calls meant for one can reach this one.",
                        "Prefix tool names with the server's namespace, and check which server answers each tool name."},
    [C_SCHEMA_MISSING] = {"MCP-SCHEMA-001", "input_schema", S_MEDIUM, "Dangerous tool without an input schema",
                          "A tool with a dangerous capability declares no input_schema: its arguments are "
                          "unconstrained and cannot be validated.",
                          "Declare a JSON Schema with typed, constrained properties and additionalProperties: false."},
    [C_SCHEMA_FREEFORM] = {"MCP-SCHEMA-002", "input_schema", S_MEDIUM, "Unconstrained sensitive string parameter",
                           "A string parameter that names a command, script, query, path or URL has no pattern, "
                           "enum or maxLength: any value the model produces is passed through.",
                           "Constrain it with an enum, a strict pattern or a maxLength, and validate it server-side."},
    [C_SCHEMA_ADDL] = {"MCP-SCHEMA-003", "input_schema", S_LOW, "Schema allows additional properties",
                       "input_schema sets additionalProperties: true: arguments outside the declared ones are accepted.",
                       "Set additionalProperties: false."},
    [C_TOOLS_MANY] = {"MCP-TOOLS-001", "tool_sprawl", S_LOW, "Large number of tools",
                      "The server exposes more than 50 tools: a large attack surface that is hard to review, and "
                      "more room for shadowing.",
                      "Expose only the tools the use case needs; split the rest into separate servers."},
};

static const int WEIGHT[5] = {0, 3, 10, 25, 40};
static const char *const SEV_NAME[5] = {"", "LOW", "MEDIUM", "HIGH", "CRITICAL"};

const char *bw_mcp_risk_level(int score) { return bw_risk_level(score); }

/* ------------------------------------------------------------------------------------------ */
/* findings                                                                                    */

struct finding {
    enum check c;
    size_t tool; /* index+1 in the tools array; 0: configuration-wide */
    size_t seq;  /* insertion order, for a total (deterministic) sort */
    char extra[320];
};

struct findings {
    struct finding *v;
    size_t n, cap;
    bool oom;
};

static struct finding *add(struct findings *f, enum check c, size_t tool)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        struct finding *nv = realloc(f->v, cap * sizeof *nv);
        if (!nv) {
            f->oom = true;
            return NULL;
        }
        f->v = nv;
        f->cap = cap;
    }
    struct finding *x = &f->v[f->n];
    x->c = c;
    x->tool = tool;
    x->seq = f->n;
    x->extra[0] = '\0';
    f->n++;
    return x;
}

static int cmp_finding(const void *pa, const void *pb)
{
    const struct finding *a = pa, *b = pb;
    int sa = CHECKS[a->c].sev, sb = CHECKS[b->c].sev;
    if (sa != sb)
        return sb - sa;
    if (a->c != b->c)
        return (int)a->c - (int)b->c;
    if (a->tool != b->tool)
        return a->tool < b->tool ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* ------------------------------------------------------------------------------------------ */
/* text helpers                                                                                */

/* Copies at most max bytes of s into out (cap bytes), cutting at a UTF-8 character boundary. */
static void copy_trunc(char *out, size_t cap, const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max)
        n = max;
    if (n >= cap)
        n = cap - 1;
    while (n > 0 && n < strlen(s) && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* The words of a text: lower-cased runs of ASCII letters and digits. Everything else (punctuation,
 * non-ASCII, so also no-break spaces) separates words; with camel, "readFile" is "read file". */
struct words {
    char *buf;
    const char **w;
    size_t n;
};

static bool words_init(struct words *ws, const char *s, bool camel)
{
    size_t len = strlen(s);
    ws->n = 0;
    ws->buf = malloc(2 * len + 1); /* camel splits can add one separator per byte */
    ws->w = malloc((len + 1) * sizeof *ws->w); /* at most one word per byte */
    if (!ws->buf || !ws->w) {
        free(ws->buf);
        free(ws->w);
        ws->buf = NULL;
        ws->w = NULL;
        return false;
    }
    size_t o = 0;
    bool in = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        bool al = c < 0x80 && isalnum(c);
        bool split = camel && in && isupper(c) && i > 0 && islower((unsigned char)s[i - 1]);
        if (in && (!al || split)) {
            ws->buf[o++] = '\0';
            in = false;
        }
        if (al) {
            if (!in) {
                ws->w[ws->n++] = ws->buf + o;
                in = true;
            }
            ws->buf[o++] = (char)tolower(c);
        }
    }
    ws->buf[o] = '\0';
    return true;
}

static void words_free(struct words *ws)
{
    free(ws->buf);
    free(ws->w);
}

static bool in_set(const char *w, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(w, *set) == 0)
            return true;
    return false;
}

static bool has_any(const struct words *ws, const char *const *set)
{
    for (size_t i = 0; i < ws->n; i++)
        if (in_set(ws->w[i], set))
            return true;
    return false;
}

/* A word of set a followed within window words by a word of set b. */
static bool near(const struct words *ws, const char *const *a, const char *const *b, size_t window)
{
    for (size_t i = 0; i < ws->n; i++) {
        if (!in_set(ws->w[i], a))
            continue;
        for (size_t j = i + 1; j < ws->n && j <= i + window; j++)
            if (in_set(ws->w[j], b))
                return true;
    }
    return false;
}

/* Lower-cased copy with every run of ASCII white space turned into one space. */
static char *squeeze(const char *s)
{
    size_t len = strlen(s), o = 0;
    char *out = malloc(len + 1);
    if (!out)
        return NULL;
    bool sp = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80 && isspace(c)) {
            if (!sp)
                out[o++] = ' ';
            sp = true;
            continue;
        }
        sp = false;
        out[o++] = c < 0x80 ? (char)tolower(c) : (char)c;
    }
    out[o] = '\0';
    return out;
}

/* ------------------------------------------------------------------------------------------ */
/* dangerous capabilities                                                                      */

enum { D_SHELL = 1, D_FILE = 2, D_FETCH = 4, D_DB = 8, D_SEND = 16 };

static const char *const SHELL_NAME[] = {"shell", "bash", "sh", "zsh", "powershell", "pwsh", "cmd", "command",
                                         "commands", "terminal", "exec", "subprocess", "spawn", "eval", NULL};
static const char *const RUN_VERB[] = {"run", "runs", "execute", "executes", "exec", "evaluate", "evaluates", "eval",
                                       NULL};
static const char *const RUN_OBJ[] = {"command", "commands", "code", "script", "scripts", "python", "javascript",
                                      "shell", "bash", "process", "program", "binary", NULL};
static const char *const SHELL_DESC[] = {"shell", "bash", "powershell", "terminal", "subprocess", "zsh", NULL};

static const char *const FILE_VERB[] = {"write", "writes", "writing", "delete", "deletes", "deleting", "remove",
                                        "removes", "rm", "unlink", "edit", "edits", "move", "moves", "rename",
                                        "renames", "overwrite", "overwrites", "append", "appends", "create", "creates",
                                        "truncate", "chmod", "chown", "save", "saves", "upload", "put", "modify",
                                        "modifies", "patch", NULL};
static const char *const FILE_NOUN[] = {"file", "files", "dir", "dirs", "directory", "directories", "folder",
                                        "folders", "path", "fs", "filesystem", NULL};
static const char *const FILE_ALONE[] = {"mkdir", "rmdir", "rm", "unlink", "chmod", "chown", NULL};

static const char *const FETCH_NAME[] = {"fetch", "http", "https", "browse", "browser", "url", "urls", "uri",
                                         "curl", "wget", "download", "scrape", "crawl", "navigate", "webpage",
                                         "proxy", NULL};
static const char *const FETCH_DESC[] = {"fetch", "fetches", "browse", "browses", "download", "downloads", "scrape",
                                         "scrapes", "crawl", "crawls", "curl", "wget", "webpage", NULL};
static const char *const FETCH_VERB[] = {"http", "https", "any", "arbitrary", "given", "web", "retrieve",
                                         "retrieves", "get", "gets", "load", "loads", "open", "opens", NULL};
static const char *const FETCH_OBJ[] = {"url", "urls", "request", "requests", "page", "pages", "website", NULL};

static const char *const DB_NAME[] = {"sql", "database", "db", "postgres", "postgresql", "mysql", "sqlite",
                                      "mongo", "mongodb", "redis", "query", "tables", NULL};
static const char *const DB_DESC[] = {"sql", "database", "databases", "postgres", "postgresql", "mysql", "sqlite",
                                      "mongodb", "redis", NULL};

static const char *const SEND_NAME[] = {"pay", "payment", "payments", "charge", "refund", "transfer", "invoice",
                                        "stripe", "paypal", "checkout", "purchase", "buy", "email", "emails",
                                        "mail", "smtp", "send", "sms", "tweet", "wire", NULL};
static const char *const SEND_VERB[] = {"send", "sends", "sending", "email", "emails", "post", "posts", "transfer",
                                        "transfers", "wire", "make", "makes", NULL};
static const char *const SEND_OBJ[] = {"email", "emails", "mail", "message", "messages", "sms", "text",
                                       "notification", "notifications", "funds", "money", "payment", "payments",
                                       NULL};
static const char *const SEND_DESC[] = {"payment", "payments", "refund", "refunds", "purchase", "purchases",
                                        "smtp", "stripe", "paypal", NULL};

static unsigned dangerous(const char *name, const char *desc)
{
    unsigned d = 0;
    struct words n, w = {0};
    if (!words_init(&n, name, true))
        return 0;
    bool have_desc = desc && words_init(&w, desc, false);
    if (has_any(&n, SHELL_NAME) || near(&n, RUN_VERB, RUN_OBJ, 2) ||
        (have_desc && (has_any(&w, SHELL_DESC) || near(&w, RUN_VERB, RUN_OBJ, 3))))
        d |= D_SHELL;
    if (has_any(&n, FILE_ALONE) || near(&n, FILE_VERB, FILE_NOUN, 3) || near(&n, FILE_NOUN, FILE_VERB, 2) ||
        (have_desc && near(&w, FILE_VERB, FILE_NOUN, 6)))
        d |= D_FILE;
    if (has_any(&n, FETCH_NAME) ||
        (have_desc && (has_any(&w, FETCH_DESC) || near(&w, FETCH_VERB, FETCH_OBJ, 2))))
        d |= D_FETCH;
    if (has_any(&n, DB_NAME) || (have_desc && has_any(&w, DB_DESC)))
        d |= D_DB;
    if (has_any(&n, SEND_NAME) || (have_desc && (has_any(&w, SEND_DESC) || near(&w, SEND_VERB, SEND_OBJ, 3))))
        d |= D_SEND;
    words_free(&n);
    if (have_desc)
        words_free(&w);
    return d;
}

/* ------------------------------------------------------------------------------------------ */
/* tool poisoning                                                                              */

/* Phrases (lower case, single spaces) that address the model rather than the user, or point it at
 * secrets. Matched as substrings of the squeezed description. */
static const char *const POISON[] = {
    "ignore previous", "ignore all previous", "ignore the previous", "ignore any previous", "ignore prior",
    "ignore all prior", "ignore the above", "disregard previous", "disregard all previous",
    "disregard the previous", "disregard prior", "forget previous", "forget all previous",
    "do not tell the user", "don't tell the user", "dont tell the user", "do not tell user",
    "do not inform the user", "do not mention", "don't mention", "do not reveal", "don't reveal",
    "without telling the user", "without informing the user", "without the user knowing",
    "the user must not know", "hide this from the user", "not visible to the user", "<important>",
    "</important>", "<system>", "</system>", "<instructions>", "[system]", "<!--", "system prompt",
    "~/.ssh", ".ssh/", "id_rsa", "id_ed25519", "~/.aws", ".aws/credentials", "mcp.json", "/etc/passwd",
    "/etc/shadow", "credentials.json", "credentials file", "read the credentials", "read credentials",
    "private key", "before using this tool", "before calling this tool", "before using any other tool", NULL};

static const char *const CALL_VERB[] = {"call", "calls", "invoke", "invokes", "calling", "invoking", "use",
                                        NULL};
static const char *const TOOL_WORD[] = {"tool", "tools", NULL};

/* The first invisible character (zero-width, bidi control, BOM, Unicode tag) in s, or 0. */
static unsigned long hidden_char(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++) {
        if (p[0] == 0xE2 && p[1] == 0x80 && ((p[2] >= 0x8B && p[2] <= 0x8F) || (p[2] >= 0xAA && p[2] <= 0xAE)))
            return 0x2000ul + (p[2] - 0x80u);
        if (p[0] == 0xE2 && p[1] == 0x81 && ((p[2] >= 0xA0 && p[2] <= 0xA4) || (p[2] >= 0xA6 && p[2] <= 0xA9)))
            return 0x2040ul + (p[2] - 0x80u);
        if (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
            return 0xFEFFul;
        if (p[0] == 0xF3 && p[1] == 0xA0 && (p[2] == 0x80 || p[2] == 0x81) && p[3] >= 0x80 && p[3] <= 0xBF)
            return 0xE0000ul + ((p[2] - 0x80u) << 6) + (p[3] - 0x80u);
        /* the tests above read p[1..3] only while the previous bytes matched non-NUL values */
    }
    return 0;
}

/* ".env" as a file name: not inside a word (process.env, .environment). */
static bool has_dotenv(const char *sq)
{
    for (const char *p = strstr(sq, ".env"); p; p = strstr(p + 1, ".env")) {
        unsigned char after = (unsigned char)p[4];
        unsigned char before = p > sq ? (unsigned char)p[-1] : ' ';
        if (!(isalnum(after) || after == '_') && !(isalnum(before) || before == '_'))
            return true;
    }
    return false;
}

/* An instruction to call another tool: "call/invoke/use ... tool" within 4 words, not "this tool". */
static bool calls_other_tool(const struct words *ws)
{
    for (size_t i = 0; i < ws->n; i++) {
        if (!in_set(ws->w[i], CALL_VERB))
            continue;
        for (size_t j = i + 1; j < ws->n && j <= i + 4; j++) {
            if (strcmp(ws->w[j], "this") == 0)
                break;
            if (in_set(ws->w[j], TOOL_WORD)) {
                /* "use this tool"/"use the tool" are self references; a named other tool sits between */
                if (j > i + 1 && !(j == i + 2 && (strcmp(ws->w[i + 1], "the") == 0 || strcmp(ws->w[i + 1], "a") == 0)))
                    return true;
                break;
            }
        }
    }
    return false;
}

/* Whether text carries a poisoning indicator; describes it in why. */
static bool poisoned(const char *text, char *why, size_t cap)
{
    unsigned long h = hidden_char(text);
    if (h) {
        snprintf(why, cap, "Indicator: invisible Unicode character U+%04lX.", h);
        return true;
    }
    char *sq = squeeze(text);
    if (!sq)
        return false;
    bool hit = false;
    for (size_t i = 0; POISON[i] && !hit; i++) {
        if (strstr(sq, POISON[i])) {
            snprintf(why, cap, "Indicator: \"%s\".", POISON[i]);
            hit = true;
        }
    }
    if (!hit && has_dotenv(sq)) {
        snprintf(why, cap, "Indicator: \".env\".");
        hit = true;
    }
    free(sq);
    if (!hit) {
        struct words ws;
        if (words_init(&ws, text, false)) {
            if (calls_other_tool(&ws)) {
                snprintf(why, cap, "Indicator: an instruction to call another tool.");
                hit = true;
            }
            words_free(&ws);
        }
    }
    return hit;
}

/* ------------------------------------------------------------------------------------------ */
/* shadowing                                                                                   */

/* Names of the reference servers' tools (filesystem, fetch, shell, git, github, sqlite,
 * puppeteer, email...) that other servers should not re-declare. */
static const char *const KNOWN_TOOLS[] = {
    "read_file", "read_text_file", "read_multiple_files", "write_file", "edit_file", "create_directory",
    "list_directory", "directory_tree", "move_file", "search_files", "get_file_info", "list_allowed_directories",
    "fetch", "execute_command", "run_command", "bash", "shell", "send_email", "read_query", "write_query",
    "list_tables", "describe_table", "create_issue", "get_file_contents", "create_or_update_file",
    "search_repositories", "push_files", "browser_navigate", "puppeteer_navigate", "git_status", "git_commit",
    "git_diff", NULL};

/* Lower case, '-' and '.' as '_': "Read-File" and "read_file" are the same name to a model. */
static void name_key(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    for (; *s && o + 1 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        out[o++] = (c == '-' || c == '.' || c == ' ') ? '_' : (c < 0x80 ? (char)tolower(c) : (char)c);
    }
    out[o] = '\0';
}

/* ------------------------------------------------------------------------------------------ */
/* input schema                                                                                */

static const char *const RISKY_PARAM[] = {"command", "cmd", "script", "query", "path", "url", "uri", "sql",
                                          "filepath", "filename", "code", NULL};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool freeform_string(const json_t *p)
{
    if (!json_is_object(p))
        return false;
    const json_t *t = json_object_get(p, "type");
    bool str = !t; /* untyped accepts strings */
    if (json_is_string(t))
        str = strcmp(json_string_value(t), "string") == 0;
    else if (json_is_array(t)) {
        size_t i;
        const json_t *x;
        json_array_foreach(t, i, x) str |= json_is_string(x) && strcmp(json_string_value(x), "string") == 0;
    }
    if (!str)
        return false;
    return !json_object_get(p, "pattern") && !json_object_get(p, "enum") && !json_object_get(p, "const") &&
           !json_object_get(p, "maxLength");
}

/* The unconstrained sensitive parameters of schema, sorted, listed into out. Returns their count. */
static size_t risky_params(const json_t *schema, char *out, size_t cap)
{
    const json_t *props = json_object_get(schema, "properties");
    out[0] = '\0';
    if (!json_is_object(props))
        return 0;
    size_t n = 0, cap_names = json_object_size(props);
    const char **names = malloc((cap_names ? cap_names : 1) * sizeof *names);
    if (!names)
        return 0;
    const char *key;
    const json_t *p;
    json_object_foreach((json_t *)props, key, p) {
        if (!freeform_string(p))
            continue;
        struct words ws;
        if (!words_init(&ws, key, true))
            continue;
        if (has_any(&ws, RISKY_PARAM) && n < cap_names)
            names[n++] = key;
        words_free(&ws);
    }
    qsort(names, n, sizeof *names, cmp_str); /* object iteration order is not part of the contract */
    size_t used = 0;
    int w = snprintf(out, cap, "Parameters:");
    used = w > 0 ? (size_t)w : 0;
    for (size_t i = 0; i < n && i < 5 && used + 80 < cap; i++) {
        char nm[65];
        copy_trunc(nm, sizeof nm, names[i], 64);
        w = snprintf(out + used, cap - used, "%s %s", i ? "," : "", nm);
        if (w > 0 && (size_t)w < cap - used)
            used += (size_t)w;
    }
    if (n > 5 && used + 16 < cap)
        snprintf(out + used, cap - used, " (+%zu more)", n - 5);
    if (used + 2 < cap && n <= 5)
        snprintf(out + used, cap - used, ".");
    free(names);
    return n;
}

/* ------------------------------------------------------------------------------------------ */
/* server_url                                                                                  */

enum scheme { SC_HTTP, SC_HTTPS, SC_WS, SC_WSS, SC_STDIO };
static const char *const SCHEME_NAME[] = {"http", "https", "ws", "wss", "stdio"};

enum hostclass { H_NONE, H_LOOPBACK, H_WILDCARD, H_PRIVATE, H_PUBLIC_IP, H_NAME };

static enum hostclass classify_v4(const unsigned char a[4])
{
    if (a[0] == 127)
        return H_LOOPBACK;
    if (a[0] == 0 && a[1] == 0 && a[2] == 0 && a[3] == 0)
        return H_WILDCARD;
    if (a[0] == 10 || (a[0] == 172 && (a[1] & 0xF0) == 16) || (a[0] == 192 && a[1] == 168) ||
        (a[0] == 169 && a[1] == 254) || (a[0] == 100 && (a[1] & 0xC0) == 64))
        return H_PRIVATE;
    return H_PUBLIC_IP;
}

static enum hostclass classify_host(const char *host)
{
    unsigned char a[16];
    if (inet_pton(AF_INET, host, a) == 1)
        return classify_v4(a);
    if (inet_pton(AF_INET6, host, a) == 1) {
        static const unsigned char zero[16] = {0};
        static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
        if (memcmp(a, zero, 16) == 0)
            return H_WILDCARD;
        if (memcmp(a, zero, 15) == 0 && a[15] == 1)
            return H_LOOPBACK;
        if (memcmp(a, mapped, 12) == 0)
            return classify_v4(a + 12);
        if ((a[0] & 0xFE) == 0xFC || (a[0] == 0xFE && (a[1] & 0xC0) == 0x80))
            return H_PRIVATE;
        return H_PUBLIC_IP;
    }
    size_t n = strlen(host);
    if (strcmp(host, "localhost") == 0 || strcmp(host, "localhost.") == 0 ||
        (n > 10 && strcmp(host + n - 10, ".localhost") == 0))
        return H_LOOPBACK;
    return H_NAME;
}

bool bw_mcp_host_is_loopback(const char *host)
{
    return host && classify_host(host) == H_LOOPBACK;
}

/* Parses server_url. Returns NULL when valid (scheme and lower-cased host set; no host for stdio),
 * else the validation message. */
static const char *parse_url(const char *u, enum scheme *sc, char host[256])
{
    static const char *const not_url = "must be a URL (http, https, ws, wss or stdio://)";
    host[0] = '\0';
    const char *sep = strstr(u, "://");
    if (!sep || sep == u)
        return not_url;
    size_t sl = (size_t)(sep - u);
    for (size_t i = 0; i < sl; i++)
        if (!isalpha((unsigned char)u[i]) && !(i > 0 && (isdigit((unsigned char)u[i]) || strchr("+-.", u[i]))))
            return not_url;
    int found = -1;
    for (int i = 0; i < 5; i++)
        if (strlen(SCHEME_NAME[i]) == sl && strncasecmp(u, SCHEME_NAME[i], sl) == 0)
            found = i;
    if (found < 0)
        return "scheme must be one of http, https, ws, wss, stdio";
    *sc = (enum scheme)found;
    const char *rest = sep + 3;
    if (*sc == SC_STDIO) {
        /* stdio://<command line>: a command, spaces allowed, no control characters */
        if (!*rest)
            return "must name a command after stdio://";
        for (const unsigned char *p = (const unsigned char *)rest; *p; p++)
            if (*p < 0x20 || *p == 0x7F)
                return not_url;
        return NULL;
    }
    for (const unsigned char *p = (const unsigned char *)u; *p; p++)
        if (*p <= 0x20 || *p >= 0x7F)
            return not_url; /* URLs are ASCII without spaces (IDN hosts come punycoded) */
    size_t alen = strcspn(rest, "/?#");
    const char *at = NULL;
    for (size_t i = 0; i < alen; i++)
        if (rest[i] == '@')
            at = rest + i;
    const char *h = at ? at + 1 : rest;
    size_t hlen = alen - (size_t)(h - rest);
    const char *port = NULL;
    size_t portlen = 0;
    if (hlen > 0 && h[0] == '[') {
        const char *close = memchr(h, ']', hlen);
        if (!close || close - h - 1 < 2 || close - h - 1 > 45)
            return not_url;
        size_t il = (size_t)(close - h - 1);
        memcpy(host, h + 1, il);
        host[il] = '\0';
        unsigned char a[16];
        if (inet_pton(AF_INET6, host, a) != 1)
            return not_url;
        const char *after = close + 1;
        size_t left = hlen - (size_t)(after - h);
        if (left > 0) {
            if (after[0] != ':')
                return not_url;
            port = after + 1;
            portlen = left - 1;
        }
    } else {
        const char *colon = memchr(h, ':', hlen);
        size_t nl = colon ? (size_t)(colon - h) : hlen;
        if (nl == 0 || nl > 253)
            return not_url;
        for (size_t i = 0; i < nl; i++) {
            unsigned char c = (unsigned char)h[i];
            if (!isalnum(c) && c != '-' && c != '.' && c != '_')
                return not_url;
            host[i] = (char)tolower(c);
        }
        host[nl] = '\0';
        if (colon) {
            port = colon + 1;
            portlen = hlen - nl - 1;
        }
    }
    if (port) {
        if (portlen == 0 || portlen > 5)
            return not_url;
        unsigned long pv = 0;
        for (size_t i = 0; i < portlen; i++) {
            if (!isdigit((unsigned char)port[i]))
                return not_url;
            pv = pv * 10 + (unsigned long)(port[i] - '0');
        }
        if (pv < 1 || pv > 65535)
            return not_url;
    }
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* auth_method                                                                                 */

static const char *const KNOWN_AUTH[] = {"none", "api_key", "bearer", "oauth", "oauth2", "mtls", "basic", NULL};

/* Trimmed, lower-cased, '-' and ' ' as '_'; "" is "none", "apikey" is "api_key". cap holds 4x
 * the 64-character limit, so nothing is cut. */
static void normalise_auth(const char *s, char *out, size_t cap)
{
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        out[o++] = (c == '-' || c == ' ') ? '_' : (c < 0x80 ? (char)tolower(c) : (char)c);
    }
    out[o] = '\0';
    if (o == 0)
        snprintf(out, cap, "none");
    else if (strcmp(out, "apikey") == 0)
        snprintf(out, cap, "api_key");
}

/* ------------------------------------------------------------------------------------------ */
/* validation                                                                                  */

struct tool {
    const char *name, *desc;
    const json_t *schema;
};

static void add_err(json_t *errs, const char *field, const char *msg)
{
    if (json_array_size(errs) < BW_MCP_MAX_ERRORS)
        json_array_append_new(errs, json_pack("{s:s,s:s}", "field", field, "message", msg));
}

static bool has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7F)
            return true;
    return false;
}

/* Checks an optional/required string member; returns it (NULL when absent or invalid). */
static const char *str_field(const json_t *obj, const char *key, const char *field, bool required, bool nonempty,
                             size_t max, json_t *errs, bool *bad)
{
    const json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) {
        if (required) {
            add_err(errs, field, "is required");
            *bad = true;
        }
        return NULL;
    }
    if (!json_is_string(v)) {
        add_err(errs, field, "must be a string");
        *bad = true;
        return NULL;
    }
    const char *s = json_string_value(v);
    if (nonempty && !*s) {
        add_err(errs, field, "must not be empty");
        *bad = true;
        return NULL;
    }
    if (bw_utf8_chars(s, strlen(s)) > max) {
        char m[64];
        snprintf(m, sizeof m, "must be at most %zu characters", max);
        add_err(errs, field, m);
        *bad = true;
        return NULL;
    }
    return s;
}

static void validate_tools(const json_t *tools, struct tool *out, json_t *errs)
{
    size_t i;
    const json_t *t;
    char field[96], m[64];
    json_array_foreach(tools, i, t) {
        out[i] = (struct tool){0};
        bool bad = false;
        if (json_is_string(t)) {
            const char *s = json_string_value(t);
            snprintf(field, sizeof field, "mcp_config.tools[%zu]", i);
            if (!*s) {
                add_err(errs, field, "must not be empty");
            } else if (bw_utf8_chars(s, strlen(s)) > BW_MCP_TOOL_NAME_MAX) {
                snprintf(m, sizeof m, "must be at most %d characters", BW_MCP_TOOL_NAME_MAX);
                add_err(errs, field, m);
            } else if (has_control(s)) {
                add_err(errs, field, "must not contain control characters");
            } else {
                out[i].name = s;
            }
        } else if (json_is_object(t)) {
            snprintf(field, sizeof field, "mcp_config.tools[%zu].name", i);
            const char *name = str_field(t, "name", field, true, true, BW_MCP_TOOL_NAME_MAX, errs, &bad);
            if (name && has_control(name)) {
                add_err(errs, field, "must not contain control characters");
                name = NULL;
            }
            snprintf(field, sizeof field, "mcp_config.tools[%zu].description", i);
            const char *desc = str_field(t, "description", field, false, false, BW_MCP_DESCRIPTION_MAX, errs, &bad);
            const json_t *schema = json_object_get(t, "input_schema");
            if (schema && !json_is_null(schema) && !json_is_object(schema)) {
                snprintf(field, sizeof field, "mcp_config.tools[%zu].input_schema", i);
                add_err(errs, field, "must be an object");
                bad = true;
            }
            if (name && !bad)
                out[i] = (struct tool){name, desc, json_is_object(schema) ? schema : NULL};
        } else {
            snprintf(field, sizeof field, "mcp_config.tools[%zu]", i);
            add_err(errs, field, "must be a string or an object with a name");
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* the scan                                                                                    */

static void scan_tools(const struct tool *tools, size_t n, struct findings *f, size_t *ndangerous)
{
    char key[4 * BW_MCP_TOOL_NAME_MAX + 1], other[4 * BW_MCP_TOOL_NAME_MAX + 1];
    struct finding *x;
    *ndangerous = 0;
    for (size_t i = 0; i < n; i++) {
        const struct tool *t = &tools[i];
        size_t ti = i + 1;

        /* poisoning: the description, the name (invisible characters), the parameters' descriptions */
        char why[160];
        bool p = (t->desc && poisoned(t->desc, why, sizeof why));
        if (!p && hidden_char(t->name)) {
            snprintf(why, sizeof why, "Indicator: invisible Unicode character U+%04lX in the name.", hidden_char(t->name));
            p = true;
        }
        const json_t *props = json_object_get(t->schema, "properties");
        if (!p && json_is_object(props)) {
            const char *k;
            const json_t *pv;
            /* iteration order only decides which indicator is quoted when several parameters carry one */
            json_object_foreach((json_t *)props, k, pv) {
                const json_t *d = json_object_get(pv, "description");
                if (!p && json_is_string(d) && poisoned(json_string_value(d), why, sizeof why))
                    p = true;
            }
        }
        if (p && (x = add(f, C_POISON, ti)))
            snprintf(x->extra, sizeof x->extra, "%s", why);

        unsigned d = dangerous(t->name, t->desc);
        static const struct {
            unsigned bit;
            enum check c;
        } DMAP[] = {{D_SHELL, C_TOOL_SHELL}, {D_FILE, C_TOOL_FILE}, {D_DB, C_TOOL_DB}, {D_SEND, C_TOOL_SEND},
                    {D_FETCH, C_TOOL_FETCH}};
        for (size_t k = 0; k < sizeof DMAP / sizeof DMAP[0]; k++)
            if (d & DMAP[k].bit)
                add(f, DMAP[k].c, ti);
        if (d)
            (*ndangerous)++;

        /* shadowing: a later declaration of an earlier name, and re-declared well-known names */
        name_key(t->name, key, sizeof key);
        for (size_t j = 0; j < i; j++) {
            name_key(tools[j].name, other, sizeof other);
            if (strcmp(key, other) == 0) {
                if ((x = add(f, C_SHADOW_DUP, ti)))
                    snprintf(x->extra, sizeof x->extra, "First declared as tools[%zu].", j);
                break;
            }
        }
        for (size_t k = 0; KNOWN_TOOLS[k]; k++)
            if (strcmp(key, KNOWN_TOOLS[k]) == 0)
                add(f, C_SHADOW_KNOWN, ti);

        /* schema */
        if (!t->schema) {
            if (d)
                add(f, C_SCHEMA_MISSING, ti);
            continue;
        }
        char list[320];
        if (risky_params(t->schema, list, sizeof list) > 0 && (x = add(f, C_SCHEMA_FREEFORM, ti)))
            snprintf(x->extra, sizeof x->extra, "%s", list);
        if (json_is_true(json_object_get(t->schema, "additionalProperties")))
            add(f, C_SCHEMA_ADDL, ti);
    }
}

static json_t *scan(const char *url, const char *auth_raw, const struct tool *tools, size_t ntools)
{
    enum scheme sc = SC_HTTP;
    char host[256];
    if (parse_url(url, &sc, host) != NULL)
        return NULL; /* validated before */
    char auth[4 * BW_MCP_AUTH_MAX + 8];
    normalise_auth(auth_raw ? auth_raw : "", auth, sizeof auth);
    bool known = false;
    for (size_t i = 0; KNOWN_AUTH[i]; i++)
        known |= strcmp(auth, KNOWN_AUTH[i]) == 0;

    struct findings f = {0};
    enum hostclass hc = sc == SC_STDIO ? H_NONE : classify_host(host);
    bool remote = hc != H_NONE && hc != H_LOOPBACK; /* a wildcard bind is reachable from outside */
    bool plain = sc == SC_HTTP || sc == SC_WS;

    if (sc != SC_STDIO && strcmp(auth, "none") == 0)
        add(&f, remote ? C_AUTH_NONE_REMOTE : C_AUTH_NONE_LOCAL, 0);
    if (plain && remote && (strcmp(auth, "basic") == 0 || strcmp(auth, "api_key") == 0 || strcmp(auth, "bearer") == 0))
        add(&f, C_AUTH_CLEAR, 0);
    if (!known)
        add(&f, C_AUTH_UNKNOWN, 0);
    if (plain && remote)
        add(&f, C_TRANSPORT_PLAIN, 0);
    if (sc == SC_STDIO)
        add(&f, C_TRANSPORT_STDIO, 0);
    if (hc == H_WILDCARD)
        add(&f, C_NET_WILDCARD, 0);
    else if (hc == H_PRIVATE)
        add(&f, C_NET_PRIVATE, 0);
    else if (hc == H_PUBLIC_IP)
        add(&f, C_NET_PUBLIC, 0);

    size_t ndangerous = 0;
    scan_tools(tools, ntools, &f, &ndangerous);
    if (ntools > BW_MCP_MANY_TOOLS)
        add(&f, C_TOOLS_MANY, 0);
    if (f.oom) {
        free(f.v);
        return NULL;
    }

    if (f.n > 1)
        qsort(f.v, f.n, sizeof *f.v, cmp_finding);
    int score = 0;
    for (size_t i = 0; i < f.n; i++) {
        score += WEIGHT[CHECKS[f.v[i].c].sev];
        if (score > 100)
            score = 100;
    }
    json_t *items = json_array();
    for (size_t i = 0; i < f.n && i < BW_MCP_MAX_FINDINGS; i++) {
        const struct finding *x = &f.v[i];
        const struct check_def *c = &CHECKS[x->c];
        char detail[1024];
        snprintf(detail, sizeof detail, "%s%s%s", c->detail, x->extra[0] ? " " : "", x->extra);
        json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s}", "id", c->id, "type", c->type, "severity", SEV_NAME[c->sev],
                              "title", c->title, "detail", detail);
        if (o && x->tool)
            json_object_set_new(o, "tool", json_string(tools[x->tool - 1].name));
        if (o)
            json_object_set_new(o, "remediation", json_string(c->remediation));
        json_array_append_new(items, o);
    }
    free(f.v);
    json_t *summary = json_pack("{s:I,s:I,s:s,s:s}", "tools", (json_int_t)ntools, "dangerous_tools",
                                (json_int_t)ndangerous, "auth", auth, "transport", SCHEME_NAME[sc]);
    return json_pack("{s:b,s:i,s:s,s:o,s:o}", "ok", 1, "risk_score", score, "risk_level", bw_mcp_risk_level(score),
                     "findings", items, "summary", summary);
}

json_t *bw_mcp_scan_body(const json_t *body, json_t **errors)
{
    *errors = NULL;
    json_t *errs = json_array();
    if (!errs)
        return NULL;
    const json_t *cfg = json_is_object(body) ? json_object_get(body, "mcp_config") : NULL;
    if (!cfg || json_is_null(cfg)) {
        add_err(errs, "mcp_config", "is required");
        *errors = errs;
        return NULL;
    }
    if (!json_is_object(cfg)) {
        add_err(errs, "mcp_config", "must be an object");
        *errors = errs;
        return NULL;
    }
    bool bad = false;
    const char *url = str_field(cfg, "server_url", "mcp_config.server_url", true, true, BW_MCP_URL_MAX, errs, &bad);
    if (url) {
        enum scheme sc;
        char host[256];
        const char *why = parse_url(url, &sc, host);
        if (why)
            add_err(errs, "mcp_config.server_url", why);
    }
    const char *auth = str_field(cfg, "auth_method", "mcp_config.auth_method", false, false, BW_MCP_AUTH_MAX, errs, &bad);
    const json_t *tools = json_object_get(cfg, "tools");
    struct tool *tv = NULL;
    size_t nt = 0;
    if (tools && !json_is_null(tools)) {
        if (!json_is_array(tools)) {
            add_err(errs, "mcp_config.tools", "must be an array");
        } else if (json_array_size(tools) > BW_MCP_TOOLS_MAX) {
            add_err(errs, "mcp_config.tools", "must have at most 500 items");
        } else {
            nt = json_array_size(tools);
            tv = calloc(nt ? nt : 1, sizeof *tv);
            if (!tv) {
                json_decref(errs);
                return NULL;
            }
            validate_tools(tools, tv, errs);
        }
    }
    if (json_array_size(errs) > 0) {
        free(tv);
        *errors = errs;
        return NULL;
    }
    json_decref(errs);
    json_t *out = scan(url, auth, tv, nt);
    free(tv);
    return out;
}
