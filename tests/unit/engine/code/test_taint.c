/* Intra-procedural taint: per language, each family of sources reaches a sink through
 * assignments, string building and calls; sanitizers, validating conditions and constant
 * reassignment stop it; a parameter of a function with no route context is of unknown origin;
 * the trace runs from the source to the sink. Fragments that do not parse still give flows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/code/taint.h"

#include "common/embedded.h"

#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bw_syntax *sx;
static struct bw_taint *tx;
static struct bw_taint_tables *tt;

static int setup(void **state)
{
    (void)state;
    char err[300];
    sx = bw_syntax_new();
    tx = bw_taint_new();
    tt = bw_taint_tables_embedded(err, sizeof err);
    if (!tt)
        fprintf(stderr, "taint tables: %s\n", err);
    return sx && tx && tt ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    bw_syntax_free(sx);
    bw_taint_free(tx);
    bw_taint_tables_free(tt);
    return 0;
}

struct got {
    int n;
    enum bw_taint_origin origin;
    struct bw_taint_flow last;
};

static int on_flow(void *ctx, const struct bw_taint_flow *f)
{
    struct got *g = ctx;
    g->n++;
    g->origin = f->origin;
    g->last = *f;
    return 0;
}

/* Flows in code (language l) into a sink whose callee ends with sink (argument arg), with the
 * rule's sanitizers and guard (NULL: none). */
static struct got run(enum bw_lang l, const char *sink, int arg, const char *sanitizers, const char *guard,
                      const char *code)
{
    char err[256];
    const char *whens[1] = {NULL}, *unless[1] = {NULL};
    struct bw_taint_spec *sp = bw_taint_spec_new(tt, l, &sink, &arg, whens, unless, 1, sanitizers, guard, err, sizeof err);
    if (!sp)
        fail_msg("spec: %s", err);
    struct bw_syn_tree t;
    size_t n = strlen(code);
    assert_int_equal(bw_syntax_parse(sx, bw_grammar_pick(l, code, n), code, n, NULL, 0, 0, &t), BW_PARSE_OK);
    struct got g = {0};
    assert_int_equal(bw_taint_run(tx, sp, &t, 0, 0, on_flow, &g), 0);
    bw_syn_tree_free(&t);
    bw_taint_spec_free(sp);
    return g;
}

#define HTTP_PY "\\brequests\\.(?:get|post)"

static void python_sources_and_propagation(void **state)
{
    (void)state;
    /* Flask, two lines: the canonical SSRF */
    struct got g = run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL, "url = request.args.get(\"url\")\nrequests.get(url)\n");
    assert_int_equal(g.n, 1);
    assert_int_equal(g.origin, BW_TAINT_SOURCE);
    /* f-string, concatenation, format, augmented assignment, a tuple unpacked */
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL,
                         "h = request.form['host']\nu = f\"http://{h}/x\"\nrequests.get(u)\n").n, 1);
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL,
                         "h = request.values['h']\nu = 'http://' + h\nrequests.get(u)\n").n, 1);
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL,
                         "h = request.json['h']\nrequests.get('http://{}/'.format(h))\n").n, 1);
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL, "u = 'http://x/'\nu += request.args['p']\nrequests.get(u)\n").n, 1);
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL, "a, b = request.args['a'], 1\nrequests.get(a)\n").n, 1);
    /* Django, and a container filled by append */
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL,
                         "def v(request):\n    parts = []\n    parts.append(request.GET['u'])\n    requests.get(''.join(parts))\n").n, 1);
    /* FastAPI: a route's parameter is request data */
    g = run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL, "@app.get('/p')\nasync def p(target: str):\n    requests.get(target)\n");
    assert_int_equal(g.n, 1);
    assert_int_equal(g.origin, BW_TAINT_SOURCE);
    /* a plain function's parameter: unknown origin */
    g = run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL, "def fetch(target):\n    return requests.get(target)\n");
    assert_int_equal(g.n, 1);
    assert_int_equal(g.origin, BW_TAINT_PARAM);
    /* constants, and a name reassigned a constant before the sink */
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL, "requests.get('https://api.example.com')\n").n, 0);
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL,
                         "u = request.args['u']\nu = 'https://api.example.com'\nrequests.get(u)\n").n, 0);
    /* the argument checked is the URL, not the body */
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL, "d = request.json\nrequests.post(API, json=d)\n").n, 0);
    /* a tainted key picks a value of a constant table */
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL, "u = HOSTS[request.args['h']]\nrequests.get(u)\n").n, 0);
}

static void sanitizers_and_guards(void **state)
{
    (void)state;
    /* integer conversion and quoting: every rule */
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL,
                         "i = int(request.args['id'])\nrequests.get(f'https://api/{i}')\n").n, 0);
    /* the rule's own sanitizer */
    assert_int_equal(run(BW_LANG_PY, "\\bopen", 0, "secure_filename", NULL,
                         "n = secure_filename(request.args['n'])\nopen('/d/' + n)\n").n, 0);
    assert_int_equal(run(BW_LANG_PY, "\\bopen", 0, "secure_filename", NULL, "n = request.args['n']\nopen('/d/' + n)\n").n, 1);
    /* a validating condition on the name, or on what was derived from it */
    const char *guard = "(?i)allow|startswith";
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, guard,
                         "url = request.args['u']\np = urlparse(url)\nif p.hostname not in ALLOWED:\n    abort(400)\nrequests.get(url)\n").n,
                     0);
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, guard,
                         "url = request.args['u']\nif len(url) > 10:\n    abort(400)\nrequests.get(url)\n").n, 1);
    assert_int_equal(run(BW_LANG_GO, "\\bhttp\\.Redirect", 2, NULL, "HasPrefix",
                         "func h(w http.ResponseWriter, r *http.Request) {\n\tn := r.URL.Query().Get(\"n\")\n"
                         "\tif !strings.HasPrefix(n, \"/\") {\n\t\tn = \"/\"\n\t}\n\thttp.Redirect(w, r, n, 302)\n}\n").n, 0);
}

static void javascript_and_typescript(void **state)
{
    (void)state;
    /* Express: destructuring, template literal, a handler's callback */
    struct got g = run(BW_LANG_JS, "\\bfetch", 0, NULL, NULL,
                       "app.get('/p', async (req, res) => {\n  const { target } = req.query;\n  const u = `${target}/s`;\n"
                       "  const r = await fetch(u);\n});\n");
    assert_int_equal(g.n, 1);
    assert_int_equal(g.origin, BW_TAINT_SOURCE);
    assert_true(g.last.nsteps >= 3); /* source, the two assignments, the sink */
    assert_int_equal(g.last.steps[0].kind, BW_STEP_SOURCE);
    assert_int_equal(g.last.steps[g.last.nsteps - 1].kind, BW_STEP_SINK);
    assert_true(g.last.steps[0].start < g.last.steps[g.last.nsteps - 1].start);
    /* Next.js route: searchParams; type arguments on the callee */
    assert_int_equal(run(BW_LANG_TS, "\\baxios\\.get(?:<[^()]*>)?", 0, NULL, NULL,
                         "export async function GET(req: NextRequest) {\n  const u = req.nextUrl.searchParams.get('u');\n"
                         "  const r = await axios.get<string>(u!);\n}\n").n, 1);
    /* a message event's data */
    assert_int_equal(run(BW_LANG_JS, "\\blocation\\.assign", 0, NULL, NULL,
                         "window.addEventListener('message', (e) => { location.assign(e.data.url); });\n").n, 1);
    assert_int_equal(run(BW_LANG_JS, "\\bfetch", 0, NULL, NULL,
                         "app.get('/p', async (req, res) => {\n  const n = parseInt(req.query.n, 10);\n"
                         "  await fetch(`https://api/${n}`);\n});\n").n, 0);
}

static void java_csharp_go(void **state)
{
    (void)state;
    /* servlet request, a receiver sink (url.openStream()) */
    assert_int_equal(run(BW_LANG_JAVA, "\\.openStream", -2, NULL, NULL,
                         "String f = request.getParameter(\"feed\");\nURL url = new URL(f);\nInputStream in = url.openStream();\n").n, 1);
    /* Spring: an annotated parameter */
    struct got g = run(BW_LANG_JAVA, "\\.sendRedirect", 0, NULL, NULL,
                       "@GetMapping(\"/go\")\npublic void go(@RequestParam String to, HttpServletResponse r) {\n"
                       "    r.sendRedirect(to);\n}\n");
    assert_int_equal(g.n, 1);
    assert_int_equal(g.origin, BW_TAINT_SOURCE);
    /* ASP.NET: Request.Query, interpolation, [FromQuery] */
    assert_int_equal(run(BW_LANG_CS, "\\.GetStringAsync", 0, NULL, NULL,
                         "var h = Request.Query[\"h\"];\nvar s = await client.GetStringAsync($\"http://{h}/x\");\n").n, 1);
    assert_int_equal(run(BW_LANG_CS, "\\bFile\\.ReadAllText", 0, NULL, NULL,
                         "public IActionResult Get([FromQuery] string name) {\n"
                         "    return Ok(File.ReadAllText(Path.Combine(_root, name)));\n}\n").n, 1);
    assert_int_equal(run(BW_LANG_CS, "\\bFile\\.ReadAllText", 0, NULL, NULL,
                         "public IActionResult Get([FromQuery] string name) {\n"
                         "    return Ok(File.ReadAllText(Path.Combine(_root, Path.GetFileName(name))));\n}\n").n, 0);
    /* net/http, Gin (a binding's out argument), format */
    assert_int_equal(run(BW_LANG_GO, "\\bhttp\\.Get", 0, NULL, NULL,
                         "func h(w http.ResponseWriter, r *http.Request) {\n\tu := fmt.Sprintf(\"http://%s/\", r.FormValue(\"h\"))\n"
                         "\tresp, _ := http.Get(u)\n}\n").n, 1);
    assert_int_equal(run(BW_LANG_GO, "\\bhttp\\.Post", 0, NULL, NULL,
                         "func h(c *gin.Context) {\n\tvar body Req\n\tc.ShouldBindJSON(&body)\n"
                         "\tresp, _ := http.Post(body.URL, \"application/json\", nil)\n}\n").n, 1);
}

static void php_ruby_rust(void **state)
{
    (void)state;
    assert_int_equal(run(BW_LANG_PHP, "\\breadfile", 0, NULL, NULL, "<?php\n$f = $_GET['f'];\nreadfile('/u/' . $f);\n").n, 1);
    assert_int_equal(run(BW_LANG_PHP, "\\breadfile", 0, NULL, NULL, "$f = basename($_GET['f']);\nreadfile('/u/' . $f);\n").n, 0);
    /* Laravel; include has no parentheses */
    assert_int_equal(run(BW_LANG_PHP, "->get", 0, NULL, NULL,
                         "$t = $request->input('t');\n$r = $client->get(\"http://{$t}.internal/\");\n").n, 1);
    assert_int_equal(run(BW_LANG_PHP, "\\binclude", 0, NULL, NULL, "$p = $_GET['p'];\ninclude 'pages/' . $p . '.php';\n").n, 1);
    /* Rails params, string interpolation */
    assert_int_equal(run(BW_LANG_RB, "\\bFile\\.read", 0, NULL, NULL, "n = params[:n]\nd = File.read(\"/r/#{n}\")\n").n, 1);
    assert_int_equal(run(BW_LANG_RB, "\\bFile\\.read", 0, NULL, NULL, "n = params[:n].to_i\nd = File.read(\"/r/#{n}\")\n").n, 0);
    /* axum extractor, format! */
    assert_int_equal(run(BW_LANG_RS, "\\breqwest::get", 0, NULL, NULL,
                         "async fn s(Query(q): Query<P>) -> String {\n    let u = format!(\"{}/s\", q.base);\n"
                         "    reqwest::get(u).await.unwrap().text().await.unwrap()\n}\n").n, 1);
}

/* AI-shaped fragments: no imports, a stray line, unbalanced brackets: the statements around
 * the damage still carry the flow. */
static void fragments(void **state)
{
    (void)state;
    assert_int_equal(run(BW_LANG_PY, HTTP_PY, 0, NULL, NULL,
                         "Here is the code:\n```python\nurl = request.args.get(\"url\")\n# ... existing code ...\n"
                         "resp = requests.get(url\n```\n").n, 1);
    assert_int_equal(run(BW_LANG_JS, "\\bfetch", 0, NULL, NULL,
                         "  const feedUrl = req.body.feed;\n  }}\n  const response = await fetch(feedUrl);\n").n, 1);
    assert_int_equal(run(BW_LANG_JAVA, "\\.sendRedirect", 0, NULL, NULL,
                         "String target = request.getParameter(\"t\");\n    // ...\n    response.sendRedirect(target);\n").n, 1);
}

/* The gate before parsing: a file with a sink but no source nor route is not parsed for taint. */
/* A language model's reply is a source of its own origin (LLM05 on the finding): the SDK's call,
 * or the reply's fields where the call is out of sight; it outranks a plain parameter. */
static void model_outputs(void **state)
{
    (void)state;
    struct got g = run(BW_LANG_PY, "\\.execute", 0, NULL, NULL,
                       "c = client.chat.completions.create(model=m, messages=msgs)\n"
                       "sql = c.choices[0].message.content\ncursor.execute(sql)\n");
    assert_int_equal(g.n, 1);
    assert_int_equal(g.origin, BW_TAINT_MODEL);
    g = run(BW_LANG_PY, "\\.execute", 0, NULL, NULL, "def ask(q):\n    r = llm.invoke(q)\n    cursor.execute(r.content)\n");
    assert_int_equal(g.n, 1);
    assert_int_equal(g.origin, BW_TAINT_MODEL);
    /* a request stays a request */
    g = run(BW_LANG_PY, "\\.execute", 0, NULL, NULL, "q = request.args['q']\ncursor.execute(q)\n");
    assert_int_equal(g.origin, BW_TAINT_SOURCE);
    /* scikit-learn's predict is no language model; a bound parameter is clean */
    assert_int_equal(run(BW_LANG_PY, "\\.execute", 0, NULL, NULL, "r = clf.predict(X)\ncursor.execute(r)\n").n, 0);
    assert_int_equal(run(BW_LANG_PY, "\\.execute", 0, NULL, NULL,
                         "r = ollama.chat(model=m, messages=msgs)\ncursor.execute('INSERT INTO a VALUES (?)', (r,))\n").n, 0);
    g = run(BW_LANG_GO, "\\bexec\\.Command", 2, NULL, NULL,
            "func f() {\n\tout, _ := exec.Command(\"sh\", \"-c\", resp.Choices[0].Message.Content).Output()\n}\n");
    assert_int_equal(g.n, 1);
    assert_int_equal(g.origin, BW_TAINT_MODEL);
    g = run(BW_LANG_CS, "\\.QueryAsync", 0, NULL, NULL,
            "var sql = (await _kernel.InvokePromptAsync(p)).ToString();\nvar rows = await _db.QueryAsync(sql);\n");
    assert_int_equal(g.origin, BW_TAINT_MODEL);
    assert_true(bw_taint_gate(tx, tt, BW_LANG_PY, "r = ollama.chat(model=m)\n", 25));
}

/* Assignment sinks (el.innerHTML = v, cmd.CommandText = v, a JSX attribute): the value is judged;
 * a call sink never matches an assignment nor the other way round. Keyword sinks: PHP's echo,
 * Ruby's "...".html_safe (its receiver). */
static void assignments_and_keywords(void **state)
{
    (void)state;
    const char *js = "const q = location.search;\nel.innerHTML = 'Results for ' + q;\n";
    struct got g = run(BW_LANG_JS, "\\.innerHTML", BW_TAINT_ARG_ASSIGN, NULL, NULL, js);
    assert_int_equal(g.n, 1);
    assert_int_equal(g.last.steps[g.last.nsteps - 1].kind, BW_STEP_SINK);
    assert_int_equal(g.last.steps[g.last.nsteps - 1].start, strstr(js, "el.innerHTML") - js);
    assert_int_equal(run(BW_LANG_JS, "\\.innerHTML", 0, NULL, NULL, js).n, 0);
    assert_int_equal(run(BW_LANG_JS, "\\.innerHTML", BW_TAINT_ARG_ASSIGN, NULL, NULL,
                         "const q = location.search;\nel.innerHTML = '<b>fixed</b>';\nel.textContent = q;\n").n, 0);
    assert_int_equal(run(BW_LANG_JS, "\\.innerHTML", BW_TAINT_ARG_ASSIGN, NULL, NULL,
                         "const q = location.search;\nel.innerHTML(q);\n").n, 0);
    assert_int_equal(run(BW_LANG_JS, "\\.innerHTML", BW_TAINT_ARG_ASSIGN, "DOMPurify\\.sanitize", NULL,
                         "const q = location.search;\nel.innerHTML = DOMPurify.sanitize(q);\n").n, 0);
    assert_int_equal(run(BW_LANG_JS, "\\bdangerouslySetInnerHTML", BW_TAINT_ARG_ASSIGN, NULL, NULL,
                         "const q = location.hash;\nconst a = <div dangerouslySetInnerHTML={{ __html: q }} />;\n").n, 1);
    assert_int_equal(run(BW_LANG_JS, "\\bdangerouslySetInnerHTML", BW_TAINT_ARG_ASSIGN, NULL, NULL,
                         "const q = location.hash;\nconst a = <div dangerouslySetInnerHTML={{ __html: T }} />;\n").n, 0);
    assert_int_equal(run(BW_LANG_CS, "\\bCommandText", BW_TAINT_ARG_ASSIGN, NULL, NULL,
                         "var t = Request.Query[\"t\"];\ncmd.CommandText = $\"SELECT * FROM a WHERE b = '{t}'\";\n").n, 1);
    assert_int_equal(run(BW_LANG_CS, "\\bCommandText", BW_TAINT_ARG_ASSIGN, NULL, NULL,
                         "var t = Request.Query[\"t\"];\ncmd.CommandText = \"SELECT * FROM a WHERE b = @t\";\n").n, 0);
    assert_int_equal(run(BW_LANG_PHP, "\\becho", -1, NULL, NULL, "<?php\n$n = $_GET['n'];\necho \"<p>\" . $n;\n").n, 1);
    assert_int_equal(run(BW_LANG_PHP, "\\becho", -1, NULL, NULL,
                         "<?php\n$n = $_GET['n'];\necho \"<p>\" . htmlspecialchars($n);\n").n, 0);
    assert_int_equal(run(BW_LANG_RB, "\\.html_safe", -2, NULL, NULL,
                         "def s\n  x = \"<b>#{params[:n]}</b>\".html_safe\nend\n").n, 1);
    assert_int_equal(run(BW_LANG_RB, "\\.html_safe", -2, NULL, NULL, "def s\n  x = \"<b>fixed</b>\".html_safe\nend\n").n, 0);
}

static void gate(void **state)
{
    (void)state;
    static const char plain[] = "def load(p):\n    with open(p) as f:\n        return f.read()\n";
    static const char flask[] = "name = request.args['n']\nopen(name)\n";
    static const char route[] = "@app.get('/f')\ndef f(name):\n    open(name)\n";
    assert_false(bw_taint_gate(tx, tt, BW_LANG_PY, plain, strlen(plain)));
    assert_true(bw_taint_gate(tx, tt, BW_LANG_PY, flask, strlen(flask)));
    assert_true(bw_taint_gate(tx, tt, BW_LANG_PY, route, strlen(route)));
    static const char go[] = "func h(w http.ResponseWriter, r *http.Request) {\n\tos.Open(x)\n}\n";
    assert_true(bw_taint_gate(tx, tt, BW_LANG_GO, go, strlen(go)));
    assert_false(bw_taint_gate(tx, tt, BW_LANG_GO, "os.Open(x)\n", 11));
}

/* Loads one document named t.json; NULL with the message in err. */
static struct bw_taint_tables *load1(const char *doc, char *err, size_t errlen)
{
    const char *names[1] = {"t.json"}, *docs[1] = {doc};
    size_t lens[1] = {strlen(doc)};
    return bw_taint_tables_new(names, docs, lens, 1, err, errlen);
}

/* The embedded tables, entry by entry: each one alone loads (its pattern matches every positive
 * example and no negative one), and with its first positive example swapped into its negatives
 * it is refused, so the check runs for every entry. Every language has tables. */
static void tables_catalog(void **state)
{
    (void)state;
    size_t docs = 0, entries = 0;
    for (size_t i = 0; i < bw_embedded_count; i++) {
        const char *name = bw_embedded_files[i].name;
        if (strncmp(name, "data/taint/", 11) != 0)
            continue;
        docs++;
        json_error_t je;
        json_t *o = json_loadb((const char *)bw_embedded_files[i].data, bw_embedded_files[i].len, 0, &je);
        assert_non_null(o);
        static const char *const KINDS[] = {"sources", "routes", "sanitizers", "model_outputs"};
        for (int k = 0; k < 4; k++) {
            size_t n = json_array_size(json_object_get(o, KINDS[k]));
            assert_true(n > 0);
            for (size_t e = 0; e < n; e++) {
                json_t *one = json_deep_copy(o);
                for (int k2 = 0; k2 < 4; k2++) { /* the entry alone, the other kinds kept */
                    if (k2 != k)
                        continue;
                    json_t *only = json_array();
                    json_array_append_new(only, json_deep_copy(json_array_get(json_object_get(o, KINDS[k]), e)));
                    json_object_set_new(one, KINDS[k], only);
                }
                char *txt = json_dumps(one, 0), err[400];
                struct bw_taint_tables *t = load1(txt, err, sizeof err);
                if (!t)
                    fail_msg("%s %s[%zu]: %s", name, KINDS[k], e, err);
                bw_taint_tables_free(t);
                free(txt);
                /* the first positive example as a negative: refused */
                json_t *ex = json_object_get(json_array_get(json_object_get(one, KINDS[k]), 0), "examples");
                json_array_append(json_object_get(ex, "negative"), json_array_get(json_object_get(ex, "positive"), 0));
                txt = json_dumps(one, 0);
                t = load1(txt, err, sizeof err);
                assert_null(t);
                assert_non_null(strstr(err, "matches the pattern"));
                free(txt);
                json_decref(one);
                entries++;
            }
        }
        json_decref(o);
    }
    assert_true(docs >= 8);
    assert_true(entries >= 60);
    for (int l = 0; l < BW_LANG_COUNT; l++) {
        char err[300];
        const char *sink = "\\bsink";
        int arg = 0;
        const char *none[1] = {NULL};
        struct bw_taint_spec *sp = bw_taint_spec_new(tt, (enum bw_lang)l, &sink, &arg, none, none, 1, NULL, NULL, err,
                                                     sizeof err);
        if (!sp)
            fail_msg("%s: %s", bw_lang_name((enum bw_lang)l), err);
        bw_taint_spec_free(sp);
    }
}

#define DOC_HEAD "{\n  \"languages\": [\"py\"],\n  \"sources\": [\n"
#define DOC_SRC_OK "    {\"id\": \"a\", \"what\": \"w\", \"pattern\": \"req\\\\.x\", " \
                   "\"examples\": {\"positive\": [\"req.x\"], \"negative\": [\"y.req.x\"]}}"
#define DOC_TAIL "\n  ],\n  \"routes\": [{\"id\": \"r\", \"what\": \"w\", \"pattern\": \"@r\", " \
                 "\"examples\": {\"positive\": [\"@r\\ndef f(x):\"], \"negative\": [\"def f(x):\"]}}],\n" \
                 "  \"sanitizers\": [{\"id\": \"s\", \"what\": \"w\", \"pattern\": \"int\", " \
                 "\"examples\": {\"positive\": [\"int\"], \"negative\": [\"intern\"]}}]\n}\n"

/* A bad entry is refused with its file, line and what is wrong; limits hold. */
static void tables_refuse_bad_entries(void **state)
{
    (void)state;
    char err[400];
    struct bw_taint_tables *t = load1(DOC_HEAD DOC_SRC_OK DOC_TAIL, err, sizeof err);
    if (!t)
        fail_msg("%s", err);
    bw_taint_tables_free(t);
    static const struct {
        const char *entry, *want;
    } BAD[] = {
        {"    {\"id\": \"b\", \"what\": \"w\", \"pattern\": \"req\\\\.y\", "
         "\"examples\": {\"positive\": [\"req.x\"], \"negative\": [\"q\"]}}",
         "t.json:5: source b: positive example 1 (\"req.x\") does not match the pattern"},
        {"    {\"id\": \"b\", \"what\": \"w\", \"pattern\": \"req\", "
         "\"examples\": {\"positive\": [\"req.y\"], \"negative\": [\"q\", \"req.z\"]}}",
         "t.json:5: source b: negative example 2 (\"req.z\") matches the pattern"},
        {"    {\"id\": \"b\", \"what\": \"w\", \"pattern\": \"req(\", "
         "\"examples\": {\"positive\": [\"req.y\"], \"negative\": [\"q\"]}}",
         "t.json:5: source b: pattern: "},
        {"    {\"id\": \"b\", \"what\": \"w\", \"pattern\": \"req\", \"examples\": {\"positive\": [\"req\"]}}",
         "t.json:5: source b: examples must be"},
        {"    {\"id\": \"b\", \"what\": \"w\", \"pattern\": \"req\", \"sink\": 1, "
         "\"examples\": {\"positive\": [\"req\"], \"negative\": [\"q\"]}}",
         "t.json:5: source b: unknown member \"sink\""},
        {"    {\"id\": \"a\", \"what\": \"w\", \"pattern\": \"req\", "
         "\"examples\": {\"positive\": [\"req\"], \"negative\": [\"q\"]}}",
         "t.json:5: source a: needs an id"},
        {"    \"req\"", "t.json:5: source (no id): needs an id"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char doc[2048];
        snprintf(doc, sizeof doc, "%s%s,\n%s%s", DOC_HEAD, DOC_SRC_OK, BAD[i].entry, DOC_TAIL);
        t = load1(doc, err, sizeof err);
        if (t || strncmp(err, BAD[i].want, strlen(BAD[i].want)) != 0)
            fail_msg("case %zu: got \"%s\", want \"%s\"", i, t ? "(loaded)" : err, BAD[i].want);
    }
    /* model_outputs is optional (DOC_TAIL has none) and checked like the other kinds */
    {
        char doc[2048];
        snprintf(doc, sizeof doc, "%s%s%s", DOC_HEAD, DOC_SRC_OK,
                 "\n  ],\n  \"model_outputs\": [{\"id\": \"m\", \"what\": \"w\", \"pattern\": \"llm\\\\.ask\\\\(\", "
                 "\"examples\": {\"positive\": [\"llm.ask(q)\"], \"negative\": [\"llm.askX\"]}}],"
                 "\n  \"routes\": [{\"id\": \"r\", \"what\": \"w\", \"pattern\": \"@r\", "
                 "\"examples\": {\"positive\": [\"@r\\ndef f(x):\"], \"negative\": [\"def f(x):\"]}}],\n"
                 "  \"sanitizers\": [{\"id\": \"s\", \"what\": \"w\", \"pattern\": \"int\", "
                 "\"examples\": {\"positive\": [\"int\"], \"negative\": [\"intern\"]}}]\n}\n");
        t = load1(doc, err, sizeof err);
        if (!t)
            fail_msg("%s", err);
        bw_taint_tables_free(t);
        char *p = strstr(doc, "llm.askX");
        assert_non_null(p);
        p[7] = '('; /* the negative now matches */
        t = load1(doc, err, sizeof err);
        assert_null(t);
        if (!strstr(err, "t.json:6: model output m: negative example 1"))
            fail_msg("%s", err);
        /* a gate (what the file-wide search looks for) must match every positive example */
        p[7] = 'X';
        char *q = strstr(doc, "\"examples\": {\"positive\": [\"llm.ask(q)\"]");
        assert_non_null(q);
        char doc2[2100];
        snprintf(doc2, sizeof doc2, "%.*s\"gate\": \"\\\\.ask\\\\(\", %s", (int)(q - doc), doc, q);
        t = load1(doc2, err, sizeof err);
        if (!t)
            fail_msg("%s", err);
        bw_taint_tables_free(t);
        snprintf(doc2, sizeof doc2, "%.*s\"gate\": \"zzz\", %s", (int)(q - doc), doc, q);
        t = load1(doc2, err, sizeof err);
        assert_null(t);
        if (!strstr(err, "model output m: positive example 1 (\"llm.ask(q)\") does not match the gate"))
            fail_msg("%s", err);
    }
    /* a document: not JSON (its line), an unknown member, no language, a language twice */
    t = load1("{\n\"languages\": [\"py\"],\n oops\n}", err, sizeof err);
    assert_null(t);
    assert_non_null(strstr(err, "t.json:3: "));
    t = load1("{\"languages\": [\"py\"], \"sinks\": []}", err, sizeof err);
    assert_null(t);
    assert_non_null(strstr(err, "unknown member \"sinks\""));
    t = load1("{\"languages\": [\"xx\"], \"sources\": []}", err, sizeof err);
    assert_null(t);
    assert_non_null(strstr(err, "no language"));
    const char *names[2] = {"a.json", "b.json"}, *docs[2] = {DOC_HEAD DOC_SRC_OK DOC_TAIL, DOC_HEAD DOC_SRC_OK DOC_TAIL};
    size_t lens[2] = {strlen(docs[0]), strlen(docs[1])};
    t = bw_taint_tables_new(names, docs, lens, 2, err, sizeof err);
    assert_null(t);
    assert_non_null(strstr(err, "b.json:2: languages: py has tables in another file"));
    /* limits: too many examples, an example too long, too many entries, a document too large */
    char *big = malloc(BW_TAINT_TABLE_MAX_BYTES + 64);
    assert_non_null(big);
    int w = snprintf(big, 512, "%s    {\"id\": \"b\", \"what\": \"w\", \"pattern\": \"x\", \"examples\": {\"negative\": [\"q\"], "
                     "\"positive\": [", DOC_HEAD);
    for (int i = 0; i <= BW_TAINT_TABLE_MAX_EXAMPLES; i++)
        w += snprintf(big + w, 16, "%s\"x\"", i ? ", " : "");
    w += snprintf(big + w, 512, "]}}%s", DOC_TAIL);
    t = load1(big, err, sizeof err);
    assert_null(t);
    assert_non_null(strstr(err, "examples must be"));
    w = snprintf(big, 512, "%s    {\"id\": \"b\", \"what\": \"w\", \"pattern\": \"x\", \"examples\": {\"negative\": [\"q\"], "
                 "\"positive\": [\"", DOC_HEAD);
    memset(big + w, 'x', BW_TAINT_TABLE_MAX_EXAMPLE + 1);
    w += BW_TAINT_TABLE_MAX_EXAMPLE + 1;
    w += snprintf(big + w, 512, "\"]}}%s", DOC_TAIL);
    t = load1(big, err, sizeof err);
    assert_null(t);
    assert_non_null(strstr(err, "examples must be"));
    w = snprintf(big, 512, "%s", DOC_HEAD);
    for (int i = 0; i <= BW_TAINT_TABLE_MAX_ENTRIES; i++)
        w += snprintf(big + w, 256, "%s    {\"id\": \"e%d\", \"what\": \"w\", \"pattern\": \"x\", "
                      "\"examples\": {\"positive\": [\"x\"], \"negative\": [\"q\"]}}", i ? ",\n" : "", i);
    w += snprintf(big + w, 512, "%s", DOC_TAIL);
    t = load1(big, err, sizeof err);
    assert_null(t);
    assert_non_null(strstr(err, "sources must be an array of 1 to"));
    memset(big, ' ', BW_TAINT_TABLE_MAX_BYTES + 1);
    big[BW_TAINT_TABLE_MAX_BYTES + 1] = '\0';
    t = load1(big, err, sizeof err);
    assert_null(t);
    assert_non_null(strstr(err, "larger than"));
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(python_sources_and_propagation),
        cmocka_unit_test(sanitizers_and_guards),
        cmocka_unit_test(javascript_and_typescript),
        cmocka_unit_test(java_csharp_go),
        cmocka_unit_test(php_ruby_rust),
        cmocka_unit_test(fragments),
        cmocka_unit_test(model_outputs),
        cmocka_unit_test(assignments_and_keywords),
        cmocka_unit_test(gate),
        cmocka_unit_test(tables_catalog),
        cmocka_unit_test(tables_refuse_bad_entries),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
