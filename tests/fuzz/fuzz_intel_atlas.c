/* The MITRE ATLAS importer: YAML through the ATLAS normaliser (src/engine/intel/atlas.c), parse only,
 * no database. */
#include "intel_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fuzz_yaml_normaliser(bw_intel_atlas, data, size); }
