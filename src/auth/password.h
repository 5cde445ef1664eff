/* Password hashing: argon2id through libsodium (interactive limits: ~64 MiB, tens of ms). Call
 * from a blocking pool thread, never from an HTTP event thread. */
#ifndef BW_AUTH_PASSWORD_H
#define BW_AUTH_PASSWORD_H
#include <stdbool.h>
#include <stddef.h>

#define BW_PWHASH_MAX 128

int bw_password_hash(const char *pw, char out[BW_PWHASH_MAX]); /* 0 or -1 */
bool bw_password_verify(const char *hash, const char *pw);

#endif
