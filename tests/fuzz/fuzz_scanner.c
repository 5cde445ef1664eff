/* The code scanner (lexer, prefilter, PCRE2 confirmation, secrets, suppression) on arbitrary
 * bytes: the first byte picks the language, the rest is the code. Checks the invariants a client
 * relies on: findings are in range, sorted, and the lexer's regions are ordered and disjoint. */
#include "engine/code/scanner.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bw_scanner *sc;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[512];
    sc = bw_scanner_new_embedded(err, sizeof err);
    if (!sc) {
        fprintf(stderr, "fuzz_scanner: %s\n", err);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    enum bw_lang l = (enum bw_lang)(data[0] % BW_LANG_COUNT);
    const char *code = (const char *)data + 1;
    size_t len = size - 1;
    uint32_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += code[i] == '\n';
    struct bw_findings f;
    if (bw_scan(sc, l, code, len, (data[0] & 0x80) != 0, &f) != 0)
        abort();
    for (size_t i = 0; i < f.n; i++) {
        const struct bw_finding *x = &f.v[i];
        if (x->line < 1 || x->line > lines || x->end_line < x->line || x->end_line > lines || x->column < 1 ||
            x->severity < BW_SEV_LOW || x->severity > BW_SEV_CRITICAL || strlen(x->snippet) >= sizeof x->snippet)
            abort();
        if (i && (f.v[i - 1].severity < x->severity ||
                  (f.v[i - 1].severity == x->severity && f.v[i - 1].line > x->line)))
            abort();
    }
    int score = bw_scan_score(&f);
    if (score < 0 || score > 100 || (f.n == 0) != (bw_scan_grade(&f) == 'A'))
        abort();
    bw_findings_free(&f);
    struct bw_regions r = {0};
    if (bw_lex_regions(l, code, len, &r) != 0)
        abort();
    for (size_t i = 0; i < r.n; i++)
        if (r.v[i].start >= r.v[i].end || r.v[i].end > len || (i && r.v[i - 1].end > r.v[i].start))
            abort();
    bw_regions_free(&r);
    return 0;
}
