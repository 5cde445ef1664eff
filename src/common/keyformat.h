/* The format of bulwark's API keys: "svc_" + 32 random base62 + 6 base62 of the CRC32 of the
 * first 36 characters. Shared by the server, which issues and checks keys (src/auth/apikey.h),
 * and the code scanner, which finds leaked ones (src/engine/code/scanner.c): the checksum lets
 * both reject a mistyped or made-up key without a database lookup. Nothing here allocates. */
#ifndef BW_COMMON_KEYFORMAT_H
#define BW_COMMON_KEYFORMAT_H
#include <stdbool.h>
#include <stddef.h>

#define BW_KEY_PREFIX "svc_"
#define BW_KEY_RANDOM_LEN 32
#define BW_KEY_CHECK_LEN 6
#define BW_KEY_LEN (4 + BW_KEY_RANDOM_LEN + BW_KEY_CHECK_LEN) /* 42 */

/* The checksum characters of a key whose first 4 + BW_KEY_RANDOM_LEN characters are head. */
void bw_apikey_checksum(const char *head, char out[BW_KEY_CHECK_LEN]);
/* Whether s has the format and a correct checksum. */
bool bw_apikey_wellformed(const char *s);
bool bw_apikey_wellformed_n(const char *s, size_t n);

#endif
