// Hardening, round two (regressions of a black-box audit): every log line is valid UTF-8 JSON.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, rawSocket, readResponse } from './lib/server.mjs';

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
