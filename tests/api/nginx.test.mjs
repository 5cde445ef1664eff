// bulwark behind nginx, with docs/deploy/nginx.conf itself: only ports, certificate paths and the
// upstream address are substituted (and the IPv6 listeners dropped), and bulwark gets the settings
// the file's header names. Checks: HTTPS through nginx works and headers pass both ways, the
// client address bulwark's anonymous rate limiter sees is the one nginx forwards (two clients, two
// budgets; a spoofed X-Forwarded-For changes nothing), the HTTP port redirects, and an oversized body
// is refused in bulwark's error envelope. Skipped only when nginx is not installed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import https from 'node:https';
import http from 'node:http';
import net from 'node:net';
import { startServer } from './lib/server.mjs';

const DOC = new URL('../../docs/deploy/nginx.conf', import.meta.url).pathname;
const NGINX = ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx']
  .find((p) => spawnSync(p, ['-v']).status === 0);
const skip = NGINX ? false : 'nginx not found (Debian package nginx; scripts/deps.sh test installs it)';
const RATE = 3;

let dir, srv, nginx, ca, tlsPort, httpPort, nginxLog = '';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

// The settings the doc's header lists for bulwark ("#   BULWARK_X=value").
function docSettings(text) {
  const env = {};
  for (const m of text.matchAll(/^#\s+(BULWARK_[A-Z_]+)=(\S+)\s*$/gm)) env[m[1]] = m[2];
  return env;
}

before(async () => {
  if (skip) return;
  const doc = readFileSync(DOC, 'utf8');
  const settings = docSettings(doc);
  assert.deepEqual(Object.keys(settings).sort(),
    ['BULWARK_LISTEN', 'BULWARK_MAX_BODY', 'BULWARK_MAX_CONN_PER_IP', 'BULWARK_TRUSTED_PROXIES']);
  dir = mkdtempSync(join(tmpdir(), 'bulwark-nginx-'));
  chmodSync(dir, 0o755); // nginx workers (nobody, when the test runs as root) use the temp paths
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  ca = readFileSync(join(dir, 'cert.pem'));
  const { BULWARK_LISTEN, ...rest } = settings;
  assert.equal(BULWARK_LISTEN, '127.0.0.1:8080');
  srv = await startServer({ env: { ...rest, BULWARK_RATE_ANON: String(RATE), BULWARK_WORKERS: '0' } });
  [tlsPort, httpPort] = [await freePort(), await freePort()];
  const site = doc
    .split('\n').filter((l) => !l.includes('[::]')).join('\n')
    .replaceAll('server 127.0.0.1:8080;', `server 127.0.0.1:${srv.port};`)
    .replace(/listen 443 ssl( http2)?;/, `listen 127.0.0.1:${tlsPort} ssl$1;`)
    .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
    .replace('/etc/ssl/bulwark/fullchain.pem', join(dir, 'cert.pem'))
    .replace('/etc/ssl/bulwark/privkey.pem', join(dir, 'key.pem'));
  for (const needle of [`127.0.0.1:${srv.port}`, `127.0.0.1:${tlsPort} ssl`, `127.0.0.1:${httpPort};`, join(dir, 'key.pem')])
    assert.ok(site.includes(needle), `substitution failed: ${needle}`);
  writeFileSync(join(dir, 'bulwark.conf'), site);
  writeFileSync(join(dir, 'nginx.conf'), `worker_processes 1;
events { worker_connections 256; }
http {
  default_type application/octet-stream;
  access_log ${join(dir, 'access.log')};
  client_body_temp_path ${join(dir, 'client_body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  include ${join(dir, 'bulwark.conf')};
}
`);
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr',
    '-g', `daemon off; pid ${join(dir, 'nginx.pid')}; error_log stderr;`];
  const t = spawnSync(NGINX, [...args, '-t']);
  assert.equal(t.status, 0, 'nginx -t on the derived configuration:\n' + t.stderr);
  nginx = spawn(NGINX, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  nginx.stderr.on('data', (d) => { nginxLog += d; });
  for (let i = 0; ; i++) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(tlsPort, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) break;
    if (i > 100 || nginx.exitCode !== null) throw new Error('nginx did not start:\n' + nginxLog);
    await new Promise((r) => setTimeout(r, 100));
  }
});

after(async () => {
  if (nginx && nginx.exitCode === null) {
    const gone = new Promise((r) => nginx.on('exit', r));
    nginx.kill('SIGTERM');
    await gone;
  }
  if (srv) assert.equal(await srv.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// One HTTPS request through nginx from the given local address (127.0.0.x are all this machine).
function via(path, { from = '127.0.0.1', method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port: tlsPort, path, method, ca, servername: 'localhost',
      localAddress: from, agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        let json = null;
        try { json = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const LIMITED = '/api/ai-security/governance/frameworks'; // public, anonymous budget per IP

test('HTTPS through nginx: bulwark answers, its headers pass, nginx adds HSTS', { skip }, async () => {
  const r = await via('/healthz', { headers: { 'x-request-id': 'via-nginx-1' } });
  assert.equal(r.status, 200, r.text + nginxLog);
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
