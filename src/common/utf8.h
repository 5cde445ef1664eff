/* UTF-8 helpers shared by request validation (limits are in characters, not bytes) and by the
 * writers of JSON and SARIF, which must not pass on bytes that are not UTF-8 (file names and
 * source lines in Latin-1 are common). */
#ifndef BW_COMMON_UTF8_H
#define BW_COMMON_UTF8_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Number of code points in s[0..n): every byte that is not a continuation byte starts one. */
size_t bw_utf8_chars(const char *s, size_t n);

/* The length of the well-formed UTF-8 sequence at p (left >= 1 bytes available), 0 when there
 * is none: as strict as jansson (no overlong forms, surrogates or code points above U+10FFFF). */
size_t bw_utf8_seq(const unsigned char *p, size_t left);

/* Whether s[0..n) is well-formed UTF-8. */
bool bw_utf8_valid(const char *s, size_t n);

/* Whether the NUL-terminated s holds an ASCII control character (below 0x20, or DEL). */
bool bw_has_control(const char *s);

/* A new JSON string of the NUL-terminated s in which every byte that is not part of a
 * well-formed UTF-8 sequence is U+FFFD. NULL when s is NULL or memory runs out; the caller owns
 * the reference (json_pack "o" steals it). */
json_t *bw_utf8_json(const char *s);

#endif
