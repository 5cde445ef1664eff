/* For tools/hsgen only: the generator runs before any prebuilt databases exist. */
#include "engine/code/scanner.h"

const void *bw_prebuilt_blob(size_t *len)
{
    *len = 0;
    return NULL;
}
