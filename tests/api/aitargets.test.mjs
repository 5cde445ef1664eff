// Real AI targets (issue 19): assets with a connection to each API flavour's stand-in
// (lib/llmapis.mjs: credentials required, unknown models refused with the real error bodies), a
// live scan and an engagement per flavour telling a vulnerable model from a hardened one; the
// secret is write-only and never seen again (responses, log lines, stored rows, /metrics, requests
// to any other host); LLM_API_NOT_REACHED says what was tried; static scores stay MEDIUM at best;
// PATCH; read-back lists with cursors; the README's Ollama example; sealing key checks and rekey.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { BIN, BACKEND, Server, startServer, assertError } from './lib/server.mjs';
import { startLlmApi, connectionFor, FLAVOURS } from './lib/llmapis.mjs';

const ENV = { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_JOB_LEASE_MS: '6000', BULWARK_JOB_POLL_MS: '100', BULWARK_WORKERS: '2' };
const RUN = randomBytes(6).toString('hex');
const secretOf = (flavour) => `bwS3cret-${RUN}-${flavour.replace('_', '')}`;
const SECRETS = FLAVOURS.map(secretOf);

let srv;
const apis = [];
const seen = []; // every response text, for the grep at the end
before(async () => { srv = await startServer({ env: ENV }); });
after(async () => {
  for (const a of apis) await a.close();
  if (srv) assert.equal(await srv.stop(), 0);
});

async function req(u, method, path, body) {
  const r = await srv.req(method, path, { key: u.key, body });
  seen.push(r.text);
  return r;
}
async function register(u, body, status = 201) {
  const r = await req(u, 'POST', '/api/ai-security/assets/register', { name: 'm', type: 'model', provider: 'self', ...body });
  assert.equal(r.status, status, r.text);
  return r.json;
}
const FINAL = new Set(['completed', 'failed', 'cancelled']);
async function engagement(u, asset) {
  const e = await req(u, 'POST', '/api/ai-security/redteam/engage', { target_asset_id: asset, intensity: 'light' });
  assert.equal(e.status, 202, e.text);
  for (const end = Date.now() + 90000; ;) {
    const r = await req(u, 'GET', `/api/ai-security/redteam/${e.json.engagement_id}/report`);
    if (FINAL.has(r.json.status)) return r.json;
    if (Date.now() > end) throw new Error('engagement did not finish: ' + r.text);
    await new Promise((res) => setTimeout(res, 150));
  }
}
async function start(flavour, variant) {
  const secret = secretOf(flavour);
  const api = await startLlmApi({ flavour, variant, secret: flavour === 'template' ? `svc:${secret}` : secret });
  apis.push(api);
  return { api, secret, ...connectionFor(flavour, api, secret) };
}
const ids = (scan) => scan.findings.map(f => f.id);

for (const flavour of FLAVOURS) {
  test(`${flavour}: register with a connection, live scan and engagement tell the vulnerable model from the hardened one`, async () => {
    const u = await srv.session('PRO', { key: true });
    const results = {};
    for (const variant of ['vulnerable', 'hardened']) {
      const t = await start(flavour, variant);
      const a = await register(u, { endpoint: t.endpoint, connection: t.connection });
      assert.equal(a.score_basis, 'static');
      assert.ok(a.security_score <= 79, 'a static score is never better than MEDIUM');
      assert.equal(a.connection.api, flavour);
      assert.equal(a.connection.auth.type, t.connection.auth.type);
      assert.equal(a.connection.auth.configured, true);
      assert.equal(a.connection.auth.secret, undefined, 'write-only');
      const scan = await req(u, 'POST', `/api/ai-security/assets/${a.asset_id}/scan`);
      assert.equal(scan.status, 200, scan.text);
      assert.equal(scan.json.llm_api, flavour, scan.text);
      assert.deepEqual(scan.json.owasp_llm_tested, ['LLM01', 'LLM02', 'LLM07', 'LLM10']);
      assert.ok(!ids(scan.json).includes('LLM_API_NOT_REACHED'));
      assert.ok(!ids(scan.json).includes('UNAUTHENTICATED_MODEL_ACCESS'), 'the stand-in enforces its credentials');
      const g = await req(u, 'GET', `/api/ai-security/assets/${a.asset_id}`);
      assert.equal(g.json.score_basis, 'live');
      assert.equal(g.json.security_score, scan.json.score);
      const report = await engagement(u, a.asset_id);
      assert.equal(report.status, 'completed', JSON.stringify(report));
      results[variant] = { scan: scan.json, report };
      // the stand-in saw the credential in the form its API takes, and only it
      assert.ok(t.api.requests.length > 5);
      const carried = t.api.requests.filter(q => JSON.stringify(q).includes(flavour === 'template'
        ? Buffer.from(`svc:${t.secret}`).toString('base64') : t.secret));
      assert.ok(carried.length > 0, 'the secret was sent to its own endpoint');
    }
    const v = results.vulnerable, h = results.hardened;
    for (const id of ['PROMPT_INJECTION', 'SYSTEM_PROMPT_LEAKAGE', 'SENSITIVE_INFORMATION_DISCLOSURE'])
      assert.ok(ids(v.scan).includes(id), `${flavour} vulnerable: ${id} in ${ids(v.scan)}`);
    for (const id of ['PROMPT_INJECTION', 'SYSTEM_PROMPT_LEAKAGE', 'SENSITIVE_INFORMATION_DISCLOSURE'])
      assert.ok(!ids(h.scan).includes(id), `${flavour} hardened: no ${id} in ${ids(h.scan)}`);
    assert.ok(v.scan.score < h.scan.score);
    assert.ok(['HIGH', 'CRITICAL'].includes(v.report.overall_risk), v.report.overall_risk);
    assert.equal(h.report.overall_risk, 'LOW');
    assert.ok(v.report.attacks_succeeded > 0);
    assert.equal(h.report.attacks_succeeded, 0);
  });
}

test('LLM_API_NOT_REACHED says what was tried and what each API answered; such a scan is at most MEDIUM', async () => {
  const u = await srv.session('PRO', { key: true });
  // the case: no connection, an Ollama (no credentials of its own) that has no model "default"
  const t = { api: await startLlmApi({ flavour: 'ollama', variant: 'hardened' }) };
  apis.push(t.api);
  t.endpoint = `${t.api.base}/v1`;
  const a = await register(u, { endpoint: t.endpoint });
  let r = await req(u, 'POST', `/api/ai-security/assets/${a.asset_id}/scan`);
  const nr = r.json.findings.find(f => f.id === 'LLM_API_NOT_REACHED');
  assert.ok(nr, r.text);
  assert.equal(nr.severity, 'MEDIUM');
  assert.match(nr.detail, /POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(openai, model default\) -> HTTP 404: model  default  not found, try pulling it first/);
  assert.match(nr.detail, /\(prompt\) -> HTTP 404/);
  assert.ok(r.json.score <= 79 && r.json.risk_level !== 'LOW', r.text);
  assert.deepEqual(r.json.owasp_llm_tested, []);
  // a connection naming a model the server does not have: Ollama's own error text comes back
  const b = await register(u, { endpoint: t.endpoint, connection: { api: 'ollama', model: 'llama9' } });
  r = await req(u, 'POST', `/api/ai-security/assets/${b.asset_id}/scan`);
  const d = r.json.findings.find(f => f.id === 'LLM_API_NOT_REACHED').detail;
  assert.match(d, /\/api\/chat \(ollama, model llama9\) -> HTTP 404: model  llama9  not found/);
  // a wrong key: the API's 401 is named
  const c = await register(u, { endpoint: `${(await start('anthropic', 'hardened')).api.base}`, connection: { api: 'anthropic', model: 'm1', auth: { type: 'header', name: 'x-api-key', secret: 'not-the-key-123' } } });
  r = await req(u, 'POST', `/api/ai-security/assets/${c.asset_id}/scan`);
  assert.match(r.json.findings.find(f => f.id === 'LLM_API_NOT_REACHED').detail, /HTTP 401: invalid x-api-key/);
  assert.ok(!r.text.includes('not-the-key-123'));
  // the red team says the same kind of thing
  const rep = await engagement(u, b.asset_id);
  assert.equal(rep.status, 'failed');
  assert.match(rep.error, /no chat API answered \(ollama, model llama9: HTTP 404/);
});

test('an API over its quota (429, or Ollama busy 503) is not reached: the scan and the red team say so', async () => {
  const u = await srv.session('PRO', { key: true });
  const said = { openai: /HTTP 429: Rate limit reached for m1/, openai_responses: /HTTP 429: Rate limit reached/,
    anthropic: /HTTP 429: Number of request tokens has exceeded your per-minute rate limit/,
    ollama: /HTTP 503: server busy, please try again/, azure_openai: /HTTP 429: Requests to the ChatCompletions_Create/,
    gemini: /HTTP 429: Resource has been exhausted/, template: /HTTP 429: too many requests/, prompt: /HTTP 429: rate limit exceeded/ };
  for (const flavour of FLAVOURS) {
    const secret = secretOf(flavour);
    const api = await startLlmApi({ flavour, variant: 'vulnerable', rateLimited: true, secret: flavour === 'template' ? `svc:${secret}` : secret });
    apis.push(api);
    const c = connectionFor(flavour, api, secret);
    const a = await register(u, { endpoint: c.endpoint, connection: c.connection });
    const r = await req(u, 'POST', `/api/ai-security/assets/${a.asset_id}/scan`);
    assert.equal(r.status, 200, r.text);
    const nr = r.json.findings.find(f => f.id === 'LLM_API_NOT_REACHED');
    assert.ok(nr, `${flavour}: ${r.text}`);
    assert.match(nr.detail, said[flavour]);
    assert.deepEqual(r.json.owasp_llm_tested, [], flavour);
    assert.ok(r.json.score <= 79 && r.json.risk_level !== 'LOW', r.text);
    const carried = flavour === 'template' ? Buffer.from(`svc:${secret}`).toString('base64') : secret;
    assert.ok(api.requests.some(q => JSON.stringify(q).includes(carried)), 'asked with the credential: the 429 is past the auth check');
    if (flavour === 'openai') { // the red team: a failed engagement naming the answer, not a clean bill of health
      const rep = await engagement(u, a.asset_id);
      assert.equal(rep.status, 'failed', JSON.stringify(rep));
      assert.match(rep.error, /HTTP 429/);
    }
  }
});

test('a credential is never sent over TLS whose certificate does not verify', async () => {
  const u = await srv.session('PRO', { key: true });
  const secret = `tls-${RUN}-secret`;
  SECRETS.push(secret);
  const api = await startLlmApi({ flavour: 'openai', variant: 'vulnerable', secret, tls: true });
  apis.push(api);
  const c = connectionFor('openai', api, secret);
  assert.match(c.endpoint, /^https:/);
  const a = await register(u, { endpoint: c.endpoint, connection: c.connection });
  const r = await req(u, 'POST', `/api/ai-security/assets/${a.asset_id}/scan`);
  assert.equal(r.status, 200, r.text);
  assert.ok(ids(r.json).includes('TLS_CERTIFICATE_INVALID'), r.text);
  assert.match(r.json.findings.find(f => f.id === 'LLM_API_NOT_REACHED').detail, /bearer auth\) -> tls: .*self.signed/i);
  const rep = await engagement(u, a.asset_id);
  assert.equal(rep.status, 'failed', JSON.stringify(rep));
  assert.match(rep.error, /unreachable \(tls/);
  // the handshake stopped every credentialed exchange before any HTTP: the stand-in saw no secret
  assert.ok(!JSON.stringify(api.requests).includes(secret), JSON.stringify(api.requests.map(q => [q.method, q.url])));
});

test('a scan the egress policy stopped is incomplete and changes no score', async () => {
  const guarded = await startServer(); // loopback refused
  try {
    const u = await guarded.session('PRO', { key: true });
    const t = await start('openai', 'vulnerable');
    const a = await guarded.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'g', type: 'model', endpoint: t.endpoint, connection: t.connection } });
    const s = await guarded.req('POST', `/api/ai-security/assets/${a.json.asset_id}/scan`, { key: u.key });
    assert.equal(s.status, 200);
    assert.equal(s.json.status, 'incomplete');
    assert.equal(s.json.stopped_by, 'egress_policy');
    assert.equal(s.json.asset_score_changed, false);
    const g = await guarded.req('GET', `/api/ai-security/assets/${a.json.asset_id}`, { key: u.key });
    assert.equal(g.json.security_score, a.json.security_score);
    assert.equal(g.json.score_basis, 'static');
    assert.equal(g.json.last_scan_id, null);
    assert.equal(t.api.requests.length, 0);
    // it is kept and read back
    const l = await guarded.req('GET', `/api/ai-security/assets/${a.json.asset_id}/scans`, { key: u.key });
    assert.equal(l.json.total, 1);
    assert.equal(l.json.scans[0].status, 'incomplete');
  } finally {
    assert.equal(await guarded.stop(), 0);
  }
});

test('the connection is validated member by member; PATCH changes it and keeps the secret only for its host', async () => {
  const u = await srv.session('STARTER', { key: true });
  const bad = await req(u, 'POST', '/api/ai-security/assets/register', { name: 'x', type: 'model', endpoint: 'https://h.example/gen',
    connection: { model: 'm', auth: { type: 'header', secret: 's' }, headers: { Host: 'evil', 'X-Ok': 'v' } } });
  assert.deepEqual(assertError(assert, bad, 400, 'VALIDATION_ERROR').errors.map(e => e.field).sort(),
    ['connection.api', 'connection.auth.name', 'connection.headers.Host']);
  const t = await start('openai', 'hardened');
  const a = await register(u, { endpoint: t.endpoint, connection: t.connection });
  // a new model, the same auth type: the stored secret stays
  let r = await req(u, 'PATCH', `/api/ai-security/assets/${a.asset_id}`, { connection: { api: 'openai', model: 'm2', auth: { type: 'bearer' } } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.connection.model, 'm2');
  assert.equal(r.json.connection.auth.configured, true);
  // another auth type needs its secret
  r = await req(u, 'PATCH', `/api/ai-security/assets/${a.asset_id}`, { connection: { api: 'openai', model: 'm2', auth: { type: 'header', name: 'x-key' } } });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['connection.auth.secret']);
  // the endpoint moving to another host: the secret does not follow
  r = await req(u, 'PATCH', `/api/ai-security/assets/${a.asset_id}`, { endpoint: 'https://elsewhere.example/v1' });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['connection.auth.secret']);
  r = await req(u, 'PATCH', `/api/ai-security/assets/${a.asset_id}`, { type: 'agent' });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['type']);
  r = await req(u, 'PATCH', `/api/ai-security/assets/${a.asset_id}`, { name: 'renamed', connection: null });
  assert.equal(r.status, 200);
  assert.equal(r.json.connection, null);
  assert.equal(r.json.name, 'renamed');
  const other = await srv.session('STARTER', { key: true });
  r = await srv.req('PATCH', `/api/ai-security/assets/${a.asset_id}`, { key: other.key, body: { name: 'mine' } });
  assertError(assert, r, 404, 'NOT_FOUND');
});

test('a redirect to another host never carries the credential', async () => {
  const u = await srv.session('PRO', { key: true });
  const sink = { got: [] };
  const sinkSrv = http.createServer((q, s) => { sink.got.push({ url: q.url, headers: q.headers }); s.end('{}'); });
  await new Promise((r) => sinkSrv.listen(0, '127.0.0.1', r));
  const to = `http://localhost:${sinkSrv.address().port}`; // another origin
  const redir = http.createServer((q, s) => { s.writeHead(307, { location: to + q.url }); s.end(); });
  await new Promise((r) => redir.listen(0, '127.0.0.1', r));
  try {
    const secret = `redir-${RUN}-secret`;
    const a = await register(u, { endpoint: `http://127.0.0.1:${redir.address().port}/v1`,
      connection: { api: 'openai', model: 'm', auth: { type: 'header', name: 'x-api-key', secret } } });
    const r = await req(u, 'POST', `/api/ai-security/assets/${a.asset_id}/scan`);
    assert.equal(r.status, 200);
    assert.ok(ids(r.json).includes('LLM_API_NOT_REACHED'));
    assert.ok(!JSON.stringify(sink.got).includes(secret), 'the other host never saw the secret');
    SECRETS.push(secret);
  } finally {
    for (const x of [redir, sinkSrv]) await new Promise((r) => { x.closeAllConnections(); x.close(r); });
  }
});

test('read back: scans, engagements and assessments, newest first, paged by cursor, other accounts invisible', async () => {
  const u = await srv.session('PRO', { key: true });
  const t = await start('openai', 'hardened');
  const a = await register(u, { endpoint: t.endpoint, connection: t.connection });
  const scanIds = [];
  for (let i = 0; i < 3; i++) scanIds.push((await req(u, 'POST', `/api/ai-security/assets/${a.asset_id}/scan`)).json.scan_id);
  let r = await req(u, 'GET', `/api/ai-security/assets/${a.asset_id}/scans?limit=2`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.total, 3);
  assert.deepEqual(r.json.scans.map(s => s.scan_id), [scanIds[2], scanIds[1]]);
  assert.equal(typeof r.json.next_cursor, 'string');
  r = await req(u, 'GET', `/api/ai-security/assets/${a.asset_id}/scans?limit=2&cursor=${r.json.next_cursor}`);
  assert.deepEqual(r.json.scans.map(s => s.scan_id), [scanIds[0]]);
  assert.equal(r.json.next_cursor, null);
  r = await req(u, 'GET', `/api/ai-security/assets/${a.asset_id}/scans/${scanIds[0]}`);
  assert.equal(r.json.scan_id, scanIds[0]);
  assert.equal(r.json.llm_api, 'openai');
  r = await req(u, 'GET', `/api/ai-security/assets/${a.asset_id}/scans?cursor=garbage`);
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  const other = await srv.session('PRO', { key: true });
  assertError(assert, await srv.req('GET', `/api/ai-security/assets/${a.asset_id}/scans`, { key: other.key }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', `/api/ai-security/assets/${a.asset_id}/scans/${scanIds[0]}`, { key: other.key }), 404, 'NOT_FOUND');
  // engagements, filtered by status and asset
  const e1 = await engagement(u, a.asset_id);
  const b = await register(u, { endpoint: 'http://127.0.0.1:9/v1', connection: { api: 'openai', model: 'm' } });
  const e2 = await engagement(u, b.asset_id);
  assert.equal(e2.status, 'failed');
  r = await req(u, 'GET', '/api/ai-security/redteam/engagements');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.total, 2);
  assert.deepEqual(r.json.engagements.map(e => e.engagement_id), [e2.engagement_id, e1.engagement_id]);
  r = await req(u, 'GET', '/api/ai-security/redteam/engagements?status=completed');
  assert.deepEqual(r.json.engagements.map(e => e.engagement_id), [e1.engagement_id]);
  r = await req(u, 'GET', `/api/ai-security/redteam/engagements?asset_id=${b.asset_id}&limit=1`);
  assert.deepEqual(r.json.engagements.map(e => [e.engagement_id, e.status]), [[e2.engagement_id, 'failed']]);
  assert.equal(r.json.next_cursor, null);
  r = await req(u, 'GET', '/api/ai-security/redteam/engagements?limit=1');
  const next = r.json.next_cursor;
  r = await req(u, 'GET', `/api/ai-security/redteam/engagements?limit=1&cursor=${next}`);
  assert.deepEqual(r.json.engagements.map(e => e.engagement_id), [e1.engagement_id]);
  r = await req(u, 'GET', `/api/ai-security/redteam/engagements?status=completed&cursor=${next}`);
  assertError(assert, r, 400, 'VALIDATION_ERROR'); // issued for other filters
  assertError(assert, await req(u, 'GET', '/api/ai-security/redteam/engagements?status=done'), 400, 'VALIDATION_ERROR');
  r = await srv.req('GET', '/api/ai-security/redteam/engagements', { key: other.key });
  assert.equal(r.json.total, 0);
  // assessments
  const made = [];
  for (const fw of ['nist-ai-rmf', 'eu-ai-act']) {
    const x = await req(u, 'POST', '/api/ai-security/governance/assess', { framework_id: fw, ai_use_cases: ['support chatbot'] });
    assert.equal(x.status, 201, x.text.slice(0, 200));
    made.push(x.json.assessment_id);
    await new Promise((res) => setTimeout(res, 1100)); // a second apart: created_at has seconds
  }
  r = await req(u, 'GET', '/api/ai-security/governance/assessments?limit=1');
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.total, 2);
  assert.deepEqual(r.json.assessments.map(x => x.assessment_id), [made[1]]);
  r = await req(u, 'GET', `/api/ai-security/governance/assessments?limit=1&cursor=${r.json.next_cursor}`);
  assert.deepEqual(r.json.assessments.map(x => x.assessment_id), [made[0]]);
  r = await srv.req('GET', '/api/ai-security/governance/assessments', { key: other.key });
  assert.equal(r.json.total, 0);
});

test("the README's Ollama example works as written against a local stand-in", async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const m = readme.match(/-d '(\{"name":"local llm"[^']*)'/);
  assert.ok(m, 'the example is in the README');
  const body = JSON.parse(m[1]);
  assert.equal(body.endpoint, 'http://127.0.0.1:11434/v1');
  // Ollama's port when it is free here; otherwise the same stand-in on another port
  const api = await startLlmApi({ flavour: 'ollama', variant: 'vulnerable', model: body.connection.model });
  apis.push(api);
  const u = await srv.session('PRO', { key: true });
  const a = await register(u, { ...body, endpoint: `${api.base}/v1` });
  const s = await req(u, 'POST', `/api/ai-security/assets/${a.asset_id}/scan`);
  assert.equal(s.json.llm_api, 'ollama', s.text);
  assert.ok(ids(s.json).includes('PROMPT_INJECTION'));
  const parse = (t) => { try { return JSON.parse(t); } catch { return {}; } }; // the scan also sends malformed JSON
  assert.ok(api.requests.some(q => q.url === '/api/chat' && parse(q.body).model === 'llama3.2' && parse(q.body).stream === false));
});

test('the secrets never appear in a response, a log line, a stored row or /metrics', async () => {
  const adm = await srv.req('GET', '/metrics', { headers: { 'X-API-Key': srv.adminKey } });
  seen.push(adm.text);
  const haystacks = [['responses', seen.join('\n')], ['log', srv.logs.map(l => l.raw).join('\n')]];
  if (BACKEND === 'sqlite') {
    for (const f of readdirSync(srv.dir).filter(f => f.startsWith('bulwark.db')))
      haystacks.push([f, readFileSync(join(srv.dir, f)).toString('latin1')]);
  } else {
    const dump = spawnSync('pg_dump', ['-h', process.env.BULWARK_TEST_PG_HOST || '127.0.0.1', '-p', process.env.BULWARK_TEST_PG_PORT || '5432',
      '-U', 'postgres', '--data-only', srv.database], { encoding: 'latin1', maxBuffer: 256 << 20 });
    assert.equal(dump.status, 0, dump.stderr);
    haystacks.push(['pg_dump', dump.stdout]);
  }
  for (const s of SECRETS)
    for (const [where, text] of haystacks) {
      assert.ok(!text.includes(s), `${s} found in ${where}`);
    }
  // the sealed column is there, and sealed
  assert.ok(haystacks.some(([, t]) => /v1\.[A-Za-z0-9_-]{40,}/.test(t)), 'sealed values are stored');
});

test('sealing key: a server with another key refuses to serve; secrets rekey re-seals and the scan still authenticates', async () => {
  const key = randomBytes(32).toString('hex');
  const s1 = new Server({ env: { ...ENV, BULWARK_SECRET_KEY: key, BULWARK_WORKERS: '0' } });
  await s1.start();
  const u = await s1.session('PRO', { key: true });
  const t = await start('anthropic', 'hardened');
  const a = await s1.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'k', type: 'model', endpoint: t.endpoint, connection: t.connection } });
  assert.equal(a.status, 201);
  assert.equal(await s1.stop({ keepData: true }), 0);
  const env = { ...process.env, ...s1.env() };
  // another key: refused at start, naming the reason
  const wrong = spawnSync(BIN, ['serve'], { env: { ...env, BULWARK_SECRET_KEY: randomBytes(32).toString('hex') }, encoding: 'utf8', timeout: 20000 });
  assert.notEqual(wrong.status, 0);
  assert.match(wrong.stderr + wrong.stdout, /not the key this database's secrets are sealed with/);
  // rekey: needs the new key when the old one comes from the environment
  let rk = spawnSync(BIN, ['secrets', 'rekey'], { env, encoding: 'utf8' });
  assert.equal(rk.status, 2, rk.stderr);
  const fresh = randomBytes(32).toString('base64');
  rk = spawnSync(BIN, ['secrets', 'rekey'], { env: { ...env, BULWARK_NEW_SECRET_KEY: fresh }, encoding: 'utf8' });
  assert.equal(rk.status, 0, rk.stderr);
  assert.deepEqual(JSON.parse(rk.stdout), { rekeyed: true, secrets: 1, key: 'environment' });
  // the old key is refused now, the new one opens the secret
  const old = spawnSync(BIN, ['serve'], { env, encoding: 'utf8', timeout: 20000 });
  assert.notEqual(old.status, 0);
  const s2 = new Server({ dir: s1.dir, database: s1.database, adminKey: s1.adminKey, env: { ...ENV, BULWARK_SECRET_KEY: fresh, BULWARK_WORKERS: '0' } });
  await s2.start();
  s2.ownsDir = true; // s1's directory goes with s2
  try {
    const u2 = await s2.session('PRO', { key: true });
    const a2 = await s2.req('POST', '/api/ai-security/assets/register', { key: u2.key, body: { name: 'k2', type: 'model', endpoint: t.endpoint, connection: t.connection } });
    const sc = await s2.req('POST', `/api/ai-security/assets/${a2.json.asset_id}/scan`, { key: u2.key });
    assert.equal(sc.json.llm_api, 'anthropic', sc.text);
  } finally {
    assert.equal(await s2.stop(), 0);
  }
});

test('the key file: created 0600 in the data directory, rekey replaces it', async () => {
  if (BACKEND !== 'sqlite') return; // one instance on its own data directory
  const s = new Server({ env: { BULWARK_WORKERS: '0' } });
  await s.start();
  assert.equal(await s.stop({ keepData: true }), 0);
  const path = join(s.dir, 'secret.key');
  assert.ok(existsSync(path));
  const { statSync } = await import('node:fs');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  const before = readFileSync(path, 'utf8');
  const env = { ...process.env, ...s.env() };
  delete env.BULWARK_SECRET_KEY;
  const rk = spawnSync(BIN, ['secrets', 'rekey'], { env, encoding: 'utf8' });
  assert.equal(rk.status, 0, rk.stderr);
  assert.equal(JSON.parse(rk.stdout).key, 'file');
  assert.notEqual(readFileSync(path, 'utf8'), before);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.ok(!existsSync(path + '.new'));
  await s.start();
  assert.equal(await s.stop(), 0);
});
