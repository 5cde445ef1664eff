// Managed accounts (/api/accounts): who may call them (a session of an mssp or admin account, by
// bearer token or console cookie with its CSRF token; never an API key or the admin key), what
// each sees (an admin every account, an mssp those it manages; another mssp's account is 404 like
// a missing one), creation with the CLI's checks and an mssp's ceiling (role user, its own tier or
// below), paging by offset and cursor, and disable / enable as the CLI does them: a disable ends
// every session of the account (an old token is 401, its console session too) and revokes its keys.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertError, ADMIN_PASSWORD } from './lib/server.mjs';

let srv, admin;
before(async () => {
  srv = await startServer({ env: { BULWARK_RATE_FREE: '0', BULWARK_RATE_PRO: '0', BULWARK_RATE_STARTER: '0' } });
  admin = { email: 'admin@localhost', password: ADMIN_PASSWORD };
  admin.token = await srv.login(admin.email, admin.password);
  admin.id = (await srv.req('GET', '/api/accounts?limit=100', { token: admin.token })).json.accounts
    .find((a) => a.email === 'admin@localhost').id;
});
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let seq = 0;
const newEmail = (p = 'c') => `${p}${Date.now()}x${seq++}@example.com`;
const create = (cred, body) => srv.req('POST', '/api/accounts', { ...cred, body });
const FIELDS = ['created_at', 'disabled', 'email', 'id', 'managed_by', 'role', 'tier'];

async function consoleLogin(u) {
  const r = await srv.req('POST', '/api/console/session', { body: { email: u.email, password: u.password } });
  assert.equal(r.status, 200, r.text);
  const m = /^bulwark_console=([A-Za-z0-9_-]{43});/.exec(r.headers.get('set-cookie'));
  return { cookie: `bulwark_console=${m[1]}`, 'x-csrf-token': r.json.csrf_token };
}

test('access: a session of an mssp or admin account; API keys 401, the admin key and role user 403', async () => {
  const m = await srv.session('PRO', { key: true, role: 'mssp' });
  const u = await srv.session('ENTERPRISE', { key: true });
  assert.equal((await srv.req('GET', '/api/accounts', { token: m.token })).status, 200);
  assert.equal((await srv.req('GET', '/api/accounts', { token: admin.token })).status, 200);
  // the console's cookie with its CSRF token is a session
  const c = await consoleLogin(m);
  assert.equal((await srv.req('GET', '/api/accounts', { headers: c })).status, 200);
  assertError(assert, await srv.req('GET', '/api/accounts', { headers: { cookie: c.cookie } }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('GET', '/api/accounts'), 401, 'AUTH_REQUIRED');
  const byKey = assertError(assert, await srv.req('GET', '/api/accounts', { key: m.key }), 401, 'AUTH_REQUIRED');
  assert.match(byKey.message, /session/);
  assertError(assert, await create({ key: m.key }, { email: newEmail(), password: 'long-enough-1', tier: 'FREE' }), 401, 'AUTH_REQUIRED');
  const byAdminKey = assertError(assert, await srv.req('GET', '/api/accounts', { key: srv.adminKey }), 403, 'FORBIDDEN');
  assert.match(byAdminKey.message, /admin key/);
  const user = assertError(assert, await srv.req('GET', '/api/accounts', { token: u.token }), 403, 'FORBIDDEN');
  assert.match(user.message, /mssp or admin role/);
  assertError(assert, await srv.req('POST', `/api/accounts/${m.id}/disable`, { token: u.token }), 403, 'FORBIDDEN');
  assertError(assert, await srv.req('DELETE', '/api/accounts'), 405, 'METHOD_NOT_ALLOWED');
});

test('create: the CLI\'s checks, 400 naming each field; an mssp\'s ceiling is 403; a taken email 409', async () => {
  const m = await srv.session('PRO', { role: 'mssp' });
  for (const [body, fields] of [
    [{}, ['email', 'password', 'tier']],
    [{ email: 'not-an-email', password: 'long-enough-1', tier: 'FREE' }, ['email']],
    [{ email: 'a b@example.com', password: 'long-enough-1', tier: 'FREE' }, ['email']],
    [{ email: newEmail(), password: 'short', tier: 'FREE' }, ['password']],
    [{ email: newEmail(), password: 'x'.repeat(257), tier: 'FREE' }, ['password']],
    [{ email: newEmail(), password: 'long-enough-1', tier: 'GOLD' }, ['tier']],
    [{ email: newEmail(), password: 'long-enough-1', tier: 'free' }, ['tier']],
    [{ email: newEmail(), password: 'long-enough-1', tier: 'FREE', role: 'root' }, ['role']],
    [{ email: 7, password: 'long-enough-1', tier: 'FREE' }, ['email']],
    [{ email: newEmail(), password: 'long-enough-1', tier: 'FREE', managed_by: 'ast_x' }, ['managed_by']],
  ]) {
    const e = assertError(assert, await create({ token: m.token }, body), 400, 'VALIDATION_ERROR');
    assert.deepEqual(e.errors.map((x) => x.field).sort(), fields, JSON.stringify(body));
  }
  assertError(assert, await srv.req('POST', '/api/accounts', { token: m.token, raw: '[1]', headers: { 'content-type': 'application/json' } }), 400, 'VALIDATION_ERROR');
  // the ceiling: role user, its own tier or below, managed by itself
  const above = assertError(assert, await create({ token: m.token }, { email: newEmail(), password: 'long-enough-1', tier: 'ENTERPRISE' }), 403, 'FORBIDDEN');
  assert.match(above.message, /own tier \(PRO\) or below/);
  assertError(assert, await create({ token: m.token }, { email: newEmail(), password: 'long-enough-1', tier: 'FREE', role: 'mssp' }), 403, 'FORBIDDEN');
  assertError(assert, await create({ token: m.token }, { email: newEmail(), password: 'long-enough-1', tier: 'FREE', role: 'admin' }), 403, 'FORBIDDEN');
  assertError(assert, await create({ token: m.token }, { email: newEmail(), password: 'long-enough-1', tier: 'FREE', managed_by: admin.id }), 403, 'FORBIDDEN');
  // at its own tier: 201, managed by it, never a secret
  const email = newEmail('Mixed');
  const r = await create({ token: m.token }, { email, password: 'customer-password-1', tier: 'PRO' });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(Object.keys(r.json).sort(), FIELDS);
  assert.equal(r.json.email, email.toLowerCase());
  assert.equal(r.json.tier, 'PRO');
  assert.equal(r.json.role, 'user');
  assert.equal(r.json.managed_by, m.id);
  assert.equal(r.json.disabled, false);
  assert.match(r.json.id, /^usr_[A-Za-z0-9]+$/);
  assert.ok(!r.text.includes('argon2') && !r.text.includes('customer-password-1'));
  assert.equal((await srv.req('POST', '/api/auth/login', { body: { email, password: 'customer-password-1' } })).status, 200);
  // the same email in other letters: 409 in the envelope, for an admin too
  assertError(assert, await create({ token: m.token }, { email: email.toUpperCase(), password: 'customer-password-1', tier: 'FREE' }), 409, 'CONFLICT');
  assertError(assert, await create({ token: admin.token }, { email, password: 'customer-password-1', tier: 'FREE' }), 409, 'CONFLICT');
  // the change is logged with who made it
  await sleep(200);
  assert.ok(srv.logLines().some((l) => l.msg === 'account changed' && l.action === 'create' && l.user_id === r.json.id && l.by === m.id));
  // an admin creates any role and may name a manager (which must be an account)
  const a = await create({ token: admin.token }, { email: newEmail('op'), password: 'operator-password-1', tier: 'ENTERPRISE', role: 'admin' });
  assert.equal(a.status, 201, a.text);
  assert.equal(a.json.role, 'admin');
  assert.equal(a.json.managed_by, null);
  const managed = await create({ token: admin.token }, { email: newEmail(), password: 'customer-password-1', tier: 'ENTERPRISE', managed_by: m.id });
  assert.equal(managed.status, 201, managed.text);
  assert.equal(managed.json.managed_by, m.id);
  const ghost = assertError(assert, await create({ token: admin.token }, { email: newEmail(), password: 'customer-password-1', tier: 'FREE', managed_by: 'usr_doesnotexist000000000' }), 400, 'VALIDATION_ERROR');
  assert.deepEqual(ghost.errors.map((x) => x.field), ['managed_by']);
  const mine = (await srv.req('GET', '/api/accounts', { token: m.token })).json;
  assert.deepEqual(mine.accounts.map((x) => x.id).sort(), [r.json.id, managed.json.id].sort());
});

test('scope: an admin sees every account, an mssp its own; another mssp\'s account is 404', async () => {
  const a = await srv.session('PRO', { role: 'mssp' });
  const b = await srv.session('STARTER', { role: 'mssp' });
  const ca = (await create({ token: a.token }, { email: newEmail(), password: 'customer-password-1', tier: 'STARTER' })).json;
  const cb = (await create({ token: b.token }, { email: newEmail(), password: 'customer-password-1', tier: 'FREE' })).json;
  const la = (await srv.req('GET', '/api/accounts', { token: a.token })).json;
  assert.deepEqual(la.accounts.map((x) => x.id), [ca.id]);
  assert.equal(la.total, 1);
  for (const x of la.accounts) assert.deepEqual(Object.keys(x).sort(), FIELDS);
  assert.deepEqual((await srv.req('GET', '/api/accounts', { token: b.token })).json.accounts.map((x) => x.id), [cb.id]);
  // the admin: everyone (itself, both mssps and their customers included)
  const all = [];
  for (let off = 0; ; off += 100) {
    const p = (await srv.req('GET', `/api/accounts?limit=100&offset=${off}`, { token: admin.token })).json;
    all.push(...p.accounts);
    if (p.accounts.length < 100) { assert.equal(p.total, all.length); break; }
  }
  for (const id of [admin.id, a.id, b.id, ca.id, cb.id]) assert.ok(all.some((x) => x.id === id), id);
  // newest first
  const times = all.map((x) => x.created_at);
  assert.deepEqual(times, [...times].sort().reverse());
  // b's customer, b itself, the admin, a missing id and something that is no id: the same 404
  for (const id of [cb.id, b.id, admin.id, 'usr_doesnotexist000000000', 'nonsense', 'ast_abc']) {
    for (const verb of ['disable', 'enable']) {
      const e = assertError(assert, await srv.req('POST', `/api/accounts/${id}/${verb}`, { token: a.token }), 404, 'NOT_FOUND');
      assert.equal(e.message, 'no such account');
    }
  }
  assert.equal((await srv.req('POST', `/api/auth/login`, { body: { email: cb.email, password: 'customer-password-1' } })).status, 200, 'untouched');
});

test('paging: limit, offset and the keyset cursor agree; a cursor is bound to the caller\'s scope', async () => {
  const m = await srv.session('ENTERPRISE', { role: 'mssp' });
  const ids = [];
  for (let i = 0; i < 7; i++) ids.push((await create({ token: m.token }, { email: newEmail('p'), password: 'customer-password-1', tier: 'FREE' })).json.id);
  const byOffset = [];
  for (let off = 0; off < 7; off += 3) {
    const p = (await srv.req('GET', `/api/accounts?limit=3&offset=${off}`, { token: m.token })).json;
    assert.equal(p.total, 7);
    assert.equal(p.limit, 3);
    assert.equal(p.offset, off);
    byOffset.push(...p.accounts.map((x) => x.id));
  }
  assert.deepEqual(byOffset.slice().sort(), ids.slice().sort());
  const byCursor = [];
  let cursor = null, pages = 0, last;
  do {
    last = (await srv.req('GET', `/api/accounts?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { token: m.token })).json;
    byCursor.push(...last.accounts.map((x) => x.id));
    cursor = last.next_cursor;
    pages++;
  } while (cursor);
  assert.equal(pages, 3);
  assert.deepEqual(byCursor, byOffset);
  assert.equal(last.next_cursor, null);
  // a cursor of this mssp's list is refused in the admin's (another scope), beside an offset, or changed
  const first = (await srv.req('GET', '/api/accounts?limit=3', { token: m.token })).json.next_cursor;
  for (const q of [`cursor=${first}&offset=1`, `cursor=${first.slice(0, -2)}`, 'limit=0', 'limit=101', 'offset=-1', 'limit=x']) {
    const tok = q.startsWith('cursor') ? m.token : admin.token;
    assertError(assert, await srv.req('GET', `/api/accounts?${q}`, { token: tok }), 400, 'VALIDATION_ERROR');
  }
  const other = assertError(assert, await srv.req('GET', `/api/accounts?limit=3&cursor=${first}`, { token: admin.token }), 400, 'VALIDATION_ERROR');
  assert.equal(other.errors[0].field, 'cursor');
});

test('disable ends every session of the account and revokes its keys; enable lets it sign in again', async () => {
  const m = await srv.session('PRO', { role: 'mssp' });
  const c = (await create({ token: m.token }, { email: newEmail('d'), password: 'customer-password-1', tier: 'STARTER' })).json;
  const cu = { email: c.email, password: 'customer-password-1' };
  const token = await srv.login(cu.email, cu.password);
  const key = (await srv.req('POST', '/api/developer/keys', { token, body: { label: 'ci' } })).json.key;
  const cons = await consoleLogin(cu);
  assert.equal((await srv.req('GET', '/api/developer/keys', { token })).status, 200);
  assert.equal((await srv.req('GET', '/api/developer/keys', { headers: cons })).status, 200);
  const d = await srv.req('POST', `/api/accounts/${c.id}/disable`, { token: m.token });
  assert.equal(d.status, 200, d.text);
  assert.equal(d.json.disabled, true);
  assert.equal(d.json.id, c.id);
  // at once on this server: the old token, the console session and the key
  assertError(assert, await srv.req('GET', '/api/developer/keys', { token }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: cons }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('GET', '/api/threat-intel/playbooks/history', { key }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('POST', '/api/auth/login', { body: cu }), 403, 'FORBIDDEN'); // disabled: the login says so
  // disabling again changes nothing; the list says disabled
  assert.equal((await srv.req('POST', `/api/accounts/${c.id}/disable`, { token: m.token })).json.disabled, true);
  assert.equal((await srv.req('GET', '/api/accounts', { token: m.token })).json.accounts.find((x) => x.id === c.id).disabled, true);
  const e = await srv.req('POST', `/api/accounts/${c.id}/enable`, { token: m.token });
  assert.equal(e.status, 200, e.text);
  assert.equal(e.json.disabled, false);
  const again = await srv.login(cu.email, cu.password);
  assert.equal((await srv.req('GET', '/api/developer/keys', { token: again })).status, 200);
  // what ended stays ended: the old token, the old console session, the revoked key
  assertError(assert, await srv.req('GET', '/api/developer/keys', { token }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: cons }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('GET', '/api/threat-intel/playbooks/history', { key }), 401, 'AUTH_REQUIRED');
  await sleep(200);
  const logged = srv.logLines().filter((l) => l.msg === 'account changed' && l.user_id === c.id).map((l) => l.action);
  assert.deepEqual(logged, ['create', 'disable', 'enable'], 'one line per change (the repeated disable changed nothing)');
});

test('nobody disables their own account here (409); an admin disables another admin', async () => {
  const self = assertError(assert, await srv.req('POST', `/api/accounts/${admin.id}/disable`, { token: admin.token }), 409, 'CONFLICT');
  assert.match(self.message, /your own account/);
  const m = await srv.session('PRO', { role: 'mssp' });
  assertError(assert, await srv.req('POST', `/api/accounts/${m.id}/disable`, { token: m.token }), 409, 'CONFLICT');
  assert.equal((await srv.req('GET', '/api/accounts', { token: admin.token })).status, 200, 'the admin still signed in');
  const other = (await create({ token: admin.token }, { email: newEmail('adm'), password: 'operator-password-1', tier: 'ENTERPRISE', role: 'admin' })).json;
  const otherToken = await srv.login(other.email, 'operator-password-1');
  const d = await srv.req('POST', `/api/accounts/${other.id}/disable`, { token: admin.token });
  assert.equal(d.status, 200, d.text);
  assertError(assert, await srv.req('GET', '/api/accounts', { token: otherToken }), 401, 'AUTH_REQUIRED');
  // an mssp disabling an account it manages leaves the mssp itself signed in
  const c = (await create({ token: m.token }, { email: newEmail(), password: 'customer-password-1', tier: 'FREE' })).json;
  assert.equal((await srv.req('POST', `/api/accounts/${c.id}/disable`, { token: m.token })).status, 200);
  assert.equal((await srv.req('GET', '/api/accounts', { token: m.token })).status, 200);
});
