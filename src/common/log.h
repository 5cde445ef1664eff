/* Structured logs: one JSON object per line on stderr.
 * Lines are appended to a per-thread buffer that a flusher thread writes out every 100 ms (or
 * sooner when it fills), so a request costs no write(2) of its own; warnings and errors are
 * written at once. bw_log_shutdown() writes everything that is left. */
#ifndef BW_COMMON_LOG_H
#define BW_COMMON_LOG_H
#include <jansson.h>
#include <stdbool.h>

enum bw_log_level { BW_LOG_DEBUG, BW_LOG_INFO, BW_LOG_WARN, BW_LOG_ERROR };

/* Parses "debug"/"info"/"warn"/"error"; -1 when unknown. */
int bw_log_parse_level(const char *s);
void bw_log_set_level(int level);
bool bw_log_enabled(int level);

/* Starts the flusher thread (the server does; CLI commands log unbuffered without it). */
void bw_log_start_flusher(void);
void bw_log_shutdown(void);

/* Logs `msg` with the members of `fields` (stolen; may be NULL). `request_id` may be NULL. */
void bw_log_json(int level, const char *request_id, const char *msg, json_t *fields);

/* printf-style message without extra fields. */
void bw_logf(int level, const char *request_id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends a finished line (without newline; JSON object text) to the thread's buffer. */
void bw_log_raw(int level, const char *line, size_t len);

/* Appends `s` JSON-escaped (without quotes) to dst[*len..cap); bytes that are not well-formed
 * UTF-8 become U+FFFD; truncates at cap, never inside an escape or a character. */
void bw_json_escape(char *dst, size_t *len, size_t cap, const char *s);

#endif
