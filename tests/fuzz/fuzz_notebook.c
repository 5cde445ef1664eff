/* The notebook reader (src/cli/scan_files.c): any bytes either fail with a reason or give code
 * whose every line has a cell (>= 1), a line in it (>= 1) and a line of the input file. */
#include "cli/scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    struct bw_notebook nb;
    char why[96];
    why[0] = '\0';
    if (bw_notebook_read((const char *)data, size, &nb, why, sizeof why) != 0) {
        if (!why[0])
            abort();
        return 0;
    }
    size_t nl = 0;
    for (size_t i = 0; i < nb.len; i++)
        nl += nb.code[i] == '\n';
    if (nl != nb.nlines || strlen(nb.code) > nb.len)
        abort();
    for (size_t i = 0; i < nb.nlines; i++)
        if (nb.cell[i] < 1 || nb.cell_line[i] < 1 || nb.file_line[i] < 1 || nb.file_line[i] > lines)
            abort();
    bw_notebook_free(&nb);
    return 0;
}
