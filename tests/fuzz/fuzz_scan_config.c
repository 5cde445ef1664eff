/* .bulwark.yml (src/cli/scan_config.c): any bytes either parse, with every rule id's line inside
 * the input and every override holding paths, or fail with a message naming FILE:LINE. */
#include "cli/scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n' || data[i] == '\r';
    struct bw_scan_config c;
    char err[600];
    err[0] = '\0';
    if (bw_scan_config_parse("f.yml", (const char *)data, size, &c, err, sizeof err) == 0) {
        for (size_t i = 0; i < c.nids; i++)
            if (!c.ids[i] || c.id_lines[i] < 1 || c.id_lines[i] > lines + 1)
                abort();
        for (size_t i = 0; i < c.nov; i++)
            if (c.ov[i].npaths == 0)
                abort();
    } else if (strncmp(err, "f.yml", 5) != 0) {
        abort();
    }
    bw_scan_config_free(&c);
    return 0;
}
