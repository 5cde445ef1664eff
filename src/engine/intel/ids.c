/* CVE and CWE ids (ids.h). */
#include "engine/intel/ids.h"

#include <string.h>

/* The number of decimal digits s starts with (locale-free, unlike isdigit). */
static size_t digits(const char *s)
{
    return strspn(s, "0123456789");
}

bool bw_cve_shape(const char *s, size_t max_seq)
{
    if (!s || strncmp(s, "CVE-", 4) != 0 || digits(s + 4) != 4 || s[8] != '-')
        return false;
    size_t n = digits(s + 9);
    return n >= 4 && n <= max_seq && s[9 + n] == '\0';
}

int bw_cwe_parse(const char *s, size_t max_digits)
{
    if (!s || strncmp(s, "CWE-", 4) != 0)
        return -1;
    size_t n = digits(s + 4);
    if (n == 0 || n > max_digits || n > 9 || s[4 + n] != '\0') /* 9 digits always fit an int */
        return -1;
    int v = 0;
    for (size_t i = 4; i < 4 + n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}
