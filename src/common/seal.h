/* Secrets sealed at rest (libsodium crypto_secretbox: XSalsa20-Poly1305, a fresh random nonce per
 * value). The key is 32 bytes: BULWARK_SECRET_KEY (64 hex digits or standard base64), or the file
 * secret.key in the data directory, created 0600 with a random key on first start. Instances
 * sharing one database must share the key; the database keeps a sealed check value
 * (settings.seal_check) so a start with another key is refused instead of failing later.
 *
 * A sealed value is text: "v1." then base64url (no padding) of nonce || ciphertext+tag.
 * Ownership: bw_seal_text and bw_unseal_text return malloc'ed strings; the caller frees them (an
 * unsealed secret with bw_unsealed_free, which wipes it first). */
#ifndef BW_COMMON_SEAL_H
#define BW_COMMON_SEAL_H
#include <stdbool.h>
#include <stddef.h>

#define BW_SEAL_KEY_BYTES 32
#define BW_SEAL_KEY_FILE "secret.key"
#define BW_SEAL_CHECK_SETTING "seal_check"
#define BW_SEAL_CHECK_TEXT "bulwark seal check v1"

struct bw_seal {
    unsigned char key[BW_SEAL_KEY_BYTES];
};

/* Reads a key written as 64 hex digits or as base64 (standard or url-safe, padded or not) of 32
 * bytes, surrounding white space ignored. 0, or -1 when it is not one. */
int bw_seal_key_parse(const char *text, unsigned char key[BW_SEAL_KEY_BYTES]);

/* The key: from env_key when it is non-NULL and non-empty, else from data_dir/secret.key, which
 * is created (0600, the directory 0700 when it is missing) with a random key when absent. A key
 * file that group or others may read is refused unless allow_insecure (then warned about by the
 * caller through *insecure). 0, or -1 with the reason in why. */
int bw_seal_key_load(const char *env_key, const char *data_dir, bool allow_insecure, struct bw_seal *out,
                     bool *insecure, char *why, size_t cap);

/* Writes key to path as hex, mode 0600, through a temporary file renamed over it. 0 or -1. */
int bw_seal_key_write(const char *path, const unsigned char key[BW_SEAL_KEY_BYTES]);

/* Seals len bytes of plain; NULL when out of memory. */
char *bw_seal_text(const struct bw_seal *k, const char *plain, size_t len);
/* Opens a sealed value; the NUL-terminated plaintext, or NULL when the text is not a sealed
 * value, was altered, or was sealed with another key. *len (may be NULL) gets its length. */
char *bw_unseal_text(const struct bw_seal *k, const char *sealed, size_t *len);
/* Wipes and frees what bw_unseal_text returned (NULL is fine). */
void bw_unsealed_free(char *plain);

/* Whether a sealed check value opens to BW_SEAL_CHECK_TEXT with this key. */
bool bw_seal_check_ok(const struct bw_seal *k, const char *sealed_check);

#endif
