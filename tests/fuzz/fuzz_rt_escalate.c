/* The adaptive attacks' text side (engine/redteam/escalate.h) on untrusted bytes: a stored path
 * (engagement_turns.path, attack rows) is parsed back, and an attack's text of any bytes is
 * transformed along it. Input: "path\0text". A parsed path prints back to the same text and obeys
 * the extension rules; the turns are as many as the path says, each a NUL-terminated string; a
 * split in three carries every byte of the text in order; the search drains a tree expanded with
 * closeness from the input without dropping or repeating a branch. */
#include "engine/redteam/escalate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = malloc(size + 1);
    if (!in)
        return 0;
    memcpy(in, data, size);
    in[size] = '\0';
    const char *ptext = in;
    size_t pl = strlen(ptext);
    const char *text = pl < size ? in + pl + 1 : "";
    struct bw_rt_path p;
    if (bw_rt_path_parse(ptext, &p) == 0) {
        char back[BW_RT_PATH_MAX];
        bw_rt_path_text(&p, back, sizeof back);
        if (strcmp(back, ptext) != 0)
            abort();
        struct bw_rt_path q = {{0}, 0};
        for (int i = 0; i < p.n; i++) {
            if (!bw_rt_path_can_extend(&q, p.op[i]))
                abort();
            q.op[q.n++] = p.op[i];
        }
        char *turns[BW_RT_ESC_TURNS_MAX];
        int k = bw_rt_escalate_turns(&p, text, "BWRT-fuzz0001", "topic", turns);
        if (k >= 0) {
            if (k != bw_rt_path_turns(&p))
                abort();
            for (int i = 0; i < k; i++)
                if (!turns[i] || strlen(turns[i]) > 64 * (strlen(text) + 64))
                    abort();
            if (p.n == 1 && p.op[0] == BW_RT_OP_SPLIT) {
                /* the three parts, markers removed, give the text back */
                static const char *const mark[] = {"Part 1 of 3: ", "Part 2 of 3: ", "Part 3 of 3: "};
                size_t at = 0, tl = strlen(text);
                for (int i = 0; i < 3; i++) {
                    const char *s = strstr(turns[i], mark[i]);
                    if (!s)
                        abort();
                    s += strlen(mark[i]);
                    size_t len = i == 0 ? strlen(s) : (size_t)(strrchr(s, '\n') - s);
                    if (at + len > tl || memcmp(text + at, s, len) != 0)
                        abort();
                    at += len;
                }
                if (at != tl)
                    abort();
            }
            for (int i = 0; i < k; i++)
                free(turns[i]);
        }
    }
    /* the search: each node once, whatever the closeness */
    struct bw_rt_search *s = malloc(sizeof *s);
    if (s) {
        bw_rt_search_init(s, size ? data[0] / 255.0 : 0);
        size_t visited = 0, i = 0;
        struct bw_rt_path n;
        while (bw_rt_search_next(s, &n)) {
            visited++;
            bw_rt_search_expand(s, &n, size ? data[i++ % size] / 255.0 : 0);
            if (visited > 10000)
                abort();
        }
        if (s->dropped != 0)
            abort();
        free(s);
    }
    free(in);
    return 0;
}
