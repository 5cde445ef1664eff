/* The connection validator: each flavour's requirements, the auth rules, the header deny list,
 * the template checks, the default api, the document stored (never the secret) and shown. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/connection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses text as a connection; returns the error fields joined by ',' ("" when accepted). */
static const char *check(const char *text, const char *endpoint, json_t **doc, const char **secret)
{
    static char fields[1024];
    json_t *c = json_loads(text, 0, NULL);
    assert_non_null(c);
    json_t *errs = json_array(), *d = NULL;
    const char *s = NULL;
    int n = bw_conn_parse(c, endpoint, false, NULL, &d, &s, errs);
    assert_int_equal((size_t)n, json_array_size(errs));
    fields[0] = '\0';
    size_t i;
    json_t *e;
    json_array_foreach(errs, i, e) {
        size_t l = strlen(fields);
        snprintf(fields + l, sizeof fields - l, "%s%s", l ? "," : "", json_string_value(json_object_get(e, "field")));
    }
    if (doc)
        *doc = d;
    else
        json_decref(d);
    if (secret)
        *secret = s;
    json_decref(errs);
    /* the secret is borrowed from the body: the last body stays alive until the next call */
    static json_t *last;
    json_decref(last);
    last = c;
    return fields;
}

static void flavours(void **state)
{
    (void)state;
    const char *ep = "https://api.example.com";
    assert_string_equal(check("{\"api\":\"openai\",\"model\":\"gpt-4o-mini\"}", ep, NULL, NULL), "");
    assert_string_equal(check("{\"api\":\"openai_responses\",\"model\":\"gpt-4.1\"}", ep, NULL, NULL), "");
    assert_string_equal(check("{\"api\":\"anthropic\",\"model\":\"claude-3-5-haiku-latest\"}", ep, NULL, NULL), "");
    assert_string_equal(check("{\"api\":\"ollama\",\"model\":\"llama3.2:3b\"}", ep, NULL, NULL), "");
    assert_string_equal(check("{\"api\":\"gemini\",\"model\":\"models/gemini-2.0-flash\"}", ep, NULL, NULL), "");
    assert_string_equal(check("{\"api\":\"azure_openai\",\"model\":\"prod-gpt4o\",\"api_version\":\"2024-10-21\"}", ep,
                              NULL, NULL),
                        "");
    assert_string_equal(check("{\"api\":\"prompt\"}", ep, NULL, NULL), "");
    /* what each one needs */
    assert_string_equal(check("{\"api\":\"anthropic\"}", ep, NULL, NULL), "connection.model");
    assert_string_equal(check("{\"api\":\"azure_openai\",\"model\":\"a/b\"}", ep, NULL, NULL),
                        "connection.model,connection.api_version");
    assert_string_equal(check("{\"api\":\"gemini\",\"model\":\"../x\"}", ep, NULL, NULL), "connection.model");
    assert_string_equal(check("{\"api\":\"cohere\"}", ep, NULL, NULL), "connection.api");
    assert_string_equal(check("{\"model\":\"m\",\"extra\":1}", ep, NULL, NULL), "connection.extra,connection.api");
    assert_string_equal(check("{\"api\":\"openai\",\"model\":\"m\",\"api_version\":\"2024 10\"}", ep, NULL, NULL),
                        "connection.api_version");
    /* the default api: /v1 or /chat/completions */
    json_t *d = NULL;
    assert_string_equal(check("{\"model\":\"m\"}", "http://127.0.0.1:11434/v1/", &d, NULL), "");
    assert_string_equal(json_string_value(json_object_get(d, "api")), "openai");
    json_decref(d);
    assert_int_equal(bw_conn_api_default("https://x.example/openai/v1/chat/completions?x=1"), BW_API_OPENAI);
    assert_int_equal(bw_conn_api_default("https://x.example/generate"), -1);
}

static void auth(void **state)
{
    (void)state;
    const char *ep = "https://api.example.com/v1";
    json_t *d = NULL;
    const char *secret = NULL;
    assert_string_equal(
        check("{\"model\":\"m\",\"auth\":{\"type\":\"header\",\"name\":\"x-api-key\",\"secret\":\"sk-ant-1234\"}}", ep, &d,
              &secret),
        "");
    assert_string_equal(secret, "sk-ant-1234");
    char *text = json_dumps(d, JSON_COMPACT);
    assert_null(strstr(text, "sk-ant-1234")); /* the stored document never holds it */
    assert_string_equal(text, "{\"api\":\"openai\",\"model\":\"m\",\"auth\":{\"type\":\"header\",\"name\":\"x-api-key\"}}");
    free(text);
    json_t *pub = bw_conn_public(d, true);
    assert_true(json_is_true(json_object_get(json_object_get(pub, "auth"), "configured")));
    json_decref(pub);
    json_decref(d);
    assert_string_equal(check("{\"model\":\"m\",\"auth\":{\"type\":\"header\",\"secret\":\"s\"}}", ep, NULL, NULL),
                        "connection.auth.name");
    assert_string_equal(check("{\"model\":\"m\",\"auth\":{\"type\":\"bearer\",\"name\":\"x\",\"secret\":\"s\"}}", ep, NULL, NULL),
                        "connection.auth.name");
    assert_string_equal(check("{\"model\":\"m\",\"auth\":{\"type\":\"bearer\"}}", ep, NULL, NULL), "connection.auth.secret");
    assert_string_equal(check("{\"model\":\"m\",\"auth\":{\"type\":\"basic\",\"secret\":\"nocolon\"}}", ep, NULL, NULL),
                        "connection.auth.secret");
    assert_string_equal(check("{\"model\":\"m\",\"auth\":{\"type\":\"bearer\",\"secret\":\"a\\r\\nX: y\"}}", ep, NULL, NULL),
                        "connection.auth.secret");
    assert_string_equal(check("{\"model\":\"m\",\"auth\":{\"type\":\"query\",\"name\":\"k y\",\"secret\":\"s\"}}", ep, NULL, NULL),
                        "connection.auth.name");
    assert_string_equal(check("{\"model\":\"m\",\"auth\":{\"type\":\"header\",\"name\":\"Host\",\"secret\":\"s\"}}", ep, NULL, NULL),
                        "connection.auth.name");
    assert_string_equal(check("{\"model\":\"m\",\"auth\":{\"type\":\"oauth\",\"secret\":\"s\"}}", ep, NULL, NULL),
                        "connection.auth.type");
    /* a kept secret: only with the same type */
    json_t *c = json_loads("{\"model\":\"m\",\"auth\":{\"type\":\"bearer\"}}", 0, NULL), *errs = json_array();
    const char *s = NULL;
    assert_int_equal(bw_conn_parse(c, ep, true, "bearer", &d, &s, errs), 0);
    assert_null(s);
    json_decref(d);
    assert_int_equal(bw_conn_parse(c, ep, true, "header", &d, &s, errs), 1);
    json_decref(c);
    json_decref(errs);
}

static void headers_and_templates(void **state)
{
    (void)state;
    const char *ep = "https://api.example.com/v1";
    assert_string_equal(check("{\"model\":\"m\",\"headers\":{\"X-Team\":\"ml\",\"OpenAI-Organization\":\"org\"}}", ep, NULL, NULL), "");
    for (const char *const *h = (const char *const[]){"Host", "content-length", "Transfer-Encoding", "Connection",
                                                       "Upgrade", "Authorization", "Cookie", "X-Api-Key", "api-key", NULL};
         *h; h++) {
        char text[128], field[96];
        snprintf(text, sizeof text, "{\"model\":\"m\",\"headers\":{\"%s\":\"v\"}}", *h);
        snprintf(field, sizeof field, "connection.headers.%s", *h);
        assert_string_equal(check(text, ep, NULL, NULL), field);
    }
    assert_string_equal(check("{\"model\":\"m\",\"headers\":{\"X-A\":\"a\\nb\"}}", ep, NULL, NULL), "connection.headers.X-A");
    assert_string_equal(check("{\"model\":\"m\",\"headers\":{\"X A\":\"v\"}}", ep, NULL, NULL), "connection.headers.X A");
    assert_string_equal(check("{\"model\":\"m\",\"headers\":{\"X-A\":1}}", ep, NULL, NULL), "connection.headers.X-A");
    /* a header name of the longest allowed, with a bad value: its field is named whole */
    {
        char name[132], text[256], field[160];
        memset(name, 'x', 128);
        name[128] = '\0';
        snprintf(text, sizeof text, "{\"model\":\"m\",\"headers\":{\"%s\":1}}", name);
        snprintf(field, sizeof field, "connection.headers.%s", name);
        assert_string_equal(check(text, ep, NULL, NULL), field);
        /* a name that is not a token, cut at 128 bytes inside a character: the error stays, with
         * U+FFFD for the half character */
        memcpy(name + 127, "\xC3\xA9", 3);
        snprintf(text, sizeof text, "{\"model\":\"m\",\"headers\":{\"%s\":\"v\"}}", name);
        memcpy(name + 127, "\xEF\xBF\xBD", 4);
        snprintf(field, sizeof field, "connection.headers.%s", name);
        assert_string_equal(check(text, ep, NULL, NULL), field);
    }
    /* template */
    assert_string_equal(check("{\"api\":\"template\",\"request_template\":{\"q\":\"{{prompt}}\"},\"response_path\":\"a.0.b\"}",
                              ep, NULL, NULL),
                        "");
    assert_string_equal(check("{\"api\":\"template\",\"request_template\":{\"q\":\"x\"},\"response_path\":\"a\"}", ep, NULL, NULL),
                        "connection.request_template");
    assert_string_equal(check("{\"api\":\"template\",\"request_template\":\"{{prompt}}\"}", ep, NULL, NULL),
                        "connection.request_template,connection.response_path");
    assert_string_equal(check("{\"api\":\"template\",\"request_template\":{\"q\":\"{{prompt}}\"},\"response_path\":\"a..b\"}",
                              ep, NULL, NULL),
                        "connection.response_path");
    assert_string_equal(check("{\"api\":\"template\",\"request_template\":[[[[[[[[[\"{{prompt}}\"]]]]]]]]],"
                              "\"response_path\":\"a\"}",
                              ep, NULL, NULL),
                        "connection.request_template");
    assert_string_equal(check("{\"model\":\"m\",\"response_path\":\"a\"}", ep, NULL, NULL), "connection.response_path");
    /* not an object at all */
    json_t *errs = json_array(), *d = NULL;
    const char *s = NULL;
    json_t *c = json_string("openai");
    assert_int_equal(bw_conn_parse(c, ep, false, NULL, &d, &s, errs), 1);
    assert_int_equal(bw_conn_parse(json_null(), ep, false, NULL, &d, &s, errs), 0);
    assert_null(d);
    json_decref(c);
    json_decref(errs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flavours),
        cmocka_unit_test(auth),
        cmocka_unit_test(headers_and_templates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
