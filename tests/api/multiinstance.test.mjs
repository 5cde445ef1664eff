// Two `bulwark serve` instances on one PostgreSQL database behind one nginx (the documented
// docs/deploy/nginx.conf with two upstream servers). What a client must not be able to tell:
// which instance answered. Sessions and keys made on one work on the other, a revocation or tier
// change on one holds on the other within moments (notified), rate-limit budgets (per account, per anonymous client
// through nginx, failed logins) are one budget across both, and red-team jobs queued through
// either run exactly once across the workers of both. PostgreSQL only: SQLite is one instance's
// file.
import { randomBytes } from 'node:crypto';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BACKEND, Server, assertError } from './lib/server.mjs';
import { NO_NGINX, docSettings, startNginx } from './lib/nginx.mjs';
import { startTarget } from './lib/targets.mjs';
import { importKev, kevEntry } from './lib/kev.mjs';

const skip = BACKEND !== 'postgres' ? 'several instances share PostgreSQL (the API suite also runs on it)' : NO_NGINX;
const RATE_FREE = 6, RATE_ANON = 4, LOGIN_FAILURES = 3;
const SIGNED_IN = '/api/threat-intel/playbooks/history'; // any account credential, JWT or API key
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let a, b, c, nginx, target;
// A change notified by another instance arrives within milliseconds; well under the 2 s cache, so a
// pass shows the notification (not the TTL) did it.
const NOTIFIED_MS = 1000;

// Polls until fn() is true; false after ms.
async function within(ms, fn) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25)) if (await fn()) return true;
  return fn();
}
// The credential is refused (401 AUTH_REQUIRED) on s within NOTIFIED_MS.
async function refused(s, cred, path = SIGNED_IN) {
  let last;
  const ok = await within(NOTIFIED_MS, async () => (last = await s.req('GET', path, cred)).status === 401);
  if (ok) assertError(assert, last, 401, 'AUTH_REQUIRED');
  return ok;
}

before(async () => {
  if (skip) return;
  const { BULWARK_LISTEN, ...proxy } = docSettings();
  assert.ok(BULWARK_LISTEN);
  const env = {
    ...proxy,
    BULWARK_RATE_FREE: String(RATE_FREE), BULWARK_RATE_ANON: String(RATE_ANON),
    BULWARK_LOGIN_MAX_FAILURES: String(LOGIN_FAILURES),
    BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_WORKERS: '2', BULWARK_JOB_POLL_MS: '50',
    // the intel generation is trusted for a minute between notifications, so a feed that moves
    // within NOTIFIED_MS moved by the notification
    BULWARK_INTEL_CACHE_MS: '60000',
    // instances on one database share the sealing key (docs/operations.md, "Several instances")
    BULWARK_SECRET_KEY: randomBytes(32).toString('hex'),
  };
  a = new Server({ env });
  await a.start();
  b = new Server({ env, database: a.database, adminKey: a.adminKey });
  await b.start();
  // A and B cache credentials for the default 2 s; a third instance caches them for a minute
  // (BULWARK_AUTH_CACHE_MS): only the revocation broadcast can make either forget a key sooner
  c = new Server({ env: { ...env, BULWARK_AUTH_CACHE_MS: '60000', BULWARK_WORKERS: '0' }, database: a.database, adminKey: a.adminKey });
  await c.start();
  nginx = await startNginx([a.port, b.port]);
  target = await startTarget({ mode: 'careless' });
});

after(async () => {
  if (nginx) await nginx.stop();
  if (target) await target.close();
  for (const s of [a, b, c]) if (s) assert.equal(await s.stop(), 0);
});

test('a session and a key made on one instance work on the other; a revocation holds on both within moments', { skip }, async () => {
  const u = a.addUser('PRO');
  const token = await b.login(u.email, u.password);
  for (const s of [a, b]) assert.equal((await s.req('GET', '/api/developer/keys', { token })).status, 200);
  const made = await a.req('POST', '/api/developer/keys', { token, body: { label: 'shared' } });
  assert.equal(made.status, 201, made.text);
  // both instances verify (and cache) the key
  for (const s of [b, a]) assert.equal((await s.req('GET', SIGNED_IN, { key: made.json.key })).status, 200);
  const rv = await a.req('DELETE', `/api/developer/keys/${made.json.id}`, { token });
  assert.equal(rv.status, 200, rv.text);
  // A, which revoked it, at once; B by notification
  assertError(assert, await a.req('GET', SIGNED_IN, { key: made.json.key }), 401, 'AUTH_REQUIRED');
  assert.ok(await refused(b, { key: made.json.key }), 'B still accepts the revoked key');
  // a rotation on B retires the old secret on A
  const k2 = await b.req('POST', '/api/developer/keys', { token, body: { label: 'rotating' } });
  assert.equal((await a.req('GET', SIGNED_IN, { key: k2.json.key })).status, 200);
  const rot = await b.req('POST', `/api/developer/keys/${k2.json.id}/rotate`, { token });
  assert.equal(rot.status, 201, rot.text);
  assert.ok(await refused(a, { key: k2.json.key }), 'A still accepts the rotated-away secret');
  assert.equal((await a.req('GET', SIGNED_IN, { key: rot.json.key })).status, 200);
});


test('an instance that caches credentials forgets a changed tier and a revoked key within moments', { skip }, async () => {
  const u = await a.session('FREE', { key: true });
  const ent = '/api/orchestrator/god-mode/ciso';
  // C reads the key once and would reuse what it read for a minute
  assertError(assert, await c.req('GET', ent, { key: u.key }), 403, 'TIER_REQUIRED');
  a.cli(['user', 'set-tier', u.email, 'ENTERPRISE']);
  assert.ok(await within(3000, async () => (await c.req('GET', ent, { key: u.key })).status === 200),
    'the caching instance still sees the old tier');
  assert.equal((await b.req('DELETE', `/api/developer/keys/${u.keyId}`, { token: u.token })).status, 200);
  assert.ok(await within(3000, async () => (await c.req('GET', SIGNED_IN, { key: u.key })).status === 401),
    'the caching instance still accepts the revoked key');
});

test('a password change, disable or deletion on one instance ends sessions and keys on every instance', { skip }, async () => {
  const u = await a.session('PRO', { key: true });
  const SESSION = '/api/developer/keys';
  const ok = async (s, cred, path = SIGNED_IN) => (await s.req('GET', path, cred)).status === 200;
  // every instance has verified (C: cached for a minute) the session and the key
  for (const s of [a, b, c]) {
    assert.ok(await ok(s, { token: u.token }, SESSION));
    assert.ok(await ok(s, { key: u.key }));
  }
  const second = await c.login(u.email, u.password); // another session, made on C
  const ch = await a.req('POST', '/api/auth/password', { token: u.token, body: { current_password: u.password, new_password: 'multi-instance-pw-2' } });
  assert.equal(ch.status, 200, ch.text);
  for (const t of [u.token, second]) assert.ok(await refused(b, { token: t }, SESSION), 'B still accepts an ended session');
  assert.ok(await within(3000, async () => !(await ok(c, { token: u.token }, SESSION)) && !(await ok(c, { token: second }, SESSION))),
    'the caching instance still accepts a session ended by the password change');
  // the new session works everywhere at once, C included (it is newer than what C cached)
  for (const s of [c, b, a]) assert.ok(await ok(s, { token: ch.json.token }, SESSION));
  for (const s of [a, b, c]) assert.ok(await ok(s, { key: u.key }), 'API keys outlive a password change');

  b.cli(['user', 'disable', u.email]);
  for (const s of [a, b]) {
    assert.ok(await refused(s, { token: ch.json.token }, SESSION), 'a disabled account\'s session still works');
    assert.ok(await refused(s, { key: u.key }), 'a disabled account\'s key still works');
  }
  assert.ok(await within(3000, async () => !(await ok(c, { token: ch.json.token }, SESSION)) && !(await ok(c, { key: u.key }))),
    'the caching instance still accepts a disabled account');

  b.cli(['user', 'enable', u.email]);
  const t3 = await a.login(u.email, 'multi-instance-pw-2');
  const k3 = await a.req('POST', '/api/developer/keys', { token: t3, body: { label: 'after' } });
  assert.equal(k3.status, 201, k3.text);
  for (const s of [a, b, c]) assert.ok(await ok(s, { key: k3.json.key }));
  a.cli(['user', 'delete', u.email]);
  for (const s of [b, a]) {
    assert.ok(await refused(s, { token: t3 }, SESSION), 'a deleted account\'s session still works');
    assert.ok(await refused(s, { key: k3.json.key }), 'a deleted account\'s key still works');
  }
  assert.ok(await within(3000, async () => !(await ok(c, { token: t3 }, SESSION)) && !(await ok(c, { key: k3.json.key }))),
    'the caching instance still accepts a deleted account');
});

test('an intel write shows on every instance\'s cached feed page within moments (notified, not re-read per request)', { skip }, async () => {
  const u = await a.session('PRO', { key: true });
  const path = '/api/ai-security/threat-feed?limit=5&sort=published';
  const before = {};
  for (const s of [a, b, c]) { // each builds and caches the page of the current generation
    const r = await s.req('GET', path, { key: u.key });
    assert.equal(r.status, 200, r.text);
    before[s.port] = r.json.total;
  }
  importKev(a, [kevEntry('CVE-2099-77101', 'Ollama', 'Ollama', { vulnerabilityName: 'Ollama path traversal',
    shortDescription: 'A remote attacker can read files.', cwes: ['CWE-22'] })]);
  for (const s of [a, b, c]) {
    let last;
    assert.ok(await within(NOTIFIED_MS, async () => (last = await s.req('GET', path, { key: u.key })).json?.total === before[s.port] + 1),
      `instance ${s.port} still shows ${last?.json?.total} records`);
    assert.ok(last.json.feed.some((x) => x.id === 'CVE-2099-77101'));
  }
});

test('a tier change by the operator reaches both instances within moments', { skip }, async () => {
  const u = await a.session('FREE', { key: true });
  const ent = '/api/orchestrator/god-mode/ciso';
  for (const s of [a, b]) assertError(assert, await s.req('GET', ent, { key: u.key }), 403, 'TIER_REQUIRED');
  a.cli(['user', 'set-tier', u.email, 'ENTERPRISE']);
  for (const s of [b, a]) assert.ok(await within(NOTIFIED_MS, async () => (await s.req('GET', ent, { key: u.key })).status === 200),
    'an instance still sees the old tier');
});

test('an account\'s rate limit is one budget across the instances', { skip }, async () => {
  const u = await a.session('FREE', { key: true }); // login is outside the account budget; the key creation is in it
  const path = SIGNED_IN;
  const seen = [];
  for (let i = 0; i < RATE_FREE; i++) {
    const r = await (i % 2 ? b : a).req('GET', path, { key: u.key });
    seen.push(r.status);
    if (r.status === 200) assert.equal(r.headers.get('ratelimit-remaining'), String(RATE_FREE - 2 - i), `request ${i}`);
  }
  // the key creation in session() spent the first request of the budget
  assert.deepEqual(seen, [200, 200, 200, 200, 200, 429]);
  for (const s of [a, b]) {
    const r = await s.req('GET', path, { key: u.key });
    assertError(assert, r, 429, 'RATE_LIMITED');
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
  }
});

test('anonymous budgets through nginx count per client across both upstreams', { skip }, async () => {
  const path = '/api/ai-security/governance/frameworks';
  const codes = [];
  for (let i = 0; i < RATE_ANON + 2; i++) codes.push((await nginx.via(path, { from: '127.0.0.4' })).status);
  assert.deepEqual(codes, [...Array(RATE_ANON).fill(200), 429, 429]);
  // nginx spread those requests over both instances (round robin): the budget was still one
  let served = [];
  for (let i = 0; i < 40; i++) {
    served = [a, b].map((s) => s.logLines().filter((l) => l.msg === 'request' && l.path === path && l.ip === '127.0.0.4').length);
    if (served[0] + served[1] === RATE_ANON + 2) break;
    await sleep(50);
  }
  assert.ok(served[0] > 0 && served[1] > 0, `both instances answered: ${served}`);
  assert.equal((await nginx.via(path, { from: '127.0.0.5' })).status, 200, 'another client has its own budget');
});

test('failed logins on either instance lock the account on both', { skip }, async () => {
  const u = a.addUser('FREE');
  for (let i = 0; i < LOGIN_FAILURES; i++) {
    const r = await (i % 2 ? a : b).req('POST', '/api/auth/login', { body: { email: u.email, password: 'wrong-password' } });
    assertError(assert, r, 400, 'INVALID_CREDENTIALS');
  }
  for (const s of [a, b]) {
    const r = await s.req('POST', '/api/auth/login', { body: { email: u.email, password: u.password } });
    assertError(assert, r, 429, 'RATE_LIMITED');
  }
});

test('parallel wrong passwords spread over both instances are checked at most the budget times', { skip }, async () => {
  const u = a.addUser('FREE');
  const rs = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    (i % 2 ? a : b).req('POST', '/api/auth/login', { body: { email: u.email, password: 'wrong-' + i } })));
  const checked = rs.filter((r) => r.status === 400).length;
  assert.ok(checked >= 1 && checked <= LOGIN_FAILURES, `checked ${checked} of 20 (budget ${LOGIN_FAILURES})`);
  for (const r of rs) if (r.status !== 400) assertError(assert, r, 429, 'RATE_LIMITED');
});

test('engagements queued through both instances run exactly once across their workers', { skip }, async () => {
  const u = await a.session('ENTERPRISE', { key: true });
  const reg = await b.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'mi-target', type: 'model', provider: 'self', endpoint: target.url } });
  assert.equal(reg.status, 201, reg.text);
  const before = target.stats.requests;
  const ids = [];
  for (let i = 0; i < 8; i++) {
    const r = await (i % 2 ? b : a).req('POST', '/api/ai-security/redteam/engage', { key: u.key, body: { target_asset_id: reg.json.asset_id, intensity: 'light' } });
    assert.equal(r.status, 202, r.text);
    ids.push(r.json.engagement_id);
  }
  let probes = 0;
  const end = Date.now() + 120000;
  for (const id of ids) {
    for (;;) {
      const r = await (ids.indexOf(id) % 2 ? a : b).req('GET', `/api/ai-security/redteam/${id}/report`, { key: u.key });
      assert.equal(r.status, 200, r.text);
      if (r.json.status === 'completed') {
        assert.equal(r.json.progress.done, r.json.progress.total);
        // the attacks as written and their escalations (engine/redteam/escalate.h): every request
        // the engagement made, which the report counts
        assert.ok(r.json.escalation.requests >= r.json.progress.total, JSON.stringify(r.json.escalation));
        probes += r.json.escalation.requests;
        break;
      }
      assert.ok(!['failed', 'cancelled'].includes(r.json.status), `${id}: ${r.text}`);
      assert.ok(Date.now() < end, `${id} did not finish: ${r.text}`);
      await sleep(100);
    }
  }
  // a run is one "reply pong" request (which API the target speaks) and then its probes and their
  // escalations: so the target saw every engagement run once and every request once, none twice
  assert.equal(target.stats.requests - before, ids.length + probes);
  // and both instances' workers took part
  const claimed = [a, b].map((s) => s.logLines().filter((l) => /job (claimed|started)/.test(l.msg || '')).length);
  assert.ok(claimed[0] > 0 && claimed[1] > 0, `jobs per instance: ${claimed}`);
});
