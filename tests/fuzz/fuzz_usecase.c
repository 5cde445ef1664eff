/* The use-case reader (engine/usecase.c): the fuzzer's bytes are a use case or an org_context,
 * classified with the embedded catalog. Invariants: a category is never both affirmed and ruled
 * out, only those carry deciding words, every quote is NUL-terminated and, for valid UTF-8 input
 * (requests are), valid UTF-8 (jansson would refuse it in a response otherwise), reading twice gives the same result, and the affirmed words
 * are a space-framed string. */
#include "common/embedded.h"
#include "common/utf8.h"
#include "engine/usecase.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct bw_uc_catalog *cat;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!cat) {
        const struct bw_embedded *f = bw_embedded_find("data/frameworks/usecases.json");
        char why[192];
        if (!f || !(cat = bw_uc_catalog_parse((const char *)f->data, f->len, why, sizeof why)))
            abort();
    }
    size_t n = bw_uc_count(cat);
    bool valid = bw_utf8_valid((const char *)data, size);
    struct bw_uc_hit *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    if (!a || !b || bw_uc_classify(cat, (const char *)data, size, a) != 0 ||
        bw_uc_classify(cat, (const char *)data, size, b) != 0)
        abort();
    for (size_t i = 0; i < n; i++) {
        const struct bw_uc_hit *h = &a[i];
        if ((h->affirmed && h->ruled_out) || (!h->affirmed && !h->ruled_out && h->nwords) ||
            h->nwords > BW_UC_WORDS_MAX || h->nwords != b[i].nwords || h->affirmed != b[i].affirmed)
            abort();
        for (size_t w = 0; w < h->nwords; w++) {
            if (!memchr(h->words[w], '\0', BW_UC_QUOTE_MAX) || strcmp(h->words[w], b[i].words[w]) != 0)
                abort();
            json_t *s = valid ? json_string(h->words[w]) : NULL; /* NULL for invalid UTF-8 */
            if (valid && !s)
                abort();
            json_decref(s);
        }
    }
    char *w = bw_uc_affirmed_words(cat, (const char *)data, size);
    if (!w || w[0] != ' ' || w[strlen(w) - 1] != ' ')
        abort();
    free(w);
    free(a);
    free(b);
    return 0;
}
