/* The OSV importer: one advisory as YAML through the OSV normaliser (src/engine/intel/osv.c), parse
 * only, no database. */
#include "intel_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_yaml_normaliser(bw_intel_osv, data, size); }
