/* The policy half of the egress guard: BULWARK_EGRESS_ALLOW parsing and which address classes
 * (net/addr.h) it lets through. Pure functions, no I/O, no libcurl (the URL fuzzer drives them
 * directly). */
#include "net/egress.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

int bw_egress_parse_allow(const char *s, unsigned *flags)
{
    unsigned f = 0;
    const char *p = s ? s : "";
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *w = p;
        while (*p && *p != ',' && *p != ' ' && *p != '\t')
            p++;
        size_t n = (size_t)(p - w);
        while (*p == ' ' || *p == '\t')
            p++;
        /* after a word only a separator or the end may follow: "loop back" is one bad value */
        if (*p && *p != ',' && n)
            return -1;
        if (!n)
            continue;
        if (n == 8 && !strncasecmp(w, "loopback", n))
            f |= BW_EGRESS_ALLOW_LOOPBACK;
        else if (n == 7 && !strncasecmp(w, "private", n))
            f |= BW_EGRESS_ALLOW_PRIVATE;
        else if (n == 4 && !strncasecmp(w, "none", n))
            f |= BW_EGRESS_NONE;
        else
            return -1;
    }
    if ((f & BW_EGRESS_NONE) && f != BW_EGRESS_NONE) /* "none,loopback" contradicts itself */
        return -1;
    *flags = f;
    return 0;
}


bool bw_egress_class_allowed(enum bw_addr_class c, unsigned allow)
{
    if (allow & BW_EGRESS_NONE)
        return false;
    return c == BW_ADDR_PUBLIC || (c == BW_ADDR_LOOPBACK && (allow & BW_EGRESS_ALLOW_LOOPBACK)) ||
           (c == BW_ADDR_PRIVATE && (allow & BW_EGRESS_ALLOW_PRIVATE));
}

bool bw_egress_addr_allowed(const struct sockaddr *sa, unsigned allow, const char **why)
{
    if (allow & BW_EGRESS_NONE) {
        if (why)
            *why = "address (outbound connections are disabled)";
        return false;
    }
    const char *w = NULL;
    const bool ok = bw_egress_class_allowed(bw_addr_classify(sa, &w), allow);
    if (why)
        *why = ok ? NULL : w;
    return ok;
}
