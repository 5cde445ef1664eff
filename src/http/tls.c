/* Native TLS through libmicrohttpd (GnuTLS): the PEM files named by BULWARK_TLS_CERT and
 * BULWARK_TLS_KEY are read once at start and handed to MHD from memory. */
#include "common/log.h"
#include "http/http.h"

#include <errno.h>
#include <microhttpd.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The whole file as a NUL-terminated string, or NULL after logging why. A private key that
 * other users may read or write is warned about (not refused: a key a group reads, as Debian's
 * ssl-cert group does, is 0640, and group membership is the operator's decision). */
static char *read_pem(const char *var, const char *path, const char *marker, bool private_key, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        bw_logf(BW_LOG_ERROR, NULL, "%s: cannot read %s: %s", var, path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (private_key && fstat(fileno(f), &st) == 0 && (st.st_mode & (S_IROTH | S_IWOTH)))
        bw_logf(BW_LOG_WARN, NULL, "%s: the private key %s is readable or writable by every user (mode %04o): "
                "run chmod 600 %s", var, path, (unsigned)(st.st_mode & 07777), path);
    char *buf = malloc(BW_TLS_FILE_MAX + 1);
    size_t n = buf ? fread(buf, 1, BW_TLS_FILE_MAX + 1, f) : 0;
    bool err = ferror(f) != 0;
    fclose(f);
    if (!buf || err || n == 0 || n > BW_TLS_FILE_MAX) {
        bw_logf(BW_LOG_ERROR, NULL, "%s: %s is empty, unreadable or larger than %u bytes", var, path,
                (unsigned)BW_TLS_FILE_MAX);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (!strstr(buf, marker)) {
        bw_logf(BW_LOG_ERROR, NULL, "%s: %s has no PEM block (%s)", var, path, marker);
        sodium_memzero(buf, n);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int bw_tls_load(const char *cert_path, const char *key_path, struct bw_tls *out)
{
    memset(out, 0, sizeof *out);
    if (!cert_path && !key_path)
        return 0;
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
        bw_logf(BW_LOG_ERROR, NULL, "BULWARK_TLS_CERT is set but this libmicrohttpd has no TLS support; "
                                    "terminate TLS in a reverse proxy instead (docs/operations.md)");
        return -1;
    }
    size_t clen = 0;
    out->cert = read_pem("BULWARK_TLS_CERT", cert_path, "-----BEGIN CERTIFICATE-----", false, &clen);
    if (out->cert)
        out->key = read_pem("BULWARK_TLS_KEY", key_path, "PRIVATE KEY-----", true, &out->key_len);
    if (!out->cert || !out->key) {
        bw_tls_free(out);
        return -1;
    }
    return 0;
}

void bw_tls_free(struct bw_tls *t)
{
    if (t->key)
        sodium_memzero(t->key, t->key_len);
    free(t->key);
    free(t->cert);
    memset(t, 0, sizeof *t);
}
