// The scheduled intel sync (BULWARK_INTEL_SYNC_INTERVAL, issue 22): `bulwark serve` runs the same
// sync as `bulwark intel sync` on its job queue, once per interval slot, against a local host that
// behaves like the public ones (tests/api/lib/intelhost.mjs). The outcome per source is shown in
// the feed's `sync` member. A restart within a slot does not sync again; on PostgreSQL, several
// instances on one database sync once per slot between them. Runs on the backend the harness picks.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { BACKEND, BIN, Server } from './lib/server.mjs';
import { startIntelHost, KEV, ATLAS, TARGET, epssCsv } from './lib/intelhost.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const INTERVAL_S = 3;
// the source a sync fetches first (OSV, then KEV, ATLAS, EPSS), once per sync
const FIRST = '/PyPI/all.zip';

let host;
const servers = [];
before(async () => {
  host = await startIntelHost();
  host.serve('/kev.json', JSON.stringify(KEV), 'application/json');
  host.serve('/ATLAS.yaml', ATLAS, 'application/x-yaml');
  host.serve('/epss.csv.gz', gzipSync(epssCsv('2026-11-25', [[TARGET.id, '0.81234', '0.99']])), 'application/gzip');
  host.serve('/PyPI/all.zip', readFileSync(new URL('../fixtures/intel/osv-sync/all.zip', import.meta.url)), 'application/zip');
});
// A test that fails stops its servers here, so they do not go on syncing into the next test's counts.
async function stopAll() {
  for (const s of servers) if (s.proc && s.exitCode === undefined) assert.equal(await s.stop(), 0);
}
afterEach(stopAll);
after(async () => {
  await stopAll();
  await host.close();
});

// Instances share the sealing key and, given one, the database (docs/operations.md).
const SECRET = randomBytes(32).toString('hex');
function server(env, from) {
  const s = new Server({
    env: { BULWARK_RATE_ANON: '0', BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_WORKERS: '2', BULWARK_JOB_POLL_MS: '50',
      BULWARK_SECRET_KEY: SECRET, BULWARK_INTEL_KEV_URL: host.base + '/kev.json',
      BULWARK_INTEL_ATLAS_URL: host.base + '/ATLAS.yaml', BULWARK_INTEL_EPSS_URL: host.base + '/epss.csv.gz',
      BULWARK_INTEL_OSV_URL: host.base + '/PyPI/all.zip', BULWARK_INTEL_OSV_PACKAGES: 'torch,PyPI:transformers', ...env },
    ...(from ? { database: from.database, adminKey: from.adminKey } : {}),
  });
  servers.push(s);
  return s;
}
// The feed's sync state by source.
async function syncState(s) {
  const r = await s.req('GET', '/api/ai-security/threat-feed?limit=1');
  assert.equal(r.status, 200, r.text);
  return Object.fromEntries(r.json.sync.map(e => [e.source, e]));
}
// Polls fn until it returns a truthy value; fails after ms.
async function until(ms, what, fn) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
    const v = await fn();
    if (v) return v;
  }
  assert.fail('timed out waiting for ' + what);
}
const slotOf = (t) => Math.floor(t / (INTERVAL_S * 1000));

test('off by default: no job, the feed shows no sync state, a bad interval is refused', async () => {
  const s = server({});
  await s.start();
  await sleep(500);
  assert.deepEqual((await s.req('GET', '/api/ai-security/threat-feed?limit=1')).json.sync, []);
  assert.equal(host.seen.length, 0);
  assert.ok(!s.logLines().some(l => l.msg === 'intel sync scheduled'));
  for (const bad of ['-1', '1w', '10x', '40d', ' 5', '5 m', '99999999999999999999']) {
    const r = spawnSync(BIN, ['migrate'], { env: { ...s.env(), BULWARK_INTEL_SYNC_INTERVAL: bad } });
    assert.equal(r.status, 2, bad);
    assert.match(r.stderr.toString(), /BULWARK_INTEL_SYNC_INTERVAL must be 0 \(off\) or a duration/);
  }
  for (const good of ['0', '0d', '1', '90s', '15m', '6h', '31d'])
    assert.equal(spawnSync(BIN, ['migrate'], { env: { ...s.env(), BULWARK_INTEL_SYNC_INTERVAL: good } }).status, 0, good);
  assert.equal(await s.stop(), 0);
});

test('a short interval: the first slot imports, the next ones are conditional 304s, a change is imported', async () => {
  const s = server({ BULWARK_INTEL_SYNC_INTERVAL: String(INTERVAL_S) + 's' });
  await s.start();
  // 60 s: four sources imported under ASan on PostgreSQL beside another test shard took over 30
  const st = await until(60000, 'the first sync', async () => {
    const x = await syncState(s);
    return ['kev', 'atlas', 'epss', 'osv'].every(k => x[k]?.status === 'imported') && x;
  });
  assert.match(st.kev.checked_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(st.kev.imported_at, st.kev.checked_at);
  assert.ok(!('url' in st.kev) && !('error' in st.kev), 'no URL or error in the public feed');
  assert.equal((await s.req('GET', '/api/ai-security/threat-feed/' + TARGET.id)).json.epss.score, 0.81234);
  assert.equal((await s.req('GET', '/api/ai-security/threat-feed/BWTEST-2026-0001')).json.type, 'model_advisory');
  // the next slot: every source answered 304
  await until(3 * INTERVAL_S * 1000, 'a 304 slot', async () => {
    const x = await syncState(s);
    return ['kev', 'atlas', 'epss', 'osv'].every(k => x[k].status === 'not_modified');
  });
  const conditional = host.hits('/kev.json').slice(1);
  assert.ok(conditional.length >= 1 && conditional.every(h => /^"[0-9a-f]{32}"$/.test(h.inm)));
  // a changed KEV entry is imported in a later slot: the record's version moves
  const before = (await s.req('GET', '/api/ai-security/threat-feed/' + TARGET.id)).json;
  const changed = structuredClone(KEV);
  changed.vulnerabilities.find(v => v.cveID === TARGET.id).requiredAction = 'Apply the vendor fix today.';
  host.serve('/kev.json', JSON.stringify(changed), 'application/json', 'Thu, 26 Nov 2026 10:00:00 GMT');
  const rec = await until(3 * INTERVAL_S * 1000, 'the changed entry', async () => {
    const r = (await s.req('GET', '/api/ai-security/threat-feed/' + TARGET.id)).json;
    return r.kev_details.required_action === 'Apply the vendor fix today.' && r;
  });
  assert.equal(rec.version, before.version + 1);
  // a truncated gzip is rejected and stores nothing; the state says so
  const good = gzipSync(epssCsv('2026-11-26', [[TARGET.id, '0.5', '0.9']]));
  host.serve('/epss.csv.gz', good.subarray(0, good.length - 10), 'application/gzip', 'Thu, 26 Nov 2026 11:00:00 GMT');
  await until(3 * INTERVAL_S * 1000, 'the rejection', async () => (await syncState(s)).epss.status === 'rejected');
  assert.equal((await s.req('GET', '/api/ai-security/threat-feed/' + TARGET.id)).json.epss.score, 0.81234);
  // at most one sync per slot, told by the job (its id is the slot's) and not by when its first
  // fetch landed: on a loaded machine a slot's sync can start in the next slot's time
  const logged = s.logLines().filter(l => l.msg === 'intel sync');
  const jobs = logged.map(l => l.job_id);
  assert.equal(new Set(jobs).size, jobs.length, 'one sync per slot: ' + jobs);
  // logged per source, without the URLs
  assert.ok(logged.length >= 3);
  assert.ok(logged.some(l => l.sources.some(x => x.source === 'epss' && x.status === 'rejected' && /truncated/.test(x.error))));
  assert.ok(!s.logs.some(l => l.raw.includes(host.base)), 'no source URL in the log');
  host.serve('/epss.csv.gz', gzipSync(epssCsv('2026-11-25', [[TARGET.id, '0.81234', '0.99']])), 'application/gzip');
  host.serve('/kev.json', JSON.stringify(KEV), 'application/json');
  assert.equal(await s.stop(), 0);
});

test('a restart within the slot does not sync again (the slot job is durable)', async () => {
  const n0 = host.hits('/ATLAS.yaml').length;
  const s = server({ BULWARK_INTEL_SYNC_INTERVAL: '1d' });
  await s.start();
  await until(30000, 'the day slot sync', async () => host.hits('/ATLAS.yaml').length === n0 + 1);
  await until(5000, 'the job to end', async () => s.logLines().some(l => l.msg === 'job ended' && l.kind === 'intel_sync'));
  assert.equal(await s.stop({ keepData: true }), 0);
  const logged = s.logs.length; // the log of the first run is kept
  await s.start();
  await sleep(1500); // 30 polls
  assert.equal(host.hits('/ATLAS.yaml').length, n0 + 1, 'the restarted server found the slot done');
  assert.ok(!s.logs.slice(logged).some(l => l.obj?.msg === 'intel sync scheduled'));
  assert.equal(await s.stop(), 0);
});

test('several instances on one PostgreSQL database sync once per slot between them', { skip: BACKEND !== 'postgres' && 'one SQLite file is one instance' }, async () => {
  const a = server({ BULWARK_INTEL_SYNC_INTERVAL: '1d' });
  await a.start();
  const b = server({ BULWARK_INTEL_SYNC_INTERVAL: '1d' }, a);
  const c = server({ BULWARK_INTEL_SYNC_INTERVAL: '1d' }, a);
  const n0 = host.hits('/ATLAS.yaml').length;
  await Promise.all([b.start(), c.start()]);
  await sleep(2000);
  // a may have taken the day's slot already; b and c add nothing to it
  const day = host.hits('/ATLAS.yaml').length;
  assert.ok(day - n0 <= 1, `one fetch for the day slot, not ${day - n0}`);
  await Promise.all([a.stop(), b.stop(), c.stop()]);
  // three instances on a short interval: each slot is fetched once, though all three tick on it
  const t0 = Date.now();
  const x = server({ BULWARK_INTEL_SYNC_INTERVAL: String(INTERVAL_S) });
  await x.start();
  const y = server({ BULWARK_INTEL_SYNC_INTERVAL: String(INTERVAL_S) }, x);
  const z = server({ BULWARK_INTEL_SYNC_INTERVAL: String(INTERVAL_S) }, x);
  await Promise.all([y.start(), z.start()]);
  await sleep(4 * INTERVAL_S * 1000 + 500);
  const hits = host.hits(FIRST).filter(h => h.at >= t0).map(h => slotOf(h.at));
  assert.ok(hits.length >= 3, 'the slots ran: ' + hits);
  await Promise.all([x.stop(), y.stop(), z.stop()]);
  // no slot synced twice among the three, told by the slot's job id (a slot's sync started late
  // on a loaded machine fetches in the next slot's time, so fetch times cannot tell slots apart)
  const jobs = [x, y, z].flatMap(s => s.logLines().filter(l => l.msg === 'intel sync').map(l => l.job_id));
  assert.equal(new Set(jobs).size, jobs.length, 'no slot synced twice: ' + jobs);
  // every sync the three ran fetched OSV once: as many syncs as fetches
  assert.equal(jobs.length, host.hits(FIRST).filter(h => h.at >= t0).length);
});
