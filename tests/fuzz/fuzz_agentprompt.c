/* The system prompt reader (engine/agentprompt.c): the fuzzer's bytes are a prompt, read with the
 * embedded instruction catalog. Invariants: every reading's clause lies inside the prompt and is
 * not empty, its instruction exists, its verdict is unsafe or guard, readings come in prompt order
 * and at most BW_AGENT_READINGS_MAX of them, and reading twice gives the same readings. */
#include "common/limits.h"
#include "engine/agentprompt.h"
#include "engine/agentscan.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct bw_ap_catalog *c = bw_agent_instructions();
    const char *p = (const char *)data;
    struct bw_ap_reading *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    if (bw_ap_read(c, p, size, &a, &na) != 0)
        return 0; /* out of memory */
    if (na > BW_AGENT_READINGS_MAX)
        abort();
    for (size_t i = 0; i < na; i++) {
        const struct bw_ap_reading *r = &a[i];
        if (r->instr >= bw_ap_instr_count(c) || (r->verdict != BW_AP_UNSAFE && r->verdict != BW_AP_GUARD) ||
            r->clause_len == 0 || r->clause_off > size || r->clause_len > size - r->clause_off ||
            (i > 0 && r->clause_off < a[i - 1].clause_off))
            abort();
        char names[256];
        bw_ap_scope_names(c, r, names, sizeof names);
        if (r->all != (names[0] == '\0'))
            abort();
    }
    if (bw_ap_read(c, p, size, &b, &nb) != 0 || nb != na)
        abort();
    for (size_t i = 0; i < na; i++) /* field by field: padding bytes are unspecified */
        if (a[i].instr != b[i].instr || a[i].verdict != b[i].verdict || a[i].scopes != b[i].scopes ||
            a[i].all != b[i].all || a[i].clause_off != b[i].clause_off || a[i].clause_len != b[i].clause_len)
            abort();
    free(a);
    free(b);
    return 0;
}
