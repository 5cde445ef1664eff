/* The shipped MCP check catalog (data/mcp/checks.json) for the unit tests that scan: a group
 * setup loads it into mcp_checks as the server does at start, the teardown frees it. Static, as
 * db_fixture.h, so each test stays one source file. */
#ifndef BULWARK_TEST_MCP_FIXTURE_H
#define BULWARK_TEST_MCP_FIXTURE_H

#include "common/embedded.h"
#include "engine/mcpscan.h"

static struct bw_mcp_checks *mcp_checks;

static int mcp_checks_setup(void **state)
{
    (void)state;
    char err[256];
    return bw_mcp_checks_load(bw_embedded_find(BW_MCP_CHECKS), &mcp_checks, err, sizeof err);
}

static int mcp_checks_teardown(void **state)
{
    (void)state;
    bw_mcp_checks_free(mcp_checks);
    return 0;
}

#endif
