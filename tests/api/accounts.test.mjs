// Managing and recovering accounts: `bulwark user passwd|disable|enable|set-role|delete`,
// `bulwark admin-key rotate`, and POST /api/auth/password. A change that ends sessions ends every
// session token issued before it (the token generation), on the running server from the first
// request after the command finished (SQLite: the server watches the database's files, so a
// minute-long BULWARK_AUTH_CACHE_MS does not hide it) or within moments (PostgreSQL: notified).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { BIN, BACKEND, Server, startServer, assertError, ADMIN_PASSWORD } from './lib/server.mjs';

const FAILURES = 3; // BULWARK_LOGIN_MAX_FAILURES here
let srv;
before(async () => {
  srv = await startServer({ env: { BULWARK_LOGIN_MAX_FAILURES: String(FAILURES), BULWARK_AUTH_CACHE_MS: '60000' } });
});
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const SESSION = '/api/developer/keys';            // a session (JWT) route
const SIGNED_IN = '/api/threat-intel/playbooks/history'; // any account credential

// The CLI against the server's database: {code, out, err, json}.
function cli(s, args, input = '') {
  const r = spawnSync(BIN, args, { env: s.env(), input, encoding: 'utf8' });
  let json = null;
  try { json = JSON.parse(r.stdout); } catch { /* not JSON */ }
  return { code: r.status, out: r.stdout, err: r.stderr, json };
}

// Polls fn until true: a change made by the CLI holds on SQLite from the next request (no retry),
// on PostgreSQL once the command's notification arrived.
const SETTLE_MS = BACKEND === 'sqlite' ? 0 : 3000;
async function within(ms, fn) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await fn()) return true;
  return fn();
}
const status = async (path, cred) => (await srv.req('GET', path, cred)).status;
const login = (email, password) => srv.req('POST', '/api/auth/login', { body: { email, password } });

test('user passwd: a new password from stdin or --password; earlier sessions end, API keys keep working', async () => {
  const u = await srv.session('STARTER', { key: true });
  let r = cli(srv, ['user', 'passwd', u.email.toUpperCase(), '--password-stdin'], 'a-brand-new-password\n');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json.email, u.email);
  assert.ok(!r.out.includes('a-brand-new-password') && !r.out.includes('argon2'), 'no secret printed');
  assert.ok(await within(SETTLE_MS, async () => (await status(SESSION, { token: u.token })) === 401), 'the old session still works');
  assertError(assert, await srv.req('GET', SESSION, { token: u.token }), 401, 'AUTH_REQUIRED');
  assert.equal(await status(SIGNED_IN, { key: u.key }), 200);
  assertError(assert, await login(u.email, u.password), 400, 'INVALID_CREDENTIALS');
  const ok = await login(u.email, 'a-brand-new-password');
  assert.equal(ok.status, 200, ok.text);
  assert.equal(await status(SESSION, { token: ok.json.token }), 200);
  r = cli(srv, ['user', 'passwd', u.email, '--password=another-password-2']);
  assert.equal(r.code, 0, r.err);
  assert.equal((await login(u.email, 'another-password-2')).status, 200);

  for (const [args, code, re] of [
    [['user', 'passwd', 'nobody@example.com', '--password', 'long-enough-1'], 1, /no account nobody@example.com/],
    [['user', 'passwd', '--password', 'long-enough-1'], 2, /EMAIL is missing/],
    [['user', 'passwd', u.email], 2, /a password .* is missing/],
    [['user', 'passwd', u.email, '--password', 'short'], 2, /must be 8 to 256 bytes/],
    [['user', 'passwd', u.email, '--password', 'long-enough-1', '--password-stdin'], 2, /not both/],
    [['user', 'passwd', u.email, '--bogus'], 2, /unknown option --bogus/],
  ]) {
    const e = cli(srv, args, 'from-stdin-password\n');
    assert.equal(e.code, code, `${args.join(' ')}: ${e.err}`);
    assert.match(e.err, re, args.join(' '));
  }
  assert.equal((await login(u.email, 'another-password-2')).status, 200, 'refused changes changed nothing');
});

test('user disable ends sessions and revokes API keys; enable restores login, not the keys', async () => {
  const u = await srv.session('STARTER', { key: true });
  let r = cli(srv, ['user', 'disable', u.email]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json.disabled, true);
  assert.ok(await within(SETTLE_MS, async () => (await status(SESSION, { token: u.token })) === 401 &&
    (await status(SIGNED_IN, { key: u.key })) === 401), 'a disabled account still works');
  assertError(assert, await srv.req('GET', SIGNED_IN, { key: u.key }), 401, 'AUTH_REQUIRED');
  const refused = await login(u.email, u.password);
  assertError(assert, refused, 403, 'FORBIDDEN');
  assert.match(refused.json.error.message, /disabled/);
  assertError(assert, await login(u.email, 'not-the-password'), 400, 'INVALID_CREDENTIALS');
  assert.equal(cli(srv, ['user', 'disable', u.email]).code, 0, 'twice is no error');
  assert.equal(JSON.parse(srv.cli(['user', 'list'])).users.find((x) => x.email === u.email).disabled, true);

  r = cli(srv, ['user', 'enable', u.email]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json.disabled, false);
  const again = await login(u.email, u.password);
  assert.equal(again.status, 200, again.text);
  assert.equal(await status(SESSION, { token: again.json.token }), 200);
  assertError(assert, await srv.req('GET', SIGNED_IN, { key: u.key }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('GET', SESSION, { token: u.token }), 401, 'AUTH_REQUIRED');
  const keys = await srv.req('GET', SESSION, { token: again.json.token });
  assert.deepEqual(keys.json.keys.map((k) => k.active), [false], 'the key stays revoked');

  for (const sub of ['disable', 'enable', 'delete']) {
    const e = cli(srv, ['user', sub, 'nobody@example.com']);
    assert.equal(e.code, 1, sub);
    assert.match(e.err, /no account nobody@example.com/);
    const m = cli(srv, ['user', sub]);
    assert.equal(m.code, 2, sub);
    assert.match(m.err, /EMAIL is missing/);
  }
});

test('user set-role changes the role and ends sessions; API keys go on with the new role', async () => {
  const u = await srv.session('ENTERPRISE', { key: true });
  const r = cli(srv, ['user', 'set-role', u.email, 'mssp']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json.role, 'mssp');
  assert.ok(await within(SETTLE_MS, async () => (await status(SESSION, { token: u.token })) === 401));
  assert.equal(await status(SIGNED_IN, { key: u.key }), 200);
  const t = await srv.login(u.email, u.password);
  const scope = await srv.req('GET', '/api/orchestrator/god-mode/ciso', { token: t });
  assert.equal(scope.status, 200, scope.text);
  assert.equal(cli(srv, ['user', 'set-role', u.email, 'mssp']).code, 0, 'the same role: no change');
  assert.equal(await status(SESSION, { token: t }), 200, 'no change ends no session');
  for (const [args, re] of [[['user', 'set-role', u.email, 'root'], /ROLE must be user, mssp or admin, not 'root'/],
    [['user', 'set-role', u.email], /ROLE is missing/], [['user', 'set-role'], /EMAIL and ROLE are missing/]]) {
    const e = cli(srv, args);
    assert.equal(e.code, 2, args.join(' '));
    assert.match(e.err, re);
  }
  assert.equal(cli(srv, ['user', 'set-role', 'nobody@example.com', 'user']).code, 1);
});

test('user delete: the account, its sessions, keys and data are gone; the email starts afresh', async () => {
  const u = await srv.session('STARTER', { key: true });
  const reg = await srv.req('POST', '/api/ai-security/assets/register',
    { key: u.key, body: { name: 'doomed', type: 'model', endpoint: 'https://doomed.example.com/' } });
  assert.equal(reg.status, 201, reg.text);
  const asm = await srv.req('POST', '/api/ai-security/governance/assess',
    { key: u.key, body: { framework_id: 'nist-ai-rmf', ai_use_cases: ['chatbot'] } });
  assert.equal(asm.status, 201, asm.text);
  const r = cli(srv, ['user', 'delete', u.email]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.json, { deleted: true, id: u.id, email: u.email });
  assert.ok(await within(SETTLE_MS, async () => (await status(SESSION, { token: u.token })) === 401 &&
    (await status(SIGNED_IN, { key: u.key })) === 401));
  assertError(assert, await login(u.email, u.password), 400, 'INVALID_CREDENTIALS');
  assert.ok(!JSON.parse(srv.cli(['user', 'list'])).users.some((x) => x.email === u.email));
  // a new account with the same email sees nothing of the old one's
  const again = cli(srv, ['user', 'add', u.email, '--tier', 'STARTER', '--password-stdin'], u.password + '\n');
  assert.equal(again.code, 0, again.err);
  assert.notEqual(again.json.id, u.id);
  const t = await srv.login(u.email, u.password);
  assert.equal((await srv.req('GET', '/api/ai-security/assets', { token: t })).json.total, 0);
  assertError(assert, await srv.req('GET', `/api/ai-security/assets/${reg.json.asset_id}`, { token: t }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', `/api/ai-security/governance/assessments/${asm.json.assessment_id}`, { token: t }), 404, 'NOT_FOUND');
  assert.deepEqual((await srv.req('GET', SESSION, { token: t })).json.keys, []);
  assert.equal(cli(srv, ['user', 'delete', u.email + '.x']).code, 1);
});

test('the last enabled admin cannot be deleted, disabled or demoted (exit 3); with another admin it can', async () => {
  for (const args of [['user', 'delete', 'admin@localhost'], ['user', 'disable', 'admin@localhost'],
    ['user', 'set-role', 'admin@localhost', 'user']]) {
    const r = cli(srv, args);
    assert.equal(r.code, 3, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /refused: admin@localhost is the last enabled admin account/);
    assert.equal(r.out, '');
  }
  assert.equal((await login('admin@localhost', ADMIN_PASSWORD)).status, 200, 'the admin is untouched');
  const other = srv.addUser('ENTERPRISE', 'admin');
  assert.equal(cli(srv, ['user', 'disable', other.email]).code, 0);
  assert.equal(cli(srv, ['user', 'set-role', 'admin@localhost', 'user']).code, 3, 'a disabled admin does not count');
  assert.equal(cli(srv, ['user', 'enable', other.email]).code, 0);
  assert.equal(cli(srv, ['user', 'set-role', 'admin@localhost', 'user']).code, 0);
  assert.equal(cli(srv, ['user', 'delete', other.email]).code, 3, 'now the other is the last one');
  assert.equal(cli(srv, ['user', 'set-role', 'admin@localhost', 'admin']).code, 0);
  assert.equal(cli(srv, ['user', 'delete', other.email]).code, 0);
});

test('POST /api/auth/password: a new token for this session; every earlier session ends', async () => {
  const u = await srv.session('FREE', { key: true });
  const other = await srv.login(u.email, u.password); // a second session of the same account
  const r = await srv.req('POST', '/api/auth/password', { token: u.token, body: { current_password: u.password, new_password: 'changed-password-1' } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.token_type, 'Bearer');
  assert.equal(r.json.expires_in, 86400);
  assert.deepEqual(r.json.user, { id: u.id, email: u.email, tier: 'FREE', role: 'user' });
  for (const t of [u.token, other]) assertError(assert, await srv.req('GET', SESSION, { token: t }), 401, 'AUTH_REQUIRED');
  assert.equal(await status(SESSION, { token: r.json.token }), 200);
  assert.equal(await status(SIGNED_IN, { key: u.key }), 200, 'API keys keep working');
  assertError(assert, await login(u.email, u.password), 400, 'INVALID_CREDENTIALS');
  assert.equal((await login(u.email, 'changed-password-1')).status, 200);
  // the ended session cannot change it again
  assertError(assert, await srv.req('POST', '/api/auth/password', { token: u.token, body: { current_password: 'changed-password-1', new_password: 'x-password-2' } }), 401, 'AUTH_REQUIRED');
  const log = srv.logs.map((l) => l.raw).join('\n');
  assert.ok(!log.includes('changed-password-1'), 'the password is not logged');
});

test('POST /api/auth/password: weak, too long or missing passwords are 400; only a session may call it', async () => {
  const u = await srv.session('FREE', { key: true });
  const call = (body, cred = { token: u.token }) => srv.req('POST', '/api/auth/password', { ...cred, body });
  for (const [body, field] of [
    [{ current_password: u.password, new_password: 'short' }, 'new_password'],
    [{ current_password: u.password, new_password: 'x'.repeat(257) }, 'new_password'],
    [{ current_password: u.password, new_password: u.password }, 'new_password'],
    [{ current_password: u.password }, 'new_password'],
    [{ new_password: 'long-enough-pw' }, 'current_password'],
    [{ current_password: 12, new_password: 'long-enough-pw' }, 'current_password'],
  ]) {
    const e = assertError(assert, await call(body), 400, 'VALIDATION_ERROR');
    assert.ok(e.errors.some((x) => x.field === field), JSON.stringify(e));
  }
  assertError(assert, await call({ current_password: u.password, new_password: 'abcdefgh\u0000ijk' }), 400, 'VALIDATION_ERROR');
  assertError(assert, await call({ current_password: u.password, new_password: 'long-enough-pw' }, { key: u.key }), 401, 'AUTH_REQUIRED');
  assertError(assert, await call({ current_password: u.password, new_password: 'long-enough-pw' }, { key: srv.adminKey }), 403, 'FORBIDDEN');
  assertError(assert, await call({ current_password: u.password, new_password: 'long-enough-pw' }, {}), 401, 'AUTH_REQUIRED');
  assert.equal(await status(SESSION, { token: u.token }), 200, 'nothing changed');
});

test('POST /api/auth/password: a wrong current password counts in the login throttle', async () => {
  const u = await srv.session('FREE');
  for (let i = 0; i < FAILURES; i++) {
    const r = await srv.req('POST', '/api/auth/password', { token: u.token, body: { current_password: 'wrong-' + i, new_password: 'long-enough-pw' } });
    assertError(assert, r, 400, 'INVALID_CREDENTIALS');
  }
  const r = await srv.req('POST', '/api/auth/password', { token: u.token, body: { current_password: u.password, new_password: 'long-enough-pw' } });
  assertError(assert, r, 429, 'RATE_LIMITED');
  assert.ok(Number(r.headers.get('retry-after')) >= 1);
  assertError(assert, await login(u.email, u.password), 429, 'RATE_LIMITED');
  assert.equal(await status(SESSION, { token: u.token }), 200, 'the session itself goes on');
});

test('admin-key rotate replaces a generated admin key: printed once, the old one retired at the restart', async () => {
  const first = new Server({ adminKey: '' }); // no BULWARK_ADMIN_KEY: the key is generated
  await first.start();
  let second;
  try {
    const gen = first.logLines().find((l) => l.msg === 'admin key generated');
    assert.ok(gen && gen.admin_key, 'the first start prints the generated key');
    assert.equal((await first.req('GET', '/metrics', { key: gen.admin_key })).status, 200);
    const r = cli(first, ['admin-key', 'rotate']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.json.admin_key, /^adm_[A-Za-z0-9]{40}$/);
    assert.notEqual(r.json.admin_key, gen.admin_key);
    assert.equal(await first.stop({ keepData: true }), 0);
    second = new Server({ dir: first.dir, database: first.database, adminKey: '' });
    await second.start();
    assert.ok(!second.logLines().some((l) => l.msg === 'admin key generated'), 'the new key is never logged');
    assertError(assert, await second.req('GET', '/metrics', { key: gen.admin_key }), 401, 'AUTH_REQUIRED');
    assert.equal((await second.req('GET', '/metrics', { key: r.json.admin_key })).status, 200);
  } finally {
    if (second) await second.stop();
    else await first.stop({ keepData: true });
    rmSync(first.dir, { recursive: true, force: true });
  }
  // a configured key is the admin key: nothing to rotate
  const e = cli(srv, ['admin-key', 'rotate']);
  assert.equal(e.code, 3);
  assert.match(e.err, /BULWARK_ADMIN_KEY is set/);
  assert.equal(cli(srv, ['admin-key']).code, 2);
  assert.equal(cli(srv, ['admin-key', 'frob']).code, 2);
  const h = cli(srv, ['admin-key', '--help']);
  assert.equal(h.code, 0);
  assert.match(h.out, /^usage: bulwark admin-key rotate/);
});
