// Rate limits, restarts (persistence of accounts, keys and the JWT secret), graceful shutdown
// and login bursts running off the event threads. Each test runs its own server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, Server, assertError, rawSocket, readResponse, ADMIN_PASSWORD } from './lib/server.mjs';
import { startTarget } from './lib/targets.mjs';

test('anonymous callers are limited per IP with RateLimit headers and Retry-After', async () => {
  const srv = await startServer({ env: { BULWARK_RATE_ANON: '5' } });
  try {
    const seen = [];
    for (let i = 0; i < 5; i++) {
      const r = await srv.req('GET', '/api/ai-security/governance/frameworks');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('ratelimit-limit'), '5');
      seen.push(Number(r.headers.get('ratelimit-remaining')));
    }
    assert.deepEqual(seen, [4, 3, 2, 1, 0]);
    const r = await srv.req('GET', '/api/ai-security/governance/frameworks');
    const e = assertError(assert, r, 429, 'RATE_LIMITED');
    const ra = Number(r.headers.get('retry-after'));
    assert.ok(ra > 0 && ra <= 3600);
    assert.equal(e.retry_after, ra);
    // health is never limited
    assert.equal((await srv.req('GET', '/healthz')).status, 200);
    // X-Forwarded-For is ignored without trusted proxies
    const f = await srv.req('GET', '/api/ai-security/governance/frameworks', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(f.status, 429);
  } finally { await srv.stop(); }
});

test('accounts are limited per account across keys and tokens; ENTERPRISE is unlimited', async () => {
  const srv = await startServer({ env: { BULWARK_RATE_FREE: '4', BULWARK_RATE_STARTER: '6', BULWARK_RATE_ANON: '1' } });
  try {
    const u = await srv.session('STARTER', { key: true });
    const c2 = await srv.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'two' } });
    const creds = [{ key: u.key }, { key: c2.json.key }, { token: u.token }];
    let ok = 0, limited = null;
    for (let i = 0; i < 12; i++) {
      const r = await srv.req('GET', '/api/ai-security/governance/frameworks', creds[i % 3]);
      if (r.status === 200) ok++; else { limited = r; break; }
    }
    // key management calls count too (2 so far: the key creations and list are session calls)
    assert.ok(limited, 'the account hit its limit');
    assertError(assert, limited, 429, 'RATE_LIMITED');
    assert.equal(limited.headers.get('ratelimit-limit'), '6');
    assert.ok(ok <= 6);
    // another account is unaffected, and so is the anonymous budget of this IP
    const other = await srv.session('STARTER', { key: true });
    assert.equal((await srv.req('GET', '/api/ai-security/governance/frameworks', { key: other.key })).status, 200);
    const ent = await srv.session('ENTERPRISE', { key: true });
    for (let i = 0; i < 20; i++) {
      const r = await srv.req('GET', '/api/ai-security/governance/frameworks', { key: ent.key });
      assert.equal(r.status, 200);
    }
  } finally { await srv.stop(); }
});

test('accounts, keys and tokens survive a restart; the generated JWT secret persists', async () => {
  const first = new Server();
  await first.start();
  const u = await first.session('PRO', { key: true });
  assert.equal(await first.stop({ keepData: true }), 0);
  const second = new Server({ dir: first.dir, database: first.database, adminKey: first.adminKey });
  await second.start();
  try {
    let r = await second.req('GET', '/api/developer/keys', { token: u.token });
    assert.equal(r.status, 200, 'token issued before the restart still valid');
    assert.equal(r.json.count, 1);
    r = await second.req('GET', '/api/ai-security/governance/frameworks', { key: u.key });
    assert.equal(r.status, 200);
    // exactly one bootstrap admin: the second start did not create another
    const users = JSON.parse(second.cli(['user', 'list']));
    const arr = Array.isArray(users) ? users : users.users;
    assert.equal(arr.filter(x => x.email === 'admin@localhost').length, 1);
    assert.ok(!second.logLines().some(l => l.msg === 'bootstrap admin account created'));
  } finally {
    await second.stop({ keepData: false });
  }
});

test('two instances on one database accept each other\'s tokens', async () => {
  const a = new Server();
  await a.start();
  const b = new Server({ dir: a.dir, database: a.database, adminKey: a.adminKey });
  await b.start();
  try {
    const u = await a.session('STARTER');
    const r = await b.req('GET', '/api/developer/keys', { token: u.token });
    assert.equal(r.status, 200);
  } finally {
    await b.stop({ keepData: true });
    await a.stop();
  }
});

test('a second server on a port in use fails to start; a restart can take the port at once', async () => {
  const a = await startServer();
  const port = a.port;
  try {
    // the port must not be shared silently: connections would be split between two servers
    const b = new Server({ env: { BULWARK_LISTEN: `127.0.0.1:${port}` } });
    await assert.rejects(b.start(), /server exited with [1-9]/);
    assert.ok(b.logs.some(l => l.obj && /cannot listen.*in use/.test(l.obj.msg || '')), 'says why');
    // nothing happened before: no migrations, no bootstrap account or admin key shown and lost
    assert.ok(!b.logs.some(l => l.obj && /migration applied|admin key generated|bootstrap admin/.test(l.obj.msg || '')),
      b.logs.map(l => l.raw).join('\n'));
    b.stopping = true;
    await b.stop();
    const r = await a.req('GET', '/healthz');
    assert.equal(r.status, 200);
  } finally {
    assert.equal(await a.stop({ keepData: true }), 0);
  }
  // the same data and port right after a clean exit (connections in TIME_WAIT do not block it)
  const c = new Server({ dir: a.dir, database: a.database, adminKey: a.adminKey,
    env: { BULWARK_LISTEN: `127.0.0.1:${port}` } });
  await c.start();
  try {
    assert.equal(c.port, port);
    assert.equal((await c.req('GET', '/readyz')).status, 200);
  } finally {
    await c.stop();
  }
});

test('a bad setting stops the start before the database is touched', async () => {
  for (const [env, re] of [
    [{ BULWARK_TRUSTED_PROXIES: '127.0.0.1,notanip' }, /BULWARK_TRUSTED_PROXIES: 'notanip' is not an IP address/],
    [{ BULWARK_EGRESS_ALLOW: 'everything' }, /BULWARK_EGRESS_ALLOW/],
    [{ BULWARK_LISTEN: 'nohostport' }, /BULWARK_LISTEN must be HOST:PORT/],
  ]) {
    const b = new Server({ env });
    await assert.rejects(b.start(), /server exited with [1-9]/);
    const text = b.logs.map(l => l.raw).join('\n');
    assert.match(text, re);
    assert.doesNotMatch(text, /migration applied|admin key generated|bootstrap admin/);
    b.stopping = true;
    await b.stop();
  }
});

// A server allowed to reach a local target that answers after delayMs; the target is closed
// again if the server cannot start (an open listener would keep the test process alive).
async function withSlowTarget(delayMs, opts) {
  const target = await startTarget({ mode: 'careless', delayMs });
  try {
    return { target, srv: await startServer(opts) };
  } catch (e) {
    await target.close();
    throw e;
  }
}

test('/readyz answers 503 while the server drains after SIGTERM', async () => {
  const { target, srv } = await withSlowTarget(400, { env: { BULWARK_EGRESS_ALLOW: 'loopback' } });
  try {
    const u = await srv.session('PRO');
    const a = await srv.req('POST', '/api/ai-security/assets/register', { token: u.token,
      body: { name: 'slowish', type: 'model', endpoint: target.url } });
    assert.equal(a.status, 201, a.text);
    // a balancer's probe connection, already open
    const probe = await rawSocket(srv.port);
    probe.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal((await readResponse(probe)).status, 200);
    // a live scan of the slow target keeps the drain open
    const pending = srv.req('POST', `/api/ai-security/assets/${a.json.asset_id}/scan`, { token: u.token });
    for (let i = 0; i < 400; i++) {
      const m = await srv.req('GET', '/metrics', { key: srv.adminKey });
      if (Number((m.text.match(/^bulwark_http_requests_in_flight (\d+)/m) || [])[1]) >= 2) break;
      await new Promise(r => setTimeout(r, 5));
    }
    srv.proc.kill('SIGTERM');
    for (let i = 0; i < 1000 && !srv.logLines().some(l => l.msg === 'shutting down'); i++) await new Promise(r => setTimeout(r, 5));
    probe.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
    const r = await readResponse(probe);
    assert.equal(r.status, 503);
    assert.equal(r.json.error.code, 'UNAVAILABLE');
    assert.equal(r.headers['retry-after'], '1');
    assert.equal(r.headers.connection, 'close');
    probe.destroy();
    // the request in flight still completes
    assert.equal((await pending).status, 200);
    assert.equal(await srv.stop(), 0);
  } finally {
    await target.close();
    if (srv.exitCode === undefined) await srv.stop();
  }
});

test('a request still running past BULWARK_SHUTDOWN_GRACE_S is dropped and the process exits 0, no abort', async () => {
  const { target, srv } = await withSlowTarget(4000, { env: { BULWARK_SHUTDOWN_GRACE_S: '1', BULWARK_EGRESS_ALLOW: 'loopback' } });
  try {
    const u = await srv.session('PRO');
    const a = await srv.req('POST', '/api/ai-security/assets/register', { token: u.token,
      body: { name: 'slow', type: 'model', endpoint: target.url } });
    assert.equal(a.status, 201, a.text);
    // the scan waits on the slow target on the probe pool: its connection is suspended
    const pending = srv.req('POST', `/api/ai-security/assets/${a.json.asset_id}/scan`, { token: u.token }).catch((e) => e);
    for (let i = 0; i < 200; i++) {
      const m = await srv.req('GET', '/metrics', { key: srv.adminKey });
      if (Number((m.text.match(/^bulwark_http_requests_in_flight (\d+)/m) || [])[1]) >= 2) break;
      await new Promise(r => setTimeout(r, 5));
    }
    const t0 = Date.now();
    assert.equal(await srv.stop({ keepData: true }), 0);
    assert.ok(Date.now() - t0 < 3500, 'the grace, not the scan, decided when it stopped');
    const stopped = srv.logLines().find(l => l.msg === 'stopped');
    assert.equal(stopped.abandoned, 1);
    assert.ok(!srv.logs.some(l => /Fatal error|suspended connections/.test(l.raw)));
    assert.ok((await pending) instanceof Error, 'the dropped request sees its connection close');
  } finally {
    await target.close();
    if (srv.exitCode === undefined) await srv.stop();
  }
});

test('SIGTERM finishes in-flight requests, then exits 0', async () => {
  const srv = await startServer();
  // a login is in flight (argon2id takes a while) when the signal arrives
  const pending = srv.req('POST', '/api/auth/login', { body: { email: 'admin@localhost', password: ADMIN_PASSWORD } });
  // signal only once the server holds the login (a fixed sleep raced the request under load):
  // the metrics request itself is one in flight, so two means the login is being processed
  for (let i = 0; i < 200; i++) {
    const m = await srv.req('GET', '/metrics', { key: srv.adminKey });
    const n = Number((m.text.match(/^bulwark_http_requests_in_flight (\d+)/m) || [])[1]);
    if (n >= 2) break;
    await new Promise(r => setTimeout(r, 2));
  }
  srv.proc.kill('SIGTERM');
  const r = await pending;
  assert.equal(r.status, 200, r.text);
  assert.equal(await srv.stop(), 0);
});

test('a burst of logins does not stall other requests', async () => {
  // two logins for each of 8 accounts, each from an address of its own: under the in-flight caps
  // (per email and per address), so every one is checked
  const srv = await startServer({ env: { BULWARK_THREADS: '2', BULWARK_TRUSTED_PROXIES: '127.0.0.1' } });
  try {
    const users = Array.from({ length: 8 }, () => srv.addUser('FREE'));
    const logins = Array.from({ length: 16 }, (_, i) =>
      srv.req('POST', '/api/auth/login', { body: { email: users[i >> 1].email, password: users[i >> 1].password },
        headers: { 'x-forwarded-for': `10.0.0.${i + 1}` } }));
    const t0 = performance.now();
    const h = await srv.req('GET', '/healthz');
    const healthMs = performance.now() - t0;
    const rs = await Promise.all(logins);
    const t1 = performance.now();
    assert.equal(h.status, 200);
    assert.ok(rs.every(r => r.status === 200));
    const loginsMs = t1 - t0;
    // health answered well before the login burst finished: logins are not on the event threads
    assert.ok(healthMs < loginsMs / 2, `healthz took ${healthMs.toFixed(0)} ms, logins ${loginsMs.toFixed(0)} ms`);
  } finally { await srv.stop(); }
});

test('a slow client sending a body does not block others', async () => {
  const srv = await startServer({ env: { BULWARK_THREADS: '1' } });
  try {
    const body = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(64) });
    const s = await rawSocket(srv.port);
    s.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` + body.slice(0, 4));
    const r = await srv.req('GET', '/healthz');
    assert.equal(r.status, 200);
    s.write(body.slice(4));
    const resp = await readResponse(s);
    assert.equal(resp.status, 400);
    s.destroy();
  } finally { await srv.stop(); }
});

test('metrics are open when BULWARK_METRICS_PUBLIC is set', async () => {
  const srv = await startServer({ env: { BULWARK_METRICS_PUBLIC: '1' } });
  try {
    const r = await srv.req('GET', '/metrics');
    assert.equal(r.status, 200);
    assert.match(r.text, /bulwark_uptime_seconds \d+/);
  } finally { await srv.stop(); }
});
