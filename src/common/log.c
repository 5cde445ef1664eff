#include "common/log.h"

#include "common/limits.h"
#include "common/timeutil.h"
#include "common/utf8.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


struct logbuf {
    pthread_mutex_t mu;
    size_t len;
    struct logbuf *next;
    char data[BW_LOG_BUF_BYTES];
};

static atomic_int g_level = BW_LOG_INFO;
static atomic_bool g_buffered = false;
static pthread_mutex_t g_list_mu = PTHREAD_MUTEX_INITIALIZER;
static struct logbuf *g_list;
static _Thread_local struct logbuf *t_buf;
static pthread_t g_flusher;
static atomic_bool g_flusher_run = false;
static pthread_mutex_t g_write_mu = PTHREAD_MUTEX_INITIALIZER;

static const char *level_name[] = {"debug", "info", "warn", "error"};

int bw_log_parse_level(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (s && strcmp(s, level_name[i]) == 0)
            return i;
    return -1;
}

void bw_log_set_level(int level) { atomic_store(&g_level, level); }
bool bw_log_enabled(int level) { return level >= atomic_load_explicit(&g_level, memory_order_relaxed); }

/* Writes all of buf, retrying on EINTR/short writes; a log that cannot be written is dropped. */
static void write_all(const char *p, size_t n)
{
    pthread_mutex_lock(&g_write_mu); /* keeps lines from different flushes whole */
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        p += w;
        n -= (size_t)w;
    }
    pthread_mutex_unlock(&g_write_mu);
}

static struct logbuf *my_buf(void)
{
    if (!t_buf) {
        struct logbuf *b = calloc(1, sizeof *b);
        if (!b)
            return NULL;
        pthread_mutex_init(&b->mu, NULL);
        pthread_mutex_lock(&g_list_mu);
        b->next = g_list;
        g_list = b;
        pthread_mutex_unlock(&g_list_mu);
        t_buf = b;
    }
    return t_buf;
}

static void flush_locked(struct logbuf *b)
{
    if (b->len) {
        write_all(b->data, b->len);
        b->len = 0;
    }
}

void bw_log_raw(int level, const char *line, size_t len)
{
    if (!bw_log_enabled(level))
        return;
    struct logbuf *b = atomic_load(&g_buffered) ? my_buf() : NULL;
    if (!b) {
        char *tmp = malloc(len + 1);
        if (!tmp)
            return;
        memcpy(tmp, line, len);
        tmp[len] = '\n';
        write_all(tmp, len + 1);
        free(tmp);
        return;
    }
    pthread_mutex_lock(&b->mu);
    if (b->len + len + 1 > BW_LOG_BUF_BYTES)
        flush_locked(b);
    if (len + 1 > BW_LOG_BUF_BYTES) {
        write_all(line, len);
        write_all("\n", 1);
    } else {
        memcpy(b->data + b->len, line, len);
        b->data[b->len + len] = '\n';
        b->len += len + 1;
    }
    /* warnings and errors go out at once; info lines wait for the flusher or a full buffer */
    if (level >= BW_LOG_WARN || b->len >= BW_LOG_FLUSH_AT)
        flush_locked(b);
    pthread_mutex_unlock(&b->mu);
}

static void flush_all(void)
{
    pthread_mutex_lock(&g_list_mu);
    for (struct logbuf *b = g_list; b; b = b->next) {
        pthread_mutex_lock(&b->mu);
        flush_locked(b);
        pthread_mutex_unlock(&b->mu);
    }
    pthread_mutex_unlock(&g_list_mu);
}

static void *flusher_main(void *arg)
{
    (void)arg;
    while (atomic_load(&g_flusher_run)) {
        struct timespec ts = {BW_LOG_FLUSH_MS / 1000, (long)(BW_LOG_FLUSH_MS % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        flush_all();
    }
    return NULL;
}

void bw_log_start_flusher(void)
{
    if (atomic_exchange(&g_flusher_run, true))
        return;
    atomic_store(&g_buffered, true);
    if (pthread_create(&g_flusher, NULL, flusher_main, NULL) != 0) {
        atomic_store(&g_buffered, false);
        atomic_store(&g_flusher_run, false);
    }
}

void bw_log_shutdown(void)
{
    if (atomic_exchange(&g_flusher_run, false))
        pthread_join(g_flusher, NULL);
    atomic_store(&g_buffered, false);
    flush_all();
    pthread_mutex_lock(&g_list_mu);
    struct logbuf *b = g_list;
    g_list = NULL;
    pthread_mutex_unlock(&g_list_mu);
    while (b) {
        struct logbuf *n = b->next;
        pthread_mutex_destroy(&b->mu);
        free(b);
        b = n;
    }
    t_buf = NULL; /* other threads have ended by now */
}

void bw_json_escape(char *dst, size_t *len, size_t cap, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = *len;
    const unsigned char *p = (const unsigned char *)s;
    size_t left = s ? strlen(s) : 0;
    while (left) {
        /* a run of printable ASCII that needs no escape goes in one copy (request ids, paths) */
        size_t run = 0;
        while (run < left && p[run] >= 0x20 && p[run] < 0x7f && p[run] != '"' && p[run] != '\\')
            run++;
        if (run) {
            if (n + run >= cap)
                run = cap > n + 1 ? cap - n - 1 : 0;
            memcpy(dst + n, p, run);
            n += run;
            p += run;
            left -= run;
            if (left && n + 1 >= cap)
                break;
            continue;
        }
        unsigned char c = *p;
        char esc[7];
        const char *out = esc;
        size_t k, take = 1;
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            k = 2;
        } else if (c < 0x20 || c == 0x7f) {
            memcpy(esc, "\\u00", 4);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            k = 6;
        } else if (c < 0x80) {
            esc[0] = (char)c;
            k = 1;
        } else if ((take = bw_utf8_seq(p, left)) != 0) {
            out = (const char *)p; /* a whole, well-formed sequence */
            k = take;
        } else {
            /* a byte that is not UTF-8 (a percent-decoded path with C0 AE, say): U+FFFD, so
             * every log line stays valid JSON */
            out = "\xef\xbf\xbd";
            k = 3;
            take = 1;
        }
        if (n + k >= cap)
            break;
        memcpy(dst + n, out, k);
        n += k;
        p += take;
        left -= take;
    }
    *len = n;
}

void bw_log_json(int level, const char *request_id, const char *msg, json_t *fields)
{
    if (!bw_log_enabled(level)) {
        json_decref(fields);
        return;
    }
    char ts[21];
    bw_iso8601(bw_now_s(), ts);
    json_t *o = json_object();
    json_object_set_new(o, "ts", json_string(ts));
    json_object_set_new(o, "level", json_string(level_name[level & 3]));
    /* messages may carry outside text (a configured value, a peer's answer): invalid UTF-8
     * becomes U+FFFD rather than dropping the message */
    json_object_set_new(o, "msg", msg ? bw_utf8_json(msg) : json_string(""));
    if (request_id)
        json_object_set_new(o, "request_id", json_string(request_id));
    if (fields) {
        json_object_update_missing(o, fields);
        json_decref(fields);
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (s) {
        bw_log_raw(level, s, strlen(s));
        free(s);
    }
}

void bw_logf(int level, const char *request_id, const char *fmt, ...)
{
    if (!bw_log_enabled(level))
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bw_log_json(level, request_id, msg, NULL);
}
