#include "common/errors.h"

static const struct {
    const char *code;
    unsigned status;
    const char *msg;
} table[BW_E__COUNT] = {
    [BW_OK] = {"OK", 200, "ok"},
#define BW_X(name, st, m) [BW_E_##name] = {#name, st, m},
    BW_ERROR_MAP(BW_X)
#undef BW_X
};

const char *bw_err_code(enum bw_err e) { return (unsigned)e < BW_E__COUNT ? table[e].code : "INTERNAL_ERROR"; }
unsigned bw_err_status(enum bw_err e) { return (unsigned)e < BW_E__COUNT ? table[e].status : 500; }
const char *bw_err_message(enum bw_err e) { return (unsigned)e < BW_E__COUNT ? table[e].msg : "internal error"; }
