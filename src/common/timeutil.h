/* Clocks and UTC ISO 8601 formatting (second precision, trailing Z). */
#ifndef BW_COMMON_TIMEUTIL_H
#define BW_COMMON_TIMEUTIL_H
#include <stdint.h>
#include <time.h>

int64_t bw_now_s(void);   /* wall clock, Unix seconds */
int64_t bw_now_us(void);  /* wall clock, microseconds */
int64_t bw_mono_us(void); /* monotonic, microseconds: durations and limiters */

/* "2026-11-22T20:42:57Z" into out (21 bytes incl. NUL). */
void bw_iso8601(int64_t unix_s, char out[21]);

/* Parses exactly the form above; returns 0 and sets *out, or -1. */
int bw_parse_iso8601(const char *s, int64_t *out);

/* The calendar day of an ISO 8601 value ("2025-05-05T00:00:00Z" -> "2025-05-05") into out, or ""
 * unless s starts with a real calendar-shaped YYYY-MM-DD not followed by another digit. Only ASCII
 * is accepted, so the copy never ends inside a UTF-8 character. */
void bw_iso_day(char out[11], const char *s);

#endif
