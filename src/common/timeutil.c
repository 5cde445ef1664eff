#include "common/timeutil.h"

#include <stdio.h>
#include <string.h>

int64_t bw_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec;
}

int64_t bw_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t bw_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void bw_iso8601(int64_t unix_s, char out[21])
{
    time_t t = (time_t)unix_s;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int bw_parse_iso8601(const char *s, int64_t *out)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    if (!s || strlen(s) != 20)
        return -1;
    const char *end = strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (!end || *end)
        return -1;
    *out = (int64_t)timegm(&tm);
    return 0;
}
