/* Ignore files and globs (src/cli/scan_ignore.c): any bytes as an ignore file, then the input's
 * lines as paths. Matching must end (the step bound) and agree with itself: a path excluded as a
 * file under an excluded folder stays excluded whatever its name. */
#include "cli/scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct bw_ignore ig = {0};
    const char *text = (const char *)data;
    if (bw_ignore_add_text(&ig, text, size) == 0) {
        char path[512];
        size_t i = 0;
        while (i < size) {
            const char *nl = memchr(text + i, '\n', size - i);
            size_t e = nl ? (size_t)(nl - text) : size, n = e - i;
            if (n < sizeof path - 8 && !memchr(text + i, '\0', n)) {
                memcpy(path, text + i, n);
                path[n] = '\0';
                bool dir = bw_ignore_match(&ig, path, true);
                (void)bw_ignore_match(&ig, path, false);
                if (dir && n > 0 && path[0] != '/' && path[n - 1] != '/' && !strstr(path, "//")) {
                    /* everything under an excluded folder is excluded */
                    memcpy(path + n, "/x.py", 6);
                    if (!bw_ignore_match(&ig, path, false))
                        abort();
                }
                path[n] = '\0';
                (void)bw_glob_match(path, path);
            }
            i = e + 1;
        }
    }
    bw_ignore_free(&ig);
    return 0;
}
