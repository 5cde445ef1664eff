/* Files embedded into the binary at build time (cmake/embed.cmake): migrations, data catalogs,
 * the OpenAPI document. The bytes are static and NUL-terminated; nobody frees them. */
#ifndef BW_COMMON_EMBEDDED_H
#define BW_COMMON_EMBEDDED_H
#include <stddef.h>

struct bw_embedded {
    const char *name;          /* path relative to the source tree, e.g. "docs/openapi.json" */
    const unsigned char *data; /* NUL-terminated */
    size_t len;                /* without the NUL */
};

extern const struct bw_embedded bw_embedded_files[];
extern const size_t bw_embedded_count;

/* The embedded file named `name`, or NULL. */
const struct bw_embedded *bw_embedded_find(const char *name);

#endif
