#define PCRE2_CODE_UNIT_WIDTH 8
#include "engine/code/taint.h"

#include "common/limits.h"

#include <ctype.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- per language: where request data comes from, what makes a route, what cleans any value --- */

/* Each regex is matched at the start of an expression's text (anchored). Written for bulwark from
 * the frameworks' documented request APIs. */
static const struct lang_tables {
    const char *sources; /* expressions that read request (or other untrusted) data */
    const char *route;   /* text of a function's head (and the call it is passed to) that makes its
                          * parameters request data */
    const char *clean;   /* callees whose result is safe whatever went in: numbers, quoting */
} LANGS[BW_LANG_COUNT] = {
    [BW_LANG_PY] = {
        "(?:flask\\.)?request\\.(?:args|form|values|json|data|files|headers|cookies|get_json|get_data|"
        "query_params|GET|POST|FILES|COOKIES|META|body|path_params|stream)\\b|self\\.request\\.(?:GET|POST|"
        "query_params|data|body|arguments|get_argument)|self\\.get_(?:argument|query_argument|body_argument)\\b|"
        "(?:await\\s+)?request\\.(?:json|form|body)\\(",
        "@\\w+(?:\\.\\w+)*\\.(?:route|get|post|put|delete|patch|api_route|websocket)\\s*\\(|@api_view|"
        "\\b(?:Query|Body|Form|Path|Header|Cookie|File)\\s*\\(|UploadFile|HttpRequest",
        "(?:int|float|bool|len|uuid\\.UUID|shlex\\.quote|html\\.escape|escape|quote|urllib\\.parse\\.quote|"
        "quote_plus|secure_filename|os\\.path\\.basename|abs|hash|(?:cursor|db|conn|connection)\\.(?:execute|query|fetch\\w*))"},
    [BW_LANG_JS] = {
        "(?:req|request|ctx\\.request|ctx)\\.(?:query|body|params|headers|cookies|url|originalUrl|path|files?|"
        "search|hostname|get|header)\\b|(?:await\\s+)?(?:req|request)\\.(?:json|text|formData)\\s*\\(|"
        "(?:\\w+\\.)*searchParams\\.get\\s*\\(|(?:window\\.)?location\\.(?:search|hash|href|pathname)\\b|"
        "document\\.(?:URL|location|referrer|cookie)\\b|(?:event|e|evt|msg|message)\\.data\\b|"
        "event\\.(?:queryStringParameters|pathParameters|body)\\b",
        "\\b(?:req|request|ctx)\\b|\\.(?:get|post|put|delete|patch|all|use)\\s*\\(|@(?:Get|Post|Put|Delete|Patch|"
        "Query|Param|Body|Headers|Req)\\s*\\(|NextRequest|NextApiRequest",
        "(?:parseInt|parseFloat|Number|Boolean|encodeURIComponent|escape|escapeHtml|path\\.basename|basename|"
        "validator\\.\\w+|Math\\.\\w+|(?:await )?(?:db|pool|conn|knex|sql|prisma\\.\\w+)\\.(?:query|execute|one|many|any|find\\w*))"},
    [BW_LANG_TS] = {0}, /* = js, set in tables() */
    [BW_LANG_JAVA] = {
        "\\w*(?:[rR]equest|req)\\.(?:getParameter|getParameterValues|getParameterMap|getHeader|getHeaders|"
        "getQueryString|getInputStream|getReader|getCookies|getPathInfo|getRequestURI|getRequestURL|getPart)\\s*\\(",
        "@(?:RequestParam|PathVariable|RequestBody|RequestHeader|CookieValue|ModelAttribute|QueryParam|PathParam|"
        "FormParam|HeaderParam)\\b|HttpServletRequest|@(?:Get|Post|Put|Delete|Patch|Request)Mapping|@(?:GET|POST|PUT|DELETE)\\b",
        "(?:Integer\\.parseInt|Integer\\.valueOf|Long\\.parseLong|Long\\.valueOf|UUID\\.fromString|"
        "FilenameUtils\\.getName|URLEncoder\\.encode|StringEscapeUtils\\.\\w+|HtmlUtils\\.htmlEscape|"
        "Encode\\.\\w+|\\w+\\.getFileName)"},
    [BW_LANG_GO] = {
        "(?:r|req|request)\\.(?:URL\\.Query\\s*\\(\\s*\\)|FormValue\\s*\\(|PostFormValue\\s*\\(|URL\\.Path\\b|"
        "URL\\.RawQuery\\b|Header\\.Get\\s*\\(|Cookie\\s*\\(|Body\\b|Form\\b|PostForm\\b|MultipartForm\\b|FormFile\\s*\\()|"
        "(?:c|ctx)\\.(?:Query|DefaultQuery|Param|Params|PostForm|GetHeader|QueryParam|FormValue|FormFile|"
        "(?:Should)?Bind(?:JSON|Query|Uri|Header)?)\\s*\\(|(?:c|ctx)\\.Request\\.(?:URL|Body|Header|Form)\\b|"
        "mux\\.Vars\\s*\\(|chi\\.URLParam\\s*\\(",
        "http\\.ResponseWriter|\\*http\\.Request|\\*gin\\.Context|echo\\.Context|\\*fiber\\.Ctx|\\*fasthttp\\.RequestCtx",
        "(?:strconv\\.\\w+|filepath\\.Base|path\\.Base|url\\.QueryEscape|url\\.PathEscape|html\\.EscapeString|"
        "uuid\\.Parse)"},
    [BW_LANG_PHP] = {
        "\\$_(?:GET|POST|REQUEST|COOKIE|FILES|SERVER)\\b|\\$(?:request|req)->(?:input|get|query|post|header|file|"
        "all|route|cookie|json|getContent|only)\\b|\\$this->request->|request\\s*\\(\\s*\\)|request\\s*\\(\\s*['\"]|"
        "Request::(?:input|get|query|all)\\b|Input::get\\b|file_get_contents\\s*\\(\\s*['\"]php://input",
        "Route::|#\\[Route\\b",
        "(?:intval|floatval|boolval|basename|htmlspecialchars|htmlentities|escapeshellarg|escapeshellcmd|"
        "urlencode|rawurlencode|abs|filter_var|\\(int\\)|ctype_\\w+)"},
    [BW_LANG_RB] = {
        "params\\b|request\\.(?:params|query_string|body|headers|env|referer|referrer|url|path|fullpath|cookies|"
        "query_parameters|request_parameters|raw_post)\\b|cookies\\[",
        "\\bparams\\b|\\brequest\\b",
        "(?:Integer|Float|File\\.basename|CGI\\.escape\\w*|ERB::Util\\.\\w+|Shellwords\\.escape|"
        ".*\\.(?:to_i|to_f|to_sym|shellescape))"},
    [BW_LANG_CS] = {
        "(?:\\w+\\.)*Request\\.(?:Query|Form|Headers|Cookies|Body|RouteValues|Path|QueryString|Params|"
        "ReadFromJsonAsync|ReadFormAsync)\\b|(?:\\w+\\.)*QueryString\\[",
        "\\[(?:Http(?:Get|Post|Put|Delete|Patch)|Route|FromQuery|FromBody|FromForm|FromRoute|FromHeader|ApiController)\\b|"
        "HttpContext|HttpRequest|\\.Map(?:Get|Post|Put|Delete|Patch|Methods)?\\s*\\(",
        "(?:int\\.Parse|int\\.TryParse|long\\.Parse|Guid\\.Parse|Convert\\.ToInt\\d+|Path\\.GetFileName|"
        "Uri\\.EscapeDataString|HttpUtility\\.\\w+|WebUtility\\.\\w+|HtmlEncoder\\.\\w+\\.Encode)"},
    [BW_LANG_RS] = {
        "\\w*req\\w*\\.(?:query_string|headers|uri|match_info|body)\\s*\\(|"
        "web::(?:Query|Json|Form|Path)\\b",
        "\\b(?:Query|Json|Form|Path|Multipart|Bytes)\\s*<|web::|HttpRequest|#\\[(?:get|post|put|delete|patch|route)\\b|"
        "axum::extract|Request<",
        "(?:\\w+::parse|\\w+\\.parse::<\\w+>|urlencoding::encode|Path::new\\([^)]*\\)\\.file_name|html_escape::\\w+)"},
};

/* The regexes above and each spec's, compiled once (tables() on first use, under a once). */
static pcre2_code *re_src[BW_LANG_COUNT], *re_route[BW_LANG_COUNT], *re_clean[BW_LANG_COUNT],
    *re_gate[BW_LANG_COUNT];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static bool tables_ok;

static pcre2_code *compile(const char *p, uint32_t flags, char *err, size_t errlen)
{
    pcre2_code *c = bw_re_compile(p, flags, err, errlen);
    if (c)
        (void)pcre2_jit_compile(c, PCRE2_JIT_COMPLETE); /* only an optimisation */
    return c;
}

static void tables(void)
{
    char e[200];
    tables_ok = true;
    for (int l = 0; l < BW_LANG_COUNT; l++) {
        const struct lang_tables *t = &LANGS[l == BW_LANG_TS ? BW_LANG_JS : l];
        if (!t->sources)
            continue;
        /* sources and cleaners anchored at the expression's start; a cleaner must be the whole callee */
        char *clean = malloc(strlen(t->clean) + 16);
        if (!clean) {
            tables_ok = false;
            return;
        }
        sprintf(clean, "(?:%s)\\z", t->clean);
        re_src[l] = compile(t->sources, PCRE2_ANCHORED, e, sizeof e);
        re_route[l] = compile(t->route, 0, e, sizeof e);
        re_clean[l] = compile(clean, PCRE2_ANCHORED, e, sizeof e);
        free(clean);
        /* a source or a route anywhere: the gate before a file is parsed for taint */
        size_t gl = strlen(t->sources) + strlen(t->route) + 16;
        char *gate = malloc(gl);
        if (gate) {
            snprintf(gate, gl, "(?:%s)|(?:%s)", t->sources, t->route);
            re_gate[l] = compile(gate, 0, e, sizeof e);
            free(gate);
        }
        tables_ok &= re_src[l] && re_route[l] && re_clean[l] && re_gate[l];
    }
}

struct sink {
    pcre2_code *callee; /* matched against the end of the callee's text */
    int arg;            /* argument index, -1: any, -2: the receiver (url.openStream()) */
    pcre2_code *when;   /* the call's text must match it (header("Location: ..."), or NULL */
    pcre2_code *unless; /* ... and must not match it (sendFile(name, {root: dir})), or NULL */
};

struct bw_taint_spec {
    enum bw_lang lang;
    struct sink *sinks;
    size_t nsinks;
    pcre2_code *sanitizer; /* the rule's own cleaners (anchored, whole callee), or NULL */
    pcre2_code *guard;     /* a condition that validates, or NULL */
};

void bw_taint_spec_free(struct bw_taint_spec *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nsinks; i++) {
        pcre2_code_free(s->sinks[i].callee);
        pcre2_code_free(s->sinks[i].when);
        pcre2_code_free(s->sinks[i].unless);
    }
    free(s->sinks);
    pcre2_code_free(s->sanitizer);
    pcre2_code_free(s->guard);
    free(s);
}

struct bw_taint_spec *bw_taint_spec_new(enum bw_lang l, const char *const *callees, const int *args,
                                        const char *const *whens, const char *const *unlesses, size_t nsinks,
                                        const char *sanitizers, const char *guard, char *err, size_t errlen)
{
    pthread_once(&tables_once, tables);
    if (!tables_ok || (unsigned)l >= BW_LANG_COUNT || !re_src[l]) {
        snprintf(err, errlen, "no taint tables for this language");
        return NULL;
    }
    struct bw_taint_spec *s = calloc(1, sizeof *s);
    if (!s || !(s->sinks = calloc(nsinks ? nsinks : 1, sizeof *s->sinks))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->lang = l;
    char e[200];
    for (size_t i = 0; i < nsinks; i++, s->nsinks++) {
        size_t n = strlen(callees[i]);
        char *p = malloc(n + 16);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        snprintf(p, n + 16, "(?:%s)\\z", callees[i]);
        s->sinks[i] = (struct sink){compile(p, 0, e, sizeof e), args[i], NULL, NULL};
        free(p);
        if (!s->sinks[i].callee || (whens[i] && !(s->sinks[i].when = compile(whens[i], 0, e, sizeof e))) ||
            (unlesses[i] && !(s->sinks[i].unless = compile(unlesses[i], 0, e, sizeof e)))) {
            snprintf(err, errlen, "sink %zu: %s", i, e);
            goto fail;
        }
    }
    if (sanitizers) {
        size_t n = strlen(sanitizers);
        char *p = malloc(n + 16);
        if (!p) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
        snprintf(p, n + 16, "(?:%s)\\z", sanitizers);
        s->sanitizer = compile(p, PCRE2_ANCHORED, e, sizeof e);
        free(p);
        if (!s->sanitizer) {
            snprintf(err, errlen, "sanitizers: %s", e);
            goto fail;
        }
    }
    if (guard && !(s->guard = compile(guard, 0, e, sizeof e))) {
        snprintf(err, errlen, "guard: %s", e);
        goto fail;
    }
    return s;
fail:
    bw_taint_spec_free(s);
    return NULL;
}

/* ---- the walk ------------------------------------------------------------------------------------ */

struct var {
    char key[BW_TAINT_MAX_KEY];
    char parent[BW_TAINT_MAX_KEY]; /* the name it was derived from (parsed = urlparse(url): url) */
    uint8_t keylen, parentlen;
    uint8_t origin;
    uint8_t nsteps;
    struct bw_taint_step steps[BW_TAINT_MAX_STEPS];
};

struct bw_taint {
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    struct var vars[BW_TAINT_MAX_VARS];
    size_t nvars, next; /* next: the slot reused when full (the oldest) */
    uint32_t visited;
    /* this run */
    const struct bw_syn_tree *t;
    const struct bw_taint_spec *spec;
    enum bw_lang lang;
    struct var tmp; /* a value's taint while it is judged */
    char callee[BW_TAINT_MAX_CALLEE + 1];
};

struct bw_taint *bw_taint_new(void)
{
    struct bw_taint *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->md = pcre2_match_data_create(1, NULL);
    x->mctx = pcre2_match_context_create(NULL);
    if (!x->md || !x->mctx) {
        bw_taint_free(x);
        return NULL;
    }
    pcre2_set_match_limit(x->mctx, BW_SCAN_MATCH_LIMIT);
    pcre2_set_depth_limit(x->mctx, BW_SCAN_DEPTH_LIMIT);
    return x;
}

void bw_taint_free(struct bw_taint *x)
{
    if (!x)
        return;
    pcre2_match_data_free(x->md);
    pcre2_match_context_free(x->mctx);
    free(x);
}

static bool re_at(struct bw_taint *x, const pcre2_code *re, const char *s, size_t n)
{
    return re && pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, x->md, x->mctx) >= 0;
}

static bool type_is(TSNode n, const char *const *types)
{
    const char *t = ts_node_type(n);
    for (; *types; types++)
        if (strcmp(t, *types) == 0)
            return true;
    return false;
}

static const char *const FUNCTIONS[] = {"function_definition", "function_declaration", "function_expression",
                                        "function", "arrow_function", "method_definition",
                                        "generator_function_declaration", "method_declaration",
                                        "constructor_declaration", "lambda_expression", "local_function_statement",
                                        "func_literal", "method", "singleton_method", "function_item",
                                        "closure_expression", "lambda", "anonymous_function",
                                        "anonymous_function_creation_expression", "arrow_function_expression", NULL};
static const char *const CLASSES[] = {"class_definition", "class_declaration", "class_body", "class", "module",
                                      "impl_item", "interface_declaration", "program", "source_file",
                                      "compilation_unit", NULL};
static const char *const CALLS[] = {"call", "call_expression", "new_expression", "method_invocation",
                                    "object_creation_expression", "invocation_expression",
                                    "function_call_expression", "member_call_expression", "scoped_call_expression",
                                    "nullsafe_member_call_expression", "include_expression",
                                    "include_once_expression", "require_expression", "require_once_expression", NULL};
/* nodes whose text is not a value: a literal's text never names a variable nor reads a request */
static const char *const LITERALS[] = {"string_content", "string_fragment", "string_literal_content",
                                       "interpreted_string_literal_content", "escape_sequence", "comment",
                                       "line_comment", "block_comment", "integer", "number", "integer_literal",
                                       "float", "true", "false", "null", "none", "nil", NULL};
/* fields of a member access or call that hold a name, not a value */
static const char *const NAME_FIELDS[] = {"attribute", "property", "field", "name", "method", "type",
                                          "type_arguments", "return_type", NULL};

static bool name_field(TSNode parent, uint32_t i)
{
    const char *f = ts_node_field_name_for_child(parent, i);
    if (!f)
        return false;
    for (const char *const *p = NAME_FIELDS; *p; p++)
        if (strcmp(f, *p) == 0)
            return true;
    return false;
}

static const char *text(const struct bw_taint *x, TSNode n, size_t *len) { return bw_syn_node_text(x->t, n, len); }

static struct var *lookup(struct bw_taint *x, const char *s, size_t n)
{
    if (n == 0 || n >= BW_TAINT_MAX_KEY)
        return NULL;
    for (size_t i = 0; i < x->nvars; i++)
        if (x->vars[i].keylen == n && memcmp(x->vars[i].key, s, n) == 0 && x->vars[i].origin)
            return &x->vars[i];
    return NULL;
}

static void add_step(struct var *v, TSNode n, uint8_t kind)
{
    struct bw_taint_step st = {ts_node_start_byte(n), ts_node_end_byte(n), kind};
    if (v->nsteps < BW_TAINT_MAX_STEPS - 1) /* the last slot is the sink's */
        v->steps[v->nsteps++] = st;
    else
        v->steps[BW_TAINT_MAX_STEPS - 2] = st; /* the latest step replaces the one before */
}

/* Records (or clears, when from is NULL) the taint of the name s[0..n). */
static void set_var(struct bw_taint *x, const char *s, size_t n, const struct var *from, TSNode at)
{
    if (n == 0 || n >= BW_TAINT_MAX_KEY)
        return;
    struct var *v = NULL;
    for (size_t i = 0; i < x->nvars && !v; i++)
        if (x->vars[i].keylen == n && memcmp(x->vars[i].key, s, n) == 0)
            v = &x->vars[i];
    if (!from) {
        if (v)
            v->origin = 0;
        return;
    }
    if (!v) {
        if (x->nvars < BW_TAINT_MAX_VARS)
            v = &x->vars[x->nvars++];
        else
            v = &x->vars[x->next++ % BW_TAINT_MAX_VARS];
    }
    struct var nv = *from;
    memcpy(nv.parent, from->key, from->keylen);
    nv.parentlen = from->keylen;
    memcpy(nv.key, s, n);
    nv.keylen = (uint8_t)n;
    add_step(&nv, at, BW_STEP_PROPAGATE);
    *v = nv;
}

/* The callee's text of call node c: from its start to its arguments, whitespace collapsed (a
 * space kept only between two word characters: "new URL"). Empty when too long. */
static const char *callee_of(struct bw_taint *x, TSNode c, TSNode *args)
{
    *args = ts_node_child_by_field_name(c, "arguments", 9);
    uint32_t a = ts_node_start_byte(c), b = ts_node_is_null(*args) ? a : ts_node_start_byte(*args);
    static const char *const KEYWORDS[] = {"include_expression", "include_once_expression", "require_expression",
                                           "require_once_expression", NULL};
    if (ts_node_is_null(*args) && !type_is(c, KEYWORDS)) {
        b = ts_node_end_byte(c); /* params[:n].to_i: the whole call is its callee */
    } else if (ts_node_is_null(*args)) {
        /* include "x" . $y: the operand is the argument; the keyword is the callee */
        uint32_t nc = ts_node_named_child_count(c);
        if (nc) {
            *args = c; /* arguments are c's named children */
            b = ts_node_start_byte(ts_node_named_child(c, 0));
        }
    }
    size_t w = 0;
    const char *s = x->t->src;
    if (b > x->t->len || b - a > 4 * BW_TAINT_MAX_CALLEE) {
        x->callee[0] = '\0';
        return x->callee;
    }
    for (uint32_t i = a; i < b && w < BW_TAINT_MAX_CALLEE; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (isspace(ch)) {
            bool wl = w && (isalnum((unsigned char)x->callee[w - 1]) || x->callee[w - 1] == '_');
            uint32_t j = i;
            while (j < b && isspace((unsigned char)s[j]))
                j++;
            bool wr = j < b && (isalnum((unsigned char)s[j]) || s[j] == '_');
            if (wl && wr)
                x->callee[w++] = ' ';
            i = j - 1;
            continue;
        }
        x->callee[w++] = (char)ch;
    }
    x->callee[w] = '\0';
    return x->callee;
}

/* The n-th argument of a call (args: its arguments node, or the call itself for include). */
static bool arg_of(TSNode args, int n, TSNode *out)
{
    uint32_t k = 0, nc = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < nc; i++) {
        TSNode a = ts_node_named_child(args, i);
        const char *ty = ts_node_type(a);
        if (strstr(ty, "comment"))
            continue;
        if ((int)k++ == n) {
            *out = a;
            return true;
        }
    }
    return false;
}

static bool cleaned(struct bw_taint *x, const char *callee)
{
    size_t n = strlen(callee);
    return n && (re_at(x, re_clean[x->lang], callee, n) || re_at(x, x->spec->sanitizer, callee, n));
}

/* Whether value node n holds tainted data; its taint (origin and steps) in x->tmp. */
static bool tainted(struct bw_taint *x, TSNode n, int depth)
{
    if (depth > BW_TAINT_MAX_DEPTH || ++x->visited > BW_TAINT_MAX_NODES || !ts_node_is_named(n) ||
        type_is(n, LITERALS))
        return false;
    size_t len;
    const char *s = text(x, n, &len);
    struct var *v = lookup(x, s, len);
    if (v) {
        x->tmp = *v;
        return true;
    }
    if (type_is(n, CALLS)) { /* first: params[:n].to_i starts like a source */
        TSNode args;
        if (cleaned(x, callee_of(x, n, &args)))
            return false;
    }
    if (re_at(x, re_src[x->lang], s, len)) {
        memset(&x->tmp, 0, sizeof x->tmp);
        x->tmp.origin = BW_TAINT_SOURCE;
        add_step(&x->tmp, n, BW_STEP_SOURCE);
        return true;
    }
    /* table[key]: a tainted key picks one of the table's values, which are not tainted */
    static const char *const SUBSCRIPTS[] = {"subscript", "subscript_expression", "element_reference",
                                             "element_access_expression", "index_expression", "array_access",
                                             NULL};
    if (type_is(n, SUBSCRIPTS) && ts_node_named_child_count(n) > 0)
        return tainted(x, ts_node_named_child(n, 0), depth + 1);
    uint32_t nc = ts_node_child_count(n);
    for (uint32_t i = 0; i < nc; i++) {
        TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c) || name_field(n, i))
            continue;
        if (tainted(x, c, depth + 1))
            return true;
    }
    return false;
}

/* The names an assignment's left side binds: an identifier, each name of a destructuring, a
 * member or element (self.url, $d['u']) as its whole text and its base. */
static void bind(struct bw_taint *x, TSNode lhs, const struct var *from, TSNode at, int depth)
{
    if (depth > 8 || ts_node_is_null(lhs))
        return;
    size_t len;
    const char *s = text(x, lhs, &len);
    const char *ty = ts_node_type(lhs);
    uint32_t nc = ts_node_named_child_count(lhs);
    if (nc == 0 || strcmp(ty, "variable_name") == 0 || strstr(ty, "identifier")) {
        set_var(x, s, len, from, at);
        return;
    }
    if (strstr(ty, "pattern") || strstr(ty, "list") || strstr(ty, "tuple") || strstr(ty, "array") ||
        strcmp(ty, "pair") == 0 || strstr(ty, "declaration")) {
        for (uint32_t i = 0; i < nc; i++) {
            TSNode c = ts_node_named_child(lhs, i);
            if (strstr(ts_node_type(c), "type"))
                continue;
            bind(x, c, from, at, depth + 1);
        }
        return;
    }
    /* a member or an element: the whole text; a container written into stays tainted */
    set_var(x, s, len, from, at);
    if (from) {
        TSNode base = ts_node_named_child(lhs, 0);
        size_t bl;
        const char *bs = text(x, base, &bl);
        if (!lookup(x, bs, bl))
            set_var(x, bs, bl, from, at);
    }
}

/* An assignment-like node's target and value, or false. */
static bool assignment(TSNode n, TSNode *lhs, TSNode *rhs)
{
    static const char *const LR[] = {"assignment", "augmented_assignment", "assignment_expression",
                                     "augmented_assignment_expression", "operator_assignment",
                                     "compound_assignment_expr", "short_var_declaration", "assignment_statement",
                                     "for_in_statement", "for_statement", "foreach_statement", "range_clause",
                                     NULL};
    static const char *const NV[] = {"variable_declarator", "var_spec", "named_expression",
                                     "enhanced_for_statement", "const_spec", NULL};
    static const char *const PV[] = {"let_declaration", NULL};
    if (type_is(n, LR)) {
        *lhs = ts_node_child_by_field_name(n, "left", 4);
        *rhs = ts_node_child_by_field_name(n, "right", 5);
        if (ts_node_is_null(*rhs)) /* php foreach ($x as $v) */
            return false;
    } else if (type_is(n, NV)) {
        *lhs = ts_node_child_by_field_name(n, "name", 4);
        *rhs = ts_node_child_by_field_name(n, "value", 5);
        if (ts_node_is_null(*rhs) && !ts_node_is_null(*lhs)) { /* C#: the value follows the name unnamed */
            uint32_t nc = ts_node_named_child_count(n);
            TSNode last = nc ? ts_node_named_child(n, nc - 1) : *lhs;
            if (!ts_node_eq(last, *lhs))
                *rhs = last;
        }
    } else if (type_is(n, PV)) {
        *lhs = ts_node_child_by_field_name(n, "pattern", 7);
        *rhs = ts_node_child_by_field_name(n, "value", 5);
    } else {
        return false;
    }
    return !ts_node_is_null(*lhs) && !ts_node_is_null(*rhs);
}

static bool identifier_like(TSNode n)
{
    const char *ty = ts_node_type(n);
    return strcmp(ty, "identifier") == 0 || strcmp(ty, "variable_name") == 0 ||
           strcmp(ty, "shorthand_property_identifier_pattern") == 0;
}

/* The parameters' names of function f (types skipped), tainted with origin. */
static void bind_params_in(struct bw_taint *x, TSNode n, const struct var *from, int depth)
{
    if (depth > 6)
        return;
    uint32_t nc = ts_node_child_count(n);
    if (identifier_like(n)) {
        size_t len;
        const char *s = text(x, n, &len);
        set_var(x, s, len, from, n);
        return;
    }
    for (uint32_t i = 0; i < nc; i++) {
        TSNode c = ts_node_child(n, i);
        const char *f = ts_node_field_name_for_child(n, i);
        if (!ts_node_is_named(c) || (f && (strcmp(f, "type") == 0 || strcmp(f, "value") == 0 ||
                                           strcmp(f, "default_value") == 0)))
            continue;
        if (strstr(ts_node_type(c), "type") || strstr(ts_node_type(c), "attribute") ||
            strstr(ts_node_type(c), "annotation") || strstr(ts_node_type(c), "modifier"))
            continue;
        bind_params_in(x, c, from, depth + 1);
    }
}

static void bind_params(struct bw_taint *x, TSNode f, uint8_t origin)
{
    TSNode p = ts_node_child_by_field_name(f, "parameters", 10);
    if (ts_node_is_null(p))
        p = ts_node_child_by_field_name(f, "parameter", 9);
    if (ts_node_is_null(p))
        return;
    struct var v = {0};
    v.origin = origin;
    add_step(&v, p, BW_STEP_SOURCE);
    uint32_t nc = ts_node_named_child_count(p);
    for (uint32_t i = 0; i < nc || identifier_like(p); i++) {
        TSNode c = identifier_like(p) ? p : ts_node_named_child(p, i);
        TSNode name = ts_node_child_by_field_name(c, "name", 4);
        if (ts_node_is_null(name))
            name = ts_node_child_by_field_name(c, "pattern", 7);
        v.steps[0] = (struct bw_taint_step){ts_node_start_byte(c), ts_node_end_byte(c), BW_STEP_SOURCE};
        bind_params_in(x, ts_node_is_null(name) ? c : name, &v, 0);
        if (identifier_like(p))
            break;
    }
}

/* Whether function f handles a route: its head (from the start of its line, decorators
 * included, to its body) names a route, a request type or an extractor. */
static bool route_context(struct bw_taint *x, TSNode f)
{
    uint32_t a = ts_node_start_byte(f);
    TSNode body = ts_node_child_by_field_name(f, "body", 4);
    uint32_t b = ts_node_is_null(body) ? ts_node_end_byte(f) : ts_node_start_byte(body);
    TSNode up = ts_node_parent(f);
    if (!ts_node_is_null(up) && strcmp(ts_node_type(up), "decorated_definition") == 0)
        a = ts_node_start_byte(up);
    while (a > 0 && x->t->src[a - 1] != '\n')
        a--;
    if (b > x->t->len || b < a)
        return false;
    return re_at(x, re_route[x->lang], x->t->src + a, b - a);
}

/* A call that writes its arguments' taint into its receiver (list.append(v), sb.append(v),
 * params.put(k, v)) or a request binding's out argument (c.ShouldBindJSON(&body)). */
static void call_effects(struct bw_taint *x, TSNode c, int depth)
{
    TSNode args;
    const char *callee = callee_of(x, c, &args);
    size_t n = strlen(callee);
    if (!n || ts_node_is_null(args) || ts_node_eq(args, c))
        return;
    const char *dot = NULL;
    for (const char *p = callee; *p; p++)
        if (*p == '.' || (*p == '-' && p[1] == '>'))
            dot = p;
    if (!dot)
        return;
    const char *m = dot + (*dot == '-' ? 2 : 1);
    static const char *const ADDS[] = {"append", "add", "push", "extend", "insert", "put", "set", "Add",
                                       "Append", "AppendFormat", "AppendLine", "push_str", "extend_from_slice",
                                       "concat", "update", "write", "WriteString", "setdefault", "unshift", NULL};
    bool adds = false;
    for (const char *const *p = ADDS; *p && !adds; p++)
        adds = strcmp(m, *p) == 0;
    size_t ctl;
    const char *ctx_text = text(x, c, &ctl);
    if (re_at(x, re_src[x->lang], ctx_text, ctl)) { /* c.ShouldBindJSON(&body): body is request data */
        uint32_t nc = ts_node_named_child_count(args);
        for (uint32_t i = 0; i < nc; i++) {
            TSNode a = ts_node_named_child(args, i);
            size_t al;
            const char *as = text(x, a, &al);
            if (al > 1 && as[0] == '&') {
                struct var v = {0};
                v.origin = BW_TAINT_SOURCE;
                add_step(&v, c, BW_STEP_SOURCE);
                size_t k = 1;
                while (k < al && (as[k] == ' ' || as[k] == '\t'))
                    k++;
                set_var(x, as + k, al - k, &v, c);
            }
        }
        return;
    }
    if (!adds || !tainted(x, args, depth))
        return;
    struct var v = x->tmp;
    set_var(x, callee, (size_t)(dot - callee), &v, c);
}

static bool word_in(const char *s, size_t len, const char *w, size_t wl)
{
    if (!wl)
        return false;
    for (const char *p = s; (p = memmem(p, len - (size_t)(p - s), w, wl)) != NULL; p++) {
        bool l = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const char *e = p + wl;
        bool r = e >= s + len || !(isalnum((unsigned char)*e) || *e == '_');
        if (l && r)
            return true;
    }
    return false;
}

/* Clears name k and the names it was derived from (validating parsed = urlparse(url) validates
 * url). */
static void clear_chain(struct bw_taint *x, const char *k, size_t kl)
{
    for (int hop = 0; hop < 4 && kl; hop++) {
        struct var *v = NULL;
        for (size_t i = 0; i < x->nvars && !v; i++)
            if (x->vars[i].keylen == kl && memcmp(x->vars[i].key, k, kl) == 0)
                v = &x->vars[i];
        if (!v)
            return;
        v->origin = 0;
        k = v->parent;
        kl = v->parentlen;
    }
}

/* A condition that validates a tainted name (an allow-list, a prefix check): the name, and what
 * it came from, are clean from there on. */
static void guard_effects(struct bw_taint *x, TSNode cond)
{
    size_t len;
    const char *s = text(x, cond, &len);
    if (!x->spec->guard || !re_at(x, x->spec->guard, s, len))
        return;
    for (size_t i = 0; i < x->nvars; i++) {
        struct var *v = &x->vars[i];
        if (v->origin && word_in(s, len, v->key, v->keylen))
            clear_chain(x, v->key, v->keylen);
    }
}

/* Walks n in text order up to byte stop, recording what each statement does to the names. */
static void walk(struct bw_taint *x, TSNode n, uint32_t stop, int depth)
{
    if (depth > 200 || ts_node_start_byte(n) >= stop || ++x->visited > BW_TAINT_MAX_NODES)
        return;
    TSNode lhs, rhs;
    if (assignment(n, &lhs, &rhs) && ts_node_end_byte(rhs) <= stop) {
        walk(x, rhs, stop, depth + 1); /* effects inside the value come first */
        const char *ty = ts_node_type(n);
        bool augmented = strstr(ty, "augmented") || strstr(ty, "operator_assignment") || strstr(ty, "compound");
        size_t rl;
        const char *rs = text(x, rhs, &rl);
        /* a value that went through a validation on its way (match ... if p.starts_with(&base)) */
        bool checked = x->spec->guard && re_at(x, x->spec->guard, rs, rl);
        if (!checked && tainted(x, rhs, 0)) {
            struct var v = x->tmp;
            bind(x, lhs, &v, n, 0);
        } else if (!augmented) {
            bind(x, lhs, NULL, n, 0);
        }
        return;
    }
    if (type_is(n, CALLS))
        call_effects(x, n, 0);
    TSNode cond = ts_node_child_by_field_name(n, "condition", 9);
    if (!ts_node_is_null(cond) && ts_node_end_byte(cond) <= stop)
        guard_effects(x, cond);
    uint32_t nc = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < nc; i++)
        walk(x, ts_node_named_child(n, i), stop, depth + 1);
}

/* The function the sink is in: the outermost function below a class or the file. */
static TSNode scope_of(TSNode sink, TSNode root, bool *is_fn)
{
    TSNode best = root;
    *is_fn = false;
    for (TSNode p = ts_node_parent(sink); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (type_is(p, CLASSES) && *is_fn)
            break;
        if (type_is(p, FUNCTIONS)) {
            best = p;
            *is_fn = true;
        }
    }
    return best;
}

/* The object a method is called on: url in url.openStream(). */
static bool receiver_of(TSNode c, TSNode *out)
{
    static const char *const OBJ[] = {"object", "receiver", "expression", "operand", "value", NULL};
    TSNode f = ts_node_child_by_field_name(c, "function", 8);
    for (int pass = 0; pass < 2; pass++) {
        TSNode n = pass == 0 ? c : f;
        if (ts_node_is_null(n))
            continue;
        for (const char *const *p = OBJ; *p; p++) {
            TSNode o = ts_node_child_by_field_name(n, *p, (uint32_t)strlen(*p));
            if (!ts_node_is_null(o)) {
                *out = o;
                return true;
            }
        }
    }
    return false;
}

struct run {
    struct bw_taint *x;
    bw_taint_fn fn;
    void *ctx;
    uint32_t from, to;
    int rc;
};

/* The sink of spec whose callee regex matches callee, or NULL. */
static const struct sink *sink_for(struct bw_taint *x, const char *callee)
{
    size_t n = strlen(callee);
    for (size_t i = 0; n && i < x->spec->nsinks; i++)
        if (re_at(x, x->spec->sinks[i].callee, callee, n))
            return &x->spec->sinks[i];
    return NULL;
}

/* Whether value arg, given to a sink at node at, is tainted given the function around it;
 * reports the flow. */
static int judge(struct run *r, TSNode at, uint32_t at_end, TSNode arg)
{
    struct bw_taint *x = r->x;
    /* the names as the function leaves them just before the sink */
    x->nvars = x->next = 0;
    x->visited = 0;
    bool is_fn;
    TSNode scope = scope_of(at, ts_tree_root_node(x->t->tree), &is_fn);
    if (is_fn)
        bind_params(x, scope, route_context(x, scope) ? BW_TAINT_SOURCE : BW_TAINT_PARAM);
    walk(x, scope, ts_node_start_byte(at), 0);
    x->visited = 0;
    if (!tainted(x, arg, 0))
        return 0;
    struct bw_taint_flow flow = {.origin = x->tmp.origin};
    for (uint32_t i = 0; i < x->tmp.nsteps && i < BW_TAINT_MAX_STEPS - 1; i++)
        flow.steps[flow.nsteps++] = x->tmp.steps[i];
    flow.steps[flow.nsteps++] = (struct bw_taint_step){ts_node_start_byte(at), at_end, BW_STEP_SINK};
    return r->fn(r->ctx, &flow);
}

static int check_sink(struct run *r, TSNode c)
{
    struct bw_taint *x = r->x;
    TSNode args;
    const struct sink *hit = sink_for(x, callee_of(x, c, &args));
    if (!hit || ts_node_is_null(args))
        return 0;
    size_t cl;
    const char *ct = text(x, c, &cl);
    if ((hit->when && !re_at(x, hit->when, ct, cl)) || (hit->unless && re_at(x, hit->unless, ct, cl)))
        return 0;
    TSNode arg = args;
    if (hit->arg >= 0 && !arg_of(args, hit->arg, &arg))
        return 0;
    if (hit->arg == -2 && !receiver_of(c, &arg))
        return 0;
    return judge(r, c, ts_node_end_byte(c), arg);
}

/* A call whose parenthesis never closes is no call node: tree-sitter leaves its callee and
 * first argument side by side in an ERROR (requests.get(url at the end of a fragment). */
static int check_error_calls(struct run *r, TSNode err)
{
    struct bw_taint *x = r->x;
    static const char *const CALLEE[] = {"identifier", "attribute", "member_expression", "selector_expression",
                                         "field_access", "member_access_expression", "scoped_identifier",
                                         "name", "qualified_name", "scope_resolution", "call", NULL};
    uint32_t nc = ts_node_named_child_count(err);
    for (uint32_t i = 0; i + 1 < nc; i++) {
        TSNode f = ts_node_named_child(err, i), a = ts_node_named_child(err, i + 1);
        if (!type_is(f, CALLEE) || ts_node_start_byte(f) < r->from || ts_node_start_byte(f) >= r->to)
            continue;
        uint32_t fe = ts_node_end_byte(f), as = ts_node_start_byte(a);
        bool paren = false, other = false;
        for (uint32_t k = fe; k < as && k < x->t->len && !other; k++) {
            char ch = x->t->src[k];
            if (ch == '(' && !paren)
                paren = true;
            else if (!isspace((unsigned char)ch))
                other = true;
        }
        if (!paren || other)
            continue;
        size_t fl;
        const char *ft = text(x, f, &fl);
        if (fl == 0 || fl > BW_TAINT_MAX_CALLEE)
            continue;
        memcpy(x->callee, ft, fl);
        x->callee[fl] = '\0';
        const struct sink *hit = sink_for(x, x->callee);
        if (!hit || hit->arg > 0 || hit->arg == -2 || hit->when)
            continue;
        int rc = judge(r, f, ts_node_end_byte(a), a);
        if (rc)
            return rc;
    }
    return 0;
}

static int visit_calls(struct run *r, TSNode n, int depth)
{
    if (depth > 400 || ts_node_end_byte(n) <= r->from || ts_node_start_byte(n) >= r->to)
        return 0;
    if (type_is(n, CALLS) && ts_node_start_byte(n) >= r->from) {
        int rc = check_sink(r, n);
        if (rc)
            return rc;
    }
    if (strcmp(ts_node_type(n), "ERROR") == 0) {
        int rc = check_error_calls(r, n);
        if (rc)
            return rc;
    }
    uint32_t nc = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < nc; i++) {
        int rc = visit_calls(r, ts_node_named_child(n, i), depth + 1);
        if (rc)
            return rc;
    }
    return 0;
}

bool bw_taint_gate(struct bw_taint *x, enum bw_lang l, const char *s, size_t len)
{
    pthread_once(&tables_once, tables);
    if ((unsigned)l >= BW_LANG_COUNT || !re_gate[l])
        return true; /* no tables: let the run decide */
    int rc = pcre2_match(re_gate[l], (PCRE2_SPTR)s, len, 0, 0, x->md, x->mctx);
    return rc >= 0 || rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT;
}

int bw_taint_run(struct bw_taint *x, const struct bw_taint_spec *spec, const struct bw_syn_tree *t, uint32_t from,
                 uint32_t to, bw_taint_fn fn, void *ctx)
{
    if (!t->tree)
        return -1;
    x->t = t;
    x->spec = spec;
    x->lang = spec->lang;
    struct run r = {x, fn, ctx, from, to ? to : UINT32_MAX, 0};
    return visit_calls(&r, ts_tree_root_node(t->tree), 0);
}
