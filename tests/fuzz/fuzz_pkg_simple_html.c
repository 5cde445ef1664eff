/* The package index reader for format BW_PKGF_SIMPLE_HTML (pkgindex_harness.h has the checks). */
#include "pkgindex_harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return pkg_fuzz_run(BW_PKGF_SIMPLE_HTML, data, size); }
