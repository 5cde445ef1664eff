// The web console's session and files: POST /api/console/session sets an HttpOnly SameSite=Strict
// cookie and answers a CSRF token; the JSON API takes the cookie only with that token in
// X-CSRF-Token; sign-out, a password change and a disable end sessions; the sign-in shares the
// login's throttle; the console's files come with the console's CSP, gzip and ETags.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { startServer, assertError, BACKEND } from './lib/server.mjs';

const FAILURES = 3; // BULWARK_LOGIN_MAX_FAILURES here
let srv;
before(async () => { srv = await startServer({ env: { BULWARK_LOGIN_MAX_FAILURES: String(FAILURES) } }); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

const COOKIE_RE = /^bulwark_console=([A-Za-z0-9_-]{43}); Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/;

// Signs u in to the console: {cookie: "bulwark_console=...", id, csrf, json, setCookie}.
async function consoleLogin(u) {
  const r = await srv.req('POST', '/api/console/session', { body: { email: u.email, password: u.password } });
  assert.equal(r.status, 200, r.text);
  const setCookie = r.headers.get('set-cookie');
  const m = COOKIE_RE.exec(setCookie);
  assert.ok(m, `cookie flags: ${setCookie}`);
  return { cookie: `bulwark_console=${m[1]}`, id: m[1], csrf: r.json.csrf_token, json: r.json, setCookie };
}

const withCookie = (s, csrf = s.csrf) => (csrf === null ? { cookie: s.cookie } : { cookie: s.cookie, 'x-csrf-token': csrf });

test('sign-in sets an HttpOnly SameSite=Strict cookie (not Secure without TLS) and answers the CSRF token', async () => {
  const u = srv.addUser('PRO');
  const s = await consoleLogin(u);
  assert.ok(!/Secure/.test(s.setCookie), 'plain HTTP: no Secure flag');
  assert.match(s.csrf, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(s.csrf, s.id);
  assert.equal(s.json.user.id, u.id);
  assert.equal(s.json.user.email, u.email);
  assert.equal(s.json.user.tier, 'PRO');
  assert.equal(s.json.idle_timeout, 1800);
  assert.ok(Date.parse(s.json.expires_at) > Date.now());
  assert.ok(!('token' in s.json), 'no bearer token in the console answer');
  // a reloaded page learns the same token back from the cookie alone
  const g = await srv.req('GET', '/api/console/session', { headers: { cookie: s.cookie } });
  assert.equal(g.status, 200, g.text);
  assert.equal(g.json.csrf_token, s.csrf);
  assert.equal(g.json.user.id, u.id);
  assertError(assert, await srv.req('GET', '/api/console/session'), 401, 'AUTH_REQUIRED');
});

test('only the hash of the session id is stored', { skip: BACKEND !== 'sqlite' && 'reads the SQLite files' }, async () => {
  const u = srv.addUser('FREE');
  const s = await consoleLogin(u);
  for (const f of readdirSync(srv.dir)) {
    const p = join(srv.dir, f);
    if (!statSync(p).isFile()) continue;
    assert.ok(!readFileSync(p).includes(Buffer.from(s.id)), `${f} holds the raw session id`);
  }
});

test('the cookie counts only with its X-CSRF-Token: without it the request is anonymous', async () => {
  const u = srv.addUser('STARTER');
  const s = await consoleLogin(u);
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: withCookie(s, null) }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('POST', '/api/developer/keys', { headers: withCookie(s, null), body: { label: 'x' } }),
    401, 'AUTH_REQUIRED');
  // a wrong token, another session's token, a token without a cookie
  const other = await consoleLogin(srv.addUser('STARTER'));
  for (const csrf of ['x'.repeat(43), other.csrf, s.id, 'short']) {
    const e = assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: withCookie(s, csrf) }), 401, 'AUTH_REQUIRED');
    assert.ok(!e.message.includes(s.id));
  }
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: { 'x-csrf-token': s.csrf } }), 401, 'AUTH_REQUIRED');
  // with it: a session, as a bearer token is
  const c = await srv.req('POST', '/api/developer/keys', { headers: withCookie(s), body: { label: 'from console' } });
  assert.equal(c.status, 201, c.text);
  const l = await srv.req('GET', '/api/developer/keys', { headers: withCookie(s) });
  assert.equal(l.status, 200, l.text);
  assert.equal(l.json.keys[0].label, 'from console');
  assert.equal(l.headers.get('x-request-id').startsWith('req_'), true);
  // the header credentials work unchanged, a cookie beside them is not read
  const t = await srv.login(u.email, u.password);
  const b = await srv.req('GET', '/api/developer/keys', { token: t, headers: { cookie: 'bulwark_console=garbage' } });
  assert.equal(b.status, 200, b.text);
  const k = await srv.req('GET', '/api/ai-security/assets', { key: c.json.key, headers: { cookie: s.cookie } });
  assert.equal(k.status, 200, k.text);
});

test("another account's data is 404 through the cookie too", async () => {
  const a = await srv.session('PRO', { key: true });
  const b = await consoleLogin(srv.addUser('PRO'));
  assertError(assert, await srv.req('DELETE', `/api/developer/keys/${a.keyId}`, { headers: withCookie(b) }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('POST', `/api/developer/keys/${a.keyId}/rotate`, { headers: withCookie(b) }), 404, 'NOT_FOUND');
  const mine = await srv.req('GET', '/api/developer/keys', { token: a.token });
  assert.equal(mine.json.keys[0].active, true);
});

test('sign-out ends that session and clears the cookie; other sessions go on', async () => {
  const u = srv.addUser('FREE');
  const s1 = await consoleLogin(u);
  const s2 = await consoleLogin(u);
  assertError(assert, await srv.req('DELETE', '/api/console/session', { headers: withCookie(s1, null) }), 401, 'AUTH_REQUIRED');
  const d = await srv.req('DELETE', '/api/console/session', { headers: withCookie(s1) });
  assert.equal(d.status, 204, d.text);
  assert.match(d.headers.get('set-cookie'), /^bulwark_console=; Path=\/; Max-Age=0; HttpOnly; SameSite=Strict$/);
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: withCookie(s1) }), 401, 'AUTH_REQUIRED');
  assertError(assert, await srv.req('GET', '/api/console/session', { headers: { cookie: s1.cookie } }), 401, 'AUTH_REQUIRED');
  assert.equal((await srv.req('GET', '/api/developer/keys', { headers: withCookie(s2) })).status, 200);
});

test("a password change ends all the account's console sessions", async () => {
  const u = srv.addUser('FREE');
  const s1 = await consoleLogin(u);
  const s2 = await consoleLogin(u);
  const t = await srv.login(u.email, u.password);
  const p = await srv.req('POST', '/api/auth/password', { token: t, body: { current_password: u.password, new_password: 'a-new-password-123' } });
  assert.equal(p.status, 200, p.text);
  for (const s of [s1, s2]) {
    const e = assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: withCookie(s) }), 401, 'AUTH_REQUIRED');
    assert.match(e.message, /ended/);
  }
  // changed through the console itself: that session ends too
  u.password = 'a-new-password-123';
  const s3 = await consoleLogin(u);
  const p2 = await srv.req('POST', '/api/auth/password', { headers: withCookie(s3), body: { current_password: u.password, new_password: 'third-password-456' } });
  assert.equal(p2.status, 200, p2.text);
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: withCookie(s3) }), 401, 'AUTH_REQUIRED');
});

test("disabling or deleting the account ends its console sessions", async () => {
  const u = srv.addUser('FREE');
  const s = await consoleLogin(u);
  srv.cli(['user', 'disable', u.email]);
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: withCookie(s) }), 401, 'AUTH_REQUIRED');
  srv.cli(['user', 'enable', u.email]);
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: withCookie(s) }), 401, 'AUTH_REQUIRED');
  const s2 = await consoleLogin(u);
  srv.cli(['user', 'delete', u.email]);
  assertError(assert, await srv.req('GET', '/api/developer/keys', { headers: withCookie(s2) }), 401, 'AUTH_REQUIRED');
});

test('the console sign-in is throttled with /api/auth/login: one budget per email', async () => {
  const u = srv.addUser('FREE');
  for (let i = 0; i < FAILURES; i++) {
    const r = await srv.req('POST', '/api/console/session', { body: { email: u.email, password: 'wrong-password' } });
    assertError(assert, r, 400, 'INVALID_CREDENTIALS');
    assert.equal(r.headers.get('set-cookie'), null);
  }
  const r = await srv.req('POST', '/api/console/session', { body: { email: u.email, password: u.password } });
  assertError(assert, r, 429, 'RATE_LIMITED');
  assert.ok(Number(r.headers.get('retry-after')) > 0);
  assert.equal(r.headers.get('set-cookie'), null);
  assertError(assert, await srv.req('POST', '/api/auth/login', { body: { email: u.email, password: u.password } }), 429, 'RATE_LIMITED');
  // and the other way round
  const v = srv.addUser('FREE');
  for (let i = 0; i < FAILURES; i++)
    assertError(assert, await srv.req('POST', '/api/auth/login', { body: { email: v.email, password: 'nope-nope' } }), 400, 'INVALID_CREDENTIALS');
  assertError(assert, await srv.req('POST', '/api/console/session', { body: { email: v.email, password: v.password } }), 429, 'RATE_LIMITED');
  // an unknown email is the same answer as a wrong password
  assertError(assert, await srv.req('POST', '/api/console/session', { body: { email: 'nobody@example.com', password: 'whatever1' } }),
    400, 'INVALID_CREDENTIALS');
  assertError(assert, await srv.req('POST', '/api/console/session', { body: { email: 'x' } }), 400, 'VALIDATION_ERROR');
});

// The raw response (no decompression), for Content-Encoding checks.
function raw(path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: srv.port, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

test('the console is served at / with the strict CSP, gzip when accepted, ETags', async () => {
  const gz = await raw('/', { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(gz.status, 200);
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gz.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(gz.headers.vary, 'Accept-Encoding');
  const csp = gz.headers['content-security-policy'];
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.ok(!/unsafe-inline|unsafe-eval/.test(csp), csp);
  const html = gunzipSync(gz.body).toString();
  assert.match(html, /<script type="module" src="\/js\/app.js"><\/script>/);
  assert.ok(!/<script>|<style|style=/.test(html), 'no inline script or style');
  const plain = await raw('/index.html', { 'accept-encoding': 'identity' });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.toString(), html);
  assert.notEqual(plain.headers.etag, gz.headers.etag);
  assert.equal(Number(plain.headers['content-length']), plain.body.length);
  assert.ok(gz.body.length < plain.body.length);
  const again = await raw('/', { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  const js = await raw('/js/app.js', { 'accept-encoding': 'gzip' });
  assert.equal(js.status, 200);
  assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(js.headers['cache-control'], 'no-cache');
  const css = await raw('/css/console.css');
  assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
  assert.equal(css.headers['content-encoding'], undefined);
  const head = await srv.req('HEAD', '/');
  assert.equal(head.status, 200);
  // the API keeps its own CSP and no-store
  const api = await srv.req('GET', '/api/openapi.json');
  assert.equal(api.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'");
  assert.equal(api.headers.get('cache-control'), 'no-store');
});

test('unknown pages are 404 with the envelope; /api stays the API', async () => {
  assertError(assert, await srv.req('GET', '/no/such/page.html'), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', '/api/no-such-endpoint'), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', '/api/'), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('POST', '/', { body: {} }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', '/../src/main.c'), 404, 'NOT_FOUND');
});

test('BULWARK_COOKIE_SECURE=1 (TLS at a proxy) makes the cookie Secure on plain HTTP', async () => {
  const other = await startServer({ env: { BULWARK_COOKIE_SECURE: '1', BULWARK_WORKERS: '0' } });
  try {
    const u = other.addUser('FREE');
    const r = await other.req('POST', '/api/console/session', { body: { email: u.email, password: u.password } });
    assert.equal(r.status, 200, r.text);
    assert.match(r.headers.get('set-cookie'), /; HttpOnly; SameSite=Strict; Secure$/);
  } finally {
    assert.equal(await other.stop(), 0);
  }
});
