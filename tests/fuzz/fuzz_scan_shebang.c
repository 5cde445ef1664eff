/* The #! line of an extensionless file (src/cli/scan_files.c, bw_scan_shebang_shell): any bytes
 * give an answer without reading past size; a yes needs "#!" first and a shell's name in the first
 * line, and the answer depends on the first line only. */
#include "cli/scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size copy, so ASan sees any read past size */
    char *head = malloc(size ? size : 1);
    if (!head)
        return 0;
    memcpy(head, data, size);
    bool yes = bw_scan_shebang_shell(head, size);
    const char *nl = memchr(head, '\n', size);
    size_t first = nl ? (size_t)(nl - head) : size;
    if (yes) {
        if (size < 2 || head[0] != '#' || head[1] != '!')
            abort();
        bool named = false;
        static const char *const shells[] = {"sh", "bash", "zsh", "dash", "ksh"};
        for (size_t s = 0; s < 5 && !named; s++)
            named = memmem(head, first, shells[s], strlen(shells[s])) != NULL;
        if (!named)
            abort();
    }
    if (nl && bw_scan_shebang_shell(head, first) != yes) /* what follows the first line never counts */
        abort();
    free(head);
    return 0;
}
