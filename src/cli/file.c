/* Reading the files named on a command line or found in a walk: regular files only, so that a
 * FIFO, socket or device can never block or feed a tool endlessly. */
#include "cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *bw_cli_file_kind(unsigned mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFLNK: return "a symbolic link";
    default: return "not a file";
    }
}

int bw_cli_read_file(const char *path, size_t max, char **out, size_t *len, char *why, size_t whylen)
{
    *out = NULL;
    *len = 0;
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return BW_READ_FAILED;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whylen, "%s, not a regular file", bw_cli_file_kind(st.st_mode));
        return BW_READ_NOT_REGULAR;
    }
    /* O_NONBLOCK: should the path have become a FIFO since the stat, open does not wait for a
     * writer; the fstat below then refuses it */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return BW_READ_FAILED;
    }
    int rc = BW_READ_FAILED;
    char *buf = NULL;
    size_t n = 0;
    if (fstat(fd, &st) != 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whylen, "%s, not a regular file", bw_cli_file_kind(st.st_mode));
        rc = BW_READ_NOT_REGULAR;
        goto out;
    }
    if ((unsigned long long)st.st_size > max) {
        snprintf(why, whylen, "larger than %zu bytes", max);
        rc = BW_READ_TOO_LARGE;
        goto out;
    }
    size_t cap = (size_t)st.st_size + 1;
    buf = malloc(cap + 1);
    if (!buf) {
        snprintf(why, whylen, "out of memory");
        goto out;
    }
    for (;;) { /* a file that grows while it is read stops at the size planned for (+1: it grew) */
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            snprintf(why, whylen, "%s", strerror(errno));
            goto out;
        }
        if (k == 0 || (n += (size_t)k) == cap)
            break;
    }
    if (n > max) {
        snprintf(why, whylen, "larger than %zu bytes", max);
        rc = BW_READ_TOO_LARGE;
        goto out;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    buf = NULL;
    rc = BW_READ_OK;
out:
    free(buf);
    close(fd);
    return rc;
}
