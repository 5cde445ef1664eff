/* Connection guard: a deadline for each request to arrive in full.
 *
 * libmicrohttpd's connection timeout is an idle timeout: every byte received restarts it, so a
 * client trickling one header byte a second (slowloris) or a body byte a second would hold a
 * connection for ever. The guard gives each connection a deadline instead:
 *   - the request line and headers must be in within the timeout of the connection opening, or of
 *     the previous response on a kept-alive connection;
 *   - a body must be in within the timeout of the headers;
 *   - while a handler runs (suspended or not) and while the response is sent there is none.
 * A connection past its deadline has its socket shut down; MHD sees the end of the stream and
 * closes it the usual way (the descriptor stays MHD's: the guard only ever calls shutdown(2), under
 * the lock that the close notification also takes, so the descriptor cannot have been reused).
 *
 * The deadlines are atomics written by the MHD threads without the lock; the lock guards only the
 * list of connections (changed on connect and close) and the sweep, which the main thread runs a
 * few times a second. */
#include "common/log.h"
#include "common/timeutil.h"
#include "http/http.h"

#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

struct guarded {
    struct guarded *prev, *next;
    int fd;
    bool cut;                    /* shut down by a sweep; MHD has yet to close it */
    _Atomic int64_t deadline_us; /* 0: nothing is awaited from the client */
};

/* A connection answered before its request was read in full, kept open by a descriptor of our own
 * after libmicrohttpd closes its one: its write side is shut (the answer and a FIN went out) and
 * what the client still sends is read and dropped for a while, so the close that follows does not
 * reset the connection while the client has the answer unread (RFC 9112 9.6, "lingering close"). */
struct lingering {
    int fd;
    int64_t until_us;
    size_t drained;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lingering g_linger[BW_LINGER_MAX];
static int g_nlinger;
static struct guarded *g_head;
static int64_t g_timeout_us = (int64_t)BW_CONNECTION_TIMEOUT_S * 1000000;
static atomic_ulong g_cut_total;

void bw_guard_init(long timeout_s)
{
    g_timeout_us = (int64_t)timeout_s * 1000000;
}

void *bw_guard_open(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct guarded *g = calloc(1, sizeof *g);
    if (!g || !ci) { /* unguarded: MHD's idle timeout still applies */
        free(g);
        return NULL;
    }
    g->fd = ci->connect_fd;
    atomic_init(&g->deadline_us, bw_mono_us() + g_timeout_us);
    pthread_mutex_lock(&g_lock);
    g->next = g_head;
    if (g_head)
        g_head->prev = g;
    g_head = g;
    pthread_mutex_unlock(&g_lock);
    return g;
}

void bw_guard_close(void *guard)
{
    struct guarded *g = guard;
    if (!g)
        return;
    pthread_mutex_lock(&g_lock);
    if (g->prev)
        g->prev->next = g->next;
    else
        g_head = g->next;
    if (g->next)
        g->next->prev = g->prev;
    pthread_mutex_unlock(&g_lock);
    free(g);
}

static struct guarded *of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

void bw_guard_await(struct MHD_Connection *conn)
{
    struct guarded *g = of(conn);
    if (g)
        atomic_store_explicit(&g->deadline_us, bw_mono_us() + g_timeout_us, memory_order_relaxed);
}

void bw_guard_received(struct MHD_Connection *conn)
{
    struct guarded *g = of(conn);
    if (g)
        atomic_store_explicit(&g->deadline_us, 0, memory_order_relaxed);
}

bool bw_guard_linger(struct MHD_Connection *conn, bool shut_write)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci)
        return false;
    pthread_mutex_lock(&g_lock);
    int fd = g_nlinger < BW_LINGER_MAX ? fcntl(ci->connect_fd, F_DUPFD_CLOEXEC, 0) : -1;
    if (fd >= 0)
        g_linger[g_nlinger++] = (struct lingering){fd, bw_mono_us() + (int64_t)BW_LINGER_MS * 1000, 0};
    pthread_mutex_unlock(&g_lock);
    if (fd < 0)
        return false;
    if (shut_write)
        shutdown(fd, SHUT_WR);
    return true;
}

/* Reads and drops what a lingering connection has sent; true when it is done with (the client
 * closed, an error, the time or the byte allowance is up). The descriptor is non-blocking (it
 * shares libmicrohttpd's open file description). */
static bool linger_drain(struct lingering *l, int64_t now_us)
{
    char buf[4096];
    for (;;) {
        ssize_t n = read(l->fd, buf, sizeof buf);
        if (n > 0) {
            l->drained += (size_t)n;
            if (l->drained > BW_LINGER_MAX_BYTES)
                return true;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return now_us >= l->until_us;
        return true; /* end of stream or an error */
    }
}

void bw_guard_sweep(int64_t now_us)
{
    unsigned long n = 0;
    pthread_mutex_lock(&g_lock);
    for (int i = 0; i < g_nlinger;) {
        if (linger_drain(&g_linger[i], now_us)) {
            close(g_linger[i].fd);
            g_linger[i] = g_linger[--g_nlinger];
        } else {
            i++;
        }
    }
    for (struct guarded *g = g_head; g; g = g->next) {
        int64_t d = atomic_load_explicit(&g->deadline_us, memory_order_relaxed);
        if (g->cut || d == 0 || d > now_us)
            continue;
        shutdown(g->fd, SHUT_RDWR);
        g->cut = true;
        n++;
    }
    pthread_mutex_unlock(&g_lock);
    if (n) {
        atomic_fetch_add_explicit(&g_cut_total, n, memory_order_relaxed);
        bw_log_json(BW_LOG_INFO, NULL, "slow clients disconnected",
                    json_pack("{s:i,s:i}", "connections", (int)n, "timeout_s", (int)(g_timeout_us / 1000000)));
    }
}

unsigned long bw_guard_cut_total(void)
{
    return atomic_load_explicit(&g_cut_total, memory_order_relaxed);
}
