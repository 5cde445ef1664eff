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

/* The web console's files (console/), gzip-compressed at build time (cmake/embed_console.cmake:
 * `gzip -9 -n`, so the bytes depend on the sources alone). */
struct bw_embedded_gz {
    const char *path;          /* the URL path it is served at: "/index.html", "/js/app.js" */
    const unsigned char *gz;   /* the gzip member */
    size_t gz_len;
    size_t len;                /* bytes once decompressed */
    const char *etag;          /* the first 16 hex digits of the SHA-256 of the uncompressed bytes */
};
extern const struct bw_embedded_gz bw_console_files[];
extern const size_t bw_console_count;

/* The console file served at path, or NULL. */
const struct bw_embedded_gz *bw_console_find(const char *path);

#endif
