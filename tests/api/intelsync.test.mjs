// `bulwark intel sync` (issue 22) against a local server written to behave like the real hosts
// (CISA's KEV JSON, FIRST's EPSS .csv.gz, MITRE's ATLAS.yaml): ETag and Last-Modified with 304 on a
// conditional request, gzip bytes, a truncated gzip, a KEV file with a changed entry, an EPSS file
// for CVEs the store does not have, a 500, and the egress guard refusing loopback unless
// BULWARK_EGRESS_ALLOW opens it. Runs on the backend the harness picks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { startServer, BIN } from './lib/server.mjs';
import { startIntelHost, KEV, ATLAS, TARGET, epssCsv } from './lib/intelhost.mjs';


// the local host (tests/api/lib/intelhost.mjs); its files are changed by the tests
let host, files, seen, serve;
let srv, base;
before(async () => {
  host = await startIntelHost();
  ({ base, files, seen, serve } = host);
  srv = await startServer({ env: { BULWARK_RATE_ANON: '0' } });
  serve('/kev.json', JSON.stringify(KEV), 'application/json');
  serve('/ATLAS.yaml', ATLAS, 'application/x-yaml');
  serve('/epss.csv.gz', gzipSync(epssCsv('2026-11-25', [[TARGET.id, '0.81234', '0.99'], ['CVE-1999-0001', '0.0046', '0.7385']])),
    'application/gzip');
});
after(async () => {
  if (srv) assert.equal(await srv.stop(), 0);
  await host.close();
});

// asynchronous: the local host answers from this process's event loop while the CLI runs
async function sync(extra = {}, args = []) {
  const env = { ...srv.env(), BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_INTEL_KEV_URL: base + '/kev.json',
    BULWARK_INTEL_ATLAS_URL: base + '/ATLAS.yaml', BULWARK_INTEL_EPSS_URL: base + '/epss.csv.gz', ...extra };
  const r = await new Promise((resolve) => {
    const p = spawn(BIN, ['intel', 'sync', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    p.stdout.on('data', d => { stdout += d; });
    p.stderr.on('data', d => { stderr += d; });
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  let report = null;
  try { report = JSON.parse(r.stdout); } catch { /* usage errors print nothing */ }
  const by = {};
  for (const s of report?.sources || []) by[s.source] = s;
  return { code: r.status, report, by, err: r.stderr };
}
const record = (id) => srv.req('GET', '/api/ai-security/threat-feed/' + id);

test('first sync imports every source; EPSS scores the KEV record and counts the unknown CVE', async () => {
  assert.ok(TARGET, 'a seed record from the KEV fixture');
  const r = await sync();
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(Object.keys(r.by), ['kev', 'atlas', 'epss', 'osv']);
  assert.equal(r.by.osv.status, 'off', 'OSV is off until BULWARK_INTEL_OSV_URL names a source');
  for (const s of ['kev', 'atlas', 'epss']) assert.equal(r.by[s].status, 'imported', JSON.stringify(r.by[s]));
  // the fixtures are in the seed already: nothing new from KEV and ATLAS
  assert.equal(r.by.kev.added + r.by.kev.updated, 0);
  assert.deepEqual([r.by.epss.updated, r.by.epss.unknown], [1, 1]);
  const rec = (await record(TARGET.id)).json;
  assert.equal(rec.epss.score, 0.81234);
  assert.equal(rec.version, TARGET.version);
  // first fetches are unconditional
  assert.ok(seen.every(s => !s.inm && !s.ims));
});

test('second sync sends the validators and gets 304s: nothing imported', async () => {
  seen.length = 0;
  const r = await sync();
  assert.equal(r.code, 0, r.err);
  for (const s of ['kev', 'atlas', 'epss']) {
    assert.equal(r.by[s].status, 'not_modified');
    assert.equal(r.by[s].http_status, 304);
  }
  assert.equal(seen.length, 3);
  for (const s of seen) {
    assert.match(s.inm, /^"[0-9a-f]{32}"$/, 'If-None-Match carries the stored ETag');
    assert.equal(s.ims, 'Wed, 25 Nov 2026 10:00:00 GMT');
  }
});

test('a KEV file with a changed entry: that record is updated (version + 1), the rest unchanged', async () => {
  const changed = structuredClone(KEV);
  const entry = changed.vulnerabilities.find(v => v.cveID === TARGET.id);
  entry.requiredAction = 'Upgrade to the fixed release now.';
  entry.dueDate = '2026-12-31';
  serve('/kev.json', JSON.stringify(changed), 'application/json', 'Thu, 26 Nov 2026 10:00:00 GMT');
  const before = (await record(TARGET.id)).json;
  const r = await sync({}, ['--source', 'kev']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.by.kev.status, 'imported');
  assert.equal(r.by.kev.updated, 1);
  assert.equal(r.by.atlas.status, 'off');
  const after = (await record(TARGET.id)).json;
  assert.equal(after.version, before.version + 1);
  assert.equal(after.kev_details.required_action, 'Upgrade to the fixed release now.');
  assert.deepEqual(after.epss, before.epss, 'the score survives a change of facts');
});

test('a truncated gzip, a malformed file, a 500: rejected or failed, nothing stored, retried whole next time', async () => {
  const good = gzipSync(epssCsv('2026-11-26', [[TARGET.id, '0.5', '0.9']]));
  serve('/epss.csv.gz', good.subarray(0, good.length - 10), 'application/gzip', 'Thu, 26 Nov 2026 11:00:00 GMT');
  const r = await sync({}, ['--source', 'epss']);
  assert.equal(r.code, 1);
  assert.equal(r.by.epss.status, 'rejected');
  assert.match(r.by.epss.error, /truncated gzip/);
  assert.match(r.err, /epss: rejected/);
  assert.equal((await record(TARGET.id)).json.epss.score, 0.81234);
  // the same bytes again: not a 304 (the rejected download's ETag was not kept)
  seen.length = 0;
  assert.equal((await sync({}, ['--source', 'epss'])).by.epss.status, 'rejected');
  assert.ok(seen[0].inm && seen[0].inm !== null);
  // a bad row
  serve('/epss.csv.gz', epssCsv('2026-11-26', [[TARGET.id, '2.5', '0.9']]), 'text/csv');
  const bad = await sync({}, ['--source', 'epss']);
  assert.equal(bad.by.epss.status, 'rejected');
  assert.match(bad.by.epss.error, /line 3, column \d+: epss must be a decimal/);
  // a server error
  files['/epss.csv.gz'].status = 500;
  const down = await sync({}, ['--source', 'epss']);
  assert.equal(down.code, 1);
  assert.equal(down.by.epss.status, 'failed');
  assert.equal(down.by.epss.http_status, 500);
  // fixed: the whole file is fetched and imported
  serve('/epss.csv.gz', good, 'application/gzip', 'Thu, 26 Nov 2026 12:00:00 GMT');
  const ok = await sync({}, ['--source', 'epss']);
  assert.equal(ok.code, 0, ok.err);
  assert.equal(ok.by.epss.status, 'imported');
  const rec = (await record(TARGET.id)).json;
  assert.equal(rec.epss.score, 0.5);
  assert.deepEqual(rec.epss_history.map(h => h.date), ['2026-11-26', '2026-11-25']);
});

test('an EPSS file only for CVEs the store does not have: imported, every score unknown, nothing changes', async () => {
  serve('/epss.csv.gz', gzipSync(epssCsv('2026-11-27', [['CVE-2001-0001', '0.5', '0.5'], ['CVE-2001-0002', '0.1', '0.2']])),
    'application/gzip', 'Fri, 27 Nov 2026 00:00:00 GMT');
  const before = (await srv.req('GET', '/api/ai-security/threat-feed?limit=1')).json.updated_at;
  const r = await sync({}, ['--source', 'epss']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual([r.by.epss.status, r.by.epss.updated, r.by.epss.unchanged, r.by.epss.unknown], ['imported', 0, 0, 2]);
  assert.equal((await srv.req('GET', '/api/ai-security/threat-feed?limit=1')).json.updated_at, before);
});

const OSV_DIR = new URL('../fixtures/intel/osv-sync/', import.meta.url).pathname;
const osvDoc = (id) => JSON.parse(readFileSync(OSV_DIR + id + '.json', 'utf8'));
const OSV_ENV = { BULWARK_INTEL_OSV_URL: '', BULWARK_INTEL_OSV_PACKAGES: 'torch, PyPI:transformers' };

test('OSV: a zip like all.zip, kept to the package filter, imported through the OSV normaliser; then a 304', async () => {
  serve('/PyPI/all.zip', readFileSync(OSV_DIR + 'all.zip'), 'application/zip');
  const env = { ...OSV_ENV, BULWARK_INTEL_OSV_URL: base + '/PyPI/all.zip' };
  const r = await sync(env, ['--source', 'osv']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.by.osv.status, 'imported', JSON.stringify(r.by.osv));
  assert.equal(r.by.osv.added, 1, 'the transformers advisory is new');
  assert.equal(r.by.osv.skipped, 1, 'the requests advisory is outside the filter');
  const rec = (await record('BWTEST-2026-0001')).json;
  assert.equal(rec.type, 'model_advisory');
  assert.equal(rec.affected[0].package, 'transformers');
  assert.equal((await record('BWTEST-2026-0002')).status, 404);
  // the seed's torch record (PYSEC-2022-43015 under its CVE) is matched, not duplicated
  assert.equal((await record('PYSEC-2022-43015')).status, 404);
  seen.length = 0;
  const again = await sync(env, ['--source', 'osv']);
  assert.equal(again.by.osv.status, 'not_modified');
  assert.match(seen[0].inm, /^"[0-9a-f]{32}"$/);
  // a widened filter fetches the archive whole again: a 304 would hide the advisories it now wants
  seen.length = 0;
  const wider = await sync({ ...env, BULWARK_INTEL_OSV_PACKAGES: 'torch,transformers,requests' }, ['--source', 'osv']);
  assert.equal(seen[0].inm, null);
  assert.equal(wider.by.osv.status, 'imported');
  assert.equal(wider.by.osv.added, 1);
  assert.equal((await record('BWTEST-2026-0002')).json.affected[0].package, 'requests');
});

test('OSV: a truncated zip and a list with a malformed advisory store nothing; a JSON list imports', async () => {
  const changed = osvDoc('BWTEST-2026-0001');
  changed.summary = 'Changed summary';
  const zip = readFileSync(OSV_DIR + 'all.zip');
  serve('/PyPI/all.zip', zip.subarray(0, zip.length - 40), 'application/zip', 'Thu, 26 Nov 2026 12:00:00 GMT');
  const env = { ...OSV_ENV, BULWARK_INTEL_OSV_URL: base + '/PyPI/all.zip' };
  const cut = await sync(env, ['--source', 'osv']);
  assert.equal(cut.code, 1);
  assert.equal(cut.by.osv.status, 'rejected');
  assert.match(cut.by.osv.error, /not a readable zip/);
  // a JSON list: the second advisory has no id, so the first is not stored either
  const third = { ...osvDoc('BWTEST-2026-0001'), id: 'BWTEST-2026-0003' };
  const { id: _drop, ...noId } = osvDoc('BWTEST-2026-0002');
  serve('/osv.json', JSON.stringify([third, noId]), 'application/json');
  const listEnv = { BULWARK_INTEL_OSV_URL: base + '/osv.json', BULWARK_INTEL_OSV_PACKAGES: '' };
  const bad = await sync(listEnv, ['--source', 'osv']);
  assert.equal(bad.by.osv.status, 'rejected');
  assert.match(bad.by.osv.error, /^\[1\]: line \d+, column \d+: /);
  assert.equal((await record('BWTEST-2026-0003')).status, 404);
  serve('/osv.json', JSON.stringify([third, osvDoc('BWTEST-2026-0002')]), 'application/json',
    'Thu, 26 Nov 2026 13:00:00 GMT');
  const ok = await sync(listEnv, ['--source', 'osv']);
  assert.equal(ok.by.osv.status, 'imported', JSON.stringify(ok.by.osv));
  assert.equal(ok.by.osv.added, 1);
  assert.equal(ok.by.osv.unchanged, 1, 'BWTEST-2026-0002 came from the zip already');
  assert.equal((await record('BWTEST-2026-0003')).json.affected[0].package, 'transformers');
  // a filter that is not a list of [Ecosystem:]name
  const filt = await sync({ ...listEnv, BULWARK_INTEL_OSV_PACKAGES: 'PyPI:' }, ['--source', 'osv']);
  assert.equal(filt.by.osv.status, 'rejected');
  assert.match(filt.by.osv.error, /BULWARK_INTEL_OSV_PACKAGES/);
});

test('the egress guard: loopback refused unless BULWARK_EGRESS_ALLOW opens it; an empty URL turns a source off', async () => {
  const r = await sync({ BULWARK_EGRESS_ALLOW: '' }, ['--source', 'kev']);
  assert.equal(r.code, 1);
  assert.equal(r.by.kev.status, 'failed');
  assert.match(r.by.kev.error, /loopback/);
  const off = await sync({ BULWARK_INTEL_KEV_URL: '', BULWARK_INTEL_ATLAS_URL: '', BULWARK_INTEL_EPSS_URL: '' });
  assert.equal(off.code, 0);
  assert.deepEqual(off.report.sources.map(s => s.status), ['off', 'off', 'off', 'off']);
  const usage = await sync({}, ['--source', 'nvd']);
  assert.equal(usage.code, 2);
});
