/* libFuzzer target: the request framing checks and the forwarded-address parser
 * (src/http/framing.c). Input: header lines "Name: value\n"; a first byte picks HTTP/1.0 or 1.1.
 * Invariants: never a crash or a read past the input; a client address, when found, is an IP
 * address in canonical text that was not a trusted proxy. */
#include "http/framing.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 64 * 1024)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    struct bw_framing *f = calloc(1, sizeof *f);
    if (!f) {
        free(text);
        return 0;
    }
    /* split into lines, then "name: value"; the pieces live in text until the end */
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        char *value = colon + 1;
        while (*value == ' ')
            value++;
        bw_framing_add(f, line, value);
    }
    const char *field = NULL, *why = NULL;
    enum bw_err e = bw_framing_check(f, data[0] & 1, &field, &why);
    if (e != BW_OK && (!field || !why))
        abort();
    static const char trusted[2][64] = {"127.0.0.1", "2001:db8::7"};
    char out[64];
    if (f->xff_len > BW_MAX_FORWARDED_FOR || strlen(f->xff) != f->xff_len)
        abort();
    if (bw_forwarded_client(f->xff, f->xff_len, trusted, 2, out, sizeof out)) {
        unsigned char a[16];
        if (inet_pton(AF_INET, out, a) != 1 && inet_pton(AF_INET6, out, a) != 1)
            abort();
        if (strcmp(out, "127.0.0.1") == 0 || strcmp(out, "2001:db8::7") == 0)
            abort();
    }
    free(f);
    free(text);
    return 0;
}
