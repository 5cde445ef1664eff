/* Output shared by the command-line tools. */
#include "cli/cli.h"

#include <stdlib.h>

void bw_cli_print_json(json_t *j)
{
    char *s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (s) {
        puts(s);
        free(s);
    }
}
