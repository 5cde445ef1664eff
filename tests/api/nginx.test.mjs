// bulwark behind nginx, with docs/deploy/nginx.conf itself: only ports, certificate paths and the
// upstream address are substituted (and the IPv6 listeners dropped), and bulwark gets the settings
// the file's header names. Checks: HTTPS through nginx works and headers pass both ways, the
// client address bulwark's anonymous rate limiter sees is the one nginx forwards (two clients, two
// budgets; a spoofed X-Forwarded-For changes nothing), the HTTP port redirects, and an oversized body
// is refused in bulwark's error envelope. Skipped only when nginx is not installed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer } from './lib/server.mjs';
import { NO_NGINX, docSettings, startNginx } from './lib/nginx.mjs';

const skip = NO_NGINX;
const RATE = 3;

let srv, nginx, httpPort;
let via;

before(async () => {
  if (skip) return;
  const settings = docSettings();
  assert.deepEqual(Object.keys(settings).sort(),
    ['BULWARK_COOKIE_SECURE', 'BULWARK_LISTEN', 'BULWARK_MAX_BODY', 'BULWARK_MAX_CONN_PER_IP', 'BULWARK_TRUSTED_PROXIES']);
  assert.equal(settings.BULWARK_COOKIE_SECURE, '1'); // nginx terminates TLS: the console cookie is Secure
  const { BULWARK_LISTEN, ...rest } = settings;
  assert.equal(BULWARK_LISTEN, '127.0.0.1:8080');
  srv = await startServer({ env: { ...rest, BULWARK_RATE_ANON: String(RATE), BULWARK_WORKERS: '0' } });
  nginx = await startNginx([srv.port]);
  ({ via, httpPort } = nginx);
});

after(async () => {
  if (nginx) await nginx.stop();
  if (srv) assert.equal(await srv.stop(), 0);
});

const LIMITED = '/api/ai-security/governance/frameworks'; // public, anonymous budget per IP

test('HTTPS through nginx: bulwark answers, its headers pass, nginx adds HSTS', { skip }, async () => {
  const r = await via('/healthz', { headers: { 'x-request-id': 'via-nginx-1' } });
  assert.equal(r.status, 200, r.text + nginx.log());
  assert.equal(r.json.status, 'ok');
  assert.equal(r.headers['x-request-id'], 'via-nginx-1', 'the client id reaches bulwark and comes back');
  assert.equal(r.headers['api-version'], '1');
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.equal(r.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'none'");
  assert.equal(r.headers['strict-transport-security'], 'max-age=31536000');
  assert.ok(!/nginx\/\d/.test(r.headers.server || ''), 'no nginx version');
  // without a client id, nginx's own reaches bulwark (one id in both logs)
  const r2 = await via('/healthz');
  assert.match(r2.headers['x-request-id'], /^[0-9a-f]{32}$/);
  // errors pass through unchanged
  const nf = await via('/api/nope');
  assert.equal(nf.status, 404);
  assert.equal(nf.json.error.code, 'NOT_FOUND');
  const tr = await via('/healthz', { method: 'DELETE' });
  assert.equal(tr.status, 405);
  assert.equal(tr.headers.allow, 'GET, HEAD');
});

test('the anonymous rate limit counts per forwarded client address', { skip }, async () => {
  for (let i = 0; i < RATE; i++) {
    const r = await via(LIMITED, { from: '127.0.0.2' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['ratelimit-remaining'], String(RATE - 1 - i));
  }
  const limited = await via(LIMITED, { from: '127.0.0.2' });
  assert.equal(limited.status, 429);
  assert.equal(limited.json.error.code, 'RATE_LIMITED');
  assert.ok(Number(limited.headers['retry-after']) > 0);
  // another client behind the same nginx has its own budget
  const other = await via(LIMITED, { from: '127.0.0.3' });
  assert.equal(other.status, 200);
  assert.equal(other.headers['ratelimit-remaining'], String(RATE - 1));
  // a client cannot pick its address: nginx replaces X-Forwarded-For
  const spoof = await via(LIMITED, { from: '127.0.0.2', headers: { 'x-forwarded-for': '203.0.113.9' } });
  assert.equal(spoof.status, 429);
  // bulwark logged the forwarded addresses, not nginx's (the log is flushed every 100 ms)
  let ips = [];
  for (let i = 0; i < 50 && ips.length < RATE + 3; i++) {
    await new Promise((r) => setTimeout(r, 50));
    ips = srv.logLines().filter((l) => l.msg === 'request' && l.path === LIMITED).map((l) => l.ip);
  }
  assert.deepEqual([...new Set(ips)].sort(), ['127.0.0.2', '127.0.0.3']);
});

test('plain HTTP redirects to HTTPS with 308', { skip }, async () => {
  const r = await new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: httpPort, path: '/healthz?x=1', headers: { host: 'api.example.com' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    }).on('error', reject);
  });
  assert.equal(r.statusCode, 308);
  assert.equal(r.headers.location, 'https://api.example.com/healthz?x=1');
});

test('bodies up to BULWARK_MAX_BODY reach bulwark; larger ones get the 413 envelope', { skip }, async () => {
  const fits = await via('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1024 * 1024) }) });
  assert.equal(fits.status, 400, 'bulwark validated it: ' + fits.text.slice(0, 200));
  assert.equal(fits.json.error.code, 'VALIDATION_ERROR');
  const big = await via('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'big-1' },
    body: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(3 * 1024 * 1024) }) });
  assert.equal(big.status, 413);
  assert.match(big.headers['content-type'], /^application\/json/);
  assert.deepEqual(big.json, { error: { code: 'PAYLOAD_TOO_LARGE', message: 'request body exceeds 2097152 bytes', request_id: 'big-1' } });
  assert.equal(big.headers['x-request-id'], 'big-1');
});
