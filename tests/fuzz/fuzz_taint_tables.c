/* The taint tables' loader (engine/code/taint.c, data/taint/LANG.json) on arbitrary bytes: the
 * input is one document. It either loads, and then its gate answers on a fixed text for every
 * language, or it is refused with a message that names the file and a line within the input.
 * Invariants break with abort(), so libFuzzer reports them. */
#include "engine/code/taint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct bw_taint *x;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (!(x = bw_taint_new()))
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *doc = malloc(size + 1); /* the loader gets a length; the NUL only guards strlen misuse */
    if (!doc)
        return 0;
    memcpy(doc, data, size);
    doc[size] = '\0';
    const char *names[1] = {"f.json"}, *docs[1] = {doc};
    size_t lens[1] = {size};
    char err[400];
    err[0] = '\0';
    struct bw_taint_tables *t = bw_taint_tables_new(names, docs, lens, 1, err, sizeof err);
    if (t) {
        static const char text[] = "@app.route('/x')\ndef f(u):\n    requests.get(request.args['u'])\n";
        for (int l = 0; l < BW_LANG_COUNT; l++)
            (void)bw_taint_gate(x, t, (enum bw_lang)l, text, sizeof text - 1);
        bw_taint_tables_free(t);
    } else if (strcmp(err, "out of memory") != 0) {
        unsigned line = 0;
        size_t lines = 1;
        for (size_t i = 0; i < size; i++)
            lines += data[i] == '\n';
        if (sscanf(err, "f.json:%u:", &line) != 1 || line == 0 || line > lines + 1)
            abort();
    }
    free(doc);
    return 0;
}
