/* UTF-8 helpers shared by request validation (limits are in characters, not bytes). */
#ifndef BW_COMMON_UTF8_H
#define BW_COMMON_UTF8_H
#include <stddef.h>

/* Number of code points in s[0..n): every byte that is not a continuation byte starts one. */
size_t bw_utf8_chars(const char *s, size_t n);

#endif
