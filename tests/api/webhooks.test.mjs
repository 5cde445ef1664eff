// Webhooks: registration (PRO and above, HTTPS or a loopback receiver the egress policy opens),
// the secret shown once and sealed at rest, another account's webhook 404, a test ping, the
// delivery log, retries on a 500 with the test-shortened schedule (BULWARK_WEBHOOK_BACKOFF_SCALE),
// a redirect to another host refused (never followed, logged), and the events raised where they
// happen (an asset scan, a red-team engagement, an orchestrator run).
//
// The receiver verifies every request as a Stripe-style receiver does: it recomputes
// HMAC-SHA256(secret, timestamp + "." + raw body), compares in constant time, and refuses a
// timestamp more than five minutes away. A request it refuses is answered 400 and counted, so a
// wrong signature fails the delivery (and the test).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { startServer, assertError, BACKEND, BIN, Server } from './lib/server.mjs';
import { startTarget } from './lib/targets.mjs';
import { importKev, kevEntry } from './lib/kev.mjs';

const TOLERANCE_S = 300;

// The receiver's check: null when the request is authentic and fresh, else why not.
export function verify(secret, headers, raw, nowS = Math.floor(Date.now() / 1000)) {
  const ts = headers['x-bulwark-timestamp'];
  const sig = headers['x-bulwark-signature'];
  if (!ts || !/^\d+$/.test(ts)) return 'no timestamp';
  if (Math.abs(nowS - Number(ts)) > TOLERANCE_S) return 'timestamp too old';
  const m = /^v1=([0-9a-f]{64})$/.exec(sig || '');
  if (!m) return 'no v1 signature';
  const want = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${ts}.`).update(raw).digest();
  return timingSafeEqual(want, Buffer.from(m[1], 'hex')) ? null : 'signature mismatch';
}

// A receiver on 127.0.0.1: per path a mode ('ok', 'flaky': 500 then 200, 'down': always 500,
// 'redirect': 302 to another host) and the secret it verifies with.
async function startReceiver(otherHost) {
  const routes = new Map(); // path -> {mode, secret, got: [], refused: []}
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const r = routes.get(req.url);
      if (!r) { res.writeHead(404).end(); return; }
      const why = r.secret ? verify(r.secret, req.headers, raw) : 'no secret yet';
      if (why) { r.refused.push(why); res.writeHead(400).end(why); return; }
      const got = { headers: req.headers, body: JSON.parse(raw.toString('utf8')), raw: raw.toString('utf8') };
      r.got.push(got);
      r.waiters.splice(0).forEach((w) => w());
      if ((r.mode === 'flaky' && r.got.length === 1) || r.mode === 'down') { res.writeHead(500).end('not now'); return; }
      if (r.mode === 'redirect') {
        res.writeHead(302, { location: `http://${otherHost}${req.url}` }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100000)); // bounded read
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  return {
    port,
    route(path, mode = 'ok') {
      const r = { mode, secret: null, got: [], refused: [], waiters: [] };
      routes.set(path, r);
      return r;
    },
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

async function until(what, fn, ms = 20000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error('timed out waiting for ' + what);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let srv, strict, recv, other, target;
before(async () => {
  // the other host: a second server, on another name, that must never be contacted
  other = { hits: 0 };
  other.server = http.createServer((req, res) => { other.hits++; res.writeHead(200).end(); });
  await new Promise((resolve) => other.server.listen(0, '127.0.0.1', resolve));
  recv = await startReceiver(`localhost:${other.server.address().port}`);
  srv = await startServer({
    env: { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_WEBHOOK_BACKOFF_SCALE: '1', BULWARK_JOB_POLL_MS: '50', BULWARK_WORKERS: '2' },
  });
  strict = await startServer(); // the default egress policy: loopback closed
  target = await startTarget({ mode: 'careful' });
});
after(async () => {
  if (target) await target.close();
  if (recv) await recv.close();
  if (other) await new Promise((r) => other.server.close(r));
  if (srv) assert.equal(await srv.stop(), 0);
  if (strict) assert.equal(await strict.stop(), 0);
});

async function create(s, u, url, events = ['asset_scan.completed']) {
  const r = await s.req('POST', '/api/webhooks', { key: u.key, body: { url, events } });
  assert.equal(r.status, 201, r.text);
  return r.json;
}
const deliveries = (s, u, id, q = '') => s.req('GET', `/api/webhooks/${id}/deliveries${q}`, { key: u.key });

test('the receiver\'s check refuses a wrong secret, a changed body and an old or missing timestamp', () => {
  const secret = 'whsec_abc', body = '{"a":1}', ts = String(Math.floor(Date.now() / 1000));
  const sig = 'v1=' + createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
  const h = { 'x-bulwark-timestamp': ts, 'x-bulwark-signature': sig };
  assert.equal(verify(secret, h, Buffer.from(body)), null);
  assert.equal(verify('whsec_abd', h, Buffer.from(body)), 'signature mismatch');
  assert.equal(verify(secret, h, Buffer.from('{"a":2}')), 'signature mismatch');
  assert.equal(verify(secret, h, Buffer.from(body), Number(ts) + 301), 'timestamp too old');
  assert.equal(verify(secret, { 'x-bulwark-signature': sig }, Buffer.from(body)), 'no timestamp');
});

test('FREE and STARTER are refused (403), anonymous 401; PRO and ENTERPRISE may', async () => {
  for (const tier of ['FREE', 'STARTER']) {
    const u = await srv.session(tier, { key: true });
    assertError(assert, await srv.req('POST', '/api/webhooks', { key: u.key, body: { url: recv.url('/x'), events: ['intel.kev_match'] } }), 403, 'TIER_REQUIRED');
    assertError(assert, await srv.req('GET', '/api/webhooks', { key: u.key }), 403, 'TIER_REQUIRED');
  }
  assertError(assert, await srv.req('GET', '/api/webhooks'), 401, 'AUTH_REQUIRED');
  const ent = await srv.session('ENTERPRISE', { key: true });
  const w = await create(srv, ent, recv.url('/ent'), ['intel.kev_match', 'orchestrator.run.completed']);
  assert.deepEqual(w.events, ['intel.kev_match', 'orchestrator.run.completed']);
});

test('validation: https or a loopback receiver the egress policy opens; known events, once each', async () => {
  const u = await srv.session('PRO', { key: true });
  const bad = async (s, body, field) => {
    const r = await s.req('POST', '/api/webhooks', { key: body.key, body: body.b });
    const e = assertError(assert, r, 400, 'VALIDATION_ERROR');
    assert.ok(e.errors.some((d) => d.field === field), `${field} in ${JSON.stringify(e.errors)}`);
  };
  await bad(srv, { key: u.key, b: { url: 'http://example.com/hook', events: ['intel.kev_match'] } }, 'url');
  await bad(srv, { key: u.key, b: { url: 'ftp://example.com/hook', events: ['intel.kev_match'] } }, 'url');
  await bad(srv, { key: u.key, b: { url: 'https://user:pw@example.com/hook', events: ['intel.kev_match'] } }, 'url');
  await bad(srv, { key: u.key, b: { url: 'https://169.254.169.254/latest', events: ['intel.kev_match'] } }, 'url');
  await bad(srv, { key: u.key, b: { url: 'https://10.1.2.3/hook', events: ['intel.kev_match'] } }, 'url');
  await bad(srv, { key: u.key, b: { url: 'https://example.com/hook', events: ['intel.kev_match', 'intel.kev_match'] } }, 'events');
  await bad(srv, { key: u.key, b: { url: 'https://example.com/hook', events: ['scan.done'] } }, 'events');
  await bad(srv, { key: u.key, b: { url: 'https://example.com/hook', events: [] } }, 'events');
  await bad(srv, { key: u.key, b: { url: 'https://example.com/hook', events: ['intel.kev_match'], secret: 'mine' } }, 'secret');
  // the same loopback receiver is refused where the policy keeps loopback closed
  const s2 = await strict.session('PRO', { key: true });
  await bad(strict, { key: s2.key, b: { url: recv.url('/x'), events: ['intel.kev_match'] } }, 'url');
  // https to a public name is fine (nothing is sent until an event)
  const ok = await srv.req('POST', '/api/webhooks', { key: u.key, body: { url: 'https://hooks.example.com/bulwark', events: ['engagement.completed'] } });
  assert.equal(ok.status, 201, ok.text);
});

test('the secret is returned once, sealed at rest; another account\'s webhook is 404; delete', async () => {
  const u = await srv.session('PRO', { key: true });
  const w = await create(srv, u, recv.url('/once'));
  assert.match(w.id, /^whk_[A-Za-z0-9]+$/);
  assert.match(w.secret, /^whsec_[A-Za-z0-9]{32}$/);
  assert.equal(typeof w.warning, 'string');
  const l = await srv.req('GET', '/api/webhooks', { key: u.key });
  assert.equal(l.status, 200);
  assert.equal(l.json.count, 1);
  assert.deepEqual(Object.keys(l.json.webhooks[0]).sort(), ['created_at', 'events', 'id', 'url']);
  assert.ok(!l.text.includes(w.secret), 'GET never shows the secret');
  if (BACKEND === 'sqlite') { // the database files never hold the secret in clear
    for (const f of readdirSync(srv.dir).filter((n) => n.startsWith('bulwark.db')))
      assert.ok(!readFileSync(join(srv.dir, f)).includes(Buffer.from(w.secret)), `${f} holds the secret`);
  }
  const intruder = await srv.session('PRO', { key: true });
  assertError(assert, await srv.req('DELETE', `/api/webhooks/${w.id}`, { key: intruder.key }), 404, 'NOT_FOUND');
  assertError(assert, await deliveries(srv, intruder, w.id), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('POST', `/api/webhooks/${w.id}/ping`, { key: intruder.key }), 404, 'NOT_FOUND');
  assert.equal((await srv.req('GET', '/api/webhooks', { key: intruder.key })).json.count, 0);
  assertError(assert, await srv.req('DELETE', '/api/webhooks/whk_nope', { key: u.key }), 404, 'NOT_FOUND');
  const d = await srv.req('DELETE', `/api/webhooks/${w.id}`, { key: u.key });
  assert.equal(d.status, 200, d.text);
  assert.equal(d.json.deleted, true);
  assertError(assert, await srv.req('DELETE', `/api/webhooks/${w.id}`, { key: u.key }), 404, 'NOT_FOUND');
  assertError(assert, await deliveries(srv, u, w.id), 404, 'NOT_FOUND');
});

test('a ping is delivered signed, and the log shows it delivered on the first try', async () => {
  const u = await srv.session('PRO', { key: true });
  const route = recv.route('/ping');
  const w = await create(srv, u, recv.url('/ping'), ['engagement.completed']);
  route.secret = w.secret;
  const p = await srv.req('POST', `/api/webhooks/${w.id}/ping`, { key: u.key });
  assert.equal(p.status, 202, p.text);
  assert.match(p.json.delivery_id, /^whd_/);
  await until('the ping', () => route.got.length === 1);
  const got = route.got[0];
  assert.equal(got.body.type, 'ping');
  assert.match(got.body.id, /^evt_/);
  assert.equal(got.body.data.webhook_id, w.id);
  assert.equal(got.headers['x-bulwark-event'], 'ping');
  assert.equal(got.headers['x-bulwark-delivery'], p.json.delivery_id);
  assert.equal(got.headers['content-type'], 'application/json');
  assert.deepEqual(route.refused, []);
  const log = await until('the delivered row', async () => {
    const r = await deliveries(srv, u, w.id);
    return r.json.deliveries[0]?.status === 'delivered' && r;
  });
  const row = log.json.deliveries[0];
  assert.equal(row.id, p.json.delivery_id);
  assert.equal(row.event, 'ping');
  assert.equal(row.tries, 1);
  assert.equal(row.last_status, 200);
  assert.equal(row.error, null);
  assert.ok(row.delivered_at);
  assert.equal(log.json.total, 1);
  assert.equal(log.json.next_cursor, null);
});

test('a 500 is retried on the schedule until a 2xx; every try is signed afresh over the same body', async () => {
  const u = await srv.session('PRO', { key: true });
  const route = recv.route('/flaky', 'flaky');
  const w = await create(srv, u, recv.url('/flaky'));
  route.secret = w.secret;
  await srv.req('POST', `/api/webhooks/${w.id}/ping`, { key: u.key });
  await until('two tries', () => route.got.length === 2);
  assert.equal(route.got[0].raw, route.got[1].raw, 'the same bytes each try');
  const row = await until('delivered', async () => {
    const r = (await deliveries(srv, u, w.id)).json.deliveries[0];
    return r?.status === 'delivered' && r;
  });
  assert.equal(row.tries, 2);
  assert.equal(row.last_status, 200);
  assert.deepEqual(route.refused, []);
});

test('a redirect to another host is never followed: each try fails, the log says why, the delivery ends failed after 5 tries', async () => {
  const u = await srv.session('PRO', { key: true });
  const route = recv.route('/moved', 'redirect');
  const w = await create(srv, u, recv.url('/moved'));
  route.secret = w.secret;
  await srv.req('POST', `/api/webhooks/${w.id}/ping`, { key: u.key });
  const row = await until('failed', async () => {
    const r = (await deliveries(srv, u, w.id)).json.deliveries[0];
    return r?.status === 'failed' && r;
  }, 30000);
  assert.equal(row.tries, 5);
  assert.equal(row.last_status, 302);
  assert.match(row.error, /redirects are not followed.*another host: localhost/);
  assert.equal(row.next_try_at, null);
  assert.equal(route.got.length, 5);
  assert.equal(other.hits, 0, 'the other host was never contacted');
  assert.ok(srv.logLines().some((l) => l.msg === 'webhook redirect to another host refused' && l.webhook_id === w.id));
});

test('the delivery log pages with cursors', async () => {
  const u = await srv.session('PRO', { key: true });
  const route = recv.route('/paged');
  const w = await create(srv, u, recv.url('/paged'));
  route.secret = w.secret;
  for (let i = 0; i < 3; i++) await srv.req('POST', `/api/webhooks/${w.id}/ping`, { key: u.key });
  const p1 = await deliveries(srv, u, w.id, '?limit=2');
  assert.equal(p1.status, 200, p1.text);
  assert.equal(p1.json.deliveries.length, 2);
  assert.equal(p1.json.total, 3);
  assert.equal(typeof p1.json.next_cursor, 'string');
  const p2 = await deliveries(srv, u, w.id, `?limit=2&cursor=${encodeURIComponent(p1.json.next_cursor)}`);
  assert.equal(p2.json.deliveries.length, 1);
  assert.equal(p2.json.next_cursor, null);
  const all = [...p1.json.deliveries, ...p2.json.deliveries].map((d) => d.id);
  assert.equal(new Set(all).size, 3);
  // a cursor of this webhook's log is refused for another's
  const w2 = await create(srv, u, recv.url('/paged2'));
  assertError(assert, await deliveries(srv, u, w2.id, `?cursor=${encodeURIComponent(p1.json.next_cursor)}`), 400, 'VALIDATION_ERROR');
});

test('asset_scan.completed and engagement.completed reach the webhooks that take them, and only those', async () => {
  const u = await srv.session('PRO', { key: true });
  const scans = recv.route('/scans');
  const engs = recv.route('/engs');
  const w1 = await create(srv, u, recv.url('/scans'), ['asset_scan.completed']);
  const w2 = await create(srv, u, recv.url('/engs'), ['engagement.completed']);
  scans.secret = w1.secret;
  engs.secret = w2.secret;
  const a = await srv.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'bot', type: 'model', provider: 'self', endpoint: target.url, env: 'staging' } });
  assert.equal(a.status, 201, a.text);
  const sc = await srv.req('POST', `/api/ai-security/assets/${a.json.asset_id}/scan`, { key: u.key });
  assert.equal(sc.status, 200, sc.text);
  await until('the scan event', () => scans.got.length === 1);
  const ev = scans.got[0].body;
  assert.equal(ev.type, 'asset_scan.completed');
  assert.equal(ev.data.scan_id, sc.json.scan_id);
  assert.equal(ev.data.asset_id, a.json.asset_id);
  assert.equal(ev.data.score, sc.json.score);
  assert.equal(ev.data.risk_level, sc.json.risk_level);

  const e = await srv.req('POST', '/api/ai-security/redteam/engage', { key: u.key, body: { target_asset_id: a.json.asset_id, intensity: 'light', attack_categories: ['prompt_injection'] } });
  assert.equal(e.status, 202, e.text);
  await until('the engagement event', () => engs.got.length === 1, 60000);
  const ee = engs.got[0].body;
  assert.equal(ee.type, 'engagement.completed');
  assert.equal(ee.data.engagement_id, e.json.engagement_id);
  assert.equal(ee.data.asset_id, a.json.asset_id);
  assert.ok(['completed', 'failed'].includes(ee.data.status));
  assert.equal(scans.got.length, 1, 'the scan webhook did not get the engagement');
  assert.deepEqual([...scans.refused, ...engs.refused], []);
  // another account's scan raises nothing here
  const v = await srv.session('PRO', { key: true });
  const b = await srv.req('POST', '/api/ai-security/assets/register', { key: v.key, body: { name: 'x', type: 'model', endpoint: target.url } });
  await srv.req('POST', `/api/ai-security/assets/${b.json.asset_id}/scan`, { key: v.key });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(scans.got.length, 1);
});

test('orchestrator.run.completed reaches the account that asked for the run', async () => {
  const u = await srv.session('ENTERPRISE', { key: true, role: 'mssp' });
  const route = recv.route('/orch');
  const w = await create(srv, u, recv.url('/orch'), ['orchestrator.run.completed']);
  route.secret = w.secret;
  const run = await srv.req('POST', '/api/orchestrator/god-mode/run', { key: u.key, body: { max_items: 20 } });
  assert.equal(run.status, 202, run.text);
  await until('the run event', () => route.got.length === 1, 60000);
  const ev = route.got[0].body;
  assert.equal(ev.type, 'orchestrator.run.completed');
  assert.equal(ev.data.job_id, run.json.job_id);
  assert.equal(ev.data.status, 'completed');
});

test('intel.kev_match: a KEV entry new to the store that names an asset\'s provider, model or component exactly, once', async () => {
  const u = await srv.session('PRO', { key: true });
  const route = recv.route('/kev');
  const w = await create(srv, u, recv.url('/kev'), ['intel.kev_match']);
  route.secret = w.secret;
  const reg = async (who, name, provider, connection, components) => {
    const r = await srv.req('POST', '/api/ai-security/assets/register', { key: who.key, body: { name, type: 'model', provider, endpoint: target.url, ...(connection ? { connection } : {}), ...(components ? { components } : {}) } });
    assert.equal(r.status, 201, r.text);
    return r.json.asset_id;
  };
  const flow = await reg(u, 'flow', 'Langflow');
  const byModel = await reg(u, 'local', 'self-hosted', { api: 'ollama', model: 'ollama' });
  // a component's name, as the BOM lists it: the same rule makes the entry its vulnerability
  const byComp = await reg(u, 'ui', 'self-hosted', null, [{ name: 'numpy', version: '2.1.0' }, { name: 'gradio', version: '4.44.0' }]);
  await reg(u, 'near miss', 'Langflow AI', null, [{ name: 'gradio-client' }]); // not the same names: no keyword guessing
  // another account with a matching asset but no webhook: nothing reaches this receiver for it
  const v = await srv.session('PRO', { key: true });
  await reg(v, 'theirs', 'Langflow');
  {
    const entry = (id, vendor) => kevEntry(id, vendor, vendor, { dateAdded: '2026-11-20', dueDate: '2026-12-11',
      shortDescription: `A remote attacker can run code in ${vendor}.` });
    const entries = [entry('CVE-2099-41001', 'Langflow'), entry('CVE-2099-41002', 'Ollama'), entry('CVE-2099-41003', 'Gradio')];
    importKev(srv, entries);
    await until('three kev events', () => route.got.length >= 3);
    await new Promise((r) => setTimeout(r, 500)); // nothing more comes
    const evs = route.got.map((g) => g.body).sort((a, b) => a.data.record_id.localeCompare(b.data.record_id));
    assert.equal(evs.length, 3, JSON.stringify(evs));
    assert.equal(evs[0].type, 'intel.kev_match');
    assert.deepEqual([evs[0].data.record_id, evs[0].data.asset_id, evs[0].data.matched, evs[0].data.value], ['CVE-2099-41001', flow, 'provider', 'Langflow']);
    assert.deepEqual([evs[1].data.record_id, evs[1].data.asset_id, evs[1].data.matched, evs[1].data.value], ['CVE-2099-41002', byModel, 'model', 'ollama']);
    assert.deepEqual([evs[2].data.record_id, evs[2].data.asset_id, evs[2].data.matched, evs[2].data.value], ['CVE-2099-41003', byComp, 'component', 'gradio']);
    assert.equal(evs[0].data.vendor, 'Langflow');
    // the BOM names the same entry as the component's vulnerability
    const bom = await srv.req('GET', '/api/ai-security/assets/bom', { key: u.key });
    assert.equal(bom.status, 200, bom.text);
    const vuln = (bom.json.vulnerabilities || []).find((x) => x.id === 'CVE-2099-41003');
    assert.ok(vuln, 'the BOM lists CVE-2099-41003');
    assert.ok(vuln.affects.some((x) => x.ref.startsWith(byComp)), JSON.stringify(vuln.affects));
    // the same file again brings nothing new: no event
    importKev(srv, entries);
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(route.got.length, 3);
    assert.deepEqual(route.refused, []);
  }
});

test('a downgraded or disabled account gets no events until it is PRO and enabled again; its webhooks are kept', async () => {
  const u = await srv.session('PRO', { key: true });
  const route = recv.route('/downgrade');
  const w = await create(srv, u, recv.url('/downgrade'), ['intel.kev_match']);
  route.secret = w.secret;
  const r = await srv.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'z', type: 'model', provider: 'ClearML', endpoint: target.url } });
  assert.equal(r.status, 201, r.text);
  const kev = (id) => importKev(srv, [kevEntry(id, 'ClearML', 'ClearML Server', { dateAdded: '2026-11-20', dueDate: '2026-12-11' })]);
  {
    srv.cli(['user', 'set-tier', u.email, 'STARTER']);
    kev('CVE-2099-42001');
    srv.cli(['user', 'set-tier', u.email, 'PRO']);
    srv.cli(['user', 'disable', u.email]);
    kev('CVE-2099-42002');
    await new Promise((res) => setTimeout(res, 800));
    assert.equal(route.got.length, 0, JSON.stringify(route.got.map((g) => g.body)));
    srv.cli(['user', 'enable', u.email]);
    kev('CVE-2099-42003'); // PRO and enabled again: this one is sent, and only this one
    await until('the kev event', () => route.got.length >= 1);
    await new Promise((res) => setTimeout(res, 500));
    assert.deepEqual(route.got.map((g) => g.body.data.record_id), ['CVE-2099-42003']);
    // disabling ended the account's API keys and sessions: a new sign-in sees the webhook kept
    const token = await srv.login(u.email, u.password);
    const list = await srv.req('GET', '/api/webhooks', { token });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.json.webhooks.map((x) => x.id), [w.id]);
  }
});

test('a delivery queued before a downgrade is not sent after it: it ends failed, saying why', async () => {
  // a retry schedule of 6 s after the first try (per mille 100), so the downgrade lands between tries
  const s = new Server({ env: { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_WEBHOOK_BACKOFF_SCALE: '100', BULWARK_JOB_POLL_MS: '50' } });
  await s.start();
  try {
    const u = await s.session('PRO', { key: true });
    const route = recv.route('/down-then-downgraded', 'down');
    const w = await create(s, u, recv.url('/down-then-downgraded'));
    route.secret = w.secret;
    assert.equal((await s.req('POST', `/api/webhooks/${w.id}/ping`, { key: u.key })).status, 202);
    await until('the first try', () => route.got.length === 1);
    s.cli(['user', 'set-tier', u.email, 'STARTER']);
    await new Promise((r) => setTimeout(r, 8000)); // past the retry's time
    assert.equal(route.got.length, 1, 'nothing is sent after the downgrade');
    s.cli(['user', 'set-tier', u.email, 'PRO']);
    const t2 = await s.login(u.email, u.password);
    const r = await s.req('GET', `/api/webhooks/${w.id}/deliveries`, { token: t2 });
    assert.equal(r.status, 200, r.text);
    const row = r.json.deliveries[0];
    assert.equal(row.status, 'failed');
    assert.equal(row.tries, 1, 'one try was made');
    assert.match(row.error, /disabled or below the PRO plan/);
    assert.equal(route.got.length, 1);
  } finally {
    assert.equal(await s.stop(), 0);
  }
});

test('secrets rekey re-seals webhook secrets: after it, deliveries are still signed with the secret given at creation', async () => {
  const env0 = { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_WEBHOOK_BACKOFF_SCALE: '1', BULWARK_JOB_POLL_MS: '50' };
  const key = randomBytes(32).toString('hex');
  const s1 = new Server({ env: { ...env0, BULWARK_SECRET_KEY: key } });
  await s1.start();
  const u = await s1.session('PRO', { key: true });
  const route = recv.route('/rekey');
  const w = await create(s1, u, recv.url('/rekey'), ['intel.kev_match']);
  route.secret = w.secret;
  assert.equal(await s1.stop({ keepData: true }), 0);
  const fresh = randomBytes(32).toString('hex');
  const rk = spawnSync(BIN, ['secrets', 'rekey'], { env: { ...process.env, ...s1.env(), BULWARK_NEW_SECRET_KEY: fresh }, encoding: 'utf8' });
  assert.equal(rk.status, 0, rk.stderr);
  assert.equal(JSON.parse(rk.stdout).secrets, 1);
  const s2 = new Server({ dir: s1.dir, database: s1.database, adminKey: s1.adminKey, env: { ...env0, BULWARK_SECRET_KEY: fresh } });
  await s2.start();
  s2.ownsDir = true;
  try {
    const p = await s2.req('POST', `/api/webhooks/${w.id}/ping`, { key: u.key });
    assert.equal(p.status, 202, p.text);
    await until('the ping after rekey', () => route.got.length === 1);
    assert.deepEqual(route.refused, []);
  } finally {
    assert.equal(await s2.stop(), 0);
  }
});
