// Live posture scans against local targets: a careless chat endpoint, a careful one, a locked one,
// a self-signed HTTPS one, a closed port; the egress guard (a blocked target is never contacted);
// get/delete of assets and isolation between accounts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertError } from './lib/server.mjs';
import { startTarget, closedPort, CARELESS_SECRET } from './lib/targets.mjs';

let srv, guarded;
const targets = {};
before(async () => {
  srv = await startServer({ env: { BULWARK_EGRESS_ALLOW: 'loopback' } });
  guarded = await startServer(); // default egress policy: loopback refused
  targets.careless = await startTarget({ mode: 'careless' });
  targets.careful = await startTarget({ mode: 'careful' });
  targets.locked = await startTarget({ mode: 'locked' });
  targets.prompt = await startTarget({ mode: 'careless', api: 'prompt' });
  targets.tls = await startTarget({ mode: 'careful', tls: true });
});
after(async () => {
  for (const t of Object.values(targets)) await t.close();
  if (srv) assert.equal(await srv.stop(), 0);
  if (guarded) assert.equal(await guarded.stop(), 0);
});

async function register(s, u, endpoint, type = 'model') {
  const r = await s.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'a', type, provider: 'self', endpoint, env: 'staging' } });
  assert.equal(r.status, 201, r.text);
  return r.json;
}
const scan = (s, u, id) => s.req('POST', `/api/ai-security/assets/${id}/scan`, { key: u.key });
const ids = (r) => r.json.findings.map(f => f.id);

test('a careless chat endpoint: injection, prompt leakage, credential disclosure, unbounded requests, and the transport findings', async () => {
  const u = await srv.session('PRO', { key: true });
  const a = await register(srv, u, targets.careless.url);
  const r = await scan(srv, u, a.asset_id);
  assert.equal(r.status, 200, r.text);
  assert.match(r.json.scan_id, /^scn_[A-Za-z0-9]+$/);
  assert.equal(r.json.asset_id, a.asset_id);
  assert.equal(r.json.llm_api, 'openai');
  for (const id of ['PROMPT_INJECTION', 'SYSTEM_PROMPT_LEAKAGE', 'SENSITIVE_INFORMATION_DISCLOSURE', 'UNBOUNDED_CONSUMPTION',
    'UNAUTHENTICATED_MODEL_ACCESS', 'VERBOSE_ERRORS', 'PERMISSIVE_CORS', 'SERVER_BANNER', 'MODEL_DISCLOSURE', 'PLAINTEXT_TRANSPORT'])
    assert.ok(ids(r).includes(id), `${id} in ${ids(r)}`);
  for (const h of ['LLM01', 'LLM02', 'LLM07', 'LLM10']) assert.ok(r.json.owasp_llm_hits.includes(h), h);
  assert.deepEqual(r.json.owasp_llm_tested, ['LLM01', 'LLM02', 'LLM07', 'LLM10']);
  assert.deepEqual(r.json.owasp_llm_hits, [...new Set(r.json.owasp_llm_hits)].sort());
  const byId = Object.fromEntries(r.json.findings.map(f => [f.id, f]));
  assert.equal(byId.PROMPT_INJECTION.owasp_llm, 'LLM01');
  assert.equal(byId.SYSTEM_PROMPT_LEAKAGE.owasp_llm, 'LLM07');
  assert.equal(byId.SENSITIVE_INFORMATION_DISCLOSURE.severity, 'CRITICAL');
  assert.equal(byId.PERMISSIVE_CORS.severity, 'HIGH', 'reflected origin with credentials');
  for (const f of r.json.findings) {
    for (const k of ['id', 'severity', 'title', 'detail', 'remediation']) assert.equal(typeof f[k], 'string', k);
    assert.ok(f.owasp_llm === null || /^LLM(0[1-9]|10)$/.test(f.owasp_llm));
  }
  // the leaked key is never reproduced
  assert.ok(!r.text.includes(CARELESS_SECRET.slice(8)), 'the secret is not echoed');
  // worst first
  const rank = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1 };
  const sev = r.json.findings.map(f => rank[f.severity]);
  assert.deepEqual(sev, [...sev].sort((x, y) => y - x));
  assert.equal(r.json.score, 0);
  assert.equal(r.json.risk_level, 'CRITICAL');
  // the asset took the scan's score
  const g = await srv.req('GET', `/api/ai-security/assets/${a.asset_id}`, { key: u.key });
  assert.equal(g.status, 200);
  assert.equal(g.json.security_score, r.json.score);
  assert.equal(g.json.risk_level, 'CRITICAL');
  assert.equal(g.json.last_scan_id, r.json.scan_id);
  assert.equal(g.json.last_scanned_at, r.json.scanned_at);
});

test('secrets in the endpoint URL never reach a finding: userinfo dropped, secret query values REDACTED; a query does not stop the LLM probes', async () => {
  const u = await srv.session('PRO', { key: true });
  const SECRET = 'sk-SuperSecretValue123';
  const base = targets.careless.base;
  for (const endpoint of [`${base}/v1?token=${SECRET}`, `${base}/v1/chat/completions?api-version=2&API_KEY=${SECRET}#frag`]) {
    const a = await register(srv, u, endpoint);
    const r = await scan(srv, u, a.asset_id);
    assert.equal(r.status, 200, r.text);
    assert.ok(!r.text.includes('SuperSecretValue'), 'the secret is not echoed: ' + r.text);
    assert.equal(r.json.llm_api, 'openai', endpoint);
    for (const id of ['UNAUTHENTICATED_MODEL_ACCESS', 'PLAINTEXT_TRANSPORT', 'PROMPT_INJECTION']) assert.ok(ids(r).includes(id), `${id} in ${ids(r)}`);
    const byId = Object.fromEntries(r.json.findings.map(f => [f.id, f]));
    assert.match(byId.UNAUTHENTICATED_MODEL_ACCESS.detail, /\/v1\/chat\/completions\?[^ ]*=REDACTED/);
    assert.match(byId.PLAINTEXT_TRANSPORT.detail, /=REDACTED/);
    // what is not a credential stays, the fragment (never sent) goes
    if (endpoint.includes('api-version')) {
      assert.match(byId.UNAUTHENTICATED_MODEL_ACCESS.detail, /\?api-version=2&API_KEY=REDACTED/);
      assert.doesNotMatch(r.text, /#frag/);
    }
    // the stored scan is the same document
    const g = await srv.req('GET', `/api/ai-security/assets/${a.asset_id}`, { key: u.key });
    assert.ok(!JSON.stringify(g.json?.last_scan ?? {}).includes('SuperSecretValue'));
  }
});

test('a careful chat endpoint: none of the model-behaviour findings', async () => {
  const u = await srv.session('PRO', { key: true });
  const a = await register(srv, u, targets.careful.url);
  const r = await scan(srv, u, a.asset_id);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.llm_api, 'openai');
  for (const id of ['PROMPT_INJECTION', 'SYSTEM_PROMPT_LEAKAGE', 'SENSITIVE_INFORMATION_DISCLOSURE', 'UNBOUNDED_CONSUMPTION',
    'VERBOSE_ERRORS', 'PERMISSIVE_CORS', 'SERVER_BANNER', 'MODEL_DISCLOSURE'])
    assert.ok(!ids(r).includes(id), `${id} not in ${ids(r)}`);
  assert.ok(ids(r).includes('UNAUTHENTICATED_MODEL_ACCESS'), 'it still answers without credentials');
  assert.ok(!r.json.owasp_llm_hits.includes('LLM01') && !r.json.owasp_llm_hits.includes('LLM07'));
});

test('a locked endpoint: authentication enforced, so no model probes and no access finding', async () => {
  const u = await srv.session('PRO', { key: true });
  const a = await register(srv, u, targets.locked.url);
  const r = await scan(srv, u, a.asset_id);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.llm_api, 'auth_required');
  assert.deepEqual(r.json.owasp_llm_tested, []);
  assert.ok(!ids(r).includes('UNAUTHENTICATED_MODEL_ACCESS'));
  assert.ok(!ids(r).includes('PROMPT_INJECTION'));
});

test('a {prompt} JSON API is probed too', async () => {
  const u = await srv.session('ENTERPRISE', { key: true });
  const a = await register(srv, u, targets.prompt.url, 'agent');
  const r = await scan(srv, u, a.asset_id);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.llm_api, 'prompt');
  assert.ok(ids(r).includes('PROMPT_INJECTION'), ids(r).join());
  assert.ok(ids(r).includes('SYSTEM_PROMPT_LEAKAGE'));
});

test('a self-signed certificate is a finding, and the scan still looks past it', async () => {
  const u = await srv.session('PRO', { key: true });
  const a = await register(srv, u, targets.tls.url);
  const r = await scan(srv, u, a.asset_id);
  assert.equal(r.status, 200, r.text);
  const f = r.json.findings.find(x => x.id === 'TLS_CERTIFICATE_INVALID');
  assert.ok(f, ids(r).join());
  assert.equal(f.severity, 'HIGH');
  assert.ok(ids(r).includes('MISSING_HSTS'));
  assert.ok(!ids(r).includes('PLAINTEXT_TRANSPORT'));
  assert.equal(r.json.llm_api, 'openai');
});

test('an unreachable endpoint is a finding, not an error', async () => {
  const u = await srv.session('PRO', { key: true });
  const a = await register(srv, u, `http://127.0.0.1:${await closedPort()}/v1`);
  const r = await scan(srv, u, a.asset_id);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(ids(r), ['ENDPOINT_UNREACHABLE']);
  assert.equal(r.json.findings[0].owasp_llm, null);
});

test('a target the egress policy refuses is never contacted', async () => {
  const u = await guarded.session('PRO', { key: true });
  const before = targets.careless.stats.connections;
  for (const ep of [targets.careless.url, targets.careless.url.replace('127.0.0.1', 'localhost'),
    targets.careless.url.replace('127.0.0.1', '2130706433'), targets.careless.url.replace('127.0.0.1', '0x7f.1'),
    targets.careless.url.replace('127.0.0.1', '[::ffff:127.0.0.1]')]) {
    const a = await register(guarded, u, ep);
    const r = await scan(guarded, u, a.asset_id);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(ids(r), ['ENDPOINT_BLOCKED'], ep);
    assert.match(r.json.findings[0].detail, /loopback/i);
  }
  assert.equal(targets.careless.stats.connections, before, 'no connection reached the target');
});

test('scan needs PRO; get and delete need STARTER; other accounts and deleted assets are 404', async () => {
  const s = await srv.session('STARTER', { key: true });
  const a = await register(srv, s, 'https://model.example/v1');
  assertError(assert, await scan(srv, s, a.asset_id), 403, 'TIER_REQUIRED');
  const g = await srv.req('GET', `/api/ai-security/assets/${a.asset_id}`, { key: s.key });
  assert.equal(g.status, 200);
  assert.equal(g.json.last_scan_id, null);
  const other = await srv.session('PRO', { key: true });
  assertError(assert, await srv.req('GET', `/api/ai-security/assets/${a.asset_id}`, { key: other.key }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('DELETE', `/api/ai-security/assets/${a.asset_id}`, { key: other.key }), 404, 'NOT_FOUND');
  assertError(assert, await scan(srv, other, a.asset_id), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', '/api/ai-security/assets/not-an-id', { key: s.key }), 404, 'NOT_FOUND');
  const d = await srv.req('DELETE', `/api/ai-security/assets/${a.asset_id}`, { key: s.key });
  assert.equal(d.status, 200);
  assert.deepEqual(d.json, { success: true, asset_id: a.asset_id, deleted: true, engagements_cancelled: 0 });
  assertError(assert, await srv.req('GET', `/api/ai-security/assets/${a.asset_id}`, { key: s.key }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('DELETE', `/api/ai-security/assets/${a.asset_id}`, { key: s.key }), 404, 'NOT_FOUND');
  const l = await srv.req('GET', '/api/ai-security/assets', { key: s.key });
  assert.ok(!l.json.assets.some(x => x.asset_id === a.asset_id));
});
