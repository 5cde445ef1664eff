/* gzip decompression of a whole buffer (zlib), for source files that arrive compressed (the EPSS
 * daily CSV). Bounded: the output may not exceed max_out bytes, so a small file that inflates to
 * gigabytes (a "gzip bomb") is refused instead of exhausting memory. Concatenated gzip members
 * (RFC 1952 2.2) are read one after another, as gunzip does.
 *
 * Pure: no I/O. *out is malloc'ed and NUL-terminated (free it). */
#ifndef BW_COMMON_GZIP_H
#define BW_COMMON_GZIP_H
#include <stdbool.h>
#include <stddef.h>

/* Whether buf starts with the gzip magic bytes (1f 8b). */
bool bw_is_gzip(const void *buf, size_t len);

/* Inflates gzip data. 0 with *out and *out_len, or -1 with the reason in why ("truncated gzip
 * data", "corrupt gzip data", "larger than N bytes once decompressed", "out of memory"). */
int bw_gunzip(const void *in, size_t in_len, size_t max_out, char **out, size_t *out_len, char *why, size_t cap);

/* Whether an Accept-Encoding request header (RFC 9110 12.5.3) accepts gzip: "gzip" or "x-gzip"
 * listed with a weight above 0, or "*" so listed and gzip not refused by name. NULL (no header):
 * false (identity is the answer every client reads). */
bool bw_accepts_gzip(const char *accept_encoding);

#endif
