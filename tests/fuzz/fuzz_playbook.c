/* The playbook generator on arbitrary JSON: the bytes are parsed as a record document (anything
 * jansson accepts, NUL bytes in strings included) and built twice. It must never crash, answer
 * NULL only for non-objects, and keep its invariants: the same bytes twice, six SP 800-61
 * entries in order, references that are web URLs, architecture entries in matrix order. */
#include "engine/intel/attack.h"
#include "engine/intel/playbook.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *rec = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (!rec)
        return 0;
    json_t *pb = bw_playbook_build(rec);
    if (!json_is_object(rec)) {
        if (pb)
            abort();
        json_decref(rec);
        return 0;
    }
    if (!pb)
        abort(); /* only out of memory may fail, and the fuzzer's limits stay far from it */
    char *a = bw_playbook_dump(pb);
    json_t *pb2 = bw_playbook_build(rec);
    char *b = bw_playbook_dump(pb2);
    if (!a || !b || strcmp(a, b) != 0)
        abort();
    char *text = bw_playbook_text(rec, NULL, NULL); /* the server's path: the same bytes */
    if (!text || strcmp(text, a) != 0)
        abort();
    free(text);

    static const char *const csf[] = {"GV", "ID", "PR", "DE", "RS", "RC"};
    const json_t *ir = json_object_get(pb, "incident_response_playbook");
    if (json_array_size(ir) != 6)
        abort();
    for (size_t i = 0; i < 6; i++)
        if (!json_string_value(json_object_get(json_array_get(ir, i), "csf_id")) ||
            strcmp(json_string_value(json_object_get(json_array_get(ir, i), "csf_id")), csf[i]) != 0)
            abort();
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(pb, "references"), i, x) {
        const char *u = json_string_value(json_object_get(x, "url"));
        if (!u || (strncmp(u, "https://", 8) != 0 && strncmp(u, "http://", 7) != 0))
            abort();
    }
    unsigned prev = 0;
    json_array_foreach(json_object_get(pb, "security_architecture_guidance"), i, x) {
        const struct bw_attack_tactic *t = bw_attack_tactic_find(json_string_value(json_object_get(x, "tactic_id")));
        if (!t || (i > 0 && t->order <= prev))
            abort();
        prev = t->order;
    }
    const char *q = json_string_value(json_object_get(json_object_get(pb, "threat_hunting_guide"), "suggested_query"));
    if (!q || !strstr(q, "\n| where "))
        abort();

    free(a);
    free(b);
    json_decref(pb);
    json_decref(pb2);
    json_decref(rec);
    return 0;
}
