/* The cursor decoder (src/common/cursor.c) on any text: it never reads out of bounds, answers OK
 * only for a cursor of ours, and what it answers encodes back to the same text. The first byte
 * picks the key, so the fuzzer also sees cursors sealed with the key it decodes with (the corpus
 * holds some). */
#include "common/cursor.h"

#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        if (sodium_init() < 0)
            abort();
        ready = 1;
    }
    if (size < 3 || size > BW_CURSOR_MAX + 3)
        return 0;
    unsigned char key[BW_CURSOR_KEY_BYTES];
    memset(key, data[0], sizeof key);
    uint8_t list = data[1] & 7, sort = data[2] & 3;
    char text[BW_CURSOR_MAX + 2];
    memcpy(text, data + 3, size - 3);
    text[size - 3] = '\0';
    struct bw_cursor c;
    if (bw_cursor_decode(key, text, list, sort, "f", &c) != BW_CURSOR_OK)
        return 0;
    if (c.list != list || c.sort != sort || !c.id[0])
        abort();
    char again[BW_CURSOR_MAX + 1];
    if (bw_cursor_encode(key, &c, "f", again, sizeof again) < 0 || strcmp(again, text) != 0)
        abort();
    return 0;
}
