// API keys: create, list, revoke, rotate; limits per tier; isolation between accounts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertError } from './lib/server.mjs';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

const KEY_RE = /^svc_[A-Za-z0-9]{38}$/;

test('create returns the key once with the contract fields', async () => {
  const u = await srv.session('STARTER');
  const r = await srv.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'ci runner' } });
  assert.equal(r.status, 201, r.text);
  const k = r.json;
  assert.equal(k.success, true);
  assert.match(k.key, KEY_RE);
  assert.equal(k.prefix, k.key.slice(0, 12));
  assert.equal(k.label, 'ci runner');
  assert.equal(k.tier, 'STARTER');
  assert.match(k.id, /^key_[A-Za-z0-9]+$/);
  assert.match(k.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.ok(k.warning.length > 0);

  const l = await srv.req('GET', '/api/developer/keys', { token: u.token });
  assert.equal(l.status, 200);
  assert.equal(l.json.count, 1);
  assert.equal(l.json.max_keys, 5);
  const item = l.json.keys[0];
  assert.deepEqual({ id: item.id, key_prefix: item.key_prefix, label: item.label, tier: item.tier, active: item.active },
    { id: k.id, key_prefix: k.prefix, label: 'ci runner', tier: 'STARTER', active: true });
  assert.equal(item.last_used_at ?? null, null);
  assert.ok(!l.text.includes(k.key), 'the full key is never listed');
});

test('the key authenticates and last_used_at is recorded', async () => {
  const u = await srv.session('STARTER', { key: true });
  const r = await srv.req('GET', '/api/ai-security/governance/frameworks', { key: u.key });
  assert.equal(r.status, 200);
  let used = null;
  for (let i = 0; i < 30 && !used; i++) {
    const l = await srv.req('GET', '/api/developer/keys', { token: u.token });
    used = l.json.keys[0].last_used_at;
    if (!used) await new Promise(res => setTimeout(res, 100));
  }
  assert.match(used, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('keys are managed only with a session: an API key there is 401', async () => {
  const u = await srv.session('PRO', { key: true });
  const r = await srv.req('GET', '/api/developer/keys', { key: u.key });
  assertError(assert, r, 401, 'AUTH_REQUIRED');
  const c = await srv.req('POST', '/api/developer/keys', { key: u.key, body: { label: 'x' } });
  assertError(assert, c, 401, 'AUTH_REQUIRED');
});

test('label is validated; a missing label gets a default', async () => {
  const u = await srv.session('PRO');
  let r = await srv.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'x'.repeat(65) } });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['label']);
  r = await srv.req('POST', '/api/developer/keys', { token: u.token, body: { label: 42 } });
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  r = await srv.req('POST', '/api/developer/keys', { token: u.token, body: {} });
  assert.equal(r.status, 201, r.text);
  assert.equal(typeof r.json.label, 'string');
});

test('FREE allows one active key; the 409 carries max_keys; revoking frees the slot', async () => {
  const u = await srv.session('FREE', { key: true });
  const r = await srv.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'second' } });
  const e = assertError(assert, r, 409, 'KEY_LIMIT_REACHED');
  assert.equal(e.max_keys, 1);
  const d = await srv.req('DELETE', `/api/developer/keys/${u.keyId}`, { token: u.token });
  assert.equal(d.status, 200);
  const again = await srv.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'second' } });
  assert.equal(again.status, 201);
});

test('concurrent creations never exceed the limit', async () => {
  const u = await srv.session('STARTER');
  const rs = await Promise.all(Array.from({ length: 12 }, (_, i) =>
    srv.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'k' + i } })));
  assert.equal(rs.filter(r => r.status === 201).length, 5);
  assert.equal(rs.filter(r => r.status === 409).length, 7);
});

test('revoke by id or prefix; the key stops working at once; revoking twice is idempotent', async () => {
  const u = await srv.session('PRO', { key: true });
  const prefix = u.key.slice(0, 12);
  assert.equal((await srv.req('GET', '/api/ai-security/governance/frameworks', { key: u.key })).status, 200);
  const d = await srv.req('DELETE', `/api/developer/keys/${prefix}`, { token: u.token });
  assert.equal(d.status, 200, d.text);
  assert.deepEqual(d.json, { success: true, id: u.keyId, key_prefix: prefix, active: false });
  assertError(assert, await srv.req('GET', '/api/ai-security/governance/frameworks', { key: u.key }), 401, 'AUTH_REQUIRED');
  const d2 = await srv.req('DELETE', `/api/developer/keys/${u.keyId}`, { token: u.token });
  assert.equal(d2.status, 200);
  const l = await srv.req('GET', '/api/developer/keys', { token: u.token });
  assert.equal(l.json.keys.find(k => k.id === u.keyId).active, false);
});

test('rotate issues a new key with the same label and tier; the old one dies', async () => {
  const u = await srv.session('PRO');
  const c = await srv.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'deploy' } });
  const r = await srv.req('POST', `/api/developer/keys/${c.json.id}/rotate`, { token: u.token });
  assert.equal(r.status, 201, r.text);
  assert.match(r.json.key, KEY_RE);
  assert.notEqual(r.json.key, c.json.key);
  assert.equal(r.json.label, 'deploy');
  assert.equal(r.json.tier, 'PRO');
  assert.equal(r.json.rotated_from, c.json.prefix);
  assertError(assert, await srv.req('GET', '/api/ai-security/governance/frameworks', { key: c.json.key }), 401, 'AUTH_REQUIRED');
  assert.equal((await srv.req('GET', '/api/ai-security/governance/frameworks', { key: r.json.key })).status, 200);
  // rotating the revoked key again is a conflict
  const again = await srv.req('POST', `/api/developer/keys/${c.json.id}/rotate`, { token: u.token });
  assertError(assert, again, 409, 'CONFLICT');
});

test("another account's key is invisible: 404 exactly like a missing one", async () => {
  const a = await srv.session('PRO', { key: true });
  const b = await srv.session('PRO');
  const missing = await srv.req('DELETE', '/api/developer/keys/key_doesnotexist00000000', { token: b.token });
  assertError(assert, missing, 404, 'NOT_FOUND');
  for (const id of [a.keyId, a.key.slice(0, 12)]) {
    const d = await srv.req('DELETE', `/api/developer/keys/${id}`, { token: b.token });
    assertError(assert, d, 404, 'NOT_FOUND');
    assert.equal(d.json.error.message, missing.json.error.message);
    const rot = await srv.req('POST', `/api/developer/keys/${id}/rotate`, { token: b.token });
    assertError(assert, rot, 404, 'NOT_FOUND');
  }
  const l = await srv.req('GET', '/api/developer/keys', { token: b.token });
  assert.equal(l.json.count, 0);
  assert.equal((await srv.req('GET', '/api/ai-security/governance/frameworks', { key: a.key })).status, 200, "a's key still works");
});

test('a made-up key with a bad checksum is rejected', async () => {
  const u = await srv.session('PRO', { key: true });
  const last = u.key.at(-1) === 'A' ? 'B' : 'A';
  const r = await srv.req('GET', '/api/ai-security/governance/frameworks', { key: u.key.slice(0, -1) + last });
  assertError(assert, r, 401, 'AUTH_REQUIRED');
});
