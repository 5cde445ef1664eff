// Hardening, round two (regressions of a black-box audit): every log line is valid UTF-8 JSON.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rawSocket, readResponse, assertError } from './lib/server.mjs';

let srv;
before(async () => { srv = await startServer({ env: { BULWARK_WORKERS: '0' } }); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0, 'clean exit on SIGTERM'); });

// One request with a raw target (bytes fetch would encode) on its own connection.
async function rawGet(port, target) {
  const s = await rawSocket(port);
  s.write(Buffer.concat([Buffer.from('GET '), Buffer.from(target, 'latin1'),
    Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')]));
  try { return await readResponse(s); } finally { s.destroy(); }
}

test('access-log lines of paths that are not UTF-8 are valid UTF-8 JSON', async () => {
  const targets = ['/api/%C0%AE%C0%AE/x', '/%FF%FE', '/a%E2%82', '/\xC0\xAE/raw', '/%ED%A0%80',
    '/api/ai-security/threat-feed/%C3%A4%C3', '/%F4%90%80%80'];
  const own = await startServer({ env: { BULWARK_WORKERS: '0' } });
  for (const t of targets) {
    const r = await rawGet(own.port, t);
    assert.ok(r.status >= 400 && r.status < 500, `${t}: ${r.status}`);
  }
  // SIGTERM flushes the buffered access log; then judge every byte the server wrote
  assert.equal(await own.stop(), 0);
  const all = Buffer.concat(own.stderrBytes);
  const lines = all.toString('latin1').split('\n').filter(Boolean).map((l) => Buffer.from(l, 'latin1'));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let requests = 0;
  for (const raw of lines) {
    let text;
    assert.doesNotThrow(() => { text = decoder.decode(raw); }, `not UTF-8: ${raw.toString('hex')}`);
    const obj = JSON.parse(text);
    if (obj.msg === 'request') requests++;
  }
  assert.ok(requests >= targets.length, `every request logged (${requests})`);
});

test('401 answers carry WWW-Authenticate naming both credential schemes', async () => {
  const s = await startServer({ env: { BULWARK_WORKERS: '0' } });
  try {
    for (const [m, p, h] of [['GET', '/api/developer/keys', {}],
      ['GET', '/api/ai-security/assets', { authorization: 'Bearer not.a.jwt' }],
      ['GET', '/api/ai-security/assets', { 'x-api-key': 'svc_nope' }]]) {
      const r = await s.req(m, p, { headers: h });
      assert.equal(r.status, 401, `${m} ${p}`);
      const w = r.headers.get('www-authenticate');
      assert.match(w ?? '', /^Bearer realm="bulwark", ApiKey realm="bulwark", header="X-API-Key"$/);
    }
    // other statuses do not
    const r = await s.req('GET', '/healthz');
    assert.equal(r.headers.get('www-authenticate'), null);
  } finally { await s.stop(); }
});

test('the admin key on routes that act for an account: 403 FORBIDDEN naming the credential they take', async () => {
  const s = await startServer({ env: { BULWARK_WORKERS: '0' } });
  try {
    const cases = [['GET', '/api/developer/keys', /session token/],                     // session
      ['POST', '/api/developer/keys', /session token/, { label: 'x' }],
      ['GET', '/api/threat-intel/playbooks/history', /bearer token|X-API-Key/],          // signed_in
      ['GET', '/api/ai-security/assets', /bearer token|X-API-Key/],                      // starter
      ['POST', '/api/ai-security/redteam/engage', /bearer token|X-API-Key/, {}]];         // pro
    for (const [m, p, re, body] of cases) {
      const r = await s.req(m, p, { key: s.adminKey, body });
      const e = assertError(assert, r, 403, 'FORBIDDEN');
      assert.match(e.message, re, `${m} ${p}: ${e.message}`);
      assert.equal(r.headers.get('www-authenticate'), null);
    }
    // where it may go, it still goes
    assert.equal((await s.req('GET', '/metrics', { key: s.adminKey })).status, 200);
    assert.equal((await s.req('GET', '/api/orchestrator/god-mode/ciso', { key: s.adminKey })).status, 200);
  } finally { await s.stop(); }
});

// ---- request framing (RFC 9112 section 6): raw bytes, every response the server wrote ----------

// Sends raw bytes on a fresh connection; resolves with everything received and whether the server
// closed the connection within waitMs.
async function exchange(port, bytes, waitMs = 1500) {
  const s = await rawSocket(port);
  return new Promise((resolve) => {
    let data = Buffer.alloc(0);
    let closed = false;
    const done = () => { clearTimeout(t); s.destroy(); resolve({ text: data.toString('latin1'), closed }); };
    const t = setTimeout(done, waitMs);
    s.on('data', (d) => { data = Buffer.concat([data, d]); });
    s.on('end', () => { closed = true; done(); });
    s.on('close', () => { closed = true; done(); });
    s.on('error', () => { closed = true; done(); });
    s.write(Buffer.from(bytes, 'latin1'));
  });
}
// The statuses of the responses in text, in order (each one skipped by its Content-Length).
function statuses(text) {
  const out = [];
  let at = 0;
  while (at < text.length) {
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(text.slice(at));
    if (!m) break;
    out.push(Number(m[1]));
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const cl = /content-length:\s*(\d+)/i.exec(text.slice(at, end));
    at = end + 4 + (cl ? Number(cl[1]) : 0);
  }
  return out;
}
function envelopeOf(text) {
  const i = text.indexOf('\r\n\r\n');
  const head = text.slice(0, i);
  const m = /content-length:\s*(\d+)/i.exec(head);
  return { head, json: JSON.parse(text.slice(i + 4, i + 4 + Number(m[1]))) };
}

test('framing: two Content-Length values, or CL with Transfer-Encoding, are 400 and the connection closes', async () => {
  const smuggled = 'GET /api/developer/keys HTTP/1.1\r\nHost: x\r\n\r\n';
  const cases = [
    ['two different Content-Length', 'POST /api/vibe-code/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Content-Length: 2\r\nContent-Length: 60\r\n\r\n{}' + smuggled, 'Content-Length'],
    ['the same Content-Length twice', 'POST /api/vibe-code/scan HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n' +
      'Content-Length: 2\r\n\r\n{}', 'Content-Length'],
    ['CL and TE: chunked', 'POST /api/vibe-code/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`, 'Transfer-Encoding'],
    ['TE: xchunked', 'POST /api/vibe-code/scan HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n' +
      'Content-Length: 2\r\n\r\n{}', 'Transfer-Encoding'],
    ['TE: chunked, identity', 'POST /api/vibe-code/scan HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n' +
      '2\r\n{}\r\n0\r\n\r\n', 'Transfer-Encoding'],
    ['TE: "chunked " (trailing space)', 'POST /api/vibe-code/scan HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked \r\n\r\n' +
      '2\r\n{}\r\n0\r\n\r\n', 'Transfer-Encoding'],
    ['TE twice', 'POST /api/vibe-code/scan HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', 'Transfer-Encoding'],
    ['TE in HTTP/1.0', 'POST /api/vibe-code/scan HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', 'Transfer-Encoding'],
    // libmicrohttpd's default level lets it through; bw_framing_check answers it in the envelope
    ['HTTP/1.1 without Host', 'GET /healthz HTTP/1.1\r\n\r\n', 'Host'],
    ['two Host lines', 'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 'Host'],
    ['two Host lines in HTTP/1.0', 'GET /healthz HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n', 'Host'],
  ];
  for (const [what, bytes, field] of cases) {
    const r = await exchange(srv.port, bytes);
    assert.deepEqual(statuses(r.text), [400], `${what}: exactly one answer, 400: ${r.text}`);
    assert.ok(r.closed, `${what}: the connection is closed after the answer`);
    if (!field) continue;
    const { head, json } = envelopeOf(r.text);
    assert.match(head, /^connection: close$/im, what);
    assert.equal(json.error.code, 'VALIDATION_ERROR', what);
    assert.equal(json.error.errors[0].field, field, what);
    assert.match(head, /^x-request-id: req_/im, what);
    assert.match(head, /^x-content-type-options: nosniff$/im, what);
  }
});

test('framing: what stays accepted (HTTP/1.0 without Host, one chunked body, keep-alive pipelining)', async () => {
  let r = await exchange(srv.port, 'GET /healthz HTTP/1.0\r\n\r\n');
  assert.deepEqual(statuses(r.text), [200], r.text);
  r = await exchange(srv.port, 'POST /api/vibe-code/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
    'Transfer-Encoding: Chunked\r\nConnection: close\r\n\r\n1f\r\n{"language":"py","code":"x=1"}\r\n0\r\n\r\n');
  assert.deepEqual(statuses(r.text), [200], r.text);
  r = await exchange(srv.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.deepEqual(statuses(r.text), [200, 200], r.text);
});

test('framing: a field name that is not a token (whitespace before the colon) is 400', async () => {
  for (const bytes of ['GET /healthz HTTP/1.1\r\nHost : x\r\n\r\n',
    'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nGET /', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX A: 1\r\n\r\n']) {
    const r = await exchange(srv.port, bytes);
    assert.deepEqual(statuses(r.text), [400], JSON.stringify(bytes) + ': ' + r.text);
    assert.ok(r.closed);
    assert.equal(envelopeOf(r.text).json.error.code, 'VALIDATION_ERROR');
  }
  // obsolete line folding is unfolded (RFC 9112 5.2 allows replacing it with a space)
  const r = await exchange(srv.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n folded\r\nConnection: close\r\n\r\n');
  assert.deepEqual(statuses(r.text), [200], r.text);
});

// ---- X-Forwarded-For behind a trusted proxy -------------------------------------------------------

test('X-Forwarded-For: every line is read, the right-most untrusted hop is the client, an over-long one is 400', async () => {
  const s = await startServer({ env: { BULWARK_WORKERS: '0', BULWARK_TRUSTED_PROXIES: '127.0.0.1,10.0.0.7' } });
  try {
    const ipOf = async (lines, extra = '') => {
      const id = 'req_xff' + Math.random().toString(16).slice(2, 10);
      const head = lines.map((l) => `X-Forwarded-For: ${l}\r\n`).join('');
      const r = await exchange(s.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nx-request-id: ${id}\r\n${head}${extra}Connection: close\r\n\r\n`);
      for (let i = 0; i < 50 && !s.logLines().some((l) => l.request_id === id); i++) await new Promise((ok) => setTimeout(ok, 20));
      return { status: statuses(r.text)[0], ip: s.logLines().find((l) => l.request_id === id)?.ip, text: r.text };
    };
    // a client's forged line first, the proxy's appended line second (HAProxy option forwardfor)
    assert.equal((await ipOf(['6.6.6.6', '9.9.9.9'])).ip, '9.9.9.9');
    // one line, several hops: the right-most that is not a trusted proxy
    assert.equal((await ipOf(['6.6.6.6, 9.9.9.9, 10.0.0.7'])).ip, '9.9.9.9');
    assert.equal((await ipOf(['6.6.6.6,9.9.9.9', ' 10.0.0.7 '])).ip, '9.9.9.9');
    // IPv6, brackets and ports are read; the address is written in its canonical form
    assert.equal((await ipOf(['[2001:DB8::1]:4711'])).ip, '2001:db8::1');
    assert.equal((await ipOf(['9.9.9.9:1234'])).ip, '9.9.9.9');
    // a hop that is not an address: believe nothing (the peer, the proxy, is the client)
    assert.equal((await ipOf(['9.9.9.9, unknown'])).ip, '127.0.0.1');
    // a proxy's address must not be cut off: past the limit the request is refused, not truncated
    const long = Array.from({ length: 200 }, (_, i) => `10.1.${i >> 8}.${i & 255}`).join(', ');
    const r = await ipOf([long, '9.9.9.9']);
    assert.equal(r.status, 400, r.text);
    assert.equal(envelopeOf(r.text).json.error.errors[0].field, 'X-Forwarded-For');
    // exactly at a size that fits, the proxy's hop is still the one read
    const fits = Array.from({ length: 100 }, () => '6.6.6.6').join(', ');
    assert.equal((await ipOf([fits, '9.9.9.9'])).ip, '9.9.9.9');
  } finally { await s.stop(); }
});

test('X-Forwarded-For from a peer that is not a trusted proxy is ignored', async () => {
  const s = await startServer({ env: { BULWARK_WORKERS: '0', BULWARK_TRUSTED_PROXIES: '10.0.0.7' } });
  try {
    const id = 'req_xffuntrusted1';
    await exchange(s.port, `GET /healthz HTTP/1.1\r\nHost: x\r\nx-request-id: ${id}\r\nX-Forwarded-For: 9.9.9.9\r\nConnection: close\r\n\r\n`);
    for (let i = 0; i < 50 && !s.logLines().some((l) => l.request_id === id); i++) await new Promise((ok) => setTimeout(ok, 20));
    assert.equal(s.logLines().find((l) => l.request_id === id)?.ip, '127.0.0.1');
  } finally { await s.stop(); }
});

// ---- an oversized upload is answered, not reset ---------------------------------------------------

import http from 'node:http';

// POSTs `total` bytes from a stream (chunked, or with Content-Length) the way an ordinary client
// does; resolves with the status and body the client read, or the error it saw instead.
function upload(port, total, { chunked = true } = {}) {
  return new Promise((resolve) => {
    const headers = { 'content-type': 'application/json' };
    if (!chunked) headers['content-length'] = String(total);
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/api/vibe-code/scan', headers });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body, connection: res.headers.connection, headers: res.headers }));
      res.on('error', (e) => resolve({ error: e.code || String(e) }));
    });
    req.on('error', (e) => resolve({ error: e.code || String(e) }));
    const piece = Buffer.alloc(16384, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += piece.length;
        if (!req.write(piece)) { req.once('drain', pump); return; }
      }
      req.end();
    };
    pump();
  });
}

test('a body past the limit is answered 413 with the envelope and the connection closed, whatever its size', async () => {
  const s = await startServer({ env: { BULWARK_WORKERS: '0', BULWARK_MAX_BODY: '65536' } });
  try {
    for (const [total, chunked] of [[100_000, true], [1_000_000, true], [20_000_000, true], [20_000_000, false], [300_000, false]]) {
      const r = await upload(s.port, total, { chunked });
      assert.equal(r.error, undefined, `${total} bytes ${chunked ? 'chunked' : 'with Content-Length'}: ${r.error}`);
      assert.equal(r.status, 413, JSON.stringify(r));
      const e = JSON.parse(r.body).error;
      assert.equal(e.code, 'PAYLOAD_TOO_LARGE');
      assert.equal(r.connection, 'close');
      // the 413 written mid-body is a whole answer like any other: request id, security headers
      assert.match(r.headers['x-request-id'] || '', /^req_/, JSON.stringify(r.headers));
      assert.equal(e.request_id, r.headers['x-request-id']);
      assert.equal(r.headers['x-content-type-options'], 'nosniff');
      assert.match(r.headers['content-type'] || '', /^application\/json/);
    }
    // and the server goes on serving
    assert.equal((await s.req('GET', '/healthz')).status, 200);
  } finally { await s.stop(); }
});

test('header fields past 32 KiB are 431 HEADERS_TOO_LARGE in the envelope (up to what libmicrohttpd holds)', async () => {
  const pad = 'x'.repeat(1000);
  const lines = Array.from({ length: 36 }, (_, i) => `X-Pad-${i}: ${pad}\r\n`).join('');
  const r = await exchange(srv.port, `GET /healthz HTTP/1.1\r\nHost: x\r\n${lines}\r\n`);
  assert.deepEqual(statuses(r.text), [431], r.text.slice(0, 300));
  const { head, json } = envelopeOf(r.text);
  assert.equal(json.error.code, 'HEADERS_TOO_LARGE');
  assert.match(head, /^x-request-id: req_/im);
  assert.match(head, /^x-content-type-options: nosniff$/im);
  assert.ok(r.closed);
});
