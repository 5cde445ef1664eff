/* The connection validator (bw_conn_parse) on any JSON body: a connection is either accepted
 * with a document that validates again to itself and never carries the secret, or rejected with
 * errors that each name a connection member; a chat client can be built from every accepted one
 * and its bodies are JSON. No network: nothing here sends. */
#include "common/jsonx.h"
#include "engine/chat.h"
#include "engine/connection.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *why = NULL;
    json_t *body = bw_json_parse_body((const char *)data, size, &why);
    json_t *conn = json_object_get(body, "connection");
    const char *endpoint = json_string_value(json_object_get(body, "endpoint"));
    if (!endpoint)
        endpoint = "https://model.example.com/v1";
    json_t *errs = json_array(), *doc = NULL;
    const char *secret = NULL;
    int n = bw_conn_parse(conn, endpoint, false, NULL, &doc, &secret, errs);
    if (n < 0 || (size_t)n < json_array_size(errs) || (n > 0 && doc))
        abort();
    size_t i;
    json_t *e;
    json_array_foreach(errs, i, e) {
        const char *f = json_string_value(json_object_get(e, "field"));
        if (!f || strncmp(f, "connection", 10) != 0 || !json_string_value(json_object_get(e, "message")))
            abort();
    }
    if (n == 0 && doc) {
        char *text = json_dumps(doc, JSON_COMPACT);
        if (!text || json_object_get(json_object_get(doc, "auth"), "secret"))
            abort(); /* the stored document never carries the secret */
        free(text);
        /* the stored document is a valid connection itself (the secret kept as configured) */
        json_t *errs2 = json_array(), *doc2 = NULL;
        const char *s2 = NULL;
        const char *at = json_string_value(json_object_get(json_object_get(doc, "auth"), "type"));
        if (bw_conn_parse(doc, endpoint, true, at, &doc2, &s2, errs2) != 0 || !json_equal(doc, doc2))
            abort();
        json_decref(doc2);
        json_decref(errs2);
        struct bw_chat c;
        char w[128];
        if (bw_chat_init(&c, endpoint, doc, BW_API_OPENAI, secret, BW_EGRESS_NONE, w, sizeof w) == 0) {
            struct bw_chat_turn t[2] = {{"user", "hello"}, {"assistant", "hi"}};
            char *b = bw_chat_body(&c, t, 2, 16, NULL);
            json_t *parsed = b ? json_loads(b, 0, NULL) : NULL;
            if (b && !parsed)
                abort();
            json_decref(parsed);
            free(b);
            bw_chat_free(&c);
        }
    }
    json_decref(doc);
    json_decref(errs);
    json_decref(body);
    return 0;
}
