// GET /metrics as a scraper sees it: the text parses under the exposition format's rules (a strict
// parser below), the counters move by exactly what a known mix of requests did (per route
// template, method and status; 401 by reason; 403 by tier; 429 by principal kind; the code
// scanner; a red-team job; egress), histograms are cumulative and agree with the counters, and
// access is admin-only unless BULWARK_METRICS_PUBLIC is set. Also: the access log names the
// principal without ever writing a key or token.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { startServer, assertError } from './lib/server.mjs';
import { startTarget } from './lib/targets.mjs';

// ---- a strict parser of the text format (0.0.4) ------------------------------------------------

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const FLOAT = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN)$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseLabels(s, where) {
  // s is the text between { and }; values escape only \\, \" and \n
  const labels = {};
  let i = 0;
  while (i < s.length) {
    const eq = s.indexOf('=', i);
    assert.ok(eq > i, `${where}: label without a name`);
    const name = s.slice(i, eq);
    assert.match(name, LABEL_NAME, `${where}: label name ${JSON.stringify(name)}`);
    assert.ok(!name.startsWith('__'), `${where}: reserved label name ${name}`);
    assert.equal(s[eq + 1], '"', `${where}: label value must be quoted`);
    let v = '', j = eq + 2;
    for (;;) {
      assert.ok(j < s.length, `${where}: unterminated label value`);
      const c = s[j];
      if (c === '"') break;
      if (c === '\\') {
        const e = s[j + 1];
        assert.ok(e === '\\' || e === '"' || e === 'n', `${where}: bad escape \\${e}`);
        v += e === 'n' ? '\n' : e;
        j += 2;
        continue;
      }
      assert.notEqual(c, '\n', `${where}: raw line feed in a label value`);
      v += c;
      j++;
    }
    assert.ok(!(name in labels), `${where}: label ${name} twice`);
    labels[name] = v;
    i = j + 1;
    if (i < s.length) {
      assert.equal(s[i], ',', `${where}: labels must be separated by commas`);
      i++;
      assert.ok(i < s.length, `${where}: trailing comma`);
    }
  }
  return labels;
}

// Splits a sample line into name, label text and the rest, respecting quoted values.
function splitSample(line, where) {
  const m = /^([^\s{]+)/.exec(line);
  assert.ok(m, `${where}: no metric name`);
  const name = m[1];
  let rest = line.slice(name.length), labelText = '';
  if (rest[0] === '{') {
    let j = 1, inq = false;
    for (; j < rest.length; j++) {
      const c = rest[j];
      if (inq && c === '\\') { j++; continue; }
      if (c === '"') inq = !inq;
      else if (c === '}' && !inq) break;
    }
    assert.ok(j < rest.length, `${where}: unterminated label set`);
    labelText = rest.slice(1, j);
    rest = rest.slice(j + 1);
  }
  return { name, labelText, rest };
}

function seriesKey(name, labels) {
  return name + '{' + Object.keys(labels).sort().map((k) => `${k}=${JSON.stringify(labels[k])}`).join(',') + '}';
}

// Returns { families: Map(name -> {type, help, samples}), value(name, labels) }.
export function parseProm(text) {
  assert.ok(text.endsWith('\n'), 'the text ends with a line feed');
  const families = new Map();
  const seen = new Set();
  const closed = new Set(); // families whose lines are over: none may come back
  let current = null;
  const familyOf = (name) => {
    for (const suf of ['_bucket', '_sum', '_count']) {
      if (name.endsWith(suf)) {
        const base = name.slice(0, -suf.length);
        const f = families.get(base);
        if (f && (f.type === 'histogram' || (f.type === 'summary' && suf !== '_bucket'))) return base;
      }
    }
    return name;
  };
  const enter = (name, where) => {
    if (current === name) return;
    assert.ok(!closed.has(name), `${where}: lines of ${name} are not together`);
    if (current) closed.add(current);
    current = name;
  };
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, n) => {
    const where = `line ${n + 1} (${line})`;
    assert.ok(line.length > 0, `${where}: empty line`);
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) return; // a plain comment
      const [, kind, name, rest] = m;
      assert.match(name, METRIC_NAME, `${where}: metric name`);
      enter(name, where);
      const f = families.get(name) || { type: undefined, help: undefined, samples: [] };
      families.set(name, f);
      assert.equal(f.samples.length, 0, `${where}: ${kind} after samples`);
      if (kind === 'HELP') {
        assert.equal(f.help, undefined, `${where}: second HELP`);
        assert.ok(!/\\[^\\n]/.test(rest.replace(/\\\\/g, '')), `${where}: HELP escapes only \\\\ and \\n`);
        f.help = rest;
      } else {
        assert.equal(f.type, undefined, `${where}: second TYPE`);
        assert.ok(TYPES.has(rest), `${where}: type ${rest}`);
        f.type = rest;
      }
      return;
    }
    const { name, labelText, rest } = splitSample(line, where);
    assert.match(name, METRIC_NAME, `${where}: metric name`);
    const labels = parseLabels(labelText, where);
    const parts = rest.split(' ');
    assert.equal(parts[0], '', `${where}: one space before the value`);
    assert.ok(parts.length === 2 || parts.length === 3, `${where}: value [timestamp]`);
    assert.match(parts[1], FLOAT, `${where}: value`);
    if (parts.length === 3) assert.match(parts[2], /^-?\d+$/, `${where}: timestamp`);
    const fam = familyOf(name);
    const f = families.get(fam);
    assert.ok(f && f.type && f.help !== undefined, `${where}: HELP and TYPE of ${fam} come before its samples`);
    enter(fam, where);
    const key = seriesKey(name, labels);
    assert.ok(!seen.has(key), `${where}: duplicate series ${key}`);
    seen.add(key);
    const value = Number(parts[1].replace(/^([+-]?)Inf$/, '$1Infinity'));
    if (f.type === 'counter') {
      assert.ok(name.endsWith('_total'), `${where}: counters end in _total`);
      assert.ok(value >= 0, `${where}: counters are not negative`);
    }
    if (f.type === 'histogram' && name === fam + '_bucket') assert.ok('le' in labels, `${where}: bucket without le`);
    f.samples.push({ name, labels, value });
  });
  // histograms: buckets cumulative per label set, +Inf present and equal to _count, _sum present
  for (const [fam, f] of families) {
    if (f.type !== 'histogram') continue;
    const groups = new Map();
    for (const s of f.samples) {
      const { le, ...rest } = s.labels;
      const k = seriesKey('', rest);
      const g = groups.get(k) || { buckets: [], sum: undefined, count: undefined };
      groups.set(k, g);
      if (s.name === fam + '_bucket') g.buckets.push([le === '+Inf' ? Infinity : Number(le), s.value]);
      else if (s.name === fam + '_sum') g.sum = s.value;
      else if (s.name === fam + '_count') g.count = s.value;
    }
    for (const [k, g] of groups) {
      assert.ok(g.buckets.length > 0 && g.sum !== undefined && g.count !== undefined, `${fam}${k}: buckets, _sum, _count`);
      const sorted = [...g.buckets].sort((a, b) => a[0] - b[0]);
      assert.deepEqual(g.buckets, sorted, `${fam}${k}: buckets in le order`);
      for (let i = 1; i < sorted.length; i++) assert.ok(sorted[i][1] >= sorted[i - 1][1], `${fam}${k}: cumulative`);
      assert.equal(sorted.at(-1)[0], Infinity, `${fam}${k}: +Inf bucket`);
      assert.equal(sorted.at(-1)[1], g.count, `${fam}${k}: +Inf equals _count`);
      assert.ok(g.sum >= 0);
    }
  }
  const index = new Map();
  for (const f of families.values()) for (const s of f.samples) index.set(seriesKey(s.name, s.labels), s.value);
  return { families, value: (name, labels = {}) => index.get(seriesKey(name, labels)) ?? 0, has: (name, labels = {}) => index.has(seriesKey(name, labels)) };
}

// ---- the parser refuses what it should ------------------------------------------------------------

test('the strict parser refuses malformed exposition text', () => {
  const ok = '# HELP a_total x\n# TYPE a_total counter\na_total{l="v\\"\\\\\\n"} 1\n';
  parseProm(ok);
  const bad = [
    'a_total 1\n', // no HELP/TYPE
    '# HELP a_total x\n# TYPE a_total counter\na_total 1\na_total 2\n', // duplicate series
    '# HELP a_total x\n# TYPE a_total counter\na_total{l="\\t"} 1\n', // bad escape
    '# HELP a_total x\n# TYPE a_total counter\na_total{1l="v"} 1\n', // label name
    '# HELP a_total x\n# TYPE a_total counter\na_total{l="v",} 1\n', // trailing comma
    '# HELP a_total x\n# TYPE a_total counter\na_total one\n', // value
    '# HELP a_total x\n# TYPE a_total counter\na_total 1', // no final line feed
    '# HELP a-b x\n# TYPE a-b gauge\na-b 1\n', // name charset
    '# HELP a x\n# TYPE a gauge\na 1\n# HELP b x\n# TYPE b gauge\nb 1\na{x="1"} 1\n', // not together
    '# HELP h x\n# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n', // not cumulative
    '# HELP h x\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', // no +Inf
  ];
  for (const t of bad) assert.throws(() => parseProm(t), undefined, JSON.stringify(t));
});

// ---- the server --------------------------------------------------------------------------------

const JWT_SECRET = 'metrics-test-jwt-secret-' + randomBytes(16).toString('hex');
let srv, target;
before(async () => {
  srv = await startServer({
    env: {
      BULWARK_RATE_ANON: '4', BULWARK_RATE_FREE: '3', BULWARK_JWT_SECRET: JWT_SECRET,
      BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_WORKERS: '1', BULWARK_JOB_POLL_MS: '100',
    },
  });
  target = await startTarget({ mode: 'careful' });
});
after(async () => {
  if (target) await target.close();
  if (srv) assert.equal(await srv.stop(), 0);
});

async function scrape(s = srv, opts = { key: s.adminKey }) {
  const r = await s.req('GET', '/metrics', opts);
  assert.equal(r.status, 200, r.text);
  assert.match(r.headers.get('content-type'), /^text\/plain; version=0\.0\.4; charset=utf-8$/);
  return parseProm(r.text);
}

const b64url = (x) => Buffer.from(typeof x === 'string' ? x : JSON.stringify(x)).toString('base64url');
function forgeToken(claims) {
  const head = b64url({ alg: 'HS256', typ: 'JWT' }) + '.' + b64url(claims);
  return head + '.' + createHmac('sha256', JWT_SECRET).update(head).digest('base64url');
}

test('counters move by exactly the requests made, per route template, method and status', async () => {
  const free = await srv.session('FREE', { key: true });           // 1 of FREE's 3 (the key creation)
  const starter = await srv.session('STARTER', { key: true });
  const pro = await srv.session('PRO', { key: true });
  const ar = await srv.req('POST', '/api/ai-security/assets/register',
    { key: pro.key, body: { name: 'm', type: 'model', provider: 'self', endpoint: target.url } });
  assert.equal(ar.status, 201, ar.text);
  const assetId = ar.json.asset_id;

  const expected = new Map(); // "route method status" -> count
  const call = async (route, method, path, opts = {}, status) => {
    const r = await srv.req(method, path, opts);
    if (status !== undefined) assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
    const k = `${route} ${method} ${r.status}`;
    expected.set(k, (expected.get(k) || 0) + 1);
    return r;
  };
  // the baseline: the set-up requests above are counted once answered, so one may land a moment
  // after a scrape; take it when two scrapes in a row agree on everything but /metrics itself
  const settled = (m) => JSON.stringify(m.families.get('bulwark_http_requests_total').samples
    .filter((x) => x.labels.route !== '/metrics').map((x) => [x.labels, x.value]));
  let m0 = await scrape();
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const m = await scrape();
    const same = settled(m) === settled(m0);
    m0 = m;
    if (same) break;
  }

  const FW = '/api/ai-security/governance/frameworks';
  const ASSETS = '/api/ai-security/assets';
  const code = 'import os\nos.system("rm -rf " + user_input)\npassword = "hunter2hunter2"\n';
  // anonymous: 4 per hour; the 401 for a missing credential counts against it too
  await call(FW, 'GET', FW, {}, 200);
  await call('/api/vibe-code/scan', 'POST', '/api/vibe-code/scan', { body: { code, language: 'py' } }, 200);
  await call(ASSETS, 'GET', ASSETS, {}, 401);                        // missing
  await call(FW, 'GET', FW, {}, 200);
  const limited = await call(FW, 'GET', FW, {}, 429);                // anonymous 429
  assertError(assert, limited, 429, 'RATE_LIMITED');
  await call('unmatched', 'GET', '/no/such/endpoint', {}, 404);
  await call('unmatched', 'DELETE', '/healthz', {}, 405);
  await call('/healthz', 'GET', '/healthz', {}, 200);
  await call('/healthz', 'HEAD', '/healthz', {}, 200);
  // 401 by reason
  await call(ASSETS, 'GET', ASSETS, { key: 'svc_' + 'A'.repeat(38) }, 401);                        // invalid
  await call(ASSETS, 'GET', ASSETS, { token: 'not.a.token' }, 401);                               // invalid
  const expired = forgeToken({ sub: pro.id, tier: 'PRO', role: 'user', iat: Math.floor(Date.now() / 1000) - 7200,
    exp: Math.floor(Date.now() / 1000) - 3600, jti: 'jti_metricstest', iss: 'bulwark' });
  await call(ASSETS, 'GET', ASSETS, { token: expired }, 401);                                      // expired
  await call('/api/developer/keys/{id}', 'DELETE', `/api/developer/keys/${starter.keyId}`, { token: starter.token }, 200);
  await call(ASSETS, 'GET', ASSETS, { key: starter.key }, 401);                                    // revoked
  await call('/api/developer/keys', 'GET', '/api/developer/keys', { key: pro.key }, 401);          // wrong kind
  // 403: tiers and admin-only
  await call(ASSETS, 'GET', ASSETS, { key: free.key }, 403);                                       // FREE 2 of 3
  await call('/api/ai-security/redteam/engage', 'POST', '/api/ai-security/redteam/engage',
    { key: free.key, body: { target_asset_id: assetId } }, 403);                                   // FREE 3 of 3
  await call(ASSETS, 'GET', ASSETS, { key: free.key }, 429);                                       // account 429
  await call('/metrics', 'GET', '/metrics', { key: free.key }, 403);                               // FORBIDDEN, never limited
  // a red-team job through the worker pool and egress
  const eng = await call('/api/ai-security/redteam/engage', 'POST', '/api/ai-security/redteam/engage',
    { key: pro.key, body: { target_asset_id: assetId, intensity: 'light' } }, 202);
  let report;
  for (const end = Date.now() + 60000; ;) {
    report = await call('/api/ai-security/redteam/{id}/report', 'GET', `/api/ai-security/redteam/${eng.json.engagement_id}/report`, { key: pro.key }, 200);
    if (['completed', 'failed', 'cancelled'].includes(report.json.status)) break;
    assert.ok(Date.now() < end, 'the engagement finished: ' + report.text);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(report.json.status, 'completed', report.text);

  // a request is counted once answered, so the last ones may show a moment later: scrape until
  // every one does, then compare exactly. The scrapes themselves are the only other requests.
  // Likewise the job: its worker counts it after the commit that the report already shows.
  const SCRAPE = '/metrics GET 200';
  const deltas = (m) => {
    const d = new Map();
    for (const s of m.families.get('bulwark_http_requests_total').samples) {
      const before = m0.value('bulwark_http_requests_total', s.labels);
      if (s.value !== before) d.set(`${s.labels.route} ${s.labels.method} ${s.labels.status}`, s.value - before);
    }
    return d;
  };
  const withoutScrapes = (m) => JSON.stringify(Object.fromEntries([...m].filter(([k]) => k !== SCRAPE).sort()));
  let m1, got, scrapes = 0;
  for (const end = Date.now() + 5000; ;) {
    m1 = await scrape();
    scrapes++;
    got = deltas(m1);
    const jobCounted = m1.value('bulwark_jobs_finished_total', { kind: 'redteam', outcome: 'done' }) -
      m0.value('bulwark_jobs_finished_total', { kind: 'redteam', outcome: 'done' }) === 1;
    if ((withoutScrapes(got) === withoutScrapes(expected) && jobCounted) || Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.deepEqual(JSON.parse(withoutScrapes(got)), JSON.parse(withoutScrapes(expected)));
  // m0 and the earlier scrapes of the loop (the last one cannot count itself), and perhaps the
  // scrape before m0, counted a moment after it
  assert.ok(got.get(SCRAPE) >= 1 && got.get(SCRAPE) <= scrapes + 1, `scrapes counted: ${got.get(SCRAPE)}`);

  // histograms agree with the counters: per route, _count moved as much as the requests did
  const byRoute = new Map();
  for (const [k, v] of got) { const route = k.split(' ')[0]; byRoute.set(route, (byRoute.get(route) || 0) + v); }
  byRoute.delete('/metrics'); // the previous scrape may still be being counted
  for (const [route, n] of byRoute) {
    const c = 'bulwark_http_request_duration_seconds_count';
    assert.equal(m1.value(c, { route }) - m0.value(c, { route }), n, `histogram count of ${route}`);
  }
  // and in absolute terms, for every route
  const totals = new Map();
  for (const s of m1.families.get('bulwark_http_requests_total').samples)
    totals.set(s.labels.route, (totals.get(s.labels.route) || 0) + s.value);
  for (const s of m1.families.get('bulwark_http_request_duration_seconds').samples)
    if (s.name.endsWith('_count') && s.labels.route !== '/metrics') assert.equal(s.value, totals.get(s.labels.route), s.labels.route);
  // route labels are templates from the route table, never raw paths
  for (const route of totals.keys()) assert.ok(route === 'unmatched' || !/\/(usr|key|eng|ast)_/.test(route), route);
  assert.ok(totals.has('/api/ai-security/redteam/{id}/report'));

  const d = (name, labels) => m1.value(name, labels) - m0.value(name, labels);
  assert.equal(d('bulwark_http_rate_limited_total', { principal: 'anonymous' }), 1);
  assert.equal(d('bulwark_http_rate_limited_total', { principal: 'account' }), 1);
  assert.deepEqual(Object.fromEntries(['missing', 'invalid', 'expired', 'revoked', 'wrong_kind']
    .map((reason) => [reason, d('bulwark_http_auth_failures_total', { reason })])),
  { missing: 1, invalid: 2, expired: 1, revoked: 1, wrong_kind: 1 });
  assert.equal(d('bulwark_http_tier_denials_total', { required_tier: 'STARTER' }), 1);
  assert.equal(d('bulwark_http_tier_denials_total', { required_tier: 'PRO' }), 1);
  assert.equal(d('bulwark_http_forbidden_total', {}), 1);
  // the code scanner
  assert.equal(d('bulwark_codescan_scans_total', { language: 'py' }), 1);
  assert.equal(d('bulwark_codescan_bytes_total', { language: 'py' }), Buffer.byteLength(code));
  assert.ok(d('bulwark_codescan_seconds_total', { language: 'py' }) > 0);
  // the job: finished once, nothing left in the queue
  assert.equal(d('bulwark_jobs_finished_total', { kind: 'redteam', outcome: 'done' }), 1);
  assert.equal(d('bulwark_jobs_finished_total', { kind: 'redteam', outcome: 'failed' }), 0);
  assert.equal(m1.value('bulwark_jobs_queue_depth', { kind: 'redteam', state: 'queued' }), 0);
  assert.equal(m1.value('bulwark_jobs_queue_depth', { kind: 'redteam', state: 'running' }), 0);
  assert.ok(m1.has('bulwark_jobs_oldest_queued_age_seconds', { kind: 'redteam' }));
  // its attacks went out through egress
  assert.ok(d('bulwark_egress_requests_total', { outcome: 'ok' }) >= report.json.attacks_total, 'egress ok');
  assert.equal(d('bulwark_egress_requests_total', { outcome: 'blocked' }), 0);
  // no database failures along the way; the families the server always had are still there
  const backend = m1.families.get('bulwark_build_info').samples[0].labels.backend;
  assert.equal(d('bulwark_db_errors_total', { backend, kind: 'statement' }), 0);
  assert.equal(d('bulwark_db_errors_total', { backend, kind: 'connect' }), 0);
  for (const name of ['bulwark_build_info', 'bulwark_uptime_seconds', 'bulwark_http_requests_in_flight', 'bulwark_ratelimit_tracked_keys'])
    assert.equal(m1.families.get(name).type, 'gauge', name);
  assert.ok(m1.value('bulwark_ratelimit_tracked_keys') >= 2);
});

test('access: anonymous 401, a FREE account 403, the admin key 200; open with BULWARK_METRICS_PUBLIC=1', async () => {
  assertError(assert, await srv.req('GET', '/metrics'), 401, 'AUTH_REQUIRED');
  const u = await srv.session('FREE', { key: true });
  assertError(assert, await srv.req('GET', '/metrics', { key: u.key }), 403, 'FORBIDDEN');
  assertError(assert, await srv.req('GET', '/metrics', { token: u.token }), 403, 'FORBIDDEN');
  await scrape();
  const pub = await startServer({ env: { BULWARK_METRICS_PUBLIC: '1', BULWARK_WORKERS: '0' } });
  try {
    await pub.req('POST', '/api/vibe-code/scan', { body: { code: 'eval(x)', language: 'js' } });
    const m = await scrape(pub, {});
    assert.equal(m.value('bulwark_codescan_scans_total', { language: 'js' }), 1);
  } finally { assert.equal(await pub.stop(), 0); }
});

test('queued jobs show in the queue gauges with the age of the oldest', async () => {
  const s = await startServer({ env: { BULWARK_WORKERS: '0', BULWARK_EGRESS_ALLOW: 'loopback' } });
  try {
    const u = await s.session('PRO', { key: true });
    const a = await s.req('POST', '/api/ai-security/assets/register',
      { key: u.key, body: { name: 'q', type: 'model', provider: 'self', endpoint: target.url } });
    assert.equal(a.status, 201, a.text);
    const e = await s.req('POST', '/api/ai-security/redteam/engage', { key: u.key, body: { target_asset_id: a.json.asset_id, intensity: 'light' } });
    assert.equal(e.status, 202, e.text);
    await new Promise((r) => setTimeout(r, 1100));
    const m = await scrape(s);
    assert.equal(m.value('bulwark_jobs_queue_depth', { kind: 'redteam', state: 'queued' }), 1);
    assert.equal(m.value('bulwark_jobs_queue_depth', { kind: 'redteam', state: 'running' }), 0);
    const age = m.value('bulwark_jobs_oldest_queued_age_seconds', { kind: 'redteam' });
    assert.ok(age >= 1 && age < 60, `age ${age}`);
  } finally { assert.equal(await s.stop(), 0); }
});

test('access log: one JSON line per request with its principal, route template and timing; no key or token in the log', async () => {
  const u = await srv.session('STARTER', { key: true });
  const badKey = 'svc_' + randomBytes(30).toString('base64url').replace(/[-_]/g, 'x').slice(0, 38); // key-shaped, unknown
  const reqs = [
    [{ key: u.key }, '/api/ai-security/assets/ast_nosuchasset', u.key.slice(0, 12), 404],
    [{ key: badKey }, '/api/ai-security/assets', 'anonymous', 401],
    [{ token: u.token }, '/api/ai-security/assets', u.id, 200],
    [{ key: srv.adminKey }, '/metrics', 'admin_key', 200],
    [{}, '/healthz', 'anonymous', 200],
  ];
  const ids = [];
  for (const [opts, path, , status] of reqs) {
    const r = await srv.req('GET', path, opts);
    assert.equal(r.status, status, r.text);
    ids.push(r.headers.get('x-request-id'));
  }
  let lines;
  for (const end = Date.now() + 5000; ;) { // the log is flushed every 100 ms
    lines = ids.map((id) => srv.logLines().find((l) => l.msg === 'request' && l.request_id === id));
    if (lines.every(Boolean) || Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  reqs.forEach(([, path, principal, status], i) => {
    const l = lines[i];
    assert.ok(l, `log line of ${ids[i]}`);
    assert.equal(l.principal, principal);
    assert.equal(l.status, status);
    assert.equal(l.method, 'GET');
    assert.equal(l.path, path);
    assert.equal(typeof l.duration_ms, 'number');
    assert.equal(l.ip, '127.0.0.1');
    assert.match(l.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
  assert.equal(lines[0].account, u.id, 'a key caller\'s account is named too');
  assert.match(lines[0].principal, /^svc_[A-Za-z0-9]{8}$/);
  assert.equal(lines[0].route, '/api/ai-security/assets/{id}', 'the route template, beside the path');
  assert.equal(lines[1].error, 'AUTH_REQUIRED');
  // secrets never reach the log, whatever the line
  const raw = srv.logs.map((l) => l.raw).join('\n');
  for (const [what, secret] of [['API key', u.key], ['bad key', badKey], ['token', u.token], ['admin key', srv.adminKey],
    ['password', u.password], ['JWT secret', JWT_SECRET]]) {
    assert.ok(!raw.includes(secret), `the ${what} is not in the log`);
  }
  assert.ok(raw.includes(u.key.slice(0, 12)), 'the key prefix is');
});
