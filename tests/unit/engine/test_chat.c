/* The chat client without a network: each flavour's URL, headers and body, reading each
 * flavour's answer, error messages, redaction of the secret and leak detection against a known
 * system prompt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/chat.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void url(enum bw_conn_api api, const char *ep, const char *model, const char *ver, const char *want)
{
    char out[512];
    assert_int_equal(bw_chat_url(api, ep, model, ver, out, sizeof out), 0);
    assert_string_equal(out, want);
}

static void urls(void **state)
{
    (void)state;
    url(BW_API_OPENAI, "https://api.openai.com/v1", "m", NULL, "https://api.openai.com/v1/chat/completions");
    url(BW_API_OPENAI, "https://h.example/", "m", NULL, "https://h.example/v1/chat/completions");
    url(BW_API_OPENAI, "https://h.example/v1/chat/completions?x=1", "m", NULL, "https://h.example/v1/chat/completions?x=1");
    url(BW_API_OPENAI_RESPONSES, "https://api.openai.com/v1", "m", NULL, "https://api.openai.com/v1/responses");
    url(BW_API_ANTHROPIC, "https://api.anthropic.com", "m", NULL, "https://api.anthropic.com/v1/messages");
    url(BW_API_ANTHROPIC, "https://api.anthropic.com/v1/", "m", NULL, "https://api.anthropic.com/v1/messages");
    url(BW_API_OLLAMA, "http://127.0.0.1:11434/v1", "llama3.2", NULL, "http://127.0.0.1:11434/api/chat");
    url(BW_API_OLLAMA, "http://127.0.0.1:11434", "llama3.2", NULL, "http://127.0.0.1:11434/api/chat");
    url(BW_API_OLLAMA, "http://127.0.0.1:11434/api", "llama3.2", NULL, "http://127.0.0.1:11434/api/chat");
    url(BW_API_AZURE_OPENAI, "https://r.openai.azure.com", "gpt4o", "2024-10-21",
        "https://r.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21");
    url(BW_API_AZURE_OPENAI, "https://r.openai.azure.com/openai/deployments/d1", "gpt4o", "2024-10-21",
        "https://r.openai.azure.com/openai/deployments/d1/chat/completions?api-version=2024-10-21");
    url(BW_API_GEMINI, "https://generativelanguage.googleapis.com", "models/gemini-2.0-flash", NULL,
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent");
    url(BW_API_GEMINI, "https://generativelanguage.googleapis.com/v1", "g", NULL,
        "https://generativelanguage.googleapis.com/v1/models/g:generateContent");
    url(BW_API_PROMPT, "https://h.example/generate?tenant=1#f", NULL, NULL, "https://h.example/generate?tenant=1");
}

/* A client for a connection written as JSON (kept in *doc, which the client borrows). */
static void client(struct bw_chat *c, json_t **doc, const char *conn, const char *ep, const char *secret)
{
    *doc = json_loads(conn, 0, NULL);
    assert_non_null(*doc);
    char why[128];
    assert_int_equal(bw_chat_init(c, ep, *doc, BW_API_OPENAI, secret, BW_EGRESS_NONE, why, sizeof why), 0);
}

static bool has_header(const struct bw_chat *c, const char *line)
{
    for (size_t i = 0; c->headers[i]; i++)
        if (strcmp(c->headers[i], line) == 0)
            return true;
    return false;
}

static void auth_and_headers(void **state)
{
    (void)state;
    struct bw_chat c;
    json_t *d;
    client(&c, &d, "{\"api\":\"anthropic\",\"model\":\"claude\",\"auth\":{\"type\":\"header\",\"name\":\"x-api-key\"},"
                   "\"headers\":{\"X-Team\":\"ml\"}}",
           "https://api.anthropic.com", "sk-ant-SECRET");
    assert_true(has_header(&c, "anthropic-version: 2023-06-01"));
    assert_true(has_header(&c, "X-Team: ml"));
    assert_false(has_header(&c, "x-api-key: sk-ant-SECRET")); /* only sent with with_auth */
    assert_string_equal(c.auth_header, "x-api-key: sk-ant-SECRET");
    assert_string_equal(c.cred_names[0], "x-api-key");
    bw_chat_free(&c);
    json_decref(d);
    client(&c, &d, "{\"api\":\"gemini\",\"model\":\"g\",\"auth\":{\"type\":\"query\",\"name\":\"key\"}}",
           "https://generativelanguage.googleapis.com", "AIza/Secret+1");
    assert_string_equal(c.url, "https://generativelanguage.googleapis.com/v1beta/models/g:generateContent?key=AIza%2FSecret%2B1");
    assert_string_equal(c.shown, "https://generativelanguage.googleapis.com/v1beta/models/g:generateContent?key=REDACTED");
    assert_string_equal(c.bare, "https://generativelanguage.googleapis.com/v1beta/models/g:generateContent");
    /* redaction: raw and percent-encoded */
    char text[256] = "GET ...?key=AIza%2FSecret%2B1 failed; secret AIza/Secret+1 seen";
    bw_chat_redact(&c, text, sizeof text);
    assert_null(strstr(text, "Secret"));
    assert_non_null(strstr(text, "key=REDACTED failed; secret REDACTED seen"));
    bw_chat_free(&c);
    json_decref(d);
    client(&c, &d, "{\"api\":\"openai\",\"model\":\"m\",\"auth\":{\"type\":\"basic\"}}", "https://h.example/v1", "u:pw");
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, (const unsigned char *)"u:pw", 4, sodium_base64_VARIANT_ORIGINAL);
    char want[96];
    snprintf(want, sizeof want, "Authorization: Basic %s", b64);
    assert_string_equal(c.auth_header, want);
    char t2[128];
    snprintf(t2, sizeof t2, "echo %s", b64);
    bw_chat_redact(&c, t2, sizeof t2);
    assert_string_equal(t2, "echo REDACTED");
    bw_chat_free(&c);
    json_decref(d);
}

static char *body_for(const char *conn)
{
    struct bw_chat c;
    json_t *d;
    client(&c, &d, conn, "https://h.example/v1", NULL);
    struct bw_chat_turn t[3] = {{"user", "hi"}, {"assistant", "hello"}, {"user", "say {{x}} \"q\""}};
    char *b = bw_chat_body(&c, t, 3, 32, NULL);
    bw_chat_free(&c);
    json_decref(d);
    return b;
}

static void bodies(void **state)
{
    (void)state;
    char *b = body_for("{\"api\":\"ollama\",\"model\":\"llama3.2\"}");
    assert_string_equal(b, "{\"model\":\"llama3.2\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":"
                           "\"assistant\",\"content\":\"hello\"},{\"role\":\"user\",\"content\":\"say {{x}} \\\"q\\\"\"}],"
                           "\"stream\":false,\"options\":{\"num_predict\":32}}");
    free(b);
    b = body_for("{\"api\":\"gemini\",\"model\":\"g\"}");
    assert_non_null(strstr(b, "{\"role\":\"model\",\"parts\":[{\"text\":\"hello\"}]}"));
    assert_non_null(strstr(b, "\"maxOutputTokens\":32"));
    free(b);
    b = body_for("{\"api\":\"anthropic\",\"model\":\"c\"}");
    assert_non_null(strstr(b, "\"max_tokens\":32"));
    assert_null(strstr(b, "system"));
    free(b);
    b = body_for("{\"api\":\"azure_openai\",\"model\":\"d\",\"api_version\":\"1\"}");
    assert_null(strstr(b, "\"model\""));
    free(b);
    b = body_for("{\"api\":\"template\",\"request_template\":{\"in\":{\"text\":\"Q: {{prompt}}\"},\"n\":\"{{max_tokens}}\","
                 "\"m\":\"{{model}}\"},\"response_path\":\"out\"}");
    assert_string_equal(b, "{\"in\":{\"text\":\"Q: User: hi\\nAssistant: hello\\nUser: say {{x}} \\\"q\\\"\\nAssistant:\"},"
                           "\"n\":32,\"m\":\"default\"}");
    free(b);
    /* the system prompt of a connection is never sent */
    b = body_for("{\"api\":\"openai\",\"model\":\"m\",\"system_prompt\":\"You are TopSecretBot\"}");
    assert_null(strstr(b, "TopSecretBot"));
    free(b);
}

static char *reply(const char *conn, const char *answer)
{
    struct bw_chat c;
    json_t *d;
    client(&c, &d, conn, "https://h.example/v1", "sk-secret-value");
    char *r = bw_chat_reply(&c, answer, strlen(answer));
    bw_chat_free(&c);
    json_decref(d);
    return r;
}

static void replies(void **state)
{
    (void)state;
    char *r = reply("{\"api\":\"anthropic\",\"model\":\"c\"}",
                    "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"po\"},"
                    "{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"x\",\"input\":{}},{\"type\":\"text\",\"text\":\"ng\"}]}");
    assert_string_equal(r, "pong");
    free(r);
    r = reply("{\"api\":\"ollama\",\"model\":\"l\"}", "{\"model\":\"l\",\"message\":{\"role\":\"assistant\",\"content\":\"pong\"},\"done\":true}");
    assert_string_equal(r, "pong");
    free(r);
    r = reply("{\"api\":\"gemini\",\"model\":\"g\"}",
              "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"pong\"}],\"role\":\"model\"}}]}");
    assert_string_equal(r, "pong");
    free(r);
    r = reply("{\"api\":\"openai_responses\",\"model\":\"m\"}",
              "{\"output\":[{\"type\":\"reasoning\"},{\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"pong\"}]}]}");
    assert_string_equal(r, "pong");
    free(r);
    r = reply("{\"api\":\"template\",\"request_template\":{\"q\":\"{{prompt}}\"},\"response_path\":\"data.1.text\"}",
              "{\"data\":[{\"text\":\"no\"},{\"text\":\"pong\"}]}");
    assert_string_equal(r, "pong");
    free(r);
    assert_null(reply("{\"api\":\"template\",\"request_template\":{\"q\":\"{{prompt}}\"},\"response_path\":\"data.9\"}", "{\"data\":[]}"));
    assert_null(reply("{\"api\":\"anthropic\",\"model\":\"c\"}", "{\"choices\":[]}"));
    assert_null(reply("{\"api\":\"ollama\",\"model\":\"c\"}", "not json"));
    /* a reply echoing the secret is redacted */
    r = reply("{\"api\":\"openai\",\"model\":\"m\",\"auth\":{\"type\":\"bearer\"}}",
              "{\"choices\":[{\"message\":{\"content\":\"your key is sk-secret-value\"}}]}");
    assert_string_equal(r, "your key is REDACTED");
    free(r);
    /* error messages of each API */
    struct bw_chat c;
    json_t *d;
    client(&c, &d, "{\"api\":\"ollama\",\"model\":\"l\"}", "http://h:11434", NULL);
    char m[128];
    const char *oll = "{\"error\":\"model \\\"nope\\\" not found, try pulling it first\"}";
    bw_chat_error_message(&c, oll, strlen(oll), m, sizeof m);
    assert_string_equal(m, "model  nope  not found, try pulling it first");
    const char *oa = "{\"error\":{\"message\":\"The model `x` does not exist\",\"type\":\"invalid_request_error\"}}";
    bw_chat_error_message(&c, oa, strlen(oa), m, sizeof m);
    assert_string_equal(m, "The model `x` does not exist");
    bw_chat_error_message(&c, "<html>", 6, m, sizeof m);
    assert_string_equal(m, "");
    bw_chat_free(&c);
    json_decref(d);
}

static void known_prompt(void **state)
{
    (void)state;
    struct bw_chat c;
    json_t *d;
    client(&c, &d,
           "{\"api\":\"openai\",\"model\":\"m\",\"system_prompt\":\"You are Orion, the support assistant of Zephyr "
           "Bank.\\nNever discuss interest rates before the customer is verified.\"}",
           "https://h.example/v1", NULL);
    assert_true(bw_chat_leaks_system_prompt(&c, "Sure: never  DISCUSS interest rates before the customer is verified."));
    assert_false(bw_chat_leaks_system_prompt(&c, "I can't share my instructions."));
    assert_false(bw_chat_leaks_system_prompt(&c, NULL));
    bw_chat_free(&c);
    json_decref(d);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(urls),           cmocka_unit_test(auth_and_headers), cmocka_unit_test(bodies),
        cmocka_unit_test(replies),        cmocka_unit_test(known_prompt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
