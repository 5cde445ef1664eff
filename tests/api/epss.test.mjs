// EPSS (issue 22): `bulwark intel import --format epss` (plain and gzip CSV, FIRST's format with
// its comment line), the records' epss and bounded history, the composite risk with EPSS, the
// feed's epss_min, sort=risk|published|epss with keyset cursors, since, and
// GET /api/ai-security/threat-feed/{id}. Runs on the backend the harness picks (SQLite and
// PostgreSQL in CI).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, assertError, BIN } from './lib/server.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const SEED = JSON.parse(readFileSync(join(ROOT, 'data/intel/seed.json'), 'utf8'));
const BY_ID = new Map(SEED.records.map(r => [r.id, r]));
// three seed CVEs: one in KEV, one with a public exploit if the seed has one, one plain
const CVES = SEED.records.filter(r => r.id.startsWith('CVE-'));
const KEV = CVES.find(r => r.kev);
const EXPLOIT = CVES.find(r => !r.kev && r.exploit_available);
const PLAIN = CVES.find(r => !r.kev && !r.exploit_available && r.risk_score <= 80);
const SCORED = [KEV, EXPLOIT, PLAIN].filter(Boolean);

let srv, dir;
before(async () => {
  srv = await startServer({ env: { BULWARK_RATE_ANON: '0', BULWARK_RATE_FREE: '0' } });
  dir = mkdtempSync(join(tmpdir(), 'bw-epss-'));
});
after(async () => {
  if (srv) assert.equal(await srv.stop(), 0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const get = (path, opts) => srv.req('GET', path, opts);
const feed = (q = '') => get('/api/ai-security/threat-feed' + (q ? '?' + q : ''));
const record = (id, opts) => get('/api/ai-security/threat-feed/' + id, opts);

function importEpss(name, body) {
  const path = join(dir, name);
  writeFileSync(path, body);
  const r = spawnSync(BIN, ['intel', 'import', '--format', 'epss', path], { env: srv.env(), encoding: 'utf8' });
  let report = null;
  try { report = JSON.parse(r.stdout); } catch { /* usage errors print nothing */ }
  return { code: r.status, report, err: r.stderr };
}

const csv = (date, rows) => `#model_version:v2025.03.14,score_date:${date}T00:00:00+0000\ncve,epss,percentile\n` +
  rows.map(([c, e, p]) => `${c},${e},${p}`).join('\n') + '\n';

// risk.h: exploitation = 20 with KEV, else max(10 with an exploit, round(EPSS x 20))
function expectedRisk(seed, epss) {
  if (seed.kev) return seed.risk_score;
  const exploit = seed.exploit_available ? 10 : 0;
  return Math.min(100, seed.risk_score - exploit + Math.max(exploit, Math.round(epss * 20)));
}

// walks a feed query to its end with cursors; returns the entries
async function walk(q, limit = 7) {
  const out = [];
  let cursor = null;
  for (let i = 0; i < 1000; i++) {
    const r = await feed(`${q}&limit=${limit}` + (cursor ? `&cursor=${cursor}` : ''));
    assert.equal(r.status, 200, r.text);
    out.push(...r.json.feed);
    cursor = r.json.next_cursor;
    if (!cursor) return { entries: out, total: r.json.total };
  }
  throw new Error('the walk did not end');
}

const day1 = [[KEV.id, '0.94321', '0.99901'], [PLAIN.id, '0.61234', '0.97000'],
  ...(EXPLOIT ? [[EXPLOIT.id, '0.2', '0.91']] : []),
  ['CVE-1999-0001', '0.0046', '0.7385'], ['CVE-2019-99999', '0.5', '0.9']];

test('import: scores reach their CVE records; unknown CVEs are counted and skipped; version stays', async () => {
  const before = await feed('limit=1');
  const r = importEpss('day1.csv', csv('2026-11-25', day1));
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(r.report, { imported: true, format: 'epss', score_date: '2026-11-25', model_version: 'v2025.03.14',
    scores: day1.length, updated: SCORED.length, unchanged: 0, unknown: 2 });
  for (const [id, e, p] of day1.slice(0, SCORED.length)) {
    const rec = await record(id);
    assert.equal(rec.status, 200, rec.text);
    const seed = BY_ID.get(id);
    assert.deepEqual(rec.json.epss, { date: '2026-11-25', score: Number(e), percentile: Number(p) });
    assert.deepEqual(rec.json.epss_history, [rec.json.epss]);
    assert.equal(rec.json.version, seed.version, 'a score is not a fact: the version stays');
    assert.equal(rec.json.enriched_at, seed.enriched_at);
    assert.ok(rec.json.changed_at > seed.enriched_at);
    assert.equal(rec.json.risk_score, expectedRisk(seed, Number(e)), id);
  }
  // the plain record's risk moved by round(0.61234 x 20) = 12
  assert.equal((await record(PLAIN.id)).json.risk_score, Math.min(100, PLAIN.risk_score + 12));
  // an unknown CVE did not become a record
  assert.equal((await record('CVE-1999-0001')).status, 404);
  const after = await feed('limit=1');
  assert.ok(after.json.updated_at > before.json.updated_at, 'updated_at is the newest change');
  // the same file again changes nothing
  const again = importEpss('day1-again.csv', csv('2026-11-25', day1));
  assert.equal(again.code, 0, again.err);
  assert.equal(again.report.updated, 0);
  assert.equal(again.report.unchanged, SCORED.length);
  assert.equal((await feed('limit=1')).json.updated_at, after.json.updated_at);
});

test('import: gzip, the next day goes first in the history; a truncated gzip is refused whole', async () => {
  const day2 = [[KEV.id, '0.95', '0.9991'], [PLAIN.id, '0.7', '0.98']];
  const r = importEpss('day2.csv.gz', gzipSync(csv('2026-11-26', day2)));
  assert.equal(r.code, 0, r.err);
  assert.equal(r.report.updated, 2);
  const rec = (await record(PLAIN.id)).json;
  assert.deepEqual(rec.epss_history.map(h => h.date), ['2026-11-26', '2026-11-25']);
  assert.deepEqual(rec.epss, { date: '2026-11-26', score: 0.7, percentile: 0.98 });
  const etag = (await record(PLAIN.id)).headers.get('etag');
  // cut before its end: nothing is stored, the position and reason are reported
  const whole = gzipSync(csv('2026-11-27', [[PLAIN.id, '0.01', '0.1']]));
  const cut = importEpss('day3.csv.gz', whole.subarray(0, whole.length - 6));
  assert.equal(cut.code, 1);
  assert.equal(cut.report.imported, false);
  assert.match(cut.report.rejected[0].message, /truncated gzip/);
  assert.match(cut.err, /truncated gzip/);
  assert.equal((await record(PLAIN.id)).headers.get('etag'), etag);
  // malformed rows: the line and column, nothing stored
  const bad = importEpss('bad.csv', csv('2026-11-27', [[PLAIN.id, '0.01', '0.1'], [KEV.id, '1.5', '0.2']]));
  assert.equal(bad.code, 1);
  assert.deepEqual([bad.report.rejected[0].line, bad.report.rejected[0].column], [4, 15]);
  assert.equal((await record(PLAIN.id)).json.epss.score, 0.7);
  // an EPSS file for CVEs the store does not have: all unknown, nothing changes
  const none = importEpss('unknown.csv', csv('2026-11-27', [['CVE-2001-0001', '0.5', '0.5'], ['CVE-2001-0002', '0.1', '0.1']]));
  assert.equal(none.code, 0, none.err);
  assert.deepEqual([none.report.updated, none.report.unchanged, none.report.unknown], [0, 0, 2]);
  // usage: a directory is not an EPSS file
  assert.equal(importEpss('x', '').code, 1); // empty file: rejected
});

test('sort=epss: scored records first, highest first, then the rest; cursors walk it whole', async () => {
  const { entries, total } = await walk('sort=epss');
  assert.equal(total, SEED.records.length);
  assert.equal(entries.length, SEED.records.length);
  assert.equal(new Set(entries.map(e => e.id)).size, entries.length, 'no record twice');
  const key = e => (e.epss ? e.epss.score : -1);
  for (let i = 1; i < entries.length; i++) {
    const a = entries[i - 1], b = entries[i];
    assert.ok(key(a) > key(b) || (key(a) === key(b) && a.id > b.id), `${a.id} before ${b.id}`);
  }
  assert.equal(entries[0].id, KEV.id);
  assert.equal(entries[0].epss.score, 0.95);
  // the offset form agrees with the walk
  const page = await feed('sort=epss&limit=5&offset=1');
  assert.deepEqual(page.json.feed.map(e => e.id), entries.slice(1, 6).map(e => e.id));
});

test('sort=risk and sort=published: ordered, walked whole; a cursor of another sort is refused', async () => {
  const risk = await walk('sort=risk', 11);
  assert.equal(risk.entries.length, SEED.records.length);
  for (let i = 1; i < risk.entries.length; i++) {
    const a = risk.entries[i - 1], b = risk.entries[i];
    assert.ok(a.risk_score > b.risk_score || (a.risk_score === b.risk_score && a.id > b.id));
  }
  const pub = await walk('sort=published&type=ai_cves', 9);
  const def = await walk('type=ai_cves', 9);
  assert.deepEqual(pub.entries.map(e => e.id), def.entries.map(e => e.id), 'published is the default');
  const c = (await feed('sort=risk&limit=2')).json.next_cursor;
  assertError(assert, await feed('sort=epss&limit=2&cursor=' + c), 400, 'VALIDATION_ERROR');
  assertError(assert, await feed('limit=2&cursor=' + c), 400, 'VALIDATION_ERROR');
  assertError(assert, await feed('sort=newest'), 400, 'VALIDATION_ERROR');
});

test('epss_min: only records scored at least that; totals count them; combined with type and sort', async () => {
  const r = await feed('epss_min=0.5&limit=100');
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.feed.map(e => e.id).sort(), [KEV.id, PLAIN.id].sort());
  assert.equal(r.json.total, 2);
  const exact = await feed('epss_min=0.95&sort=epss');
  assert.deepEqual(exact.json.feed.map(e => e.id), [KEV.id]);
  assert.equal((await feed('epss_min=0.950000&sort=epss')).json.total, 1);
  assert.equal((await feed('epss_min=1')).json.total, 0);
  assert.equal((await feed('epss_min=0&limit=100')).json.total, SCORED.length, 'epss_min=0: every scored record');
  assert.equal((await feed('epss_min=0.5&type=prompt_attacks')).json.total, 0);
  // a cursor carries the filter: reused with another epss_min it is refused
  const c = (await feed('epss_min=0&limit=1')).json.next_cursor;
  assert.ok(c);
  assertError(assert, await feed('epss_min=0.1&limit=1&cursor=' + c), 400, 'VALIDATION_ERROR');
  for (const bad of ['1.5', '-0.1', 'abc', '', '0.5x', '1e1']) {
    const e = assertError(assert, await feed('epss_min=' + encodeURIComponent(bad)), 400, 'VALIDATION_ERROR');
    assert.ok(JSON.stringify(e).includes('epss_min'));
  }
});

test('since: records changed after a time (facts or EPSS); walked with cursors; malformed is 400', async () => {
  const seedAt = SEED.generated_at;
  assert.equal((await feed('since=' + seedAt)).json.total, SCORED.length, 'changed after the seed: the scored ones');
  const older = new Date(Date.parse(seedAt) - 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  assert.equal((await feed('since=' + older)).json.total, SEED.records.length);
  assert.equal((await feed('since=2999-01-01T00:00:00Z')).json.total, 0);
  const w = await walk('since=' + seedAt + '&sort=risk', 1);
  assert.deepEqual(w.entries.map(e => e.id).sort(), SCORED.map(r => r.id).sort());
  for (const e of w.entries) assert.ok(e.updated_at > seedAt, 'updated_at is the last change');
  assertError(assert, await feed('since=yesterday'), 400, 'VALIDATION_ERROR');
  assertError(assert, await feed('since=2026-13-01T00:00:00Z'), 400, 'VALIDATION_ERROR');
});

test('GET /threat-feed/{id}: the whole record, stable, with ETag; unknown and impossible ids are 404', async () => {
  const r = await record(PLAIN.id);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.id, PLAIN.id);
  for (const k of ['title', 'summary', 'cvss', 'affected', 'references', 'version', 'enriched_at', 'changed_at', 'risk_score',
    'risk_tier', 'epss', 'epss_history'])
    assert.ok(k in r.json, k);
  const etag = r.headers.get('etag');
  assert.ok(etag);
  assert.equal((await record(PLAIN.id, { headers: { 'If-None-Match': etag } })).status, 304);
  // a record never scored has the same shape, with empty EPSS
  const atlas = SEED.records.find(x => x.id.startsWith('AML.'));
  const a = await record(atlas.id);
  assert.equal(a.status, 200, a.text);
  assert.equal(a.json.epss, null);
  assert.deepEqual(a.json.epss_history, []);
  assert.equal(a.json.changed_at, atlas.enriched_at);
  assert.equal(a.json.version, atlas.version);
  assertError(assert, await record('CVE-1999-0001'), 404, 'NOT_FOUND');
  assertError(assert, await record('..%2Fetc'), 404, 'NOT_FOUND');
  assertError(assert, await record('x'.repeat(65)), 404, 'NOT_FOUND');
  // the entry in the feed agrees with the record
  const e = (await feed('epss_min=0.5&sort=epss')).json.feed.find(x => x.id === PLAIN.id);
  assert.deepEqual(e.epss, r.json.epss);
  assert.equal(e.risk_score, r.json.risk_score);
  assert.equal(e.updated_at, r.json.changed_at);
});

test('the anonymous playbook follows a new EPSS score: same version, new risk score, new ETag', async () => {
  const pb = (opts) => get(`/api/threat-intel/${PLAIN.id}/playbook`, opts);
  const high = importEpss('day8.csv', csv('2026-12-02', [[PLAIN.id, '0.9', '0.99']]));
  assert.equal(high.code, 0, high.err);
  const first = await pb(); // built, and kept in the server's playbook cache
  assert.equal(first.status, 200, first.text);
  const risk0 = (await record(PLAIN.id)).json.risk_score;
  assert.equal(risk0, expectedRisk(PLAIN, 0.9));
  assert.ok(first.json.playbook.immediate_actions[0].includes(`composite risk score ${risk0}/100`), first.json.playbook.immediate_actions[0]);
  assert.equal((await pb({ headers: { 'If-None-Match': first.headers.get('etag') } })).status, 304);
  // a later day scores it far lower: the risk drops, the version does not move
  const r = importEpss('day9.csv', csv('2026-12-03', [[PLAIN.id, '0.00011', '0.01']]));
  assert.equal(r.code, 0, r.err);
  assert.equal(r.report.updated, 1);
  const rec = (await record(PLAIN.id)).json;
  assert.equal(rec.risk_score, expectedRisk(PLAIN, 0.00011));
  assert.notEqual(rec.risk_score, risk0);
  const next = await pb();
  assert.equal(next.status, 200, next.text);
  assert.equal(next.json.record_version, first.json.record_version, 'a score is not a fact');
  assert.ok(next.json.playbook.immediate_actions[0].includes(`composite risk score ${rec.risk_score}/100`),
    'the playbook is built from the record as it is now, not served from before the score moved');
  assert.notEqual(next.headers.get('etag'), first.headers.get('etag'));
  assert.equal((await pb({ headers: { 'If-None-Match': first.headers.get('etag') } })).status, 200);
});
