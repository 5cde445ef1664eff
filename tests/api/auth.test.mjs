// Login, JWT and credentials: what a client sees for good, bad, forged and expired credentials.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { startServer, assertError, ADMIN_PASSWORD } from './lib/server.mjs';

const SECRET = 'test-jwt-secret-' + randomBytes(16).toString('hex');
let srv;
before(async () => { srv = await startServer({ env: { BULWARK_JWT_SECRET: SECRET } }); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

const b64u = (x) => Buffer.from(typeof x === 'string' ? x : JSON.stringify(x)).toString('base64url');
function forge(header, claims, secret = SECRET) {
  const head = b64u(header) + '.' + b64u(claims);
  const sig = createHmac('sha256', secret).update(head).digest('base64url');
  return head + '.' + sig;
}
const decode = (t) => JSON.parse(Buffer.from(t.split('.')[1], 'base64url').toString());

test('bootstrap admin logs in; login result has the contract fields', async () => {
  const r = await srv.req('POST', '/api/auth/login', { body: { email: 'admin@localhost', password: ADMIN_PASSWORD } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.token_type, 'Bearer');
  assert.equal(r.json.expires_in, 86400);
  assert.match(r.json.user.id, /^usr_[A-Za-z0-9]+$/);
  assert.equal(r.json.user.email, 'admin@localhost');
  assert.equal(r.json.user.tier, 'ENTERPRISE');
  assert.equal(r.json.user.role, 'admin');
  const c = decode(r.json.token);
  assert.equal(c.sub, r.json.user.id);
  assert.equal(c.iss, 'bulwark');
  assert.equal(c.exp - c.iat, 86400);
  assert.ok(c.jti);
  assert.equal(JSON.parse(Buffer.from(r.json.token.split('.')[0], 'base64url')).alg, 'HS256');
});

test('unknown email and wrong password give the same 400 INVALID_CREDENTIALS', async () => {
  const u = srv.addUser('FREE');
  const a = await srv.req('POST', '/api/auth/login', { body: { email: u.email, password: 'wrong-password' } });
  const b = await srv.req('POST', '/api/auth/login', { body: { email: 'nobody@example.com', password: 'wrong-password' } });
  const ea = assertError(assert, a, 400, 'INVALID_CREDENTIALS');
  const eb = assertError(assert, b, 400, 'INVALID_CREDENTIALS');
  assert.equal(ea.message, eb.message);
  // emails are case-insensitive
  const ok = await srv.req('POST', '/api/auth/login', { body: { email: u.email.toUpperCase(), password: u.password } });
  assert.equal(ok.status, 200);
});

test('repeated failed logins for one email are throttled with 429 and Retry-After', async () => {
  const u = srv.addUser('FREE');
  let last;
  for (let i = 0; i < 12; i++) {
    last = await srv.req('POST', '/api/auth/login', { body: { email: u.email, password: 'nope-' + i } });
    if (last.status === 429) break;
  }
  const e = assertError(assert, last, 429, 'RATE_LIMITED');
  const ra = Number(last.headers.get('retry-after'));
  assert.ok(ra > 0);
  assert.equal(e.retry_after, ra);
  // even the right password is refused while throttled
  const r = await srv.req('POST', '/api/auth/login', { body: { email: u.email, password: u.password } });
  assert.equal(r.status, 429);
});

test('a token works for session routes; a forged, tampered or expired one is 401', async () => {
  const u = await srv.session('PRO');
  let r = await srv.req('GET', '/api/developer/keys', { token: u.token });
  assert.equal(r.status, 200, r.text);

  const now = Math.floor(Date.now() / 1000);
  const good = { sub: u.id, tier: 'ENTERPRISE', role: 'admin', iat: now, exp: now + 3600, jti: 'j1', iss: 'bulwark' };
  // a token signed with the configured secret is accepted (proves the secret is used) ...
  r = await srv.req('GET', '/api/developer/keys', { token: forge({ alg: 'HS256', typ: 'JWT' }, good) });
  assert.equal(r.status, 200, r.text);
  // ... any other secret, alg or claim set is not
  const bad = [
    forge({ alg: 'HS256', typ: 'JWT' }, good, 'some-other-secret-that-is-long-enough'),
    b64u({ alg: 'none', typ: 'JWT' }) + '.' + b64u(good) + '.',
    forge({ alg: 'HS512', typ: 'JWT' }, good),
    forge({ alg: 'HS256' }, { ...good, exp: now - 3600, iat: now - 7200 }),
    forge({ alg: 'HS256' }, { ...good, iss: 'someone-else' }),
    forge({ alg: 'HS256' }, { ...good, sub: 'usr_doesnotexist0000000000' }),
    u.token.slice(0, -3) + (u.token.endsWith('AAA') ? 'BBB' : 'AAA'),
    'not-a-jwt',
  ];
  for (const t of bad) {
    r = await srv.req('GET', '/api/developer/keys', { token: t });
    assertError(assert, r, 401, 'AUTH_REQUIRED');
  }
});

test('the tier comes from the account, not from the token claims', async () => {
  const u = await srv.session('FREE');
  const now = Math.floor(Date.now() / 1000);
  const t = forge({ alg: 'HS256' }, { sub: u.id, tier: 'ENTERPRISE', role: 'user', iat: now, exp: now + 600, jti: 'x', iss: 'bulwark' });
  const r = await srv.req('GET', '/api/developer/keys', { token: t });
  assert.equal(r.status, 200);
  assert.equal(r.json.max_keys, 1, 'FREE account keeps the FREE key limit');
});

test('invalid credentials are 401, never silently anonymous', async () => {
  let r = await srv.req('GET', '/api/ai-security/governance/frameworks', { key: 'svc_invalid' });
  assertError(assert, r, 401, 'AUTH_REQUIRED');
  r = await srv.req('GET', '/api/ai-security/governance/frameworks', { token: 'garbage' });
  assertError(assert, r, 401, 'AUTH_REQUIRED');
  r = await srv.req('GET', '/api/ai-security/governance/frameworks', { headers: { authorization: 'Basic Zm9vOmJhcg==' } });
  assertError(assert, r, 401, 'AUTH_REQUIRED');
});

test('missing credentials on a session route is 401', async () => {
  const r = await srv.req('GET', '/api/developer/keys');
  assertError(assert, r, 401, 'AUTH_REQUIRED');
});

test('the admin key is accepted on public routes and is not an account', async () => {
  let r = await srv.req('GET', '/api/ai-security/governance/frameworks', { key: srv.adminKey });
  assert.equal(r.status, 200);
  // it authenticated, but key management needs an account's session: 403, not 401
  r = await srv.req('GET', '/api/developer/keys', { key: srv.adminKey });
  assertError(assert, r, 403, 'FORBIDDEN');
  r = await srv.req('GET', '/api/ai-security/governance/frameworks', { key: srv.adminKey + 'x' });
  assertError(assert, r, 401, 'AUTH_REQUIRED');
});

test('secrets never appear in the log', async () => {
  const u = await srv.session('STARTER', { key: true });
  await srv.req('GET', '/api/ai-security/governance/frameworks', { key: u.key });
  await srv.req('GET', '/api/ai-security/governance/frameworks', { key: srv.adminKey });
  await new Promise(r => setTimeout(r, 300)); // the log is flushed every 100 ms
  const all = srv.logs.map(l => l.raw).join('\n');
  assert.ok(!all.includes(u.key), 'API key not logged');
  assert.ok(!all.includes(u.token), 'token not logged');
  assert.ok(!all.includes(u.password), 'password not logged');
  assert.ok(!all.includes(srv.adminKey), 'admin key not logged');
  assert.ok(!all.includes(SECRET), 'JWT secret not logged');
});

test('CLI: user list and set-tier change what the API sees', async () => {
  const u = await srv.session('FREE');
  const list = JSON.parse(srv.cli(['user', 'list']));
  const arr = Array.isArray(list) ? list : list.users;
  assert.ok(arr.some(x => x.email === u.email && x.tier === 'FREE'));
  srv.cli(['user', 'set-tier', u.email, 'PRO']);
  // the tier is re-read from the account (within the auth cache time)
  let maxKeys;
  for (let i = 0; i < 40; i++) {
    const r = await srv.req('GET', '/api/developer/keys', { token: u.token });
    maxKeys = r.json.max_keys;
    if (maxKeys === 25) break;
    await new Promise(res => setTimeout(res, 100));
  }
  assert.equal(maxKeys, 25);
  assert.throws(() => srv.cli(['user', 'add', u.email, '--tier', 'FREE', '--password-stdin'], 'another-password\n'));
  assert.throws(() => srv.cli(['user', 'add', 'x@example.com', '--tier', 'GOLD', '--password-stdin'], 'another-password\n'));
});
