#include "common/embedded.h"

#include <string.h>

const struct bw_embedded *bw_embedded_find(const char *name)
{
    for (size_t i = 0; i < bw_embedded_count; i++)
        if (strcmp(bw_embedded_files[i].name, name) == 0)
            return &bw_embedded_files[i];
    return NULL;
}

const struct bw_embedded_gz *bw_console_find(const char *path)
{
    for (size_t i = 0; i < bw_console_count; i++)
        if (strcmp(bw_console_files[i].path, path) == 0)
            return &bw_console_files[i];
    return NULL;
}
