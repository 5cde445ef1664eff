// Hardening: security headers on every answer, methods that are refused, slow clients cut at the
// request deadline (BULWARK_CONN_TIMEOUT_S) while others are served, and the per-address connection
// limit (BULWARK_MAX_CONN_PER_IP).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startServer, assertError, rawSocket, readResponse, BIN } from './lib/server.mjs';

const TIMEOUT_S = 2;
let srv;
before(async () => {
  srv = await startServer({ env: { BULWARK_CONN_TIMEOUT_S: String(TIMEOUT_S), BULWARK_WORKERS: '0' } });
});
after(async () => { if (srv) assert.equal(await srv.stop(), 0, 'clean exit on SIGTERM'); });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// One request on its own connection, for methods and bytes fetch will not send.
async function raw(port, head) {
  const s = await rawSocket(port);
  s.write(head + 'Host: x\r\nConnection: close\r\n\r\n');
  try { return await readResponse(s); } finally { s.destroy(); }
}

// Resolves with the milliseconds until the server closes s (data it sends is collected).
function closedAfter(s, t0, limitMs) {
  return new Promise((resolve, reject) => {
    let got = '';
    const timer = setTimeout(() => reject(new Error(`still open after ${limitMs} ms`)), limitMs);
    s.on('data', (d) => { got += d; });
    s.on('error', () => {});
    s.on('close', () => { clearTimeout(timer); resolve({ ms: Date.now() - t0, got }); });
  });
}

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};
function assertSecurityHeaders(headers, what) {
  const get = (k) => (headers.get ? headers.get(k) : headers[k]);
  for (const [k, v] of Object.entries(SECURITY)) assert.equal(get(k), v, `${what}: ${k}`);
  assert.equal(get('strict-transport-security') ?? undefined, undefined, `${what}: no HSTS over plain HTTP`);
}

test('security headers on 200, 401, 404, 405, 413 and 501 answers', async () => {
  let r = await srv.req('GET', '/healthz');
  assert.equal(r.status, 200);
  assertSecurityHeaders(r.headers, '200');
  r = await srv.req('GET', '/api/developer/keys');
  assertError(assert, r, 401, 'AUTH_REQUIRED');
  assertSecurityHeaders(r.headers, '401');
  r = await srv.req('GET', '/api/nope');
  assertError(assert, r, 404, 'NOT_FOUND');
  assertSecurityHeaders(r.headers, '404');
  r = await srv.req('DELETE', '/healthz');
  assertError(assert, r, 405, 'METHOD_NOT_ALLOWED');
  assertSecurityHeaders(r.headers, '405');
  const s = await rawSocket(srv.port);
  s.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999\r\n\r\n');
  const big = await readResponse(s);
  s.destroy();
  assert.equal(big.status, 413);
  assertSecurityHeaders(big.headers, '413');
  const odd = await raw(srv.port, 'FOO /healthz HTTP/1.1\r\n');
  assert.equal(odd.status, 501);
  assertSecurityHeaders(odd.headers, '501');
});

test('TRACE and CONNECT are 405 with Allow on a known path, 404 elsewhere', async () => {
  for (const m of ['TRACE', 'CONNECT']) {
    const r = await raw(srv.port, `${m} /healthz HTTP/1.1\r\n`);
    assert.equal(r.status, 405, `${m}: ${r.body}`);
    assert.equal(r.headers.allow, 'GET, HEAD');
    assert.equal(r.json.error.code, 'METHOD_NOT_ALLOWED');
    assert.match(r.json.error.message, new RegExp(`method ${m} is not allowed`));
    assert.equal(r.json.error.request_id, r.headers['x-request-id']);
  }
  let r = await raw(srv.port, 'TRACE /api/nope HTTP/1.1\r\n');
  assert.equal(r.status, 404);
  assert.equal(r.json.error.code, 'NOT_FOUND');
  r = await raw(srv.port, 'CONNECT example.com:443 HTTP/1.1\r\n');
  assert.equal(r.status, 404);
  assert.equal(r.json.error.code, 'NOT_FOUND');
  // a TRACE body is never echoed
  r = await raw(srv.port, 'TRACE /healthz HTTP/1.1\r\nX-Secret: do-not-echo\r\n');
  assert.ok(!r.body.includes('do-not-echo'));
});

test('unknown and malformed method tokens are 501 NOT_IMPLEMENTED on any path', async () => {
  for (const m of ['FOO', 'PROPFIND', 'get', 'G@T', 'X'.repeat(200)]) {
    for (const path of ['/healthz', '/api/developer/keys', '/api/nope']) {
      const r = await raw(srv.port, `${m} ${path} HTTP/1.1\r\n`);
      assert.equal(r.status, 501, `${m.slice(0, 10)} ${path}: ${r.body}`);
      assert.equal(r.json.error.code, 'NOT_IMPLEMENTED');
      assert.equal(r.json.error.request_id, r.headers['x-request-id']);
      assert.equal(r.headers.allow, undefined);
    }
  }
  // and the server is fine afterwards
  assert.equal((await srv.req('GET', '/healthz')).status, 200);
});

test('a slowloris client trickling its headers is cut at the deadline; others are served', async () => {
  const t0 = Date.now();
  const slow = await rawSocket(srv.port);
  const closed = closedAfter(slow, t0, 15000);
  slow.write('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
  const trickle = setInterval(() => { if (!slow.destroyed) slow.write('a'); }, 250);
  try {
    // a well-behaved client is answered meanwhile, each time at once
    for (let i = 0; i < 5; i++) {
      const r = await srv.req('GET', '/healthz');
      assert.equal(r.status, 200);
      await sleep(200);
    }
    const { ms, got } = await closed;
    assert.equal(got, '', 'no response for a request that never completed');
    assert.ok(ms >= TIMEOUT_S * 1000 - 100, `cut after ${ms} ms, before the ${TIMEOUT_S} s deadline`);
    assert.ok(ms < TIMEOUT_S * 1000 + 3000, `cut after ${ms} ms, long after the ${TIMEOUT_S} s deadline`);
  } finally {
    clearInterval(trickle);
    slow.destroy();
  }
  let line;
  for (let i = 0; i < 40 && !line; i++) {
    line = srv.logLines().find((l) => l.msg === 'slow clients disconnected');
    if (!line) await sleep(50);
  }
  assert.ok(line, 'the cut is logged');
  assert.equal(line.timeout_s, TIMEOUT_S);
  const m = await srv.req('GET', '/metrics', { key: srv.adminKey });
  assert.match(m.text, /^bulwark_http_slow_clients_closed_total [1-9]\d*$/m);
});

test('a body trickled after the headers is cut at the deadline too', async () => {
  const t0 = Date.now();
  const slow = await rawSocket(srv.port);
  const closed = closedAfter(slow, t0, 15000);
  slow.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
  const trickle = setInterval(() => { if (!slow.destroyed) slow.write(' '); }, 250);
  try {
    const { ms, got } = await closed;
    assert.equal(got, '');
    assert.ok(ms >= TIMEOUT_S * 1000 - 100 && ms < TIMEOUT_S * 1000 + 3000, `cut after ${ms} ms`);
  } finally {
    clearInterval(trickle);
    slow.destroy();
  }
});

test('a kept-alive connection may idle up to the timeout, then is closed; one that keeps asking is not', async () => {
  const s = await rawSocket(srv.port);
  const t0 = Date.now();
  // requests every half timeout keep it open well past the timeout
  for (let i = 0; i < 6; i++) {
    s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal((await readResponse(s)).status, 200);
    await sleep((TIMEOUT_S * 1000) / 2);
  }
  assert.ok(Date.now() - t0 > TIMEOUT_S * 1000 * 2);
  const idle = Date.now();
  const { ms } = await closedAfter(s, idle, 15000);
  assert.ok(ms < TIMEOUT_S * 1000 + 3000, `idle connection closed after ${ms} ms`);
});

test('per-address connection limit: extra connections are refused, service resumes after', async () => {
  const LIMIT = 4;
  const lim = await startServer({ env: { BULWARK_MAX_CONN_PER_IP: String(LIMIT), BULWARK_WORKERS: '0' } });
  const held = [];
  try {
    for (let i = 0; i < LIMIT; i++) held.push(await rawSocket(lim.port));
    await sleep(300); // all accepted by the server before the next ones
    for (let i = 0; i < 3; i++) {
      const extra = await rawSocket(lim.port);
      const closed = closedAfter(extra, Date.now(), 5000);
      extra.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      const { got } = await closed;
      assert.equal(got, '', 'a connection over the limit gets no answer');
    }
    // the held connections themselves still work
    held[0].write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal((await readResponse(held[0])).status, 200);
    for (const s of held) s.destroy();
    held.length = 0;
    let status;
    for (let i = 0; i < 20 && status !== 200; i++) {
      await sleep(100);
      status = (await raw(lim.port, 'GET /healthz HTTP/1.1\r\n').catch(() => ({}))).status;
    }
    assert.equal(status, 200, 'served again once the connections are closed');
  } finally {
    for (const s of held) s.destroy();
    assert.equal(await lim.stop(), 0);
  }
});

test('connection settings are validated at start', () => {
  for (const [k, v] of [['BULWARK_CONN_TIMEOUT_S', '0'], ['BULWARK_CONN_TIMEOUT_S', '3601'],
    ['BULWARK_MAX_CONNECTIONS', '15'], ['BULWARK_MAX_CONN_PER_IP', '-1'], ['BULWARK_MAX_CONN_PER_IP', 'many']]) {
    const r = spawnSync(BIN, ['serve'], { env: { PATH: process.env.PATH, BULWARK_LISTEN: '127.0.0.1:0', [k]: v }, timeout: 10000 });
    assert.notEqual(r.status, 0, `${k}=${v} must be refused`);
    assert.match(r.stderr.toString(), new RegExp(`${k} must be an integer from`));
  }
});
