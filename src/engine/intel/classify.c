/* Reading advisory text: which kind of flaw it describes, what that maps to in ATT&CK and
 * ATLAS, and which AI impacts follow. Keyword tables, ordered so that the first matching class
 * names the flaw (code execution before the crash it may also mention). */
#include "engine/intel/normalize.h"

#include <ctype.h>
#include <string.h>

struct weakness {
    const char *label;
    const char *needles[24]; /* any of them, ignoring case */
    const char *severity;    /* estimate when the source gives no CVSS */
    const char *attack[2];
    const char *atlas[2];
    const char *impact[2];
    const char *sentence;
};

static const struct weakness W[] = {
    {"prompt injection",
     {"prompt injection", "prompt-injection", "injected prompt"},
     "HIGH", {NULL}, {"AML.T0051"}, {"prompt_injection"},
     "Text that reaches the model can override its instructions and steer what the application does."},
    {"code execution",
     {"arbitrary code", "code execution", "execute arbitrary", "command injection", "code injection", "os command",
      "remote code", "arbitrary command", "shell command", "execute code", "execution of arbitrary", "python repl",
      "repl access"},
     "HIGH", {"T1059"}, {"AML.T0050"}, {"tool_execution"},
     "An attacker can run code or commands of their choice with the privileges of the affected process."},
    {"unsafe deserialization",
     {"deserializ", "deserialis", "unsafe load", "yaml.load", "unpickl", "torch.load"},
     "HIGH", {"T1059"}, {"AML.T0011.000"}, {"tool_execution"},
     "Loading attacker-supplied data can run code inside the loading process."},
    {"SQL injection", {"sql injection"}, "HIGH", {"T1190"}, {"AML.T0049"}, {"data_exposure"},
     "Crafted input changes database queries, exposing or altering stored data."},
    {"server-side request forgery",
     {"ssrf", "server-side request forgery", "server side request forgery", "are proxied"},
     "HIGH", {"T1190"}, {"AML.T0049"}, {"data_exposure"},
     "The server can be made to send requests to internal or arbitrary addresses on the attacker's behalf."},
    {"path traversal",
     {"path traversal", "directory traversal", "traversal", "../", "..\\", "arbitrary file", "file paths are not",
      "path filtering", "tarslip", "zipslip", "unsafe extraction", "unintended location", "access any file"},
     "HIGH", {"T1005"}, {NULL}, {"data_exposure"},
     "Crafted paths reach files outside the intended directory, to read or overwrite them."},
    {"missing authentication",
     {"missing authentication", "authentication bypass", "unauthenticated", "access control", "improper authorization",
      "authorization bypass", "without authentication", "missing authorization"},
     "HIGH", {"T1190"}, {"AML.T0049"}, {"data_exposure"},
     "Protected functions are reachable without the expected authentication or authorisation."},
    {"cross-site scripting", {"cross-site scripting", "cross site scripting", "xss"}, "MEDIUM", {"T1189"}, {NULL},
     {"data_exposure"}, "Injected script runs in the browser of users who open the affected page."},
    {"credential exposure",
     {"api key", "api_key", "credential", "secret key", "access token", "password"},
     "MEDIUM", {"T1552"}, {"AML.T0055"}, {"data_exposure"},
     "Secrets such as API keys or credentials can be disclosed to the attacker."},
    {"improper certificate validation",
     {"verify=false", "certificate validation", "certificate verification", "tls verification"},
     "MEDIUM", {"T1557"}, {NULL}, {"data_exposure"},
     "Connections do not verify their peer, so traffic can be intercepted or altered."},
    {"memory corruption",
     {"heap buffer overflow", "heap-buffer-overflow", "buffer overflow", "heap overflow", "out of bounds write",
      "out-of-bounds write", "oob write", "use after free", "use-after-free", "double free", "memory corruption",
      "write outside", "writes outside", "writes out"},
     "HIGH", {"T1203"}, {NULL}, {"availability"},
     "Crafted input corrupts memory, crashing the process and possibly giving control over it."},
    {"out-of-bounds read",
     {"out of bounds read", "out-of-bounds read", "oob read", "read outside", "reads outside", "heap buffer overread",
      "uninitialized", "unitialized", "information disclosure", "memory leak", "out of bounds access",
      "out-of-bounds access", "outside of bounds", "out of bounds", "arbitrary memory", "heap oob"},
     "MEDIUM", {NULL}, {NULL}, {"data_exposure"},
     "Crafted input makes the process read memory it should not, which can leak data or crash it."},
    {"denial of service",
     {"denial of service", "null pointer", "nullptr", "divide by zero",
      "segfault", "segmentation fault", "check-fail", "check fail", "check failure", "crash", "infinite loop",
      "stack overflow", "integer overflow", "out of memory", "assertion", "dcheck", "abort", "division", "divisor",
      "does not validate", "fails to terminate"},
     "MEDIUM", {"T1499"}, {"AML.T0029"}, {"availability"},
     "Crafted input crashes or stalls the process, denying service to its users."},
    {"insecure temporary file", {"temporary file", "temp file", "tempfile"}, "MEDIUM", {NULL}, {NULL},
     {"data_exposure"}, "Temporary files are created so that other local users can read or replace them."},
    {"open redirect", {"open redirect"}, "MEDIUM", {"T1189"}, {NULL}, {NULL},
     "Links on the site can send users on to a page of the attacker's choosing."},
};

bool bw_text_has(const char *text, const char *needle) { return text && strcasestr(text, needle) != NULL; }

struct bw_text_class bw_classify(json_t *rec, const char *text, const char **severity)
{
    struct bw_text_class first = {"vulnerability", "Details are in the references."};
    const char *sev = NULL;
    bool found = false;
    for (size_t w = 0; w < sizeof W / sizeof W[0]; w++) {
        bool hit = false;
        for (size_t k = 0; k < 24 && W[w].needles[k] && !hit; k++)
            hit = bw_text_has(text, W[w].needles[k]);
        if (!hit)
            continue;
        if (!found)
            first = (struct bw_text_class){W[w].label, W[w].sentence};
        found = true;
        sev = sev ? bw_sev_max(sev, W[w].severity) : W[w].severity;
        for (size_t k = 0; k < 2; k++) {
            bw_rec_add(rec, "attack_techniques", W[w].attack[k]);
            bw_rec_add(rec, "atlas_techniques", W[w].atlas[k]);
            if (W[w].impact[k])
                bw_rec_impact(rec, W[w].impact[k]);
        }
    }
    *severity = sev ? sev : "MEDIUM";
    return first;
}

bool bw_model_artifact(const char *text, const char *package)
{
    static const char *const formats[] = {"onnx", "safetensors", "keras", NULL};
    static const char *const needles[] = {"tflite",           "tensorflow lite", "tensorflow-lite", "saved model",
                                          "savedmodel",       "saved_model",     "checkpoint",      "crafted model",
                                          "malicious model",  "model file",      "loading a model", "loading any model",
                                          "load a model",     "keras model",     "models using",
                                          "onnx model",      NULL};
    for (size_t i = 0; package && formats[i]; i++)
        if (strcasecmp(package, formats[i]) == 0)
            return true;
    for (size_t i = 0; needles[i]; i++)
        if (bw_text_has(text, needles[i]))
            return true;
    return false;
}

bool bw_llm_framework(const char *name)
{
    static const char *const prefixes[] = {"langchain", "llama-index", "llama_index", "llamaindex", "langflow",
                                           "flowise",   "haystack",    "autogen",     "crewai",     "semantic-kernel",
                                           "dify",      "anything-llm", NULL};
    for (size_t i = 0; name && prefixes[i]; i++)
        if (strncasecmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

/* A backticked span that names code: a dotted or underscored name, a call, or a CamelCase
 * identifier (not a plain word such as the package name or a parameter assignment). */
static bool code_like(const char *p, size_t n)
{
    bool mark = false, lower = false, inner_upper = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (isspace(c) || c < 0x20 || c == '=' || c == '/')
            return false;
        mark |= c == '.' || c == '_' || c == '(';
        lower |= islower(c) != 0;
        inner_upper |= i > 0 && isupper(c);
    }
    return (mark || (lower && inner_upper)) && isalpha((unsigned char)p[0]);
}

void bw_text_symbol(const char *text, char *out, size_t cap)
{
    out[0] = '\0';
    for (const char *p = text ? strchr(text, '`') : NULL; p; p = strchr(p + 1, '`')) {
        const char *q = strchr(p + 1, '`');
        if (!q)
            return;
        size_t n = (size_t)(q - p - 1);
        if (n > 0 && n <= 60 && n < cap && code_like(p + 1, n)) {
            memcpy(out, p + 1, n);
            out[n] = '\0';
            return;
        }
        p = q;
    }
}
