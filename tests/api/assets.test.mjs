// The AI asset register: registration with a static score, listing with filters and `limit`
// rules, tier gating and isolation between accounts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertError } from './lib/server.mjs';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

const reg = (u, body) => srv.req('POST', '/api/ai-security/assets/register', { key: u.key, body });

test('register returns the whole asset with a score and level; env defaults to production', async () => {
  const u = await srv.session('STARTER', { key: true });
  const r = await reg(u, { name: 'support bot', type: 'model', provider: 'openai', endpoint: 'https://api.example.com/v1' });
  assert.equal(r.status, 201, r.text);
  assert.match(r.json.asset_id, /^ast_[A-Za-z0-9]+$/);
  assert.equal(r.json.env, 'production');
  // an estimate made without contacting the endpoint is never better than MEDIUM (issue 19)
  assert.equal(r.json.security_score, 79);
  assert.equal(r.json.risk_level, 'MEDIUM');
  assert.equal(r.json.score_basis, 'static');
  assert.equal(r.json.connection, null);
  assert.match(r.json.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // plain http to a public host in production, credentials and a token in the URL, an agent
  const bad = await reg(u, { name: 'x', type: 'agent', endpoint: 'http://user:pw@203.0.113.7/run?token=abc', env: 'production' });
  assert.equal(bad.status, 201);
  assert.equal(bad.json.security_score, 0);
  assert.equal(bad.json.risk_level, 'CRITICAL');
  const mid = await reg(u, { name: 'local', type: 'rag', provider: 'self', endpoint: 'http://localhost:8000/query' });
  assert.equal(mid.json.security_score, 79, 'a formula score of 90 reads 79');
  const pipe = await reg(u, { name: 'etl', type: 'pipeline', provider: 'self', endpoint: 'https://etl.internal.example/run' });
  assert.equal(pipe.status, 201, 'pipeline is a valid type');
});

test('registration is validated field by field', async () => {
  const u = await srv.session('STARTER', { key: true });
  let r = await reg(u, {});
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field).sort(), ['endpoint', 'name', 'type']);
  r = await reg(u, { name: 'a', type: 'robot', endpoint: 'ftp://x' });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field).sort(), ['endpoint', 'type']);
  r = await reg(u, { name: 'n'.repeat(129), type: 'model', endpoint: 'https://a.example' });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['name']);
  r = await reg(u, { name: 'a', type: 'model', endpoint: 'https://a.example/' + 'p'.repeat(2050) });
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  for (const name of ['', '   ', '\t\n']) {
    r = await reg(u, { name, type: 'model', endpoint: 'https://a.example' });
    assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['name'], JSON.stringify(name));
  }
});

test('the endpoint host is judged as the egress guard judges it; a URL it would not read is refused', async () => {
  const u = await srv.session('STARTER', { key: true });
  // every spelling of loopback is this machine (plain http to it costs 10), an internal address is
  // no bare public IP, any other IP literal costs 10 (IPv6 too); a token in the query (25) keeps
  // each formula score under the static ceiling of 79, so the differences show
  for (const [endpoint, score] of [['http://2130706433:8000/query', 65], ['http://[::ffff:127.0.0.1]:8000/', 65],
    ['http://0x7f.1/', 65], ['http://app.localhost:3000/', 65], ['https://167772161/v1', 75],
    ['https://[2606:4700::1111]/v1', 65], ['https://169.254.169.254/', 65]]) {
    const r = await reg(u, { name: 'h', type: 'model', provider: 'self', endpoint: endpoint + '?token=t', env: 'production' });
    assert.equal(r.status, 201, endpoint + ' ' + r.text);
    assert.equal(r.json.security_score, score, endpoint);
  }
  for (const endpoint of ['https://b\u00fccher.example/', 'https://api.example.com:0/', 'https://a..example/',
    'https://[fe80::1%25eth0]/', 'https://256.0.0.1/', 'http:/api.example.com']) {
    const r = await reg(u, { name: 'h', type: 'model', endpoint });
    assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['endpoint'], endpoint);
  }
});

test('list: newest first, filters, total and limit; bad filters and limits are 400', async () => {
  const u = await srv.session('PRO', { key: true });
  const ids = [];
  for (let i = 0; i < 5; i++) {
    const r = await reg(u, { name: 'm' + i, type: i % 2 ? 'agent' : 'model', provider: 'p', endpoint: `https://m${i}.example` });
    ids.push(r.json.asset_id);
  }
  let r = await srv.req('GET', '/api/ai-security/assets', { key: u.key });
  assert.equal(r.status, 200);
  assert.equal(r.json.total, 5);
  assert.equal(r.json.limit, 20);
  assert.deepEqual(r.json.assets.map(a => a.asset_id), [...ids].reverse());
  r = await srv.req('GET', '/api/ai-security/assets?limit=2', { key: u.key });
  assert.equal(r.json.assets.length, 2);
  assert.equal(r.json.total, 5);
  assert.equal(r.json.limit, 2);
  assert.equal(r.json.offset, 0);
  // offset pages through the rest, newest first
  const paged = [];
  for (let off = 0; off < 6; off += 2) {
    r = await srv.req('GET', `/api/ai-security/assets?limit=2&offset=${off}`, { key: u.key });
    assert.equal(r.json.offset, off);
    assert.equal(r.json.total, 5);
    paged.push(...r.json.assets.map(a => a.asset_id));
  }
  assert.deepEqual(paged, [...ids].reverse());
  r = await srv.req('GET', '/api/ai-security/assets?offset=5', { key: u.key });
  assert.deepEqual(r.json.assets, []);
  assert.equal(r.json.total, 5);
  r = await srv.req('GET', '/api/ai-security/assets?type=agent', { key: u.key });
  assert.equal(r.json.total, 2);
  assert.ok(r.json.assets.every(a => a.type === 'agent'));
  r = await srv.req('GET', '/api/ai-security/assets?risk=MEDIUM&type=model', { key: u.key });
  assert.equal(r.json.total, 3);
  r = await srv.req('GET', '/api/ai-security/assets?risk=LOW', { key: u.key });
  assert.equal(r.json.total, 0, 'nothing reads LOW before a live scan');
  r = await srv.req('GET', '/api/ai-security/assets?risk=CRITICAL', { key: u.key });
  assert.deepEqual(r.json.assets, []);
  for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=', 'limit=5.5', 'type=robot', 'risk=low', 'offset=-1', 'offset=x']) {
    r = await srv.req('GET', '/api/ai-security/assets?' + q, { key: u.key });
    assertError(assert, r, 400, 'VALIDATION_ERROR');
  }
});

test('tier gating and isolation between accounts', async () => {
  const free = await srv.session('FREE', { key: true });
  let r = await reg(free, { name: 'a', type: 'model', endpoint: 'https://a.example' });
  assertError(assert, r, 403, 'TIER_REQUIRED');
  r = await srv.req('GET', '/api/ai-security/assets');
  assertError(assert, r, 401, 'AUTH_REQUIRED');
  const a = await srv.session('STARTER', { key: true });
  const b = await srv.session('STARTER', { key: true });
  await reg(a, { name: 'mine', type: 'model', endpoint: 'https://a.example' });
  r = await srv.req('GET', '/api/ai-security/assets', { key: b.key });
  assert.equal(r.json.total, 0);
});
