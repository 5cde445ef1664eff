/* Playbook generator: a record document in, a playbook object out (contract in playbook.h).
 *
 * How it is put together: facts_read() reduces the record to a struct of bounded, cleaned values
 * (text clipped on UTF-8 boundaries, control characters turned into spaces), plus bit sets for
 * the weakness classes of its CWEs and for its AI impacts. Each member of the playbook is then
 * built from those facts by one function, from fixed tables of prose templates ("{product}" and
 * friends are filled by expand()). Nothing iterates over a hash table, reads the clock or the
 * locale, so the output is a function of the record alone. */
#include "engine/intel/playbook.h"
#include "common/jsonx.h"

#include "common/jtree.h"
#include "common/sbuf.h"
#include "common/utf8.h"
#include "common/timeutil.h"

#include "engine/intel/attack.h"
#include "engine/intel/facts.h"
#include "engine/intel/ids.h"
#include "engine/intel/intel.h"
#include "engine/intel/kql.h"
#include "net/url.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- record facts ----------------------------------------------------------------------- */

enum wclass { W_PATH, W_CMD, W_CODE, W_DESER, W_SSRF, W_XSS, W_SQLI, W_AUTH, W_UPLOAD, W_CRED,
              W_MEM, W_INFO, W_DOS, W_CSRF, W_INPUT, W_COUNT };

#define NAME_CAP (BW_PLAYBOOK_MAX_NAME + 1)

/* eco, introduced and fixed are right only whole (they are pasted into commands and compared):
 * one that does not fit is left out (clip_whole), never cut. A name longer than
 * BW_PLAYBOOK_MAX_NAME is shown cut, but never pasted into a command or a version query. */
struct affected {
    char name[NAME_CAP]; /* package, else product */
    bool name_cut;
    char eco[64];
    char introduced[96];
    char fixed[96];
};
_Static_assert(sizeof ((struct affected *)0)->fixed <= NAME_CAP, "texts size their buffers for a name");

struct facts {
    enum bw_facts_type type;
    const char *type_word; /* "vulnerability", "advisory", ... */
    char id[80];
    char title[240];
    char summary[480];
    const char *tier;      /* one of the four words, static */
    const char *sla;       /* "24 hours" ... */
    const char *priority;  /* "P1" ... */
    int lookback;          /* days */
    int risk_score;        /* -1 when absent */
    int cvss10;            /* base score x10, -1 when absent */
    char cvss_version[8];
    bool av_network;
    bool kev, exploit;
    char kev_added[11], kev_due[11]; /* YYYY-MM-DD (bw_iso_day), or "" */
    char kev_action[320];
    bool kev_ransomware;
    char published[11];
    unsigned impacts;                /* BW_IMPACT_* (facts.h) */
    unsigned weak;                   /* bit per enum wclass */
    int weak_cwe[W_COUNT];           /* the CWE number that set the class */
    char product[NAME_CAP];          /* display name */
    bool has_product;                /* a real name, not a generic phrase */
    char tokens[BW_PLAYBOOK_MAX_TOKENS][NAME_CAP]; /* product/package names for queries */
    size_t ntok;
    struct affected aff[BW_PLAYBOOK_MAX_ITEMS];
    size_t naff;
    int pkg;                         /* index in aff of the first package with an ecosystem, -1 */
    const json_t *cve, *cwe, *attack, *atlas, *refs, *aliases;
};

/* Copies s into dst (size n): control characters become spaces, and a cut never splits a UTF-8
 * sequence (jansson strings are valid UTF-8, so the result is too). Returns true when cut. */
static bool clip(char *dst, size_t n, const char *s)
{
    size_t i = 0;
    bool cut = false;
    if (!s)
        s = "";
    for (; s[i]; i++) {
        if (i + 1 >= n) {
            cut = true;
            break;
        }
        unsigned char c = (unsigned char)s[i];
        dst[i] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
    }
    if (cut)
        while (i > 0 && ((unsigned char)dst[i - 1] & 0xC0) == 0x80)
            i--;
    if (cut && i > 0 && ((unsigned char)dst[i - 1] & 0x80))
        i--; /* drop the lead byte whose continuation bytes were cut */
    dst[i] = '\0';
    /* trim trailing spaces */
    while (i > 0 && dst[i - 1] == ' ')
        dst[--i] = '\0';
    return cut;
}

/* clip() for prose: a cut ends in "..." (n > 4). */
static void clip_prose(char *dst, size_t n, const char *s)
{
    if (clip(dst, n - 4, s))
        strcat(dst, "...");
}

/* clip() for a value that is only right whole (a version, an ecosystem): "" when it does not fit. */
static void clip_whole(char *dst, size_t n, const char *s)
{
    if (clip(dst, n, s))
        dst[0] = '\0';
}

static bool eq(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

/* ASCII case-insensitive compare, locale-free */
static bool ieq(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z')
            x = (unsigned char)(x + 32);
        if (y >= 'A' && y <= 'Z')
            y = (unsigned char)(y + 32);
        if (x != y)
            return false;
        if (!x)
            return true;
    }
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Characters allowed in a package name or version we paste into a command or regex. */
static bool safe_token(const char *s, const char *extra)
{
    if (!*s)
        return false;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || strchr(extra, c)))
            return false;
    }
    return true;
}

/* ---- weakness classes ------------------------------------------------------------------ */

struct weakness {
    const char *label;
    int cwes[12];          /* 0-terminated */
    const char *detect;    /* detection guidance */
    const char *action;    /* containment action, or NULL */
    const char *harden;    /* Protect / architecture */
    const char *technique; /* ATT&CK technique inferred from it, or NULL */
    const char *url_regex; /* marker in web request URLs (RE2, used case-insensitively), or NULL */
    bool exec;             /* leads to code execution on the host */
};

static const struct weakness WEAK[W_COUNT] = {
    [W_PATH] = {"path traversal", {22, 23, 24, 29, 35, 36, 73, 59, 0},
        "Alert on requests to {product} whose path or parameters carry traversal sequences (../, ..\\, %2e%2e, %2f..) or absolute paths, and on the {product} process reading files outside its data directories (/etc/passwd, ~/.ssh, cloud credential files, .env files).",
        "Assume every file readable by the {product} service account was read: rotate the secrets those files hold (.env files, cloud credential files, SSH keys, API tokens) and review file access outside its data directories.",
        "Run {product} as an unprivileged user that can read only its own data directory (a container with a read-only root filesystem and no host mounts), so a traversal reaches nothing of value.",
        "T1005",
        "\\.\\./|\\.\\.\\\\|%2e%2e|\\.\\.%2f|%2f\\.\\.|%5c\\.\\.|/etc/passwd|/proc/self/|win\\.ini|\\.ssh/|\\.aws/credentials",
        false},
    [W_CMD] = {"OS command injection", {77, 78, 88, 0},
        "Alert when {product} starts a shell or system utility (sh, bash, cmd.exe, powershell, curl, wget, nc) and on request parameters carrying shell metacharacters (; | ` $( ) followed by a command.",
        "Treat hosts that ran a vulnerable {product} as possibly compromised: look for processes, cron jobs, systemd units, SSH keys and outbound connections created by its service account.",
        "Run {product} where its service account has no shell to start (distroless image, seccomp or AppArmor profile denying execve of shells) and behind egress filtering, so injected commands cannot fetch tooling.",
        "T1059",
        "(;|%3b|\\||%7c|\\$\\(|%24%28|`|%60)(\\s|%20|\\+)*(id|whoami|uname|cat|curl|wget|bash|sh|nc|ncat|powershell|cmd)\\b",
        true},
    [W_CODE] = {"code injection", {94, 95, 96, 913, 917, 1336, 0},
        "Alert when {product} evaluates unexpected code: child processes, outbound connections or file writes right after requests whose bodies carry code constructs (__import__, exec(, eval(, os.system, subprocess, template expressions such as {{ }} or ${ }).",
        "Rebuild hosts and containers that ran a vulnerable {product} exposed to untrusted input instead of cleaning them: code injection gives the attacker the service's full privileges.",
        "Switch off code-evaluation features of {product} that are not needed (custom code components, server-side rendering of user templates) and run it in a sandbox with no credentials mounted.",
        "T1059",
        "__import__|exec\\(|eval\\(|os\\.system|subprocess|popen|\\{\\{.*\\}\\}|\\$\\{.*\\}",
        true},
    [W_DESER] = {"unsafe deserialization", {502, 0},
        "Alert on {product} loading serialized objects or model files (pickle, joblib, PyTorch .pt/.pth/.bin, YAML with python tags) from locations untrusted users can write, and on child processes started right after such a load.",
        "Inventory every model and serialized artifact {product} loads; quarantine those whose origin cannot be verified and fetch them again from trusted sources with checksums.",
        "Accept only data-only formats (safetensors, JSON, ONNX without custom operators) from untrusted sources; where pickle-based formats must stay, load them in an isolated sandbox without network and with restricted loaders (e.g. torch.load with weights_only=True).",
        "T1059",
        "\\.(pkl|pickle|pt|pth|joblib|ckpt)(\\?|$)|rO0AB|__reduce__|!!python/",
        true},
    [W_SSRF] = {"server-side request forgery", {918, 0},
        "Alert on the {product} process connecting to cloud metadata endpoints (169.254.169.254, metadata.google.internal, 100.100.100.200), to loopback or internal administration ports, or to file:// and gopher:// URLs, and on requests passing such URLs as parameters.",
        "Rotate the cloud credentials of the instance role or service account {product} runs under and review their use since the exposure began: SSRF is mostly used to steal them from the metadata service.",
        "Require IMDSv2 (or the provider's equivalent metadata header) and an egress allow-list for {product}, so it cannot reach metadata services or internal networks on an attacker's behalf.",
        "T1552.005",
        "(=|%3d)(https?(:|%3a)(/|%2f)(/|%2f))?(169\\.254\\.169\\.254|metadata\\.google\\.internal|100\\.100\\.100\\.200|127\\.0\\.0\\.1|localhost|\\[::1\\])|(=|%3d)(file|gopher|dict)(:|%3a)",
        false},
    [W_XSS] = {"cross-site scripting", {79, 80, 83, 87, 0},
        "Alert on requests to {product} carrying script markup in parameters (<script, javascript:, onerror=, their encoded forms) and on stored content in it that contains such markup; its web users are the target.",
        "Invalidate the sessions and API tokens of {product} users, administrators first, if scripts may have run in their browsers.",
        "Serve {product}'s web interface with a strict Content-Security-Policy, HttpOnly and SameSite session cookies, and to authenticated internal users only.",
        "T1059.007",
        "<script|%3cscript|javascript:|onerror(\\s|%20)*=|onload(\\s|%20)*=|%3csvg|<svg",
        false},
    [W_SQLI] = {"SQL injection", {89, 564, 943, 0},
        "Alert on requests to {product} with SQL syntax in parameters (UNION SELECT, ' OR 1=1, SLEEP(, information_schema) and on database errors or unusually large result sets returned to one client.",
        "Review the database behind {product} for data read or changed through the injection: query logs, new accounts, changed permissions.",
        "Give {product}'s database account only the rights it needs (no DDL, no file or command functions) and put a WAF rule set in front of it.",
        "T1190",
        "union(\\s|%20|\\+)+(all(\\s|%20|\\+)+)?select|'(\\s|%20|\\+)*(or|and)(\\s|%20|\\+)+[0-9]+=[0-9]+|sleep\\(|benchmark\\(|information_schema|xp_cmdshell",
        false},
    [W_AUTH] = {"missing or broken access control", {284, 285, 287, 288, 290, 306, 425, 639, 862, 863, 1390, 0},
        "Alert on calls to {product}'s API from outside the expected client networks, on successful calls to administrative or code-handling endpoints without an authenticated user, and on first-seen source addresses.",
        "Check {product}'s access logs for calls that succeeded without an authenticated user since it was exposed: each one is a potential compromise, not just an attempt.",
        "Never expose {product}'s API directly: require SSO/OIDC at a reverse proxy, restrict it by network, and keep administrative endpoints apart from user traffic.",
        "T1190", NULL, false},
    [W_UPLOAD] = {"unrestricted file upload", {434, 0},
        "Alert on files written by {product} with executable or model-file extensions (.py, .sh, .php, .jsp, .pkl, .pt) and on such files being run or loaded afterwards.",
        "Review the files uploaded to {product} since the exposure began; remove unknown scripts and model files.",
        "Store uploads to {product} outside every executable or model-loading path, with type checks and without execute permission.",
        "T1505.003", "\\.(php|jsp|jspx|aspx?|py|sh|pkl|pt)(\\?|$)", true},
    [W_CRED] = {"hard-coded or weakly protected credentials", {256, 259, 312, 321, 522, 798, 0},
        "Alert on logins to {product}, and to the services it connects to, with default or embedded credentials, and on their use from unexpected hosts.",
        "Replace the default or embedded credentials of {product} and of every service it connects to.",
        "Provision {product}'s credentials from a secrets manager at start, unique per deployment, never baked into images or code.",
        "T1552.001", NULL, false},
    [W_MEM] = {"memory corruption", {119, 120, 121, 122, 125, 190, 416, 476, 787, 824, 0},
        "Alert on crashes and restarts of processes using {product} (segmentation faults, aborts), above all while parsing models, tensors or files from outside, and on child processes after such a crash.",
        "Stop feeding models, tensors and files from untrusted sources to {product} until it is patched.",
        "Parse untrusted models and inputs with {product} in a sandboxed worker (seccomp, no network, no credentials) that can crash without harm.",
        "T1203", NULL, true},
    [W_INFO] = {"information exposure", {200, 201, 209, 359, 497, 532, 538, 0},
        "Alert on responses from {product} that contain secrets or internal details (stack traces, keys, tokens, file paths) and on clients downloading unusual volumes from it.",
        "Rotate every secret {product} may have exposed (API keys, tokens, connection strings) and check the logs for their use.",
        "Keep secrets out of {product}'s responses and logs: a secrets manager, redaction in logging, generic error pages.",
        NULL, NULL, false},
    [W_DOS] = {"resource exhaustion", {400, 674, 770, 789, 834, 835, 1333, 0},
        "Alert on request bursts to {product}, long-running requests and memory or CPU saturation of its process.",
        "Set per-client rate limits and request size and time caps in front of {product} until it is patched.",
        "Give {product} resource quotas (cgroup or container limits), autoscaling with a ceiling and per-client rate limits at the gateway.",
        "T1499", NULL, false},
    [W_CSRF] = {"cross-site request forgery", {352, 0},
        "Alert on state-changing requests to {product} whose Origin or Referer is not its own site.",
        NULL,
        "Require anti-CSRF tokens and SameSite cookies on {product}'s state-changing endpoints.",
        NULL, NULL, false},
    [W_INPUT] = {"improper input validation", {20, 1284, 1287, 0},
        "Alert on malformed or oversized requests to {product} followed by errors or crashes of its process.",
        NULL,
        "Validate request size, type and structure at a gateway in front of {product}.",
        NULL, NULL, false},
};

static int weak_class(int cwe)
{
    for (int w = 0; w < W_COUNT; w++)
        for (size_t i = 0; i < 12 && WEAK[w].cwes[i]; i++)
            if (WEAK[w].cwes[i] == cwe)
                return w;
    return -1;
}

/* Wording for flaws reached through a model file (type model_advisory) instead of a network
 * service: there is no request to watch and no service to take offline, only loads. */
static const struct {
    enum wclass w;
    const char *detect, *action;
} WEAK_ARTIFACT[] = {
    {W_PATH, "Alert on processes that load models with {product} reading files outside the model directory (/etc/passwd, ~/.ssh, cloud credential files, .env files), and on model files whose external references point outside it (../ or absolute paths).",
     "Assume every file readable by the processes that loaded untrusted models with {product} was read: rotate the secrets those files hold (.env files, cloud credential files, SSH keys, API tokens)."},
    {W_DESER, "Alert on processes that load models with {product} and then start child processes or open network connections, and on pickle-based model files arriving from outside the approved registry.",
     "Quarantine model files of unknown origin that {product} would load, and fetch the ones you need again from the approved registry with verified hashes."},
    {W_CODE, "Alert on processes that load models with {product} and then start child processes or write files.",
     "Rebuild environments that loaded untrusted models with a vulnerable {product}: code in a crafted model runs with the privileges of the loading process."},
    {W_DOS, "Alert on model-loading or inference processes using {product} that exhaust memory or CPU, or crash, on particular input files.",
     "Stop loading models and inputs from untrusted sources with {product} until it is patched."},
};

static bool artifact(const struct facts *f);
static bool is_service(const struct facts *f);

static const char *weak_text(const struct facts *f, int w, bool action)
{
    if (artifact(f))
        for (size_t i = 0; i < sizeof WEAK_ARTIFACT / sizeof WEAK_ARTIFACT[0]; i++)
            if ((int)WEAK_ARTIFACT[i].w == w)
                return action ? WEAK_ARTIFACT[i].action : WEAK_ARTIFACT[i].detect;
    return action ? WEAK[w].action : WEAK[w].detect;
}

static bool has_w(const struct facts *f, enum wclass w)
{
    return f->weak & (1u << w);
}

static bool exec_weak(const struct facts *f)
{
    for (int w = 0; w < W_COUNT; w++)
        if (has_w(f, (enum wclass)w) && WEAK[w].exec)
            return true;
    return false;
}

static bool web_weak(const struct facts *f)
{
    for (int w = 0; w < W_COUNT; w++)
        if (has_w(f, (enum wclass)w) && WEAK[w].url_regex)
            return true;
    return false;
}

/* ---- AI impacts ----------------------------------------------------------------------- */

struct impact_info {
    const char *name;
    unsigned bit;
    const char *meaning; /* for the executive advisory */
    const char *action;  /* immediate action, or NULL */
    const char *detect;  /* detection guidance, or NULL */
    const char *technique;
};

static const struct impact_info IMPACTS[] = {
    {"agentic", BW_IMPACT_AGENTIC, "autonomous agents can carry an attack further without a human noticing", NULL,
     "Log every agent step (prompt, retrieved content, tool call and its result) under one session id, so an injected instruction can be traced to everything it caused.", NULL},
    {"tool_execution", BW_IMPACT_TOOL, "attackers can make AI agents run tools on their behalf",
     "Disable or restrict the affected tools and plugins in every agent deployment until reviewed, and require human approval for tool calls with side effects (shell, file write, e-mail, payments, outbound HTTP).",
     "Alert on agent tool calls with side effects that follow untrusted content (a retrieved page, document, e-mail or tool result) in the same session.", "T1059"},
    {"model_supply_chain", BW_IMPACT_SUPPLY, "models or AI packages taken from outside can carry malicious code",
     "Load models, datasets and AI packages only from pinned, verified sources: check hashes or signatures, prefer safetensors to pickle-based formats, and block unapproved model hubs at the proxy.",
     "Alert on model files and AI packages pulled from sources outside the approved registries, and on pickle-based model files appearing on hosts.", "T1195.001"},
    {"data_exposure", BW_IMPACT_DATA, "sensitive data can leak",
     "Rotate credentials and tokens that {product} could read or that appeared in prompts, context or logs, and review what data the users, connectors and agents of {product} could reach.",
     "Scan model output and outbound requests of AI applications for secrets and personal data (key formats, tokens, e-mail addresses) and alert on hits.", "T1567"},
    {"prompt_injection", BW_IMPACT_PROMPT, "untrusted text can override the application's instructions",
     "Turn on input and output guardrails (prompt-injection classifiers, content filters) for every LLM endpoint, and treat retrieved documents, web pages, e-mails and tool results as data, never as instructions.",
     "Track guardrail verdicts per application and per user: a rising rate of blocked or flagged prompts is an early sign of a campaign.", NULL},
    {"model_theft", BW_IMPACT_THEFT, "models can be copied",
     "Rate-limit and monitor inference API use per key and tenant; restrict who can download model weights and watch model registries for bulk downloads.",
     "Alert on systematic, high-volume querying of a model by one key or tenant and on bulk downloads of model weights.", NULL},
    {"availability", BW_IMPACT_AVAIL, "AI services can be made unavailable or costly",
     "Cap request size, tokens and rate per client on the affected AI endpoints, and set spend alerts on AI services.",
     "Alert on request, token and GPU usage spikes of AI services and on spend above forecast.", "T1499"},
};
#define N_IMPACTS (sizeof IMPACTS / sizeof IMPACTS[0])

/* ---- reading the record ---------------------------------------------------------------- */

/* The data-exposure wording of IMPACTS speaks of prompts and agents; for a product or library
 * flaw these say the same about the product. */
static const char *const DATA_ACTION_SERVICE = "Rotate the credentials and API keys stored in or reachable by {product} (configuration, environment, connected data stores), and review what data it exposes.";
static const char *const DATA_DETECT_SERVICE = "Alert on large or unusual downloads from {product} (artifacts, models, datasets, logs) by a single client or identity.";

static void add_token(struct facts *f, const char *name)
{
    if (!*name || f->ntok >= BW_PLAYBOOK_MAX_TOKENS)
        return;
    for (size_t i = 0; i < f->ntok; i++)
        if (ieq(f->tokens[i], name))
            return;
    clip(f->tokens[f->ntok++], NAME_CAP, name);
}

/* The leading numeric part of a version ("2.9.2rc1" -> "2.9.2"), at most four parts, or "". */
static void numeric_version(char *dst, size_t n, const char *v)
{
    size_t i = 0, parts = 0;
    while (v[i] && i + 1 < n) {
        if (!is_digit(v[i]))
            break;
        while (v[i] && is_digit(v[i]) && i + 1 < n) {
            dst[i] = v[i];
            i++;
        }
        parts++;
        if (v[i] != '.' || parts == 4 || !is_digit(v[i + 1]) || i + 2 >= n)
            break;
        dst[i] = '.';
        i++;
    }
    dst[i] = '\0';
}

static void facts_read(struct facts *f, const json_t *rec)
{
    struct bw_facts r;
    memset(f, 0, sizeof *f);
    bw_facts_read(&r, rec);
    f->pkg = -1;
    f->type = r.type;
    static const char *const words[] = {[BW_FACTS_PROMPT_ATTACK] = "prompt attack",
                                        [BW_FACTS_AGENT_THREAT] = "agent threat",
                                        [BW_FACTS_AI_CVE] = "vulnerability",
                                        [BW_FACTS_MODEL_ADVISORY] = "advisory",
                                        [BW_FACTS_OTHER] = "threat"};
    f->type_word = words[f->type];
    clip(f->id, sizeof f->id, r.id);
    if (!f->id[0])
        strcpy(f->id, "this threat");
    clip_prose(f->title, sizeof f->title, r.title);
    clip_prose(f->summary, sizeof f->summary, r.summary);

    /* the risk tier, else the severity, else MEDIUM */
    int t = r.risk_tier >= 0 ? r.risk_tier : r.severity >= 0 ? r.severity : 2;
    static const char *const sla[] = {"24 hours", "72 hours", "14 days", "30 days"};
    static const char *const prio[] = {"P1", "P2", "P3", "P4"};
    f->tier = bw_intel_severities[t];
    f->sla = sla[t];
    f->priority = prio[t];

    const json_t *rs = json_object_get(rec, "risk_score");
    f->risk_score = -1;
    if (json_is_number(rs)) {
        double v = json_number_value(rs);
        if (v >= 0 && v <= 100)
            f->risk_score = (int)(v + 0.5);
    }
    const json_t *cvss = json_object_get(rec, "cvss");
    const json_t *bs = json_object_get(cvss, "base_score");
    f->cvss10 = -1;
    if (json_is_number(bs)) {
        double v = json_number_value(bs);
        if (v >= 0 && v <= 10)
            f->cvss10 = (int)(v * 10 + 0.5);
    }
    clip(f->cvss_version, sizeof f->cvss_version, bw_json_str(cvss, "version"));
    f->av_network = strstr(bw_json_str(cvss, "vector"), "AV:N") != NULL;

    f->kev = r.kev;
    f->exploit = r.exploit;
    if (r.kev_details) {
        /* stored as ISO 8601 timestamps ("2025-05-05T00:00:00Z"); text uses the day */
        bw_iso_day(f->kev_added, r.kev_added);
        bw_iso_day(f->kev_due, r.kev_due);
        clip_prose(f->kev_action, sizeof f->kev_action, r.kev_action);
        f->kev_ransomware = ieq(r.kev_ransomware, "known");
        char vendor[NAME_CAP], product[NAME_CAP], both[2 * NAME_CAP + 2];
        clip(vendor, sizeof vendor, r.kev_vendor);
        clip(product, sizeof product, r.kev_product);
        if (product[0]) {
            /* "Langflow" rather than "Langflow Langflow" */
            if (vendor[0] && !ieq(vendor, product))
                snprintf(both, sizeof both, "%s %s", vendor, product);
            else
                snprintf(both, sizeof both, "%s", product);
            clip(f->product, sizeof f->product, both);
            add_token(f, product);
        }
    }
    bw_iso_day(f->published, r.published); /* ISO 8601; text uses the day */

    f->impacts = r.impacts;
    f->cve = r.cve;
    f->cwe = r.cwe;
    f->attack = r.attack;
    f->atlas = r.atlas;
    f->refs = r.references;
    f->aliases = r.aliases;

    size_t i;
    const json_t *v;
    json_array_foreach(f->cwe, i, v) {
        if (i >= BW_PLAYBOOK_MAX_ITEMS)
            break;
        int n = bw_cwe_number(json_string_value(v));
        int w = n > 0 ? weak_class(n) : -1;
        if (w >= 0 && !(f->weak & (1u << w))) {
            f->weak |= 1u << w;
            f->weak_cwe[w] = n;
        }
    }

    json_array_foreach(r.affected, i, v) {
        if (f->naff >= BW_PLAYBOOK_MAX_ITEMS)
            break;
        if (!json_is_object(v))
            continue;
        struct affected *a = &f->aff[f->naff];
        const char *pkg = bw_json_str(v, "package"), *product = bw_json_str(v, "product");
        a->name_cut = clip(a->name, sizeof a->name, *pkg ? pkg : product);
        if (!a->name[0])
            continue;
        clip_whole(a->eco, sizeof a->eco, bw_json_str(v, "ecosystem"));
        clip_whole(a->introduced, sizeof a->introduced, bw_json_str(v, "introduced"));
        clip_whole(a->fixed, sizeof a->fixed, bw_json_str(v, "fixed"));
        if (f->pkg < 0 && *pkg && a->eco[0] && !a->name_cut && safe_token(a->name, "._-@/")) /* npm scopes, Go paths */
            f->pkg = (int)f->naff;
        add_token(f, a->name);
        if (*pkg && *product)
            add_token(f, product);
        f->naff++;
    }
    if (!f->product[0] && f->naff)
        snprintf(f->product, sizeof f->product, "%s", f->aff[0].name);
    f->has_product = f->product[0] != '\0';
    if (!f->has_product)
        snprintf(f->product, sizeof f->product, "%s",
                 f->type == BW_FACTS_PROMPT_ATTACK ? "the affected LLM application"
                 : f->type == BW_FACTS_AGENT_THREAT ? "the affected AI agent"
                 : "the affected product");

    f->lookback = f->exploit ? 90 : t <= 1 ? 30 : 14;
}

/* ---- build context ---------------------------------------------------------------------- */

struct ctx {
    const json_t *rec;
    struct facts f;
    struct bw_sb s;       /* scratch for one string at a time */
    struct bw_jt_arena a; /* the playbook's values (jtree.h) */
    bool oom;
};

/* Values in the playbook's arena (NULL when it cannot grow, which set/append record). */
static struct bw_jt *jstr(struct ctx *c, const char *s) { return bw_jt_string(&c->a, s); }
static struct bw_jt *jarr(struct ctx *c) { return bw_jt_array(&c->a); }
static struct bw_jt *jobj(struct ctx *c) { return bw_jt_object(&c->a); }
static struct bw_jt *jbool(struct ctx *c, bool v) { return bw_jt_bool(&c->a, v); }
static struct bw_jt *jint(struct ctx *c, int64_t v) { return bw_jt_int(&c->a, v); }

/* An object of string members: n pairs of key (a literal) and value. */
static struct bw_jt *jstrs(struct ctx *c, int n, ...)
{
    struct bw_jt *o = jobj(c);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *k = va_arg(ap, const char *), *v = va_arg(ap, const char *);
        if (!bw_jt_set(o, k, jstr(c, v)))
            o = NULL; /* the arena is kept; the caller sees NULL */
    }
    va_end(ap);
    return o;
}

/* Template placeholders: {product} {id} {tier} {sla} {lookback}. */
static void expand(struct ctx *c, struct bw_sb *b, const char *tmpl)
{
    const struct facts *f = &c->f;
    for (const char *p = tmpl; *p;) {
        const char *open = strchr(p, '{');
        if (!open) {
            bw_sb_puts(b, p);
            break;
        }
        bw_sb_putn(b, p, (size_t)(open - p));
        const char *close = strchr(open, '}');
        size_t n = close ? (size_t)(close - open - 1) : 0;
        const char *val = NULL;
        char num[16];
        if (close && n == 7 && strncmp(open + 1, "product", 7) == 0)
            val = f->product;
        else if (close && n == 2 && strncmp(open + 1, "id", 2) == 0)
            val = f->id;
        else if (close && n == 4 && strncmp(open + 1, "tier", 4) == 0)
            val = f->tier;
        else if (close && n == 3 && strncmp(open + 1, "sla", 3) == 0)
            val = f->sla;
        else if (close && n == 8 && strncmp(open + 1, "lookback", 8) == 0) {
            snprintf(num, sizeof num, "%d", f->lookback);
            val = num;
        }
        if (val) {
            bw_sb_puts(b, val);
            p = close + 1;
        } else {
            bw_sb_putn(b, open, 1); /* a literal brace, e.g. "{{ }}" in prose */
            p = open + 1;
        }
    }
}

static void set(struct ctx *c, struct bw_jt *o, const char *k, struct bw_jt *v)
{
    if (!bw_jt_set(o, k, v))
        c->oom = true;
}

static void append(struct ctx *c, struct bw_jt *a, struct bw_jt *v)
{
    if (!bw_jt_append(a, v))
        c->oom = true;
}

static bool contains_str(const struct bw_jt *a, const char *s)
{
    for (const struct bw_jt *v = a ? a->u.kids.first : NULL; v; v = v->next)
        if (bw_jt_str(v) && eq(bw_jt_str(v), s))
            return true;
    return false;
}

/* Appends the text unless the array already holds it. */
static void push(struct ctx *c, struct bw_jt *a, const char *s)
{
    if (*s && !contains_str(a, s))
        append(c, a, jstr(c, s));
}

/* Appends an expanded template. */
static void pusht(struct ctx *c, struct bw_jt *a, const char *tmpl)
{
    bw_sb_reset(&c->s);
    expand(c, &c->s, tmpl);
    if (c->s.oom)
        c->oom = true;
    push(c, a, bw_sb_str(&c->s));
}

/* Sentence helper: text followed by '.' unless it already ends with one. */
static void sb_sentence(struct bw_sb *b, const char *text)
{
    if (!*text)
        return;
    if (b->len && b->p[b->len - 1] != ' ')
        bw_sb_puts(b, " ");
    bw_sb_puts(b, text);
    size_t n = strlen(text);
    char last = text[n - 1];
    if (last != '.' && last != '!' && last != '?')
        bw_sb_puts(b, ".");
}

/* ---- ATT&CK techniques of the record ------------------------------------------------------ */

enum tsrc { SRC_RECORD, SRC_ATLAS, SRC_INFERRED };
static const char *const SRC_NAME[] = {"record", "atlas_reference", "inferred"};

struct cand {
    const struct bw_attack_technique *t;
    enum tsrc src;
    char basis[320];
};

struct cands {
    struct cand v[BW_PLAYBOOK_MAX_TECHNIQUES];
    size_t n;
};

static void cand_add(struct cands *cs, const struct bw_attack_technique *t, enum tsrc src, const char *basis)
{
    if (!t || cs->n >= BW_PLAYBOOK_MAX_TECHNIQUES)
        return;
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].t == t)
            return;
    struct cand *c = &cs->v[cs->n++];
    c->t = t;
    c->src = src;
    clip(c->basis, sizeof c->basis, basis);
}

/* The record's ATLAS techniques that the ATLAS table knows, in record order, capped. */
static size_t atlas_of(const struct facts *f, const struct bw_atlas_technique **out, size_t cap)
{
    size_t n = 0, i;
    const json_t *v;
    json_array_foreach(f->atlas, i, v) {
        if (n >= cap)
            break;
        const struct bw_atlas_technique *t = bw_atlas_technique_resolve(json_string_value(v));
        bool dup = false;
        for (size_t k = 0; k < n; k++)
            dup |= out[k] == t;
        if (t && !dup)
            out[n++] = t;
    }
    return n;
}

/* Steps (1) to (3) of playbook.h: record techniques, else ATLAS references, else inference. */
static void techniques_collect(const struct facts *f, struct cands *cs)
{
    char basis[320];
    size_t i;
    const json_t *v;
    cs->n = 0;
    json_array_foreach(f->attack, i, v) {
        const char *id = json_string_value(v);
        if (!id || !bw_attack_id_valid(id))
            continue;
        const struct bw_attack_technique *t = bw_attack_technique_resolve(id);
        if (t && !eq(t->id, id))
            snprintf(basis, sizeof basis, "%s is listed in the record; it is not in the ATT&CK table, so its parent %s stands for it", id, t->id);
        else
            snprintf(basis, sizeof basis, "%s is listed in the record (attack_techniques)", id);
        cand_add(cs, t, SRC_RECORD, basis);
    }
    if (cs->n)
        return;
    const struct bw_atlas_technique *at[BW_PLAYBOOK_MAX_ITEMS];
    size_t na = atlas_of(f, at, BW_PLAYBOOK_MAX_ITEMS);
    for (i = 0; i < na; i++) {
        const struct bw_attack_technique *ref = at[i]->attack_reference;
        if (!ref && at[i]->parent)
            ref = at[i]->parent->attack_reference;
        if (ref) {
            snprintf(basis, sizeof basis, "MITRE ATLAS gives %s as the ATT&CK equivalent of %s (%s)", ref->id, at[i]->id, at[i]->name);
            cand_add(cs, ref, SRC_ATLAS, basis);
        }
    }
    if (cs->n)
        return;

    /* (3) inference from the record's facts */
    bool service = f->type == BW_FACTS_AI_CVE || f->type == BW_FACTS_MODEL_ADVISORY || f->type == BW_FACTS_OTHER;
    bool python = f->pkg >= 0 && ieq(f->aff[f->pkg].eco, "PyPI");
    if (f->type == BW_FACTS_MODEL_ADVISORY) {
        snprintf(basis, sizeof basis, "inferred from the record type model_advisory: the flaw in %s is triggered by a crafted model file that someone loads", f->product);
        cand_add(cs, bw_attack_technique_find("T1204.002"), SRC_INFERRED, basis);
    } else if (service && f->av_network) {
        snprintf(basis, sizeof basis, "inferred: the CVSS vector gives a network attack vector (AV:N) for %s", f->product);
        cand_add(cs, bw_attack_technique_find("T1190"), SRC_INFERRED, basis);
    }
    for (int w = 0; w < W_COUNT; w++) {
        if (!has_w(f, (enum wclass)w) || !WEAK[w].technique)
            continue;
        const char *tid = WEAK[w].technique;
        if ((w == W_CODE || w == W_DESER) && python)
            tid = "T1059.006"; /* the injected code is Python */
        snprintf(basis, sizeof basis, "inferred from CWE-%d (%s)", f->weak_cwe[w], WEAK[w].label);
        cand_add(cs, bw_attack_technique_find(tid), SRC_INFERRED, basis);
    }
    for (size_t k = 0; k < N_IMPACTS; k++) {
        if (!(f->impacts & IMPACTS[k].bit) || !IMPACTS[k].technique)
            continue;
        if (IMPACTS[k].bit == BW_IMPACT_DATA && service)
            continue; /* for a product flaw, how data is exposed follows from its weakness */
        snprintf(basis, sizeof basis, "inferred from the AI impact %s", IMPACTS[k].name);
        cand_add(cs, bw_attack_technique_find(IMPACTS[k].technique), SRC_INFERRED, basis);
    }
    if (cs->n || na)
        return; /* ATLAS tactics will speak for records that have them */
    if (f->type == BW_FACTS_AI_CVE) {
        cand_add(cs, bw_attack_technique_find("T1190"), SRC_INFERRED,
                 "inferred from the record type ai_cve: a vulnerability in an AI service, assumed reachable over the network");
    } else if (f->type == BW_FACTS_AGENT_THREAT) {
        cand_add(cs, bw_attack_technique_find("T1059"), SRC_INFERRED,
                 "inferred from the record type agent_threat: agents execute tools and commands on the attacker's behalf");
    }
}

/* ---- architecture guidance per tactic -------------------------------------------------- */

/* One sentence per tactic, in matrix order: [0] for products and services, [1] for LLM
 * applications and agents, [2] for flaws reached through model files (NULL: the same as [0]). */
static const char *const TACTIC_GUIDANCE[][3] = {
    /* reconnaissance */
    {"Reduce what attackers can learn about {product}: no version banners or public API documentation with internal detail, and continuous monitoring of the external attack surface.",
     "Reduce what attackers can learn about {product}: keep system prompts, tool lists and model details out of responses and public documentation."},
    /* resource-development */
    {"Track attacker infrastructure and staged content aimed at your AI stack (look-alike packages, poisoned models, rogue MCP servers, lure pages) and block it at the web proxy and the package and model registries.", NULL},
    /* initial-access */
    {"Keep {product} off the internet unless it must be there; where exposed, put it behind an authenticating reverse proxy and a WAF, patch within the {tier} deadline ({sla}) and scan it continuously.",
     "Treat every channel that feeds {product} (web pages, documents, e-mails, tickets, MCP servers, plugins) as an entry point: allow-list the sources it may fetch from and the MCP servers and plugins it may load.",
     "Treat model files as code: accept models for {product} only from an approved registry, verified by hash or signature, and scan them before anyone loads them."},
    /* execution */
    {"Constrain what {product} can execute: no shell or interpreter for its service account, allow-listed tools for agents, and code execution only in sandboxes without credentials or network.",
     "Constrain what {product} can execute: allow-listed tools with narrow arguments, human approval for side effects, and code execution only in sandboxes without credentials or network.",
     "Load untrusted models with {product} only in a sandbox without credentials or network, so whatever a crafted model triggers reaches nothing of value."},
    /* persistence */
    {"Make hosts running {product} immutable: redeploy from signed images instead of patching in place, and monitor startup items, scheduled tasks, new keys and new accounts.",
     "Treat agent memory, saved instructions and configuration files of {product} as code: review changes to them and alert on entries that contain instructions."},
    /* privilege-escalation */
    {"Run {product} unprivileged (non-root, no host mounts, no container runtime socket) with least-privilege service identities.",
     "Give {product} an identity of its own per task, with least privilege, instead of the user's session or a shared administrator token, so a hijacked agent cannot do more than the task needs."},
    /* defense-evasion */
    {"Ship the logs of {product} off the host as they are written, and alert when logging stops or guardrails are switched off.",
     "Log prompts, context and tool calls of {product} outside the application, decode and normalise input (encodings, hidden characters, look-alike letters) before filtering it, and alert when guardrails are bypassed or switched off."},
    /* credential-access */
    {"Keep secrets out of {product}'s reach: short-lived, narrowly scoped credentials from a secrets manager, a hardened metadata service (IMDSv2), no keys in environment files on shared hosts.",
     "Keep credentials out of the configuration files and context of {product}: short-lived, narrowly scoped tokens from a broker, never pasted into prompts or stored where the agent can read them."},
    /* discovery */
    {"Segment the network around {product} so a compromised instance sees only what it needs, and alert on internal scanning from AI hosts.", NULL},
    /* lateral-movement */
    {"Isolate AI workloads in their own network segment and identity boundary, and block east-west access from {product} to management interfaces.", NULL},
    /* collection */
    {"Limit the data {product} and its agents can read to what the use case needs; label sensitive stores and monitor bulk reads.",
     "Limit what {product} can retrieve to what the current user may see (authorisation enforced in retrieval, not in the prompt), and monitor bulk reads.",
     "Load models with {product} under an account that can read only the model directory, so a crafted model cannot reach other files."},
    /* command-and-control */
    {"Deny egress by default for {product} hosts and agents, with an allow-list of destinations, and log outbound web traffic.", NULL},
    /* exfiltration */
    {"Enforce egress allow-lists and data-loss prevention on AI applications: no rendering of untrusted links or images in model output and no arbitrary outbound requests from agent tools.", NULL},
    /* impact */
    {"Protect availability and integrity: rate limits and quotas on AI endpoints, backups of models and data, and alerts on GPU-usage or cost spikes.",
     "Limit what a hijacked {product} can break: approval for destructive or financial actions, spend caps, and backups of the data it can change."},
};

static int mit_cmp(const void *a, const void *b)
{
    return strcmp((*(const struct bw_attack_mitigation *const *)a)->id, (*(const struct bw_attack_mitigation *const *)b)->id);
}

static int amit_cmp(const void *a, const void *b)
{
    return strcmp((*(const struct bw_atlas_mitigation *const *)a)->id, (*(const struct bw_atlas_mitigation *const *)b)->id);
}

static struct bw_jt *ref_obj(struct ctx *c, const char *id, const char *name, const char *url)
{
    return jstrs(c, 3, "id", id, "name", name, "url", url);
}

static struct bw_jt *architecture_entry(struct ctx *c, const struct bw_attack_tactic *tac, const struct cands *cs,
                                  const struct bw_atlas_technique *const *at, size_t na)
{
    struct bw_jt *e = jobj(c), *basis = jarr(c), *techs = jarr(c), *atechs = jarr(c),
           *mits = jarr(c), *amits = jarr(c);
    const struct bw_attack_mitigation *m[BW_PLAYBOOK_MAX_MITIGATIONS];
    const struct bw_atlas_mitigation *am[BW_PLAYBOOK_MAX_MITIGATIONS];
    size_t nm = 0, nam = 0;
    bool from_record = false;
    char buf[320];
    for (size_t i = 0; i < cs->n; i++) {
        const struct bw_attack_technique *t = cs->v[i].t;
        bool under = false;
        for (size_t k = 0; k < t->n_tactics; k++)
            under |= t->tactics[k] == tac;
        if (!under)
            continue;
        from_record |= cs->v[i].src == SRC_RECORD;
        push(c, basis, cs->v[i].basis);
        struct bw_jt *o = ref_obj(c, t->id, t->name, t->url);
        if (o)
            set(c, o, "source", jstr(c, SRC_NAME[cs->v[i].src]));
        append(c, techs, o);
        for (size_t k = 0; k < t->n_mitigations && nm < BW_PLAYBOOK_MAX_MITIGATIONS; k++)
            m[nm++] = t->mitigations[k];
    }
    for (size_t i = 0; i < na; i++) {
        bool under = false;
        const char *via = "";
        for (size_t k = 0; k < at[i]->n_tactics; k++)
            if (at[i]->tactics[k]->attack == tac) {
                under = true;
                via = at[i]->tactics[k]->id;
            }
        if (!under)
            continue;
        snprintf(buf, sizeof buf, "MITRE ATLAS places %s (%s) under %s, its counterpart of this tactic", at[i]->id, at[i]->name, via);
        push(c, basis, buf);
        append(c, atechs, ref_obj(c, at[i]->id, at[i]->name, at[i]->url));
        for (size_t k = 0; k < at[i]->n_mitigations && nam < BW_PLAYBOOK_MAX_MITIGATIONS; k++)
            am[nam++] = at[i]->mitigations[k];
    }
    if (nm > 1)
        qsort(m, nm, sizeof m[0], mit_cmp);
    if (nam > 1)
        qsort(am, nam, sizeof am[0], amit_cmp);
    for (size_t i = 0; i < nm; i++)
        if (i == 0 || m[i] != m[i - 1])
            append(c, mits, ref_obj(c, m[i]->id, m[i]->name, m[i]->url));
    for (size_t i = 0; i < nam; i++)
        if (i == 0 || am[i] != am[i - 1])
            append(c, amits, ref_obj(c, am[i]->id, am[i]->name, am[i]->url));

    /* guidance: the tactic's sentence, then the mitigations by name */
    bw_sb_reset(&c->s);
    if (tac->order < sizeof TACTIC_GUIDANCE / sizeof TACTIC_GUIDANCE[0]) {
        const char *const *g = TACTIC_GUIDANCE[tac->order];
        int col = artifact(&c->f) ? 2 : is_service(&c->f) ? 0 : 1;
        expand(c, &c->s, g[col] ? g[col] : g[0]);
    }
    const char *lead = " ATT&CK mitigations to apply: ";
    size_t shown = 0;
    for (const struct bw_jt *x = mits ? mits->u.kids.first : NULL; x; x = x->next) {
        if (shown == 6)
            break;
        bw_sb_puts(&c->s, shown ? ", " : lead);
        bw_sb_printf(&c->s, "%s (%s)", bw_jt_str(bw_jt_get(x, "name")), bw_jt_str(bw_jt_get(x, "id")));
        shown++;
    }
    if (shown)
        bw_sb_puts(&c->s, bw_jt_size(mits) > shown ? ", and the others listed." : ".");
    shown = 0;
    for (const struct bw_jt *x = amits ? amits->u.kids.first : NULL; x; x = x->next) {
        if (shown == 6)
            break;
        bw_sb_puts(&c->s, shown ? ", " : " ATLAS mitigations for the AI side: ");
        bw_sb_printf(&c->s, "%s (%s)", bw_jt_str(bw_jt_get(x, "name")), bw_jt_str(bw_jt_get(x, "id")));
        shown++;
    }
    if (shown)
        bw_sb_puts(&c->s, bw_jt_size(amits) > shown ? ", and the others listed." : ".");
    if (c->s.oom)
        c->oom = true;

    set(c, e, "tactic_id", jstr(c, tac->id));
    set(c, e, "tactic", jstr(c, tac->name));
    set(c, e, "shortname", jstr(c, tac->shortname));
    set(c, e, "url", jstr(c, tac->url));
    set(c, e, "inferred", jbool(c, !from_record));
    set(c, e, "basis", basis);
    set(c, e, "techniques", techs);
    set(c, e, "atlas_techniques", atechs);
    set(c, e, "mitigations", mits);
    set(c, e, "atlas_mitigations", amits);
    set(c, e, "guidance", jstr(c, bw_sb_str(&c->s)));
    return e;
}

static struct bw_jt *architecture(struct ctx *c, const struct cands *cs)
{
    struct bw_jt *out = jarr(c);
    const struct bw_atlas_technique *at[BW_PLAYBOOK_MAX_ITEMS];
    size_t na = atlas_of(&c->f, at, BW_PLAYBOOK_MAX_ITEMS);
    for (size_t i = 0; i < bw_attack_tactic_count(); i++) {
        const struct bw_attack_tactic *tac = bw_attack_tactic_at(i);
        bool reached = false;
        for (size_t k = 0; k < cs->n && !reached; k++)
            for (size_t j = 0; j < cs->v[k].t->n_tactics; j++)
                reached |= cs->v[k].t->tactics[j] == tac;
        for (size_t k = 0; k < na && !reached; k++)
            for (size_t j = 0; j < at[k]->n_tactics; j++)
                reached |= at[k]->tactics[j]->attack == tac;
        if (reached)
            append(c, out, architecture_entry(c, tac, cs, at, na));
    }
    return out;
}

/* ---- detection guidance ------------------------------------------------------------------- */

struct hint {
    const char *id; /* technique id; also matches its sub-techniques */
    const char *text;
};

static const struct hint ATTACK_HINTS[] = {
    {"T1005", "Alert on processes of {product} reading sensitive files they do not normally touch (credential stores, SSH keys, cloud configuration, other tenants' data)."},
    {"T1041", "Alert on large or periodic outbound transfers from AI hosts over their existing command channels."},
    {"T1048", "Alert on outbound traffic from AI hosts over protocols they do not normally use (DNS tunnelling, raw TCP, FTP)."},
    {"T1059", "Alert on interpreters (sh, bash, python -c, powershell) started by the {product} service, and on command lines that download, decode or run payloads."},
    {"T1071", "Alert on beaconing from AI hosts: periodic outbound connections of similar size to the same destination."},
    {"T1078", "Alert on valid accounts used against {product} from new locations, devices or at unusual times."},
    {"T1133", "Alert on logins to remote-access services in front of {product} from unexpected networks."},
    {"T1189", "Alert on AI agents or browsers fetching content from newly registered or uncategorised domains right before unusual actions."},
    {"T1190", "Monitor the web and API logs of internet-facing {product} instances for exploitation attempts, and correlate them with new processes, files or outbound connections on the same host within minutes."},
    {"T1195", "Compare installed packages and model artefacts with pinned, hash-verified lists; alert on new or changed dependencies of {product} outside the release process."},
    {"T1203", "Alert on applications parsing untrusted files or models that crash and then start child processes."},
    {"T1204", "Alert on users opening or loading files (documents, notebooks, model files) that are followed by child processes or network connections."},
    {"T1213", "Alert on bulk reads from knowledge bases, wikis and vector stores by a single identity or agent."},
    {"T1496", "Alert on sustained CPU or GPU saturation of AI hosts without a matching workload, and on unexpected spend."},
    {"T1499", "Alert on request bursts and saturation of AI endpoints, per client and in total."},
    {"T1505", "Alert on new script or template files in {product}'s web and upload directories and on their first execution."},
    {"T1530", "Alert on bulk reads from model and data buckets by identities that do not normally read them."},
    {"T1552", "Alert on access to credential files and cloud metadata endpoints by the {product} service, and on its secrets being used from new locations."},
    {"T1566", "Alert on messages with links or attachments that target AI users or feed AI assistants with instructions."},
    {"T1567", "Alert on uploads from AI hosts and applications to web services and storage they do not normally use."},
    {"T1608", "Watch the sources your AI applications consume (web pages, documents, packages, MCP servers) for content staged by attackers."},
};

static const struct hint ATLAS_HINTS[] = {
    {"AML.T0010", "Verify hashes or signatures of models, datasets and AI packages when they are downloaded, and alert on artefacts from unverified publishers or look-alike names."},
    {"AML.T0011", "Alert when notebooks, model loaders or pipelines load pickle-based artefacts from outside the approved registry."},
    {"AML.T0018", "Track the lineage of models: alert on weights that change outside the training pipeline."},
    {"AML.T0020", "Track dataset lineage: alert on training or fine-tuning data that changes outside the pipeline."},
    {"AML.T0024", "Watch inference API use per key for systematic querying that could reconstruct training data or the model."},
    {"AML.T0029", "Alert on floods of long or expensive prompts against AI endpoints."},
    {"AML.T0034", "Set spend and token budgets per key on AI services and alert when a key exceeds its usual use."},
    {"AML.T0040", "Log inference API access per key and tenant and alert on new keys or tenants querying at volume."},
    {"AML.T0043", "Monitor model confidence and input distributions; alert on clusters of low-confidence or out-of-distribution inputs."},
    {"AML.T0051", "Log every prompt, retrieved document and tool result that reaches the LLM, and alert on instruction-override phrasing (ignore previous instructions, you are now, new system prompt) and on hidden text (zero-width or tag characters, HTML comments, white-on-white text)."},
    {"AML.T0053", "Log each agent tool call with its arguments and the content that triggered it; alert on tool calls with side effects (shell, e-mail, file write, outbound HTTP) that follow untrusted content in the same session."},
    {"AML.T0054", "Alert on jailbreak patterns (role-play framing, developer mode, DAN-style prompts, encoded instructions) and on users with repeated guardrail refusals."},
    {"AML.T0056", "Plant a canary string in system prompts and alert when it appears in a response; alert on prompts asking the model to reveal or repeat its instructions."},
    {"AML.T0057", "Scan model responses for secrets and personal data (key formats, tokens, e-mail addresses, internal host names) before they leave the application; alert on hits."},
    {"AML.T0048", "Alert on agent actions with financial, legal or reputational effect (payments, purchases, public posts, messages to customers) that lack a human approval."},
    {"AML.T0065", "Match incoming prompts and retrieved content against known malicious prompts and payload fragments from threat intelligence."},
    {"AML.T0068", "Decode and normalise prompts (base64, URL encoding, look-alike letters, hidden characters) before filtering them, and alert on heavily encoded input."},
    {"AML.T0080", "Review writes to agent memory and alert on stored entries that contain instructions."},
    {"AML.T0083", "Alert when agents or their tools read agent configuration and credential files (MCP configuration, .env files, IDE and CLI tokens) and when such content leaves the host."},
    {"AML.T0086", "Alert on agent tool calls that send data to destinations outside an allow-list, and on links or images with long encoded query strings in agent output."},
};

static const char *hint_for(const struct hint *h, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(h[i].id);
        if (strncmp(id, h[i].id, l) == 0 && (id[l] == '\0' || id[l] == '.'))
            return h[i].text;
    }
    return NULL;
}

static void attack_hint(struct ctx *c, struct bw_jt *a, const struct bw_attack_technique *t)
{
    char buf[512];
    const char *h = hint_for(ATTACK_HINTS, sizeof ATTACK_HINTS / sizeof ATTACK_HINTS[0], t->id);
    if (!h) {
        snprintf(buf, sizeof buf, "Watch for %s (%s) around {product}; its ATT&CK page lists the data sources and detections that apply.", t->name, t->id);
        h = buf;
    }
    pusht(c, a, h);
}

static struct bw_jt *detection(struct ctx *c, const struct cands *cs)
{
    const struct facts *f = &c->f;
    struct bw_jt *a = jarr(c);
    char buf[512];
    if (f->kev)
        pusht(c, a, "Raise every alert touching {product} to the {tier} queue: CISA has confirmed exploitation of {id} in the wild, so a hit is likely real.");
    for (int w = 0; w < W_COUNT; w++)
        if (has_w(f, (enum wclass)w))
            pusht(c, a, weak_text(f, w, false));
    /* stated techniques first, then ATLAS, then what was inferred */
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].src != SRC_INFERRED)
            attack_hint(c, a, cs->v[i].t);
    const struct bw_atlas_technique *at[BW_PLAYBOOK_MAX_ITEMS];
    size_t na = atlas_of(f, at, BW_PLAYBOOK_MAX_ITEMS);
    for (size_t i = 0; i < na; i++) {
        const char *h = hint_for(ATLAS_HINTS, sizeof ATLAS_HINTS / sizeof ATLAS_HINTS[0], at[i]->id);
        if (h) {
            pusht(c, a, h);
        } else if (!at[i]->attack_reference) { /* with a reference, the ATT&CK guidance covers it */
            snprintf(buf, sizeof buf, "Watch for %s (%s) against your AI systems; its ATLAS page describes the procedure and the mitigations.", at[i]->name, at[i]->id);
            pusht(c, a, buf);
        }
    }
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].src == SRC_INFERRED)
            attack_hint(c, a, cs->v[i].t);
    for (size_t k = 0; k < N_IMPACTS; k++)
        if ((f->impacts & IMPACTS[k].bit) && IMPACTS[k].detect)
            if (!(IMPACTS[k].bit == BW_IMPACT_DATA && artifact(f)))
                pusht(c, a, IMPACTS[k].bit == BW_IMPACT_DATA && is_service(f) ? DATA_DETECT_SERVICE : IMPACTS[k].detect);
    if (f->pkg >= 0 && f->aff[f->pkg].fixed[0]) {
        snprintf(buf, sizeof buf, "Add %s below %s to software-composition and container-image scanning as a blocking finding, so vulnerable builds cannot ship again.",
                 f->aff[f->pkg].name, f->aff[f->pkg].fixed);
        push(c, a, buf);
    }
    if (bw_jt_size(a) == 0)
        pusht(c, a, "Collect the logs of {product} centrally and alert on behaviour it does not show in normal operation: new child processes, new outbound destinations, new administrative users.");
    pusht(c, a, "Keep the hunting query of this playbook as a scheduled detection for at least {lookback} days after remediation, and tune it on its first results rather than disabling it.");
    return a;
}

/* ---- KQL ----------------------------------------------------------------------------------- */

/* The product and package names as a KQL list (kql.h). */
static void kql_tokens(struct bw_sb *b, const struct facts *f)
{
    const char *items[BW_PLAYBOOK_MAX_TOKENS];
    for (size_t i = 0; i < f->ntok; i++)
        items[i] = f->tokens[i];
    bw_kql_list(b, items, f->ntok);
}

/* A table over the lookback window (ago(90d) ...), or all of it when timecol is NULL. */
static void kql_head(struct bw_sb *b, const char *table, const char *timecol, const struct facts *f)
{
    char span[16];
    snprintf(span, sizeof span, "%dd", f->lookback);
    bw_kql_from(b, table, timecol, span, 0);
}

enum query { Q_CHILD, Q_WEB, Q_AUTHWEB, Q_PACKAGE, Q_EXPOSURE, Q_INBOUND, Q_SSRF, Q_MODELFILES,
             Q_PROMPT, Q_TOOLS, Q_EGRESS, Q_COUNT };

struct query_info {
    const char *name;
    const char *source;
    const char *hypothesis;
};

static const struct query_info QUERIES[Q_COUNT] = {
    [Q_CHILD] = {"Processes started by the vulnerable service", "Microsoft Defender for Endpoint process events (DeviceProcessEvents)",
        "An attacker exploited {id} in {product} to run commands: the {product} process started shells, downloaders or reconnaissance tools that it never starts in normal operation."},
    [Q_WEB] = {"Exploitation attempts in web and API traffic", "WAF or reverse-proxy logs forwarded as CEF (CommonSecurityLog)",
        "Someone probed or exploited {id} through the web interface or API of {product}: requests carry the payload markers of its weakness."},
    [Q_AUTHWEB] = {"Unauthenticated access from the internet", "WAF or reverse-proxy logs forwarded as CEF (CommonSecurityLog)",
        "The API of {product} was reached from the internet by callers who should not reach it, and {id} was used through it."},
    [Q_PACKAGE] = {"Vulnerable package versions installed or run", "Microsoft Defender for Endpoint process events (DeviceProcessEvents)",
        "Hosts, build agents or notebooks installed or ran a version of {product} below the first fixed version and are exposed to {id}."},
    [Q_EXPOSURE] = {"Devices with the vulnerable software", "Microsoft Defender Vulnerability Management (DeviceTvmSoftwareVulnerabilities)",
        "Devices in the estate run software affected by {id}."},
    [Q_INBOUND] = {"Inbound connections from the internet", "Microsoft Defender for Endpoint network events (DeviceNetworkEvents)",
        "{product} (or another AI service) accepts connections from the internet, which makes {id} exploitable from anywhere."},
    [Q_SSRF] = {"Requests to metadata and internal services", "Microsoft Defender for Endpoint network events (DeviceNetworkEvents)",
        "{product} was made to request cloud metadata or internal services on an attacker's behalf through {id}."},
    [Q_MODELFILES] = {"Model and serialized files written", "Microsoft Defender for Endpoint file events (DeviceFileEvents)",
        "Untrusted model or serialized files reached hosts that use {product} and can trigger {id} when they are loaded."},
    [Q_PROMPT] = {"Prompt-injection markers in LLM traffic", "Application Insights traces of the LLM application (AppTraces), with prompts and completions logged (OpenTelemetry GenAI attributes gen_ai.prompt and gen_ai.completion, or your own names)",
        "Users or content fed to the LLM carried instructions meant to override its system prompt ({id}): look for override phrasing, hidden characters and exfiltration links in prompts and responses."},
    [Q_TOOLS] = {"Risky agent tool invocations", "Application Insights traces of the agent (AppTraces), with tool calls logged (OpenTelemetry GenAI attributes gen_ai.tool.name and gen_ai.tool.call.arguments, or your own names)",
        "An agent was steered by injected content into invoking tools with side effects (command execution, outbound requests, messages, file changes) on the attacker's behalf ({id})."},
    [Q_EGRESS] = {"Outbound requests carrying encoded data", "Application Insights dependency telemetry of the AI application (AppDependencies)",
        "Data left through the AI application's own outbound requests (links, images or tool calls with encoded data in the URL) after {id} was used against it."},
};

static const char *const SHELLS[] = {"sh", "bash", "dash", "zsh", "ash", "cmd.exe", "powershell.exe", "pwsh", "pwsh.exe",
                                     "curl", "curl.exe", "wget", "nc", "ncat", "socat", "whoami", "whoami.exe", "id",
                                     "uname", "hostname", "base64", "certutil.exe", "bitsadmin.exe", "mshta.exe"};
static const char *const PY_PROCS[] = {"python", "python3", "python.exe", "pythonw.exe", "pip", "pip3", "pip.exe",
                                       "uv", "uv.exe", "conda", "conda.exe", "poetry", "pipx", "jupyter"};
static const char *const NODE_PROCS[] = {"node", "node.exe", "npm", "npm.cmd", "npx", "npx.cmd", "yarn", "pnpm", "bun"};
static const char *const MODEL_WRITERS[] = {"python", "python3", "python.exe", "pythonw.exe", "pip", "pip3", "jupyter",
                                            "huggingface-cli", "git", "git.exe", "git-lfs", "git-lfs.exe", "curl",
                                            "curl.exe", "wget", "chrome.exe", "msedge.exe", "firefox.exe"};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Case-insensitive regex for a PyPI/npm name, where '.', '_' and '-' are interchangeable. */
static void name_regex(struct bw_sb *b, const char *name)
{
    for (const char *p = name; *p; p++) {
        if (*p == '.' || *p == '_' || *p == '-')
            bw_sb_puts(b, "[-_.]");
        else
            bw_sb_putn(b, p, 1);
    }
}

static void q_child(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "DeviceProcessEvents", "Timestamp", f);
    bw_sb_puts(b, "\n| where InitiatingProcessCommandLine has_any ");
    kql_tokens(b, f);
    bw_sb_puts(b, " or InitiatingProcessFolderPath has_any ");
    kql_tokens(b, f);
    bw_sb_puts(b, "\n| where FileName in~ ");
    bw_kql_list(b, SHELLS, NELEM(SHELLS));
    bw_sb_puts(b, "\n| project Timestamp, DeviceName, AccountName, InitiatingProcessFileName, InitiatingProcessCommandLine, FileName, ProcessCommandLine"
               "\n| order by Timestamp desc");
}

static void web_regex(struct bw_sb *b, const struct facts *f)
{
    struct bw_sb r = {0};
    bw_sb_puts(&r, "(?i)");
    bool first = true;
    for (int w = 0; w < W_COUNT; w++) {
        if (!has_w(f, (enum wclass)w) || !WEAK[w].url_regex)
            continue;
        bw_sb_puts(&r, first ? "(" : "|(");
        bw_sb_puts(&r, WEAK[w].url_regex);
        bw_sb_puts(&r, ")");
        first = false;
    }
    if (r.oom)
        b->oom = true;
    bw_kql_verbatim(b, bw_sb_str(&r));
    free(r.p);
}

static void q_web(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "CommonSecurityLog", "TimeGenerated", f);
    bw_sb_puts(b, "\n| where isnotempty(RequestURL)\n| where RequestURL matches regex ");
    web_regex(b, f);
    if (f->ntok) {
        bw_sb_puts(b, "\n| extend ProductMatch = RequestURL has_any ");
        kql_tokens(b, f);
        bw_sb_puts(b, " or DestinationHostName has_any ");
        kql_tokens(b, f);
    } else {
        bw_sb_puts(b, "\n| extend ProductMatch = false");
    }
    bw_sb_puts(b, "\n| project TimeGenerated, DeviceVendor, DeviceProduct, DeviceAction, SourceIP, DestinationHostName, DestinationIP, RequestMethod, RequestURL, ProductMatch"
               "\n| order by ProductMatch desc, TimeGenerated desc");
}

static void q_authweb(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "CommonSecurityLog", "TimeGenerated", f);
    bw_sb_puts(b, "\n| where RequestURL has_any ");
    kql_tokens(b, f);
    bw_sb_puts(b, " or DestinationHostName has_any ");
    kql_tokens(b, f);
    bw_sb_puts(b, "\n| where isnotempty(SourceIP) and not(ipv4_is_private(SourceIP))"
               "\n| summarize Requests = count(), Methods = make_set(RequestMethod, 10), SampleUrls = make_set(RequestURL, 20), FirstSeen = min(TimeGenerated), LastSeen = max(TimeGenerated) by SourceIP, DestinationHostName"
               "\n| order by Requests desc");
}

static void q_package(struct bw_sb *b, const struct facts *f)
{
    const struct affected *a = &f->aff[f->pkg];
    bool py = ieq(a->eco, "PyPI"), npm = ieq(a->eco, "npm");
    char fixed[sizeof a->fixed]; /* never shorter than the version: a cut number would be another */
    numeric_version(fixed, sizeof fixed, a->fixed);
    kql_head(b, "DeviceProcessEvents", "Timestamp", f);
    bw_sb_puts(b, "\n| where ProcessCommandLine has ");
    bw_kql_str(b, a->name);
    if (py || npm) {
        bw_sb_puts(b, "\n| where FileName in~ ");
        if (py)
            bw_kql_list(b, PY_PROCS, NELEM(PY_PROCS));
        else
            bw_kql_list(b, NODE_PROCS, NELEM(NODE_PROCS));
        bw_sb_puts(b, " or InitiatingProcessFileName in~ ");
        if (py)
            bw_kql_list(b, PY_PROCS, NELEM(PY_PROCS));
        else
            bw_kql_list(b, NODE_PROCS, NELEM(NODE_PROCS));
    }
    /* the version pinned on the command line, e.g. pip install mlflow==2.9.1 or npm i pkg@1.2.3 */
    struct bw_sb r = {0};
    bw_sb_puts(&r, "(?i)");
    name_regex(&r, a->name);
    bw_sb_puts(&r, npm ? "@" : "\\s*(?:===|==|~=|>=|<=)\\s*");
    bw_sb_puts(&r, "([0-9]+(?:\\.[0-9]+){0,3})");
    bw_sb_puts(b, "\n| extend RequestedVersion = extract(");
    bw_kql_verbatim(b, bw_sb_str(&r));
    bw_sb_puts(b, ", 1, ProcessCommandLine)");
    if (r.oom)
        b->oom = true;
    free(r.p);
    if (fixed[0]) {
        bw_sb_puts(b, "\n| extend BelowFixed = isnotempty(RequestedVersion) and parse_version(RequestedVersion) < parse_version(");
        bw_kql_str(b, fixed);
        bw_sb_puts(b, ")");
    } else {
        bw_sb_puts(b, "\n| extend BelowFixed = isnotempty(RequestedVersion)");
    }
    bw_sb_puts(b, "\n| project Timestamp, DeviceName, AccountName, FileName, ProcessCommandLine, InitiatingProcessFileName, RequestedVersion, BelowFixed"
               "\n| order by BelowFixed desc, Timestamp desc");
}

static void q_exposure(struct bw_sb *b, const struct facts *f)
{
    const char *ids[BW_PLAYBOOK_MAX_ITEMS];
    size_t n = bw_facts_ids(f->cve, bw_cve_valid, SIZE_MAX, BW_PLAYBOOK_MAX_ITEMS, ids);
    kql_head(b, "DeviceTvmSoftwareVulnerabilities", NULL, f);
    bw_sb_puts(b, "\n| where CveId in ");
    bw_kql_list(b, ids, n);
    bw_sb_puts(b, "\n| summarize Devices = dcount(DeviceId), DeviceNames = make_set(DeviceName, 50) by CveId, SoftwareVendor, SoftwareName, SoftwareVersion, VulnerabilitySeverityLevel"
               "\n| order by Devices desc");
}

static void q_inbound(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "DeviceNetworkEvents", "Timestamp", f);
    bw_sb_puts(b, "\n| where ActionType == \"InboundConnectionAccepted\" and RemoteIPType == \"Public\"");
    if (f->ntok) {
        bw_sb_puts(b, "\n| where InitiatingProcessCommandLine has_any ");
        kql_tokens(b, f);
    } else {
        /* common ports of AI services: MLflow, TensorBoard, Gradio, Ray dashboard, Jupyter, Ollama, ... */
        bw_sb_puts(b, "\n| where LocalPort in (5000, 6006, 7860, 8000, 8080, 8265, 8888, 11434)");
    }
    bw_sb_puts(b, "\n| summarize Connections = count(), Sources = dcount(RemoteIP), SampleSources = make_set(RemoteIP, 20), FirstSeen = min(Timestamp), LastSeen = max(Timestamp) by DeviceName, LocalPort, InitiatingProcessFileName"
               "\n| order by Sources desc");
}

static void q_ssrf(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "DeviceNetworkEvents", "Timestamp", f);
    if (f->ntok) {
        bw_sb_puts(b, "\n| where InitiatingProcessCommandLine has_any ");
        kql_tokens(b, f);
    }
    bw_sb_puts(b, "\n| where RemoteIP in (\"169.254.169.254\", \"100.100.100.200\", \"fd00:ec2::254\") or RemoteUrl has \"metadata.google.internal\""
               " or (RemoteIPType in (\"Private\", \"Loopback\") and RemotePort in (22, 2375, 2379, 3306, 5432, 6379, 8500, 9200, 10250))"
               "\n| project Timestamp, DeviceName, InitiatingProcessFileName, InitiatingProcessCommandLine, RemoteIP, RemotePort, RemoteUrl"
               "\n| order by Timestamp desc");
}

static void q_modelfiles(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "DeviceFileEvents", "Timestamp", f);
    bw_sb_puts(b, "\n| where ActionType in (\"FileCreated\", \"FileModified\", \"FileRenamed\")\n| where FileName matches regex ");
    bw_kql_verbatim(b, "(?i)\\.(pkl|pickle|pt|pth|bin|ckpt|joblib|h5|keras|npy|npz|gguf|onnx|tflite|pb|safetensors|mar|nemo)$");
    /* written by Python tooling or by a download, or by the product itself */
    bw_sb_puts(b, "\n| where InitiatingProcessFileName in~ ");
    bw_kql_list(b, MODEL_WRITERS, NELEM(MODEL_WRITERS));
    if (f->ntok) {
        bw_sb_puts(b, " or InitiatingProcessCommandLine has_any ");
        kql_tokens(b, f);
    }
    bw_sb_puts(b, "\n| project Timestamp, DeviceName, FolderPath, FileName, SHA256, InitiatingProcessFileName, InitiatingProcessCommandLine"
               "\n| order by Timestamp desc");
}

static bool atlas_has(const struct facts *f, const char *prefix)
{
    size_t i, l = strlen(prefix);
    const json_t *v;
    json_array_foreach(f->atlas, i, v) {
        const char *s = json_string_value(v);
        if (s && strncmp(s, prefix, l) == 0 && (s[l] == '\0' || s[l] == '.'))
            return true;
    }
    return false;
}

static void q_prompt(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "AppTraces", "TimeGenerated", f);
    bw_sb_puts(b, "\n| extend Prompt = coalesce(tostring(Properties[\"gen_ai.prompt\"]), tostring(Properties[\"prompt\"]), Message)"
               ", Completion = coalesce(tostring(Properties[\"gen_ai.completion\"]), tostring(Properties[\"completion\"]))"
               "\n| where Prompt matches regex ");
    bw_kql_verbatim(b, "(?i)(ignore|disregard|forget|override)\\W+((all|any|the|your|my)\\W+)*(previous|prior|above|earlier|system|original)\\W+(instructions?|prompts?|rules|directions|messages?)");
    /* hidden characters: zero-width, bidi controls and Unicode tag characters */
    bw_sb_puts(b, "\n    or Prompt matches regex ");
    bw_kql_verbatim(b, "[\\x{200B}-\\x{200F}\\x{202A}-\\x{202E}\\x{2060}-\\x{2064}\\x{E0000}-\\x{E007F}]");
    bw_sb_puts(b, "\n    or Prompt has_any (\"system prompt\", \"new instructions\", \"you are now\", \"developer mode\")");
    if (atlas_has(f, "AML.T0054"))
        bw_sb_puts(b, "\n    or Prompt has_any (\"jailbreak\", \"do anything now\", \"no restrictions\", \"without any filters\", \"roleplay\")");
    if (atlas_has(f, "AML.T0056"))
        bw_sb_puts(b, "\n    or Prompt matches regex @\"(?i)(repeat|print|reveal|show|output)\\W+(\\w+\\W+){0,3}(system\\W+prompt|instructions|initial\\W+prompt)\"");
    if ((f->impacts & BW_IMPACT_DATA) || atlas_has(f, "AML.T0057") || atlas_has(f, "AML.T0086") || atlas_has(f, "AML.T0024")) {
        /* markdown images or links whose query string carries data, and secrets in the output */
        bw_sb_puts(b, "\n    or Completion matches regex ");
        bw_kql_verbatim(b, "!\\[[^\\]]*\\]\\(https?://[^)\\s]*[?&][^)\\s]*=");
        bw_sb_puts(b, "\n    or Completion matches regex ");
        bw_kql_verbatim(b, "(AKIA[0-9A-Z]{16}|sk-[A-Za-z0-9_-]{20,}|ghp_[A-Za-z0-9]{36}|-----BEGIN [A-Z ]*PRIVATE KEY-----)");
    }
    bw_sb_puts(b, "\n| project TimeGenerated, AppRoleName, OperationId, UserId, ClientIP, Prompt, Completion"
               "\n| order by TimeGenerated desc");
}

static void q_tools(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "AppTraces", "TimeGenerated", f);
    bw_sb_puts(b, "\n| extend Tool = tostring(Properties[\"gen_ai.tool.name\"]), Arguments = tostring(Properties[\"gen_ai.tool.call.arguments\"])"
               "\n| where isnotempty(Tool)"
               "\n| where Tool has_any (\"shell\", \"exec\", \"terminal\", \"command\", \"python\", \"code\", \"http\", \"fetch\", \"browser\", \"email\", \"mail\", \"send\", \"write\", \"delete\", \"upload\")"
               "\n    or Arguments matches regex ");
    bw_kql_verbatim(b, "(?i)(https?://|curl|wget|base64|rm\\s+-rf|\\.ssh|\\.env|id_rsa|token|password|secret)");
    if (f->ntok) {
        bw_sb_puts(b, "\n    or AppRoleName has_any ");
        kql_tokens(b, f);
    }
    bw_sb_puts(b, "\n| summarize Calls = count(), Tools = make_set(Tool, 20), SampleArguments = make_set(Arguments, 5) by AppRoleName, OperationId, bin(TimeGenerated, 1h)"
               "\n| order by Calls desc");
}

static void q_egress(struct bw_sb *b, const struct facts *f)
{
    kql_head(b, "AppDependencies", "TimeGenerated", f);
    bw_sb_puts(b, "\n| where DependencyType =~ \"HTTP\""
               "\n| extend Host = tostring(parse_url(Data).Host)"
               "\n| where strlen(Data) > 512 or Data matches regex ");
    bw_kql_verbatim(b, "[?&][^=&]{1,40}=[A-Za-z0-9+/_=%-]{100,}");
    bw_sb_puts(b, "\n| summarize Calls = count(), Hosts = make_set(Host, 20), LongestUrl = max(strlen(Data)) by AppRoleName, bin(TimeGenerated, 1h)"
               "\n| order by Calls desc");
}

static void query_text(struct bw_sb *b, enum query q, const struct facts *f)
{
    switch (q) {
    case Q_CHILD: q_child(b, f); break;
    case Q_WEB: q_web(b, f); break;
    case Q_AUTHWEB: q_authweb(b, f); break;
    case Q_PACKAGE: q_package(b, f); break;
    case Q_EXPOSURE: q_exposure(b, f); break;
    case Q_INBOUND: q_inbound(b, f); break;
    case Q_SSRF: q_ssrf(b, f); break;
    case Q_MODELFILES: q_modelfiles(b, f); break;
    case Q_PROMPT: q_prompt(b, f); break;
    case Q_TOOLS: q_tools(b, f); break;
    case Q_EGRESS: q_egress(b, f); break;
    case Q_COUNT: break;
    }
}

static bool has_valid_cve(const struct facts *f)
{
    const char *one;
    return bw_facts_ids(f->cve, bw_cve_valid, SIZE_MAX, 1, &one) > 0;
}

static bool cands_has(const struct cands *cs, const char *prefix)
{
    size_t l = strlen(prefix);
    for (size_t i = 0; i < cs->n; i++)
        if (strncmp(cs->v[i].t->id, prefix, l) == 0 && (cs->v[i].t->id[l] == '\0' || cs->v[i].t->id[l] == '.'))
            return true;
    return false;
}

/* The queries that apply, most telling first; the first one is the suggested query. */
static size_t queries_pick(const struct facts *f, const struct cands *cs, enum query *out)
{
    size_t n = 0;
    bool on[Q_COUNT] = {false};
    bool execish = exec_weak(f) || cands_has(cs, "T1059") || cands_has(cs, "T1203") || (f->impacts & BW_IMPACT_TOOL);
    bool ai_app = f->type == BW_FACTS_PROMPT_ATTACK || f->type == BW_FACTS_AGENT_THREAT;
    bool web = !ai_app && !artifact(f); /* reached through requests to a service */
    enum query order[2 * Q_COUNT]; /* a type-specific head, then the general list */
    size_t no = 0;
    if (f->type == BW_FACTS_PROMPT_ATTACK) {
        order[no++] = Q_PROMPT;
        order[no++] = Q_TOOLS;
        order[no++] = Q_EGRESS;
    } else if (f->type == BW_FACTS_AGENT_THREAT) {
        order[no++] = Q_TOOLS;
        order[no++] = Q_PROMPT;
        order[no++] = Q_EGRESS;
        order[no++] = Q_CHILD;
    } else if (f->type == BW_FACTS_MODEL_ADVISORY) {
        order[no++] = Q_PACKAGE;
        order[no++] = Q_MODELFILES;
    }
    order[no++] = Q_CHILD;
    order[no++] = Q_WEB;
    order[no++] = Q_AUTHWEB;
    order[no++] = Q_PACKAGE;
    order[no++] = Q_SSRF;
    order[no++] = Q_MODELFILES;
    order[no++] = Q_EXPOSURE;
    order[no++] = Q_INBOUND;
    for (size_t i = 0; i < no && n < 5; i++) {
        enum query q = order[i];
        bool ok = false;
        switch (q) {
        case Q_PROMPT: ok = ai_app || (f->impacts & BW_IMPACT_PROMPT); break;
        case Q_TOOLS: ok = f->type == BW_FACTS_AGENT_THREAT || (f->impacts & (BW_IMPACT_TOOL | BW_IMPACT_AGENTIC)); break;
        case Q_EGRESS: ok = ai_app && ((f->impacts & BW_IMPACT_DATA) || atlas_has(f, "AML.T0086") || atlas_has(f, "AML.T0057")); break;
        case Q_CHILD: ok = f->ntok && execish && (!ai_app || (f->impacts & BW_IMPACT_TOOL)); break;
        case Q_WEB: ok = web && web_weak(f); break;
        case Q_AUTHWEB: ok = web && f->ntok && has_w(f, W_AUTH); break;
        case Q_PACKAGE: ok = f->pkg >= 0; break;
        case Q_SSRF: ok = has_w(f, W_SSRF) || cands_has(cs, "T1552.005"); break;
        case Q_MODELFILES: ok = artifact(f) || has_w(f, W_DESER) || (f->impacts & BW_IMPACT_SUPPLY); break;
        case Q_EXPOSURE: ok = has_valid_cve(f); break;
        case Q_INBOUND: ok = web && (f->av_network || cands_has(cs, "T1190") || has_w(f, W_AUTH)); break;
        case Q_COUNT: break;
        }
        if (ok && !on[q]) {
            on[q] = true;
            out[n++] = q;
        }
    }
    if (n == 0)
        out[n++] = ai_app ? Q_PROMPT : artifact(f) ? Q_MODELFILES : Q_INBOUND;
    return n;
}

static struct bw_jt *hunting(struct ctx *c, const struct cands *cs)
{
    const struct facts *f = &c->f;
    enum query qs[Q_COUNT];
    size_t nq = queries_pick(f, cs, qs);
    struct bw_jt *g = jobj(c), *sources = jarr(c), *more = jarr(c);
    struct bw_sb q = {0};
    query_text(&q, qs[0], f);
    set(c, g, "suggested_query", jstr(c, bw_sb_str(&q)));
    set(c, g, "query_language", jstr(c, "KQL"));
    for (size_t i = 0; i < nq; i++)
        push(c, sources, QUERIES[qs[i]].source);
    set(c, g, "data_sources", sources);
    bw_sb_reset(&c->s);
    expand(c, &c->s, QUERIES[qs[0]].hypothesis);
    set(c, g, "hypothesis", jstr(c, bw_sb_str(&c->s)));

    bw_sb_reset(&c->s);
    bw_sb_printf(&c->s, "The last %d days (ago(%dd) in the queries)", f->lookback, f->lookback);
    if (f->published[0])
        bw_sb_printf(&c->s, "; the record was published on %s, so go back to that date where retention allows", f->published);
    if (f->kev && f->kev_added[0])
        bw_sb_printf(&c->s, "; CISA added it to the KEV catalog on %s, and exploitation usually starts before that", f->kev_added);
    bw_sb_puts(&c->s, ". Defender advanced hunting keeps 30 days of data: run longer windows in Microsoft Sentinel or your SIEM.");
    set(c, g, "timeframe", jstr(c, bw_sb_str(&c->s)));
    set(c, g, "lookback_days", jint(c, f->lookback));
    for (size_t i = 1; i < nq; i++) {
        bw_sb_reset(&q);
        query_text(&q, qs[i], f);
        append(c, more, jstrs(c, 3, "name", QUERIES[qs[i]].name, "data_source", QUERIES[qs[i]].source, "query", bw_sb_str(&q)));
    }
    set(c, g, "additional_queries", more);
    if (q.oom || c->s.oom)
        c->oom = true;
    free(q.p);
    return g;
}

/* ---- shared phrases ------------------------------------------------------------------------- */

static bool is_service(const struct facts *f)
{
    return f->type == BW_FACTS_AI_CVE || f->type == BW_FACTS_MODEL_ADVISORY || f->type == BW_FACTS_OTHER;
}

/* The flaw is reached through a model file, not through a network service. */
static bool artifact(const struct facts *f)
{
    return f->type == BW_FACTS_MODEL_ADVISORY;
}

static bool exposed(const struct facts *f, const struct cands *cs)
{
    return is_service(f) && !artifact(f) && (f->av_network || cands_has(cs, "T1190") || has_w(f, W_AUTH));
}

static bool secrets_at_risk(const struct facts *f)
{
    return (f->impacts & BW_IMPACT_DATA) || has_w(f, W_PATH) || has_w(f, W_SSRF) || has_w(f, W_CRED) || has_w(f, W_INFO);
}

/* "before 2.9.2", "from 1.0 before 1.4", ... */
static void range_text(struct bw_sb *b, const struct affected *a)
{
    bool from = a->introduced[0] && !eq(a->introduced, "0");
    if (a->fixed[0] && from)
        bw_sb_printf(b, "from %s before %s", a->introduced, a->fixed);
    else if (a->fixed[0])
        bw_sb_printf(b, "before %s", a->fixed);
    else if (from)
        bw_sb_printf(b, "from %s on, with no fixed version listed", a->introduced);
    else
        bw_sb_puts(b, "with no fixed version listed");
}

static void affected_list(struct bw_sb *b, const struct facts *f, size_t max)
{
    for (size_t i = 0; i < f->naff && i < max; i++) {
        const struct affected *a = &f->aff[i];
        if (i)
            bw_sb_puts(b, i + 1 == f->naff || i + 1 == max ? " and " : ", ");
        bw_sb_puts(b, a->name);
        /* a case study names the product it was shown on, without versions */
        if (is_service(f) || a->introduced[0] || a->fixed[0]) {
            bw_sb_puts(b, " ");
            range_text(b, a);
        }
        if (a->eco[0])
            bw_sb_printf(b, " (%s)", a->eco);
    }
    if (f->naff > max)
        bw_sb_printf(b, ", and %zu more listed in the record", f->naff - max);
}

/* The upgrade command for an ecosystem, when name and version are safe to paste. */
static void upgrade_command(struct bw_sb *b, const struct affected *a)
{
    if (a->name_cut || !safe_token(a->fixed, ".+_-"))
        return;
    if (ieq(a->eco, "PyPI") && safe_token(a->name, "._-"))
        bw_sb_printf(b, " (pip install --upgrade \"%s>=%s\")", a->name, a->fixed);
    else if (ieq(a->eco, "npm") && safe_token(a->name, "._-@/"))
        bw_sb_printf(b, " (npm install \"%s@>=%s\")", a->name, a->fixed);
    else if (ieq(a->eco, "Go") && safe_token(a->name, "._-/"))
        bw_sb_printf(b, " (go get %s@%s%s)", a->name, a->fixed[0] == 'v' ? "" : "v", a->fixed);
    else if (ieq(a->eco, "crates.io") && safe_token(a->name, "_-"))
        bw_sb_printf(b, " (cargo update -p %s --precise %s)", a->name, a->fixed);
}

static void push_upgrade(struct ctx *c, struct bw_jt *arr, const struct affected *a)
{
    struct bw_sb *b = &c->s;
    bw_sb_reset(b);
    if (a->fixed[0]) {
        bw_sb_printf(b, "Upgrade %s", a->name);
        if (a->eco[0])
            bw_sb_printf(b, " (%s)", a->eco);
        bw_sb_printf(b, " to %s or later on every host, container image and notebook environment", a->fixed);
        upgrade_command(b, a);
        bw_sb_puts(b, "; affected: ");
        range_text(b, a);
        bw_sb_puts(b, ".");
    } else {
        bw_sb_printf(b, "No fixed version of %s is listed", a->name);
        if (a->introduced[0] && !eq(a->introduced, "0"))
            bw_sb_printf(b, " (affected from %s on)", a->introduced);
        bw_sb_puts(b, ": remove it or isolate it from untrusted input and networks until the maintainers ship a fix, and apply their published mitigations.");
    }
    if (b->oom)
        c->oom = true;
    push(c, arr, bw_sb_str(b));
}

/* ---- immediate actions ---------------------------------------------------------------------- */

static struct bw_jt *immediate(struct ctx *c, const struct cands *cs)
{
    const struct facts *f = &c->f;
    struct bw_jt *a = jarr(c);
    struct bw_sb *b = &c->s;
    if (f->kev) {
        bw_sb_reset(b);
        bw_sb_printf(b, "CISA lists %s as exploited in the wild (Known Exploited Vulnerabilities catalog", f->id);
        if (f->kev_added[0])
            bw_sb_printf(b, ", added %s", f->kev_added);
        bw_sb_puts(b, ")");
        if (f->kev_due[0])
            bw_sb_printf(b, "; the remediation deadline for US federal agencies is %s, so meet it or beat it", f->kev_due);
        bw_sb_puts(b, ".");
        if (f->kev_action[0])
            bw_sb_printf(b, " CISA's required action: %s", f->kev_action);
        push(c, a, bw_sb_str(b));
    } else if (f->exploit && is_service(f)) {
        pusht(c, a, "An exploit or documented real-world use of {id} exists: treat it as exploitable now and finish remediation within {sla}.");
    } else if (f->exploit) {
        pusht(c, a, "{id} has been used in documented attacks or demonstrations: treat every exposed AI application as a target now and put the controls below in place within {sla}.");
    }
    bw_sb_reset(b);
    bw_sb_printf(b, "Open a %s ticket for %s (risk tier %s", f->priority, f->id, f->tier);
    if (f->risk_score >= 0)
        bw_sb_printf(b, ", composite risk score %d/100", f->risk_score);
    bw_sb_printf(b, ") with a named owner, and complete remediation within %s.", f->sla);
    push(c, a, bw_sb_str(b));
    for (size_t i = 0; i < f->naff && i < 4; i++) {
        if (is_service(f) || f->aff[i].fixed[0])
            push_upgrade(c, a, &f->aff[i]);
        else {
            bw_sb_reset(b);
            if (f->type == BW_FACTS_AGENT_THREAT)
                bw_sb_printf(b, "Review every deployment of %s: which tools, MCP servers, connectors and credentials it can use, and whether it asks before running commands or sending data.", f->aff[i].name);
            else
                bw_sb_printf(b, "Review every deployment of %s that reads untrusted content, and which data and actions its model output can reach.", f->aff[i].name);
            push(c, a, bw_sb_str(b));
        }
    }
    if (f->naff == 0 && is_service(f))
        pusht(c, a, "Apply the vendor's fix or published mitigations for {product}; if neither exists yet, restrict its use to trusted input and networks.");
    if (exposed(f, cs))
        pusht(c, a, "Until patched, take {product} off the internet: allow access only through a VPN or an authenticating reverse proxy, and block its API and administrative endpoints at the WAF.");
    if (artifact(f))
        pusht(c, a, "Until patched, load models with {product} only from trusted internal sources: refuse models uploaded by users or pulled from public hubs, and verify hashes before loading.");
    for (int w = 0; w < W_COUNT; w++)
        if (has_w(f, (enum wclass)w) && weak_text(f, w, true))
            pusht(c, a, weak_text(f, w, true));
    for (size_t k = 0; k < N_IMPACTS; k++) {
        if (!(f->impacts & IMPACTS[k].bit) || !IMPACTS[k].action)
            continue;
        if (IMPACTS[k].bit == BW_IMPACT_DATA && is_service(f)) {
            /* the weakness actions already rotate what the flaw exposes */
            if (!(has_w(f, W_PATH) || has_w(f, W_SSRF) || has_w(f, W_CRED) || has_w(f, W_INFO)))
                pusht(c, a, DATA_ACTION_SERVICE);
            continue;
        }
        pusht(c, a, IMPACTS[k].action);
    }
    if (f->type == BW_FACTS_AGENT_THREAT && !(f->impacts & BW_IMPACT_TOOL))
        pusht(c, a, "Review the tools, connectors and credentials each agent holds: remove what the use case does not need and require human approval for actions with side effects.");
    pusht(c, a, "Hunt for earlier exploitation with this playbook's queries over the last {lookback} days, before and after remediation: a fix does not remove an attacker who is already in.");
    return a;
}

/* ---- SOC playbook ---------------------------------------------------------------------------- */

static void soc(struct ctx *c, struct bw_jt *a, const char *stage, const char *tmpl)
{
    bw_sb_reset(&c->s);
    expand(c, &c->s, tmpl);
    if (c->s.oom)
        c->oom = true;
    append(c, a, jstrs(c, 2, "stage", stage, "action", bw_sb_str(&c->s)));
}

static struct bw_jt *soc_playbook(struct ctx *c, const struct cands *cs)
{
    const struct facts *f = &c->f;
    struct bw_jt *a = jarr(c);
    bool ai_app = !is_service(f);
    struct bw_sb t = {0};

    if (ai_app) {
        soc(c, a, "Triage", "Confirm exposure: list the LLM applications and agents that take untrusted input (users, documents, web pages, e-mails, tool results), and the tools, data and credentials each of them can reach.");
    } else {
        bw_sb_puts(&t, artifact(f) ? "Confirm exposure: find every host, container image, pipeline and notebook environment using {product}, and which of them load models from users or public sources"
                                : "Confirm exposure: find every host, container image and notebook environment running {product}, and which of them are reachable from the internet");
        if (f->naff) {
            bw_sb_puts(&t, "; affected: ");
            affected_list(&t, f, 3);
        }
        bw_sb_puts(&t, ".");
        soc(c, a, "Triage", bw_sb_str(&t));
    }
    bw_sb_reset(&t);
    bw_sb_printf(&t, "Classify the case as %s (%s", f->tier, f->priority);
    if (f->risk_score >= 0)
        bw_sb_printf(&t, ", composite risk score %d/100", f->risk_score);
    if (f->cvss10 >= 0)
        bw_sb_printf(&t, ", CVSS %s base score %d.%d", f->cvss_version[0] ? f->cvss_version : "", f->cvss10 / 10, f->cvss10 % 10);
    bw_sb_puts(&t, ")");
    if (f->kev)
        bw_sb_puts(&t, "; exploitation in the wild is confirmed by CISA, so any matching activity is handled as an incident");
    bw_sb_puts(&t, ".");
    soc(c, a, "Triage", bw_sb_str(&t));

    soc(c, a, "Scoping", "Run the suggested hunting query over the last {lookback} days, then the additional queries, and review every hit with the asset owner.");
    if (ai_app)
        soc(c, a, "Scoping", "For every session with a hit, pull the full conversation, retrieved content and tool-call history: what the model saw, what it did and what data left.");
    else
        soc(c, a, "Scoping", "For each exposed instance, look for the markers of detection_guidance in the logs from before remediation: an instance with hits is an incident, not just a vulnerability.");

    if (exposed(f, cs))
        soc(c, a, "Containment", "Restrict network access to {product} to trusted networks or an authenticating proxy until it is fixed.");
    if (artifact(f))
        soc(c, a, "Containment", "Stop pipelines and services from loading models of untrusted origin with {product} until it is upgraded.");
    size_t shown = 0;
    for (int w = 0; w < W_COUNT && shown < 2; w++)
        if (has_w(f, (enum wclass)w) && weak_text(f, w, true)) {
            soc(c, a, "Containment", weak_text(f, w, true));
            shown++;
        }
    if (ai_app || (f->impacts & (BW_IMPACT_TOOL | BW_IMPACT_PROMPT))) {
        if (f->type == BW_FACTS_AGENT_THREAT || (f->impacts & BW_IMPACT_TOOL))
            soc(c, a, "Containment", "Suspend the affected agents' side-effecting tools (shell, file write, e-mail, outbound HTTP, payments) or switch them to human approval.");
        if (ai_app || (f->impacts & BW_IMPACT_PROMPT))
            soc(c, a, "Containment", "Block the offending users, API keys or content sources, and turn on prompt-injection filtering for the affected applications.");
    }
    if (!ai_app && (exec_weak(f) || f->kev))
        soc(c, a, "Containment", "Isolate hosts with confirmed malicious activity (EDR network isolation) after capturing memory and disk evidence.");

    if (f->naff && f->aff[0].fixed[0]) {
        bw_sb_reset(&t);
        bw_sb_printf(&t, "Upgrade %s to %s or later everywhere it runs, rebuild container images that embed it, and confirm the running version afterwards.", f->aff[0].name, f->aff[0].fixed);
        soc(c, a, "Eradication", bw_sb_str(&t));
    } else if (!ai_app) {
        soc(c, a, "Eradication", "Apply the vendor's fix or mitigations for {product} and confirm they are in effect on every instance.");
    }
    if (!ai_app && (exec_weak(f) || f->kev))
        soc(c, a, "Eradication", "Rebuild compromised hosts and containers from trusted images instead of cleaning them, and remove any persistence found while scoping.");
    if (ai_app)
        soc(c, a, "Eradication", "Remove injected content at its source (documents, tickets, web pages, vector indexes, agent memory) and re-index the cleaned sources.");
    if (secrets_at_risk(f))
        soc(c, a, "Eradication", "Rotate the credentials, tokens and keys the affected component could read, and revoke sessions issued while it was exposed.");

    if (ai_app)
        soc(c, a, "Recovery", "Re-enable tools one at a time, least risky first, with approval gates and logging in place, and replay the attack prompts of {id} against the application before reopening it to users.");
    else if (artifact(f))
        soc(c, a, "Recovery", "Resume loading external models with {product} only once it is upgraded everywhere and model provenance checks are in place; keep the model-file detections running for {lookback} days.");
    else
        soc(c, a, "Recovery", "Return {product} to service only patched, behind authentication and with this playbook's detections enabled; watch it closely for {lookback} days.");

    soc(c, a, "Lessons learned", "Record how {product} came to be exposed, how long remediation took against the {sla} target and what detection missed; feed the answers into the asset inventory, the patch deadlines and detection engineering.");
    if (f->kev)
        soc(c, a, "Lessons learned", "Make sure new KEV entries open vulnerability-management tickets automatically, so the next one is not found by hand.");
    if (t.oom)
        c->oom = true;
    free(t.p);
    return a;
}

/* ---- incident response playbook (SP 800-61 Rev. 3 / CSF 2.0) ---------------------------------- */

static struct bw_jt *ir_entry(struct ctx *c, const char *function, const char *csf, const char *phase, const char *related,
                        const char *const *cats, size_t ncats, struct bw_jt *actions)
{
    struct bw_jt *e = jobj(c), *rel = jarr(c), *categories = jarr(c);
    if (related)
        push(c, rel, related);
    for (size_t i = 0; i < ncats; i++)
        push(c, categories, cats[i]);
    set(c, e, "function", jstr(c, function));
    set(c, e, "csf_id", jstr(c, csf));
    set(c, e, "rev2_phase", jstr(c, phase));
    set(c, e, "rev2_related", rel);
    set(c, e, "categories", categories);
    set(c, e, "actions", actions);
    return e;
}

static struct bw_jt *ir_playbook(struct ctx *c, const struct cands *cs)
{
    const struct facts *f = &c->f;
    struct bw_jt *out = jarr(c), *x;
    struct bw_sb *b = &c->s;
    bool ai_app = !is_service(f);

    static const char *const gv[] = {"GV.RR", "GV.PO", "GV.SC"};
    x = jarr(c);
    bw_sb_reset(b);
    bw_sb_printf(b, "Name an incident owner for %s and the executive who may accept residual risk; the remediation deadline is %s (%s)", f->id, f->sla, f->tier);
    if (f->kev && f->kev_due[0])
        bw_sb_printf(b, ", and no later than %s, CISA's KEV due date", f->kev_due);
    bw_sb_puts(b, ".");
    push(c, x, bw_sb_str(b));
    pusht(c, x, "Check that the incident response policy covers AI systems such as {product}, including who may take an AI service or agent offline.");
    if (f->has_product && is_service(f))
        pusht(c, x, "Ask the supplier or maintainers of {product} for fix status, workarounds and indicators of compromise, and record the answer (supply-chain risk management).");
    else
        push(c, x, "Ask the providers of the models, agent frameworks and plugins in use how they address this threat, and record the answer (supply-chain risk management).");
    push(c, x, "Decide early whether the incident could trigger notification duties (personal data, regulated services, contractual duties) and involve legal counsel.");
    append(c, out, ir_entry(c, "Govern", "GV", "Preparation", NULL, gv, 3, x));

    static const char *const id[] = {"ID.AM", "ID.RA", "ID.IM"};
    x = jarr(c);
    if (ai_app)
        push(c, x, "Inventory LLM applications and agents: models, system prompts, tools, connectors and the data and credentials each can reach.");
    else
        pusht(c, x, "Inventory every instance of {product} (hosts, container images, notebooks, managed services) with its owner and network exposure.");
    bw_sb_reset(b);
    bw_sb_puts(b, "Assess the risk per instance (internet exposure, reachable data, privileges); the record's rating");
    bw_sb_printf(b, " of %s", f->tier);
    if (f->risk_score >= 0)
        bw_sb_printf(b, " (%d/100)", f->risk_score);
    bw_sb_puts(b, " is the starting point, not the answer.");
    push(c, x, bw_sb_str(b));
    push(c, x, "After closure, record the lessons learned and the improvements decided, and track them to completion (improvement feeds preparation for the next incident).");
    append(c, out, ir_entry(c, "Identify", "ID", "Preparation", "Post-Incident Activity", id, 3, x));

    static const char *const pr[] = {"PR.AA", "PR.PS", "PR.DS", "PR.IR"};
    x = jarr(c);
    for (size_t i = 0; i < f->naff && i < 2; i++)
        if (!ai_app || f->aff[i].fixed[0])
            push_upgrade(c, x, &f->aff[i]);
    size_t shown = 0;
    for (int w = 0; w < W_COUNT && shown < 3; w++)
        if (has_w(f, (enum wclass)w)) {
            pusht(c, x, WEAK[w].harden);
            shown++;
        }
    if (ai_app || (f->impacts & (BW_IMPACT_TOOL | BW_IMPACT_AGENTIC)))
        push(c, x, "Give agents least-privilege tools and credentials of their own, scoped per task, with human approval for side-effecting actions.");
    if (f->impacts & BW_IMPACT_PROMPT)
        push(c, x, "Separate trusted instructions from untrusted content in prompts (clear delimiters, content marked as data), and filter both input and output.");
    if (f->impacts & BW_IMPACT_SUPPLY)
        push(c, x, "Keep an AI bill of materials and an approved model registry; pin models and packages by hash.");
    if (ai_app)
        push(c, x, "Keep versioned, known-good copies of system prompts, tool configuration, retrieval indexes and agent memory, so they can be restored after an injection.");
    else
        pusht(c, x, "Keep known-good images and configuration of {product} so it can be rebuilt rather than cleaned, and back up the data it holds.");
    append(c, out, ir_entry(c, "Protect", "PR", "Preparation", NULL, pr, 4, x));

    static const char *const de[] = {"DE.CM", "DE.AE"};
    x = jarr(c);
    push(c, x, "Deploy the detection guidance of this playbook as alert rules on the data sources named in the hunting guide, and check that those sources are actually collected.");
    pusht(c, x, "Run the hunting queries over the last {lookback} days and correlate hits across endpoint, network and application logs.");
    if (ai_app)
        push(c, x, "Declare an incident when injected instructions are followed by a tool call, a data disclosure or an outbound request in the same session.");
    else
        push(c, x, "Declare an incident when exploitation markers are followed by process, file or network activity on the same asset.");
    append(c, out, ir_entry(c, "Detect", "DE", "Detection & Analysis", NULL, de, 2, x));

    static const char *const rs[] = {"RS.MA", "RS.AN", "RS.CO", "RS.MI"};
    x = jarr(c);
    bw_sb_reset(b);
    bw_sb_printf(b, "Triage and prioritise at %s (%s), and appoint an incident commander.", f->tier, f->priority);
    push(c, x, bw_sb_str(b));
    if (ai_app)
        push(c, x, "Analyse each affected session: preserve prompts, retrieved content, model responses and tool calls with timestamps, and establish what data or actions were affected.");
    else
        push(c, x, "Analyse each affected asset: preserve logs, memory and disk images with a chain of custody, and establish the timeline from first exploitation to containment.");
    if (exposed(f, cs))
        pusht(c, x, "Contain: restrict network access to {product} and isolate compromised hosts.");
    else if (ai_app)
        push(c, x, "Contain: suspend the affected agents' side-effecting tools and block the sources of injected content.");
    for (int w = 0; w < W_COUNT; w++)
        if (has_w(f, (enum wclass)w) && weak_text(f, w, true)) {
            pusht(c, x, weak_text(f, w, true));
            break;
        }
    if (secrets_at_risk(f))
        push(c, x, "Eradicate: rotate every credential the affected component could read and revoke sessions issued while it was exposed.");
    push(c, x, "Keep stakeholders informed on a fixed rhythm, and notify customers, regulators or authorities where duties apply.");
    append(c, out, ir_entry(c, "Respond", "RS", "Containment, Eradication & Recovery", "Detection & Analysis", rs, 4, x));

    static const char *const rc[] = {"RC.RP", "RC.CO"};
    x = jarr(c);
    if (ai_app)
        push(c, x, "Restore system prompts, retrieval indexes, agent memory and tool configuration from known-good versions, and re-enable features step by step.");
    else
        pusht(c, x, "Restore affected instances of {product} from trusted, fixed images and verify their integrity before they return to service.");
    pusht(c, x, "Confirm recovery: the hunting queries stay clean for {lookback} days after restoration.");
    push(c, x, "Announce the end of the incident and the residual risk to stakeholders, with what changed.");
    append(c, out, ir_entry(c, "Recover", "RC", "Containment, Eradication & Recovery", "Post-Incident Activity", rc, 2, x));
    return out;
}

/* ---- executive advisory ---------------------------------------------------------------------- */

static struct bw_jt *advisory(struct ctx *c)
{
    const struct facts *f = &c->f;
    struct bw_sb b = {0};
    char tmp[2 * NAME_CAP + 160]; /* a name, a version (never longer than a name) and prose */
    bw_sb_puts(&b, f->id);
    if (f->title[0])
        bw_sb_printf(&b, ": %s", f->title);
    bw_sb_puts(&b, ".");
    sb_sentence(&b, f->summary);
    if (f->type == BW_FACTS_PROMPT_ATTACK)
        bw_sb_puts(&b, " It affects LLM applications that pass untrusted content (user input, documents, web pages, e-mails) to a model");
    else if (f->type == BW_FACTS_AGENT_THREAT)
        bw_sb_puts(&b, " It affects AI agents that act on untrusted content with tools, connectors or credentials");
    if (!is_service(f) && f->naff) {
        bw_sb_puts(&b, "; the documented case involves ");
        affected_list(&b, f, 3);
    } else if (f->naff) {
        bw_sb_puts(&b, " It affects ");
        affected_list(&b, f, 3);
    }
    if (f->naff || !is_service(f))
        bw_sb_puts(&b, ".");
    if (f->kev) {
        bw_sb_puts(&b, " CISA confirms exploitation in the wild");
        if (f->kev_added[0])
            bw_sb_printf(&b, " and added it to the Known Exploited Vulnerabilities catalog on %s", f->kev_added);
        bw_sb_puts(&b, ".");
        if (f->kev_due[0])
            bw_sb_printf(&b, " US federal agencies must remediate by %s.", f->kev_due);
        if (f->kev_ransomware)
            bw_sb_puts(&b, " It is known to be used in ransomware campaigns.");
    } else if (f->exploit && is_service(f)) {
        bw_sb_puts(&b, " An exploit or documented real-world use exists.");
    } else if (f->exploit) {
        bw_sb_puts(&b, " It has been used in documented attacks or demonstrations.");
    } else {
        bw_sb_puts(&b, " The record shows no known exploitation in the wild.");
    }
    bw_sb_printf(&b, " Risk: %s", f->tier);
    if (f->risk_score >= 0)
        bw_sb_printf(&b, " (composite score %d/100", f->risk_score);
    if (f->cvss10 >= 0)
        bw_sb_printf(&b, "%sCVSS %s%sbase score %d.%d", f->risk_score >= 0 ? "; " : " (", f->cvss_version, f->cvss_version[0] ? " " : "", f->cvss10 / 10, f->cvss10 % 10);
    if (f->risk_score >= 0 || f->cvss10 >= 0)
        bw_sb_puts(&b, ")");
    bw_sb_puts(&b, ".");
    size_t n = 0;
    for (size_t k = 0; k < N_IMPACTS; k++)
        if (f->impacts & IMPACTS[k].bit) {
            bw_sb_puts(&b, n ? "; " : " For AI systems this means that ");
            bw_sb_puts(&b, IMPACTS[k].meaning);
            n++;
        }
    if (n)
        bw_sb_puts(&b, ".");
    const char *decision;
    if (f->naff && f->aff[0].fixed[0]) {
        snprintf(tmp, sizeof tmp, "upgrade %s to %s or later (and %s until then)", f->aff[0].name, f->aff[0].fixed,
                 artifact(f) ? "load models only from trusted sources" : "take exposed instances offline");
        decision = tmp;
    } else if (f->kev) {
        decision = "apply the vendor's mitigations, or stop using the product, as CISA requires";
    } else if (f->type == BW_FACTS_PROMPT_ATTACK) {
        decision = "turn on input and output guardrails and limit what the affected applications may do with model output";
    } else if (f->type == BW_FACTS_AGENT_THREAT) {
        decision = "restrict the agents' tool permissions and require human approval for actions with side effects";
    } else {
        decision = "apply the vendor's mitigations and restrict exposure";
    }
    bw_sb_printf(&b, " Recommended decision: %s within %s.", decision, f->sla);
    if (b.oom)
        c->oom = true;
    struct bw_jt *s = jstr(c, bw_sb_str(&b));
    free(b.p);
    return s;
}

/* ---- operational checklist ---------------------------------------------------------------- */

struct checklist {
    struct bw_jt *arr;
    int n;
};

static void check(struct ctx *c, struct checklist *cl, const char *item, const char *owner, const char *due)
{
    char id[16];
    snprintf(id, sizeof id, "CHK-%02d", ++cl->n);
    bw_sb_reset(&c->s);
    expand(c, &c->s, item);
    if (c->s.oom)
        c->oom = true;
    struct bw_jt *o = jstrs(c, 4, "id", id, "item", bw_sb_str(&c->s), "owner", owner, "due", due);
    set(c, o, "done", jbool(c, false));
    append(c, cl->arr, o);
}

static struct bw_jt *checklist(struct ctx *c, const struct cands *cs)
{
    const struct facts *f = &c->f;
    struct checklist cl = {jarr(c), 0};
    bool ai_app = !is_service(f);
    char within[64], patch_due[128], buf[512];
    snprintf(within, sizeof within, "within %s", f->sla);
    if (f->kev && f->kev_due[0])
        snprintf(patch_due, sizeof patch_due, "within %s, and no later than %s (CISA KEV due date)", f->sla, f->kev_due);
    else
        snprintf(patch_due, sizeof patch_due, "within %s", f->sla);

    if (ai_app)
        check(c, &cl, "List the LLM applications and agents exposed to untrusted content, with the tools, data and credentials each can reach.", "AI application owner", "within 24 hours");
    else
        check(c, &cl, "List every instance of {product} with its version, owner and network exposure.", "Vulnerability management", "within 24 hours");
    if (exposed(f, cs))
        check(c, &cl, "Restrict network access to {product} to trusted networks or an authenticating proxy.", "Network security", "immediately");
    if (artifact(f))
        check(c, &cl, "Stop loading models of untrusted origin with {product} until it is upgraded.", "ML platform team", "immediately");
    for (size_t i = 0; i < f->naff && i < 4; i++) {
        const char *owner = "Platform engineering";
        if (f->aff[i].fixed[0]) {
            snprintf(buf, sizeof buf, "Upgrade %s to %s or later everywhere, including container images and notebooks.", f->aff[i].name, f->aff[i].fixed);
        } else if (ai_app) {
            snprintf(buf, sizeof buf, "Review the tools, MCP servers, connectors and credentials configured for %s in every deployment.", f->aff[i].name);
            owner = "AI application owner";
        } else {
            snprintf(buf, sizeof buf, "Remove or isolate %s until a fixed version exists; record the exception.", f->aff[i].name);
        }
        /* buf is a finished sentence: no placeholders to fill, but expand() copies it safely */
        check(c, &cl, buf, owner, patch_due);
    }
    if (f->naff == 0 && !ai_app)
        check(c, &cl, "Apply the vendor's fix or mitigations for {product} on every instance.", "Platform engineering", patch_due);
    if (f->type == BW_FACTS_AGENT_THREAT || (f->impacts & BW_IMPACT_TOOL))
        check(c, &cl, "Reduce agent tool permissions to least privilege and require approval for side-effecting tools.", "AI application owner", within);
    if (ai_app || (f->impacts & BW_IMPACT_PROMPT))
        check(c, &cl, "Enable prompt-injection and output filtering on every affected LLM endpoint.", "AI application owner", within);
    if (f->impacts & BW_IMPACT_SUPPLY || has_w(f, W_DESER))
        check(c, &cl, "Verify the origin and hashes of models and AI packages in use; quarantine unverified ones.", "ML platform team", within);
    if (secrets_at_risk(f))
        check(c, &cl, "Rotate credentials, tokens and keys the affected component could read.", "Identity and access management", within);
    check(c, &cl, "Deploy the detection guidance as alert rules and test that each one fires.", "Detection engineering", within);
    check(c, &cl, "Run the hunting queries over the last {lookback} days and record the result, hits or none.", "SOC threat hunting", "within 24 hours");
    check(c, &cl, "Verify remediation: versions or configuration confirmed on every instance, and the hunting queries clean since.", "Vulnerability management", patch_due);
    check(c, &cl, "Brief leadership with the executive advisory; record decisions and any risk acceptance signed by the CISO.", "CISO", "within 24 hours");
    check(c, &cl, "Hold the lessons-learned review and track its actions to completion.", "Incident commander", "within 14 days of closure");
    return cl.arr;
}

/* ---- references ------------------------------------------------------------------------------ */

static bool url_ok(const char *u)
{
    if (strncmp(u, "https://", 8) != 0 && strncmp(u, "http://", 7) != 0)
        return false;
    size_t n = strlen(u);
    if (n > 2048 || n < 12)
        return false;
    for (const char *p = u; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch <= 0x20 || ch == 0x7f || ch == '"' || ch == '<' || ch == '>' || ch == '\\' || ch == '`')
            return false;
    }
    return true;
}

/* Same URL up to trailing slashes. */
static bool url_same(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    while (la && a[la - 1] == '/')
        la--;
    while (lb && b[lb - 1] == '/')
        lb--;
    return la == lb && memcmp(a, b, la) == 0;
}

static void ref_add(struct ctx *c, struct bw_jt *refs, const char *label, const char *url)
{
    if (!url_ok(url))
        return;
    for (const struct bw_jt *r = refs ? refs->u.kids.first : NULL; r; r = r->next)
        if (url_same(bw_jt_str(bw_jt_get(r, "url")), url))
            return;
    append(c, refs, jstrs(c, 2, "label", label, "url", url));
}

static struct bw_jt *references(struct ctx *c, const struct cands *cs)
{
    const struct facts *f = &c->f;
    struct bw_jt *refs = jarr(c);
    char label[320], url[256];
    size_t i;
    const json_t *v;
    const char *cves[BW_PLAYBOOK_MAX_ITEMS];
    size_t ncve = bw_facts_ids(f->cve, bw_cve_valid, BW_PLAYBOOK_MAX_ITEMS, BW_PLAYBOOK_MAX_ITEMS, cves);
    for (i = 0; i < ncve; i++) {
        snprintf(label, sizeof label, "NVD: %s", cves[i]);
        snprintf(url, sizeof url, "https://nvd.nist.gov/vuln/detail/%s", cves[i]);
        ref_add(c, refs, label, url);
    }
    if (f->kev)
        ref_add(c, refs, "CISA Known Exploited Vulnerabilities catalog", "https://www.cisa.gov/known-exploited-vulnerabilities-catalog");
    json_array_foreach(f->cwe, i, v) {
        int n = bw_cwe_number(json_string_value(v));
        if (i >= BW_PLAYBOOK_MAX_ITEMS || n <= 0 || n > 1999) /* CWE ids stop well below 2000 */
            continue;
        int w = weak_class(n);
        if (w >= 0)
            snprintf(label, sizeof label, "CWE-%d (%s)", n, WEAK[w].label);
        else
            snprintf(label, sizeof label, "CWE-%d", n);
        snprintf(url, sizeof url, "https://cwe.mitre.org/data/definitions/%d.html", n);
        ref_add(c, refs, label, url);
    }
    for (i = 0; i < cs->n; i++) {
        snprintf(label, sizeof label, "MITRE ATT&CK %s: %s", cs->v[i].t->id, cs->v[i].t->name);
        ref_add(c, refs, label, cs->v[i].t->url);
    }
    json_array_foreach(f->atlas, i, v) {
        const char *s = json_string_value(v);
        if (i >= BW_PLAYBOOK_MAX_ITEMS || !s || !bw_atlas_id_valid(s))
            continue;
        const struct bw_atlas_technique *t = bw_atlas_technique_find(s);
        snprintf(label, sizeof label, "MITRE ATLAS %s%s%s", s, t ? ": " : "", t ? t->name : "");
        snprintf(url, sizeof url, "https://atlas.mitre.org/techniques/%s", s);
        ref_add(c, refs, label, url);
    }
    /* the record's own id and its aliases, where a public page exists for that kind of id */
    const char *ids[BW_PLAYBOOK_MAX_ITEMS + 1];
    size_t nid = 0;
    ids[nid++] = bw_json_str(c->rec, "id");
    json_array_foreach(f->aliases, i, v) {
        if (nid > BW_PLAYBOOK_MAX_ITEMS)
            break;
        if (json_string_value(v))
            ids[nid++] = json_string_value(v);
    }
    for (i = 0; i < nid; i++) {
        const char *s = ids[i];
        if (strlen(s) > 64 || !safe_token(s, "-."))
            continue;
        if (strncmp(s, "GHSA-", 5) == 0) {
            snprintf(label, sizeof label, "GitHub advisory %s", s);
            snprintf(url, sizeof url, "https://github.com/advisories/%s", s);
        } else if (strncmp(s, "PYSEC-", 6) == 0) {
            snprintf(label, sizeof label, "OSV: %s", s);
            snprintf(url, sizeof url, "https://osv.dev/vulnerability/%s", s);
        } else if (strncmp(s, "AML.CS", 6) == 0) {
            snprintf(label, sizeof label, "MITRE ATLAS case study %s", s);
            snprintf(url, sizeof url, "https://atlas.mitre.org/studies/%s", s);
        } else {
            continue;
        }
        ref_add(c, refs, label, url);
    }
    /* OWASP Top 10 for LLM Applications 2025, naming the risks this record falls under */
    static const struct {
        unsigned impacts;
        const char *risk;
    } owasp[] = {
        {BW_IMPACT_PROMPT, "LLM01 Prompt Injection"},
        {BW_IMPACT_DATA, "LLM02 Sensitive Information Disclosure"},
        {BW_IMPACT_SUPPLY, "LLM03 Supply Chain"},
        {BW_IMPACT_TOOL | BW_IMPACT_AGENTIC, "LLM06 Excessive Agency"},
        {BW_IMPACT_AVAIL | BW_IMPACT_THEFT, "LLM10 Unbounded Consumption"},
    };
    bool any = false;
    snprintf(label, sizeof label, "OWASP Top 10 for LLM Applications 2025");
    for (i = 0; i < sizeof owasp / sizeof owasp[0]; i++)
        if (f->impacts & owasp[i].impacts) {
            size_t l = strlen(label);
            snprintf(label + l, sizeof label - l, "%s%s", any ? ", " : ": ", owasp[i].risk);
            any = true;
        }
    if (any)
        ref_add(c, refs, label, "https://genai.owasp.org/resource/owasp-top-10-for-llm-applications-2025/");
    if (f->impacts & BW_IMPACT_AGENTIC)
        ref_add(c, refs, "OWASP Top 10 for Agentic Applications 2026", "https://genai.owasp.org/resource/owasp-top-10-for-agentic-applications-for-2026/");
    size_t taken = 0;
    json_array_foreach(f->refs, i, v) {
        const char *u = json_string_value(json_object_get(v, "url"));
        if (taken >= BW_PLAYBOOK_MAX_RECORD_REFS)
            break;
        if (!u || !url_ok(u))
            continue;
        const char *kind = bw_json_str(v, "kind");
        const char *word = eq(kind, "nvd") ? "NVD entry" : eq(kind, "kev") ? "CISA KEV entry" : eq(kind, "advisory") ? "Advisory"
                         : eq(kind, "atlas") ? "MITRE ATLAS" : eq(kind, "attack") ? "MITRE ATT&CK" : "Reference";
        /* the host names the source (as the shared URL parser reads it: never a userinfo) */
        struct bw_url pu;
        if (bw_url_read(&pu, u))
            snprintf(label, sizeof label, "%s (%s)", word, pu.host.name);
        else
            snprintf(label, sizeof label, "%s", word);
        ref_add(c, refs, label, u);
        taken++;
    }
    return refs;
}

/* ---- supporting evidence ------------------------------------------------------------------- */

struct keyref {
    const char *key;
    size_t len;
    const json_t *value;
};

static int keyref_cmp(const void *a, const void *b)
{
    const struct keyref *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int r = memcmp(x->key, y->key, n);
    return r ? r : (x->len > y->len) - (x->len < y->len);
}

/* A copy in the arena whose objects have their keys in sorted order (so the text does not
 * depend on the input's member order), whose arrays are capped, and whose nesting stops at
 * BW_PLAYBOOK_EVIDENCE_DEPTH (deeper values become null: a record jansson accepts at its own
 * depth limit would otherwise give a playbook one level deeper than any parser takes back). */
static struct bw_jt *canon(struct ctx *c, const json_t *v, int depth)
{
    if (depth > BW_PLAYBOOK_EVIDENCE_DEPTH)
        return bw_jt_null(&c->a);
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        size_t n = json_object_size(v), i = 0;
        struct keyref *keys = calloc(n ? n : 1, sizeof *keys);
        struct bw_jt *o = jobj(c);
        if (!keys || !o) {
            free(keys);
            return NULL;
        }
        for (void *it = json_object_iter((json_t *)v); it && i < n; it = json_object_iter_next((json_t *)v, it)) {
            keys[i].key = json_object_iter_key(it);
            keys[i].len = json_object_iter_key_len(it);
            keys[i].value = json_object_iter_value(it);
            i++;
        }
        qsort(keys, i, sizeof *keys, keyref_cmp);
        for (size_t k = 0; k < i && o; k++)
            if (!bw_jt_setn_copy(&c->a, o, keys[k].key, keys[k].len, canon(c, keys[k].value, depth + 1)))
                o = NULL;
        free(keys);
        return o;
    }
    case JSON_ARRAY: {
        struct bw_jt *a = jarr(c);
        size_t i;
        const json_t *x;
        json_array_foreach(v, i, x) {
            if (!a || i >= BW_PLAYBOOK_EVIDENCE_ITEMS)
                break;
            if (!bw_jt_append(a, canon(c, x, depth + 1)))
                a = NULL;
        }
        return a;
    }
    case JSON_STRING: return bw_jt_stringn(&c->a, json_string_value(v), json_string_length(v));
    case JSON_INTEGER: return jint(c, json_integer_value(v));
    case JSON_REAL: return bw_jt_real(&c->a, json_real_value(v));
    case JSON_TRUE: return jbool(c, true);
    case JSON_FALSE: return jbool(c, false);
    case JSON_NULL: return bw_jt_null(&c->a);
    }
    return NULL;
}

enum jkind { K_STRING, K_INT, K_NUMBER, K_BOOL, K_ARRAY, K_OBJECT };

static struct bw_jt *evidence(struct ctx *c, const json_t *r)
{
    static const struct {
        const char *key;
        enum jkind kind;
    } fields[] = {
        {"id", K_STRING}, {"aliases", K_ARRAY}, {"version", K_INT}, {"type", K_STRING}, {"title", K_STRING}, {"severity", K_STRING},
        {"cvss", K_OBJECT}, {"cve", K_ARRAY}, {"kev", K_BOOL}, {"kev_details", K_OBJECT}, {"cwe", K_ARRAY},
        {"attack_techniques", K_ARRAY}, {"atlas_techniques", K_ARRAY}, {"affected", K_ARRAY},
        {"exploit_available", K_BOOL}, {"ai_impact", K_ARRAY}, {"risk_score", K_NUMBER}, {"risk_tier", K_STRING},
        {"published", K_STRING}, {"updated", K_STRING}, {"source", K_STRING}, {"sources", K_ARRAY},
    };
    struct bw_jt *e = jobj(c);
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const json_t *v = json_object_get(r, fields[i].key);
        bool ok = false;
        switch (fields[i].kind) {
        case K_STRING: ok = json_is_string(v); break;
        case K_INT: ok = json_is_integer(v); break;
        case K_NUMBER: ok = json_is_number(v); break;
        case K_BOOL: ok = json_is_boolean(v); break;
        case K_ARRAY: ok = json_is_array(v); break;
        case K_OBJECT: ok = json_is_object(v); break;
        }
        set(c, e, fields[i].key, ok ? canon(c, v, 1) : bw_jt_null(&c->a));
    }
    return e;
}

/* ---- entry points ---------------------------------------------------------------------------- */

bool bw_playbook_write(struct bw_sb *out, const json_t *record, char tier[BW_PLAYBOOK_TIER_MAX])
{
    if (!json_is_object(record))
        return false;
    struct ctx *c = calloc(1, sizeof *c);
    struct cands *cs = calloc(1, sizeof *cs);
    if (!c || !cs) {
        free(c);
        free(cs);
        return false;
    }
    c->rec = record;
    facts_read(&c->f, record);
    /* the record type implies an impact even when ai_impact does not list it */
    if (c->f.type == BW_FACTS_PROMPT_ATTACK)
        c->f.impacts |= BW_IMPACT_PROMPT;
    if (c->f.type == BW_FACTS_AGENT_THREAT)
        c->f.impacts |= BW_IMPACT_AGENTIC;
    techniques_collect(&c->f, cs);

    struct bw_jt *pb = jobj(c);
    set(c, pb, "risk_tier", jstr(c, c->f.tier));
    set(c, pb, "immediate_actions", immediate(c, cs));
    set(c, pb, "detection_guidance", detection(c, cs));
    set(c, pb, "threat_hunting_guide", hunting(c, cs));
    set(c, pb, "soc_playbook", soc_playbook(c, cs));
    set(c, pb, "incident_response_playbook", ir_playbook(c, cs));
    set(c, pb, "executive_advisory", advisory(c));
    set(c, pb, "security_architecture_guidance", architecture(c, cs));
    set(c, pb, "operational_checklist", checklist(c, cs));
    set(c, pb, "references", references(c, cs));
    set(c, pb, "supporting_evidence", evidence(c, record));

    size_t start = out->len;
    bool ok = !c->oom && !c->s.oom && !c->a.oom && bw_sb_grow(out, BW_PLAYBOOK_TEXT_HINT) && bw_jt_write(out, pb, 15);
    /* the generator's own text is UTF-8, and what it takes from the record is cut on character
     * boundaries (clip); a slip there must fail here rather than reach a client, as jansson's
     * check of each string did */
    ok = ok && bw_utf8_valid(out->p + start, out->len - start);
    if (ok && tier)
        snprintf(tier, BW_PLAYBOOK_TIER_MAX, "%s", c->f.tier);
    if (!ok && !out->oom && out->p) {
        out->len = start; /* nothing of a failed playbook stays */
        out->p[start] = '\0';
    }
    bw_jt_arena_free(&c->a);
    free(c->s.p);
    free(c);
    free(cs);
    return ok;
}

char *bw_playbook_text(const json_t *record, size_t *len, char tier[BW_PLAYBOOK_TIER_MAX])
{
    struct bw_sb b = {0};
    if (!bw_playbook_write(&b, record, tier)) {
        free(b.p);
        return NULL;
    }
    if (len)
        *len = b.len;
    return bw_sb_take(&b);
}

json_t *bw_playbook_build(const json_t *record)
{
    size_t len = 0;
    char *text = bw_playbook_text(record, &len, NULL);
    json_t *pb = text ? json_loadb(text, len, JSON_ALLOW_NUL, NULL) : NULL; /* a record string may hold \u0000 */
    free(text);
    return pb;
}

char *bw_playbook_dump(const json_t *pb)
{
    return pb ? bw_json_dump(pb, 15, NULL) : NULL;
}
