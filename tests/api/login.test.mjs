// The failed-login throttle under parallel requests, and what password checks may cost everyone
// else. Each attempt is reserved in the per-email and per-address budgets before its password is
// hashed, so parallel guesses cannot outrun the budget; refused attempts extend the lockout; and
// password hashing has a bounded pool of its own, so a flood of logins delays no other endpoint.
// Clients are told apart with X-Forwarded-For (the server trusts 127.0.0.1 as a proxy), so each
// test has budgets of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertError } from './lib/server.mjs';

const BUDGET = 10; // BULWARK_LOGIN_MAX_FAILURES default: failures per email per 15 minutes
let srv;
before(async () => {
  srv = await startServer({ env: { BULWARK_TRUSTED_PROXIES: '127.0.0.1', BULWARK_HASH_QUEUE: '16' } });
});
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const login = (email, password, from) =>
  srv.req('POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': from } });
const tally = (rs) => rs.reduce((m, r) => ({ ...m, [r.status]: (m[r.status] || 0) + 1 }), {});

test('60 parallel wrong passwords for one email from one address: at most the budget are checked, the rest 429', async () => {
  const u = srv.addUser('FREE');
  const rs = await Promise.all(Array.from({ length: 60 }, (_, i) => login(u.email, 'wrong-' + i, '10.1.0.1')));
  const n = tally(rs);
  assert.deepEqual(Object.keys(n).sort(), ['400', '429'].filter((s) => n[s]), JSON.stringify(n));
  assert.ok(n[400] >= 1 && n[400] <= BUDGET, `checked ${n[400]} of 60 (budget ${BUDGET}): ${JSON.stringify(n)}`);
  for (const r of rs) {
    if (r.status === 400) assertError(assert, r, 400, 'INVALID_CREDENTIALS');
    else {
      const e = assertError(assert, r, 429, 'RATE_LIMITED');
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
      assert.equal(e.retry_after, Number(r.headers.get('retry-after')));
    }
  }
});

test('refused attempts extend the lockout, by at most one interval past the last one', async () => {
  const u = srv.addUser('FREE');
  for (let i = 0; i < BUDGET; i++) assertError(assert, await login(u.email, 'wrong-' + i, '10.2.0.1'), 400, 'INVALID_CREDENTIALS');
  const first = await login(u.email, 'wrong', '10.2.0.1');
  assertError(assert, first, 429, 'RATE_LIMITED');
  const r1 = Number(first.headers.get('retry-after'));
  await sleep(2200);
  const later = await login(u.email, 'wrong', '10.2.0.1');
  assertError(assert, later, 429, 'RATE_LIMITED');
  const r2 = Number(later.headers.get('retry-after'));
  // without the extension the wait would have shrunk by the two seconds that passed
  assert.ok(r2 >= r1, `retry-after ${r1} s, then ${r2} s two seconds later`);
  // one emission interval (15 minutes / budget) at most: never a lockout longer than the window
  assert.ok(r2 <= (15 * 60) / BUDGET, `retry-after ${r2} s`);
});

test('the right password after failures still works while within the budget, and forgives them', async () => {
  const u = srv.addUser('FREE');
  for (let i = 0; i < BUDGET - 1; i++) assertError(assert, await login(u.email, 'wrong-' + i, '10.3.0.1'), 400, 'INVALID_CREDENTIALS');
  const ok = await login(u.email, u.password, '10.3.0.1');
  assert.equal(ok.status, 200, ok.text);
  // the success gave the email its budget back
  for (let i = 0; i < BUDGET; i++) assertError(assert, await login(u.email, 'again-' + i, '10.3.0.2'), 400, 'INVALID_CREDENTIALS');
  assertError(assert, await login(u.email, 'again', '10.3.0.2'), 429, 'RATE_LIMITED');
});

// Assessments run on the blocking pool. Password checks have a pool of their own, bounded, so 150
// parallel logins (from as many addresses, for as many emails: no per-source cap applies) are
// checked or refused with 503 and never queue in front of the assessment.
test('a governance assessment answers quickly while 150 parallel failed logins run', async () => {
  const u = await srv.session('ENTERPRISE', { key: true });
  const assess = async () => {
    const t0 = performance.now();
    const r = await srv.req('POST', '/api/ai-security/governance/assess',
      { key: u.key, body: { framework_id: 'nist-ai-rmf', ai_use_cases: ['customer support chatbot'] } });
    assert.equal(r.status, 201, r.text);
    return performance.now() - t0;
  };
  const times = [];
  for (let i = 0; i < 3; i++) times.push(await assess());
  const base = times.sort((a, b) => a - b)[1];
  // what one password check costs here (argon2id), under whatever else this machine runs now
  let t0 = performance.now();
  assertError(assert, await login('nobody-0@example.com', 'wrong-password', '10.4.0.1'), 400, 'INVALID_CREDENTIALS');
  const check = performance.now() - t0;

  const flood = Array.from({ length: 150 }, (_, i) =>
    login(`nobody-${i + 1}@example.com`, 'wrong-password', `10.4.${1 + (i >> 8)}.${i & 255}`));
  await sleep(200); // the logins have reached the server and wait for a hashing thread
  const during = await assess();
  const rs = await Promise.all(flood);
  const n = tally(rs);
  assert.ok(during < base + 10 * check,
    `assessment took ${during.toFixed(0)} ms during the flood, ${base.toFixed(0)} ms before; one password check ${check.toFixed(0)} ms`);
  assert.deepEqual(Object.keys(n).filter((s) => !['400', '503'].includes(s)), [], JSON.stringify(n));
  assert.ok(n[503] > 0, `the hashing queue (16) is bounded: ${JSON.stringify(n)}`);
  for (const r of rs.filter((x) => x.status === 503)) {
    const e = assertError(assert, r, 503, 'UNAVAILABLE');
    assert.match(e.message, /server busy/);
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
  }
});

// Many accounts guessed at once from one address: each email is under its own cap, but the address
// has at most BW_LOGIN_INFLIGHT_IP (4) password checks in flight; the rest are refused at once with
// 429, without a hash, and say why. Without the per-address cap all 40 would be checked (or queued).
test('parallel guesses at 40 accounts from one address: at most a few checked at a time, the rest 429 from this address', async () => {
  const rs = await Promise.all(Array.from({ length: 40 }, (_, i) =>
    login(`spray-${i}@example.com`, 'Winter2026!', '10.5.0.1')));
  const n = tally(rs);
  assert.deepEqual(Object.keys(n).filter((s) => !['400', '429', '503'].includes(s)), [], JSON.stringify(n));
  assert.ok((n[429] || 0) > 0, `some guesses refused for the address: ${JSON.stringify(n)}`);
  assert.ok((n[400] || 0) >= 1 && n[400] < 40, JSON.stringify(n));
  for (const r of rs.filter((x) => x.status === 429)) {
    const e = assertError(assert, r, 429, 'RATE_LIMITED');
    assert.match(e.message, /from this address/);
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
  }
  // another address is not held back by the first one's checks
  assertError(assert, await login('spray-0@example.com', 'Winter2026!', '10.5.0.2'), 400, 'INVALID_CREDENTIALS');
});
