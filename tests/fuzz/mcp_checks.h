/* The shipped MCP check catalog (data/mcp/checks.json) for the targets that scan without the
 * application: loaded into mcp_checks once, as the server loads it at start. Included once by a
 * target, it defines the target's LLVMFuzzerInitialize. */
#ifndef BULWARK_FUZZ_MCP_CHECKS_H
#define BULWARK_FUZZ_MCP_CHECKS_H

#include "common/embedded.h"
#include "engine/mcpscan.h"

#include <stdio.h>

static struct bw_mcp_checks *mcp_checks;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char err[256];
    if (bw_mcp_checks_load(bw_embedded_find(BW_MCP_CHECKS), &mcp_checks, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s\n", BW_MCP_CHECKS, err);
        return 1;
    }
    return 0;
}

#endif
