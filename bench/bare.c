/* Bare libmicrohttpd server for `make bench`: the floor bulwark is measured against.
 * It runs the daemon exactly as src/http/server.c does (same flags, thread pool, connection
 * limits and timeouts) but answers every request with constant bytes, so the ratio bulwark/bare
 * is bulwark's own cost per request, not libmicrohttpd's or the kernel's. Given a response
 * bulwark sent (curl -si: status line, header lines, a blank line, the body), it answers with the
 * same header lines (one MHD_add_response_header each, as bulwark adds them) and the same body,
 * so the kernel moves the same bytes for both; otherwise a 200 {"status":"ok"}.
 * Usage: bench_bare PORT [RESPONSE_FILE]   (0 picks a free port; prints "port=N" once listening) */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L /* sigwait, pthread_sigmask under -std=c17 without CMake's flags */
#endif
#include "../src/common/limits.h" /* header-only macros: keeps the limits in step with bulwark */

#include <microhttpd.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char default_body[] = "{\"status\":\"ok\"}";
static const char *body = default_body;
static size_t body_len = sizeof default_body - 1;
#define MAX_HEADERS 32
static char *hdr_name[MAX_HEADERS], *hdr_value[MAX_HEADERS];
static int nhdr;

/* Reads a captured response: the header lines MHD would not write itself, and the body. 0 or -1. */
static int load_response(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *end = strstr(buf, "\r\n\r\n");
    if (!end)
        return -1;
    *end = '\0';
    body = end + 4;
    body_len = n - (size_t)(body - buf);
    char *save = NULL;
    (void)strtok_r(buf, "\r\n", &save); /* the status line */
    for (char *l = strtok_r(NULL, "\r\n", &save); l && nhdr < MAX_HEADERS; l = strtok_r(NULL, "\r\n", &save)) {
        char *c = strchr(l, ':');
        if (!c)
            continue;
        *c = '\0';
        char *v = c + 1;
        while (*v == ' ')
            v++;
        if (!strcasecmp(l, "Date") || !strcasecmp(l, "Content-Length") || !strcasecmp(l, "Connection") ||
            !strcasecmp(l, "Transfer-Encoding"))
            continue; /* libmicrohttpd writes these itself, for both servers */
        hdr_name[nhdr] = l;
        hdr_value[nhdr++] = v;
    }
    return 0;
}

/* First call per request: MHD has only the headers; a real server answers after seeing the
 * whole request (possibly a body), so mark the connection and wait for the 2nd call, exactly as
 * bulwark does. con_cls points at a static marker, so there is nothing to free. */
static enum MHD_Result on_access(void *cls, struct MHD_Connection *conn, const char *url,
                                 const char *method, const char *version, const char *upload_data,
                                 size_t *upload_data_size, void **con_cls)
{
    static int seen;
    (void)cls;
    (void)url;
    (void)method;
    (void)version;
    (void)upload_data;
    if (*con_cls == NULL) {
        *con_cls = &seen;
        return MHD_YES;
    }
    if (*upload_data_size) { /* discard any body; answer once it is all in */
        *upload_data_size = 0;
        return MHD_YES;
    }
    /* A response per request over a persistent buffer, as bulwark's queue() does: the baseline
     * then includes MHD's own response bookkeeping, and the ratio isolates bulwark's work. */
    struct MHD_Response *resp = MHD_create_response_from_buffer(body_len, (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!resp)
        return MHD_NO;
    if (!nhdr)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    for (int i = 0; i < nhdr; i++)
        MHD_add_response_header(resp, hdr_name[i], hdr_value[i]);
    enum MHD_Result ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s PORT [RESPONSE_FILE]   (0 = pick a free port)\n", argv[0]);
        return 2;
    }
    if (argc == 3 && load_response(argv[2]) != 0) {
        fprintf(stderr, "bench_bare: %s is not a captured HTTP response\n", argv[2]);
        return 2;
    }
    char *end;
    errno = 0;
    long port = strtol(argv[1], &end, 10);
    if (errno || end == argv[1] || *end || port < 0 || port > 65535) {
        fprintf(stderr, "bench_bare: PORT must be 0..65535\n");
        return 2;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN); /* bulwark's default BULWARK_THREADS */
    if (cores < 1)
        cores = 1;

    /* Block the stop signals before MHD starts its threads so they inherit the mask and only
     * sigwait() below sees them (bulwark's main does the same). */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN); /* as bulwark: a client hanging up must not kill the server */

    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    /* Same flags and options as bw_http_serve(), minus its logger and completion callback. */
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_TURBO | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ERROR_LOG;
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_access, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)cores,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)BW_CONNECTION_TIMEOUT_S,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)BW_MAX_CONNECTIONS,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)BW_MAX_CONNECTIONS_PER_IP,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(2 * BW_MAX_HEADER_BYTES),
        MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "bench_bare: cannot listen on 127.0.0.1:%ld\n", port);
        return 1;
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    if (!di || di->port == 0) {
        fprintf(stderr, "bench_bare: cannot read the bound port\n");
        MHD_stop_daemon(d);
        return 1;
    }
    /* run.sh reads this line through a pipe, so flush it now rather than at exit */
    printf("port=%u\n", (unsigned)di->port);
    fflush(stdout);

    int sig = 0;
    sigwait(&set, &sig);
    MHD_stop_daemon(d);
    return 0;
}
