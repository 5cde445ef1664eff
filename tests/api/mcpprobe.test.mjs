// The live MCP probe (`probe: true`): bulwark speaks MCP over streamable HTTP to local test
// servers (JSON and SSE answers, sessions, pagination) through its egress module, and scans the
// tools the server really lists, with its instructions, prompts and resources. Also: a server
// that requires a token, one that is not MCP, a closed port, and the egress guard (without
// BULWARK_EGRESS_ALLOW the server is never contacted).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertError } from './lib/server.mjs';
import { startMcpServer } from './lib/mcpserver.mjs';
import { startTarget, closedPort } from './lib/targets.mjs';

const PATH = '/api/mcp-security/scan';
const SEV = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1 };

let srv, guarded, user, guardedUser;
const mcp = {};
before(async () => {
  srv = await startServer({ env: { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_RATE_STARTER: '0' } });
  guarded = await startServer({ env: { BULWARK_RATE_STARTER: '0' } }); // default policy: loopback refused
  user = await srv.session('STARTER', { key: true });
  guardedUser = await guarded.session('STARTER', { key: true });
  mcp.poisonedJson = await startMcpServer({ variant: 'poisoned', format: 'json' });
  mcp.poisonedSse = await startMcpServer({ variant: 'poisoned', format: 'sse' });
  mcp.clean = await startMcpServer({ variant: 'clean', format: 'sse', sessions: false });
  mcp.locked = await startMcpServer({ variant: 'locked' });
  mcp.other = await startTarget({ mode: 'careful' }); // an HTTP server that is not MCP
});
after(async () => {
  for (const s of Object.values(mcp)) await s.close();
  if (srv) assert.equal(await srv.stop(), 0);
  if (guarded) assert.equal(await guarded.stop(), 0);
});

const scan = (body, s = srv, u = user) => s.req('POST', PATH, { key: u.key, body });
const byId = (r, id, tool) => r.json.findings.find(f => f.id === id && (tool === undefined || f.tool === tool));

function checkShape(r) {
  assert.equal(r.status, 200, r.text);
  const j = r.json;
  assert.equal(j.ok, true);
  assert.ok(!Number.isNaN(Date.parse(j.scanned_at)));
  for (const f of j.findings) {
    assert.match(f.id, /^MCP-[A-Z]+-\d{3}$/);
    for (const k of ['type', 'title', 'detail', 'remediation']) assert.equal(typeof f[k], 'string', k);
    assert.ok(f.severity in SEV);
    assert.ok('owasp_llm' in f, `${f.id} has owasp_llm`);
    assert.ok(f.owasp_llm === null || /^LLM(0[1-9]|10)$/.test(f.owasp_llm), f.owasp_llm);
  }
  const sev = j.findings.map(f => SEV[f.severity]);
  assert.deepEqual(sev, [...sev].sort((a, b) => b - a), 'worst first');
}

for (const format of ['json', 'sse']) {
  test(`a poisoned server answering ${format}: the live tools are scanned, with drift from the declared ones`, async () => {
    const target = format === 'json' ? mcp.poisonedJson : mcp.poisonedSse;
    const before = target.stats.requests.length;
    const r = await scan({
      probe: true,
      mcp_config: {
        // userinfo and query must not reach the server: the probe sends no credentials
        server_url: target.url.replace('http://', 'http://someone:secret@') + '?token=abc',
        auth_method: 'oauth',
        tools: [{ name: 'add', description: 'Adds two numbers.' }, 'get_time', 'delete_everything'],
      },
    });
    checkShape(r);
    const j = r.json;
    const p = j.probe;
    assert.equal(p.performed, true);
    assert.equal(p.reachable, true);
    assert.equal(p.outcome, 'ok');
    assert.equal(p.http_status, 200);
    assert.equal(p.protocol_version, '2025-06-18');
    assert.equal(p.server_name, 'test-poisoned');
    assert.equal(p.server_version, '1.0.0');
    assert.equal(p.tools_listed, 6);
    assert.equal(p.tools_source, 'server');
    assert.equal(p.pages, 2);
    assert.equal(p.truncated, false);
    assert.equal(p.session, true);
    assert.equal(p.format, format);
    assert.equal(p.auth_required, false);
    assert.equal(p.error, undefined);
    assert.equal(j.summary.tools, 6, 'the listed tools replace the declared ones');

    // poisoning, in its three forms, and the secret file it points at
    assert.equal(byId(r, 'MCP-POISON-001', 'add').severity, 'CRITICAL');
    assert.equal(byId(r, 'MCP-POISON-001', 'add').owasp_llm, 'LLM01');
    assert.match(byId(r, 'MCP-POISON-001', 'get_time').detail, /invisible Unicode character U\+200B/);
    const enc = byId(r, 'MCP-POISON-002', 'translate');
    assert.equal(enc.severity, 'CRITICAL');
    assert.match(enc.detail, /base64 run .* decodes to "Ignore previous instructions/);
    assert.equal(byId(r, 'MCP-POISON-003', 'add').owasp_llm, 'LLM02');
    // the lethal trifecta, naming the tools
    const flow = byId(r, 'MCP-FLOW-001');
    assert.equal(flow.severity, 'CRITICAL');
    assert.match(flow.detail, /Untrusted input: fetch_page\./);
    assert.match(flow.detail, /Private data: read_file\./);
    assert.match(flow.detail, /Outbound: send_email, fetch_page\./);
    assert.equal(byId(r, 'MCP-FLOW-002').severity, 'HIGH');
    // shadowing of well-known tools; tools listed without credentials although oauth is declared
    assert.ok(byId(r, 'MCP-SHADOW-002', 'read_file'));
    assert.equal(byId(r, 'MCP-AUTH-004').severity, 'HIGH'); // loopback
    // drift
    assert.equal(byId(r, 'MCP-PROBE-004', 'add').severity, 'MEDIUM');
    for (const t of ['translate', 'read_file', 'send_email', 'fetch_page']) assert.ok(byId(r, 'MCP-PROBE-002', t), t);
    assert.ok(!byId(r, 'MCP-PROBE-002', 'add'));
    assert.equal(byId(r, 'MCP-PROBE-003', 'delete_everything').severity, 'LOW');
    assert.equal(j.risk_score, 100);
    assert.equal(j.risk_level, 'CRITICAL');
    // the server's instructions, a prompt and a resource carry poisoning too; the clean prompt and
    // resource are not reported
    assert.equal(p.instructions, true);
    assert.equal(p.prompts_listed, 2);
    assert.equal(p.resources_listed, 2);
    const fromServer = (id, source, item) => j.findings.find(f => f.id === id && f.source === source &&
      (item === undefined || f[source] === item));
    const ins = fromServer('MCP-POISON-004', 'instructions');
    assert.equal(ins.severity, 'CRITICAL');
    assert.equal(ins.tool, undefined);
    assert.match(ins.detail, /In the server's instructions: Indicator/);
    assert.equal(fromServer('MCP-POISON-006', 'instructions').owasp_llm, 'LLM02');
    assert.match(fromServer('MCP-POISON-004', 'prompt', 'code_review').detail, /"ignore previous"/);
    assert.ok(!fromServer('MCP-POISON-004', 'prompt', 'summarise'));
    assert.match(fromServer('MCP-POISON-004', 'resource', 'file:///workspace/notes.txt').detail, /U\+200B/);
    assert.ok(!j.findings.some(f => f.resource === 'file:///workspace/README.md'));

    // what the server saw: initialize, initialized, two pages, DELETE; the session echoed; no credentials
    const seen = target.stats.requests.slice(before);
    assert.deepEqual(seen.map(x => `${x.method} ${x.rpc ?? '-'}`),
      ['POST initialize', 'POST notifications/initialized', 'POST tools/list', 'POST tools/list', 'POST prompts/list',
        'POST resources/list', 'DELETE -']);
    for (const x of seen) {
      assert.equal(x.url, '/mcp');
      assert.equal(x.headers.authorization, undefined);
      assert.equal(x.headers.cookie, undefined);
    }
    assert.equal(seen[0].headers['mcp-session-id'], undefined);
    assert.match(seen[0].headers.accept, /application\/json/);
    assert.match(seen[0].headers.accept, /text\/event-stream/);
    assert.match(seen[0].headers['content-type'], /application\/json/);
    const sid = seen[1].headers['mcp-session-id'];
    assert.ok(sid);
    for (const x of seen.slice(1)) {
      assert.equal(x.headers['mcp-session-id'], sid);
      assert.equal(x.headers['mcp-protocol-version'], '2025-06-18');
    }
  });
}

test('a clean server: only the confirmed missing authentication', async () => {
  const r = await scan({ probe: true, mcp_config: { server_url: mcp.clean.url, auth_method: 'none' } });
  checkShape(r);
  assert.deepEqual(r.json.findings.map(f => [f.id, f.severity]), [['MCP-AUTH-001', 'HIGH'], ['MCP-AUTH-004', 'LOW']]);
  assert.equal(r.json.probe.session, false);
  assert.equal(r.json.probe.format, 'sse');
  assert.equal(r.json.probe.tools_listed, 2);
  assert.equal(r.json.probe.pages, 1);
  assert.equal(r.json.summary.tools, 2);
  assert.equal(r.json.summary.dangerous_tools, 0);
  assert.equal(r.json.probe.instructions, true);
  assert.equal(r.json.probe.prompts_listed, 1);
  assert.equal(r.json.probe.resources_listed, 1);
});

test('a server that requires a token: authentication enforced, the declared tools are scanned', async () => {
  const before = mcp.locked.stats.requests.length;
  const r = await scan({ probe: true, mcp_config: { server_url: mcp.locked.url, auth_method: 'bearer', tools: ['run_shell'] } });
  checkShape(r);
  const p = r.json.probe;
  assert.equal(p.reachable, true);
  assert.equal(p.auth_required, true);
  assert.equal(p.http_status, 401);
  assert.equal(p.tools_listed, null);
  assert.equal(p.tools_source, 'declared');
  assert.match(p.error, /authentication required \(HTTP 401\)/);
  assert.ok(!byId(r, 'MCP-AUTH-004'));
  assert.ok(!byId(r, 'MCP-PROBE-005'));
  assert.ok(byId(r, 'MCP-TOOL-001', 'run_shell'));
  const seen = mcp.locked.stats.requests.slice(before);
  assert.equal(seen.length, 1, 'stops after the refusal');
  assert.equal(seen[0].headers.authorization, undefined);
});

test('an HTTP server that does not speak MCP: MCP-PROBE-005', async () => {
  const r = await scan({ probe: true, mcp_config: { server_url: mcp.other.base + '/mcp', auth_method: 'oauth' } });
  checkShape(r);
  const f = byId(r, 'MCP-PROBE-005');
  assert.equal(f.severity, 'LOW');
  assert.equal(f.owasp_llm, null);
  assert.match(f.detail, /initialize: answered HTTP 404/);
  assert.equal(r.json.probe.reachable, true);
  assert.equal(r.json.probe.tools_source, 'declared');
});

test('nothing listening: MCP-PROBE-001 with the egress outcome', async () => {
  const port = await closedPort();
  const r = await scan({ probe: true, mcp_config: { server_url: `http://127.0.0.1:${port}/mcp`, auth_method: 'oauth' } });
  checkShape(r);
  const f = byId(r, 'MCP-PROBE-001');
  assert.equal(f.severity, 'LOW');
  assert.match(f.detail, /Egress outcome: connect/);
  assert.equal(r.json.probe.reachable, false);
  assert.equal(r.json.probe.outcome, 'connect');
});

test('the egress guard: without BULWARK_EGRESS_ALLOW a loopback server is blocked and never contacted', async () => {
  const target = await startMcpServer({ variant: 'poisoned' });
  try {
    const r = await scan({ probe: true, mcp_config: { server_url: target.url, auth_method: 'none', tools: ['add'] } },
      guarded, guardedUser);
    checkShape(r);
    const f = byId(r, 'MCP-PROBE-001');
    assert.ok(f, 'blocked is a finding, not an error');
    assert.match(f.detail, /Egress outcome: blocked/);
    assert.equal(r.json.probe.performed, true);
    assert.equal(r.json.probe.reachable, false);
    assert.equal(r.json.probe.outcome, 'blocked');
    assert.match(r.json.probe.error, /loopback/);
    assert.equal(r.json.summary.tools, 1, 'the declared tools are scanned');
    assert.equal(target.stats.connections, 0);
  } finally {
    await target.close();
  }
});

test('without probe the scan is static: the server is not contacted', async () => {
  const target = await startMcpServer({ variant: 'poisoned' });
  try {
    for (const probe of [undefined, false]) {
      const r = await scan({ probe, mcp_config: { server_url: target.url, tools: ['add'] } });
      checkShape(r);
      assert.deepEqual(r.json.probe, { performed: false });
      assert.equal(r.json.summary.tools, 1);
    }
    assert.equal(target.stats.connections, 0);
  } finally {
    await target.close();
  }
});

test('probe validation: a boolean; stdio and ws servers are not probed', async () => {
  for (const probe of ['yes', 1, {}, []]) {
    const r = await scan({ probe, mcp_config: { server_url: 'https://mcp.example.com' } });
    const e = assertError(assert, r, 400, 'VALIDATION_ERROR');
    assert.deepEqual(e.errors.map(x => x.field), ['probe']);
  }
  for (const server_url of ['stdio://npx -y @modelcontextprotocol/server-everything', 'wss://mcp.example.com/ws']) {
    const r = await scan({ probe: true, mcp_config: { server_url } });
    checkShape(r);
    assert.equal(r.json.probe.performed, false);
    assert.match(r.json.probe.error, /http or https/);
  }
});
