#include "common/seal.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEAL_PREFIX "v1."

int bw_seal_key_parse(const char *text, unsigned char key[BW_SEAL_KEY_BYTES])
{
    if (!text)
        return -1;
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n' || text[n - 1] == '\r'))
        n--;
    size_t got = 0;
    const char *end = NULL;
    if (n == BW_SEAL_KEY_BYTES * 2 &&
        sodium_hex2bin(key, BW_SEAL_KEY_BYTES, text, n, NULL, &got, &end) == 0 && got == BW_SEAL_KEY_BYTES &&
        end == text + n)
        return 0;
    static const int VARIANTS[] = {sodium_base64_VARIANT_ORIGINAL, sodium_base64_VARIANT_ORIGINAL_NO_PADDING,
                                   sodium_base64_VARIANT_URLSAFE, sodium_base64_VARIANT_URLSAFE_NO_PADDING};
    for (size_t i = 0; i < sizeof VARIANTS / sizeof VARIANTS[0]; i++) {
        unsigned char tmp[BW_SEAL_KEY_BYTES + 4];
        if (sodium_base642bin(tmp, sizeof tmp, text, n, NULL, &got, &end, VARIANTS[i]) == 0 &&
            got == BW_SEAL_KEY_BYTES && end == text + n) {
            memcpy(key, tmp, BW_SEAL_KEY_BYTES);
            sodium_memzero(tmp, sizeof tmp);
            return 0;
        }
        sodium_memzero(tmp, sizeof tmp);
    }
    sodium_memzero(key, BW_SEAL_KEY_BYTES);
    return -1;
}

int bw_seal_key_write(const char *path, const unsigned char key[BW_SEAL_KEY_BYTES])
{
    char tmp[4200], hex[BW_SEAL_KEY_BYTES * 2 + 2];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return -1;
    sodium_bin2hex(hex, sizeof hex - 1, key, BW_SEAL_KEY_BYTES);
    size_t len = strlen(hex);
    hex[len++] = '\n';
    (void)unlink(tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    bool ok = fchmod(fd, 0600) == 0 && write(fd, hex, len) == (ssize_t)len && fsync(fd) == 0;
    sodium_memzero(hex, sizeof hex);
    if (close(fd) != 0)
        ok = false;
    if (!ok || rename(tmp, path) != 0) {
        (void)unlink(tmp);
        return -1;
    }
    return 0;
}

/* Reads the key file at path; 0, 1 when it does not exist, -1 with why. */
static int key_file_read(const char *path, bool allow_insecure, unsigned char key[BW_SEAL_KEY_BYTES],
                         bool *insecure, char *why, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT)
            return 1;
        snprintf(why, cap, "cannot open the secret key file %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    char buf[256];
    ssize_t n = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        if (st.st_mode & 077) {
            if (!allow_insecure) {
                close(fd);
                snprintf(why, cap,
                         "the secret key file %s may be read by group or others (mode %03o): chmod 600 %s "
                         "(BULWARK_ALLOW_INSECURE_FILE_MODES=1 to start anyway)",
                         path, (unsigned)(st.st_mode & 0777), path);
                return -1;
            }
            *insecure = true;
        }
        n = read(fd, buf, sizeof buf - 1);
    }
    close(fd);
    if (n < 0) {
        snprintf(why, cap, "cannot read the secret key file %s", path);
        return -1;
    }
    buf[n] = '\0';
    int rc = bw_seal_key_parse(buf, key);
    sodium_memzero(buf, sizeof buf);
    if (rc != 0) {
        snprintf(why, cap, "the secret key file %s does not hold a 32-byte key (64 hex digits or base64)", path);
        return -1;
    }
    return 0;
}

int bw_seal_key_load(const char *env_key, const char *data_dir, bool allow_insecure, struct bw_seal *out,
                     bool *insecure, char *why, size_t cap)
{
    *insecure = false;
    if (env_key && *env_key) {
        if (bw_seal_key_parse(env_key, out->key) != 0) {
            snprintf(why, cap, "BULWARK_SECRET_KEY must be a 32-byte key: 64 hex digits or base64");
            return -1;
        }
        return 0;
    }
    char path[4200];
    if (!data_dir || !*data_dir ||
        (size_t)snprintf(path, sizeof path, "%s/%s", data_dir, BW_SEAL_KEY_FILE) >= sizeof path) {
        snprintf(why, cap, "no data directory for the secret key file (set BULWARK_DATA_DIR or BULWARK_SECRET_KEY)");
        return -1;
    }
    int rc = key_file_read(path, allow_insecure, out->key, insecure, why, cap);
    if (rc <= 0)
        return rc;
    /* first start: a fresh key, in a directory only we may enter */
    if (mkdir(data_dir, 0700) != 0 && errno != EEXIST) {
        snprintf(why, cap, "cannot create the data directory %s: %s", data_dir, strerror(errno));
        return -1;
    }
    randombytes_buf(out->key, BW_SEAL_KEY_BYTES);
    if (bw_seal_key_write(path, out->key) != 0) {
        snprintf(why, cap, "cannot write the secret key file %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

char *bw_seal_text(const struct bw_seal *k, const char *plain, size_t len)
{
    size_t raw_len = crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + len;
    unsigned char *raw = malloc(raw_len);
    if (!raw)
        return NULL;
    randombytes_buf(raw, crypto_secretbox_NONCEBYTES);
    crypto_secretbox_easy(raw + crypto_secretbox_NONCEBYTES, (const unsigned char *)plain, len, raw, k->key);
    size_t b64 = sodium_base64_ENCODED_LEN(raw_len, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    char *out = malloc(sizeof SEAL_PREFIX - 1 + b64);
    if (out) {
        memcpy(out, SEAL_PREFIX, sizeof SEAL_PREFIX - 1);
        sodium_bin2base64(out + sizeof SEAL_PREFIX - 1, b64, raw, raw_len, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    }
    free(raw);
    return out;
}

char *bw_unseal_text(const struct bw_seal *k, const char *sealed, size_t *len)
{
    if (!sealed || strncmp(sealed, SEAL_PREFIX, sizeof SEAL_PREFIX - 1) != 0)
        return NULL;
    const char *b64 = sealed + sizeof SEAL_PREFIX - 1;
    size_t n = strlen(b64), raw_len = 0;
    unsigned char *raw = malloc(n / 4 * 3 + 3);
    if (!raw)
        return NULL;
    const char *end = NULL;
    if (sodium_base642bin(raw, n / 4 * 3 + 3, b64, n, NULL, &raw_len, &end, sodium_base64_VARIANT_URLSAFE_NO_PADDING) !=
            0 ||
        end != b64 + n || raw_len < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES) {
        free(raw);
        return NULL;
    }
    size_t plain_len = raw_len - crypto_secretbox_NONCEBYTES - crypto_secretbox_MACBYTES;
    char *plain = malloc(plain_len + 1);
    if (plain && crypto_secretbox_open_easy((unsigned char *)plain, raw + crypto_secretbox_NONCEBYTES,
                                            raw_len - crypto_secretbox_NONCEBYTES, raw, k->key) != 0) {
        free(plain);
        plain = NULL;
    }
    free(raw);
    if (!plain)
        return NULL;
    plain[plain_len] = '\0';
    if (len)
        *len = plain_len;
    return plain;
}

void bw_unsealed_free(char *plain)
{
    if (!plain)
        return;
    sodium_memzero(plain, strlen(plain));
    free(plain);
}

bool bw_seal_check_ok(const struct bw_seal *k, const char *sealed_check)
{
    char *p = bw_unseal_text(k, sealed_check, NULL);
    bool ok = p && strcmp(p, BW_SEAL_CHECK_TEXT) == 0;
    bw_unsealed_free(p);
    return ok;
}
