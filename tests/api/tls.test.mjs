// Native TLS (BULWARK_TLS_CERT + BULWARK_TLS_KEY): a self-signed certificate made here with
// openssl, HTTPS with that CA answers with HSTS, plain HTTP on the TLS port gets no answer, TLS 1.1
// is refused while 1.2 is accepted, and bad settings stop the start with a clear message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import https from 'node:https';
import { startServer, rawSocket, BIN } from './lib/server.mjs';

const haveOpenssl = spawnSync('openssl', ['version']).status === 0;
let dir, srv, ca;

before(async () => {
  if (!haveOpenssl) return;
  dir = mkdtempSync(join(tmpdir(), 'bulwark-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  ca = readFileSync(join(dir, 'cert.pem'));
  srv = await startServer({ env: { BULWARK_TLS_CERT: join(dir, 'cert.pem'), BULWARK_TLS_KEY: join(dir, 'key.pem'), BULWARK_WORKERS: '0' } });
});
after(async () => {
  if (srv) assert.equal(await srv.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function get(port, path, opts = {}) {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, ca, servername: 'localhost', agent: false, ...opts }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body, protocol: res.socket.getProtocol?.() }));
    });
    req.on('error', reject);
    req.end();
  });
}

// openssl s_client with the given version flag; true when a session was established.
function handshake(port, flag) {
  const r = spawnSync('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, flag, '-cipher', 'DEFAULT@SECLEVEL=0'],
    { input: '', timeout: 10000 });
  const out = r.stdout.toString();
  return r.status === 0 && /Cipher is (?!\(NONE\))/.test(out);
}

test('HTTPS with the configured certificate: 200, HSTS and the security headers', { skip: !haveOpenssl && 'openssl not installed' }, async () => {
  assert.equal(srv.logLines().find((l) => l.msg === 'listening').tls, true);
  const r = await get(srv.port, '/healthz');
  assert.equal(r.status, 200);
  assert.equal(JSON.parse(r.body).status, 'ok');
  assert.equal(r.headers['strict-transport-security'], 'max-age=31536000');
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
  assert.match(r.protocol, /^TLSv1\.[23]$/);
  const nf = await get(srv.port, '/api/nope');
  assert.equal(nf.status, 404);
  assert.equal(nf.headers['strict-transport-security'], 'max-age=31536000');
  // a client that does not trust the certificate refuses it
  await assert.rejects(get(srv.port, '/healthz', { ca: undefined }), /self[- ]signed|unable to verify/i);
});

test('under TLS the console session cookie is Secure', { skip: !haveOpenssl && 'openssl not installed' }, async () => {
  const u = srv.addUser('FREE');
  const body = JSON.stringify({ email: u.email, password: u.password });
  const r = await new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port: srv.port, path: '/api/console/session', method: 'POST', ca,
      servername: 'localhost', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
    (res) => { res.resume(); res.on('end', () => resolve(res)); });
    req.on('error', reject);
    req.end(body);
  });
  assert.equal(r.statusCode, 200);
  assert.match(r.headers['set-cookie'][0], /^bulwark_console=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/);
});

test('plain HTTP to the TLS port gets no HTTP answer', { skip: !haveOpenssl && 'openssl not installed' }, async () => {
  const s = await rawSocket(srv.port);
  const got = await new Promise((resolve) => {
    let buf = '';
    const t = setTimeout(() => { s.destroy(); resolve(buf); }, 5000);
    s.on('data', (d) => { buf += d.toString('latin1'); });
    s.on('error', () => {});
    s.on('close', () => { clearTimeout(t); resolve(buf); });
    s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  });
  assert.ok(!got.startsWith('HTTP/'), 'no HTTP response over plain text: ' + JSON.stringify(got.slice(0, 40)));
  assert.equal((await get(srv.port, '/healthz')).status, 200, 'still serving TLS');
});

test('TLS 1.2 and 1.3 are accepted, TLS 1.1 and 1.0 refused', { skip: !haveOpenssl && 'openssl not installed' }, () => {
  assert.equal(handshake(srv.port, '-tls1_2'), true, 'TLS 1.2 handshake');
  assert.equal(handshake(srv.port, '-tls1_3'), true, 'TLS 1.3 handshake');
  assert.equal(handshake(srv.port, '-tls1_1'), false, 'TLS 1.1 must be refused');
  assert.equal(handshake(srv.port, '-tls1'), false, 'TLS 1.0 must be refused');
});

test('TLS settings: both or neither, readable PEM files, else a clear start error', { skip: !haveOpenssl && 'openssl not installed' }, () => {
  const start = (env) => spawnSync(BIN, ['serve'], {
    env: { PATH: process.env.PATH, BULWARK_LISTEN: '127.0.0.1:0', BULWARK_DATA_DIR: dir, BULWARK_WORKERS: '0', ...env },
    timeout: 20000,
  });
  let r = start({ BULWARK_TLS_CERT: join(dir, 'cert.pem') });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr.toString(), /BULWARK_TLS_CERT and BULWARK_TLS_KEY go together/);
  r = start({ BULWARK_TLS_KEY: join(dir, 'key.pem') });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr.toString(), /go together/);
  r = start({ BULWARK_TLS_CERT: join(dir, 'missing.pem'), BULWARK_TLS_KEY: join(dir, 'key.pem') });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr.toString(), /BULWARK_TLS_CERT: cannot read .*missing\.pem/);
  writeFileSync(join(dir, 'junk.pem'), 'not a pem file\n');
  r = start({ BULWARK_TLS_CERT: join(dir, 'cert.pem'), BULWARK_TLS_KEY: join(dir, 'junk.pem') });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr.toString(), /BULWARK_TLS_KEY: .*junk\.pem has no PEM block/);
  // a key that is not the certificate's
  execFileSync('openssl', ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', join(dir, 'other.pem')], { stdio: 'ignore' });
  r = start({ BULWARK_TLS_CERT: join(dir, 'cert.pem'), BULWARK_TLS_KEY: join(dir, 'other.pem') });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr.toString(), /cannot listen on .* with TLS/);
});
