/* Work in flight per key, capped: password checks under way for one email and from one client
 * address, so one source cannot fill the hashing pool. One small table under one lock (it is
 * touched twice per password check, which costs tens of milliseconds itself). A key is held only
 * while its count is above zero; the table holds at most `slots` keys at once and refuses more,
 * so its memory is fixed at creation. */
#ifndef BW_AUTH_INFLIGHT_H
#define BW_AUTH_INFLIGHT_H
#include <stdbool.h>
#include <stddef.h>

struct bw_inflight;

/* slots: keys held at once (each password check in flight holds two). NULL when out of memory. */
struct bw_inflight *bw_inflight_new(size_t slots);
void bw_inflight_free(struct bw_inflight *f);

enum bw_inflight_rc {
    BW_INFLIGHT_OK,   /* counted: the caller calls leave once */
    BW_INFLIGHT_CAP,  /* the key has max in flight already */
    BW_INFLIGHT_FULL, /* the table holds `slots` keys already */
};
/* Counts one more in flight for key unless it has max already or the table is full. */
enum bw_inflight_rc bw_inflight_enter(struct bw_inflight *f, const char *key, int max);
/* Ends one that enter counted. */
void bw_inflight_leave(struct bw_inflight *f, const char *key);
/* How many are in flight for key (tests). */
int bw_inflight_count(struct bw_inflight *f, const char *key);

#endif
