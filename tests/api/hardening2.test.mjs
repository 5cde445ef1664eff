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
  for (const t of targets) {
    const r = await rawGet(srv.port, t);
    assert.ok(r.status >= 400 && r.status < 500, `${t}: ${r.status}`);
  }
  // SIGTERM flushes the buffered access log; then judge every byte the server wrote
  assert.equal(await srv.stop({ keepData: true }), 0);
  const all = Buffer.concat(srv.stderrBytes);
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
  srv = null;
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
