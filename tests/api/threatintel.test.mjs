// Threat intelligence: the feed (filters, paging, totals, 400s), playbooks (anonymous on demand,
// persisted per account, staleness after a re-import through the CLI, regeneration by POST and by
// an orchestrator run, history) and
// `bulwark intel import` against the server's own database (idempotent, all-or-nothing, exit codes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, assertError, BIN } from './lib/server.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const FIX = join(ROOT, 'tests/fixtures/intel');
const SEED = JSON.parse(readFileSync(join(ROOT, 'data/intel/seed.json'), 'utf8'));
const TYPES = { prompt_attacks: 'prompt_attack', agent_threats: 'agent_threat', ai_cves: 'ai_cve', model_advisories: 'model_advisory' };
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
const ENTRY_KEYS = ['id', 'type', 'title', 'severity', 'published', 'summary', 'cve', 'cvss', 'kev', 'attack_techniques',
  'atlas_techniques', 'references', 'updated_at', 'risk_score', 'risk_tier', 'epss'];
const PLAYBOOK_KEYS = ['risk_tier', 'immediate_actions', 'detection_guidance', 'threat_hunting_guide', 'soc_playbook',
  'incident_response_playbook', 'executive_advisory', 'security_architecture_guidance', 'operational_checklist',
  'references', 'supporting_evidence'];

let srv;
before(async () => { srv = await startServer({ env: { BULWARK_RATE_ANON: '0', BULWARK_RATE_FREE: '0' } }); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

const feed = (q = '', opts) => srv.req('GET', '/api/ai-security/threat-feed' + (q ? '?' + q : ''), opts);
const playbook = (id, opts) => srv.req('GET', `/api/threat-intel/${id}/playbook`, opts);
const regenerate = (id, opts) => srv.req('POST', `/api/threat-intel/${id}/playbook`, opts);
const history = (q = '', opts) => srv.req('GET', '/api/threat-intel/playbooks/history' + (q ? '?' + q : ''), opts);
// the bytes of the `playbook` member, which the envelope splices in last
const playbookBytes = (r) => r.text.slice(r.text.indexOf('"playbook":') + 11, -1);
const newestFirst = (a, b) => (a.published === b.published ? (a.id < b.id ? 1 : -1) : (a.published < b.published ? 1 : -1));

// The CLI against the server's database; returns {code, report, err}.
function intel(args) {
  const r = spawnSync(BIN, ['intel', ...args], { env: srv.env(), encoding: 'utf8' });
  let report = null;
  try { report = JSON.parse(r.stdout); } catch { /* usage errors print nothing */ }
  return { code: r.status, report, err: r.stderr };
}

// Imports a copy of the OSV fixture `name` as edit(text) makes it (the advisory changed at its
// source) through the CLI; the import's report.
function reimportOsv(name, edit) {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-osv-'));
  try {
    writeFileSync(join(dir, name), edit(readFileSync(join(FIX, 'osv', name), 'utf8')));
    const imp = intel(['import', '--format', 'osv', dir]);
    assert.equal(imp.code, 0, imp.err);
    return imp.report;
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

test('the feed: seed records, newest first, the documented entry shape, total and updated_at', async () => {
  const r = await feed();
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.total, SEED.records.length);
  assert.equal(r.json.limit, 20);
  assert.equal(r.json.offset, 0);
  assert.equal(r.json.updated_at, SEED.generated_at);
  assert.equal(r.json.feed.length, 20);
  const want = [...SEED.records].sort(newestFirst).slice(0, 20).map(x => x.id);
  assert.deepEqual(r.json.feed.map(e => e.id), want);
  for (const e of r.json.feed) {
    assert.deepEqual(Object.keys(e), ENTRY_KEYS);
    assert.ok(Object.values(TYPES).includes(e.type));
    assert.ok(SEVERITIES.includes(e.severity) && SEVERITIES.includes(e.risk_tier));
    assert.match(e.published, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(Number.isInteger(e.risk_score) && e.risk_score >= 0 && e.risk_score <= 100);
  }
  // a CVE entry carries its CVSS, KEV flag and references
  const kev = (await feed('type=ai_cves&severity=CRITICAL&limit=100')).json.feed.find(e => e.id === 'CVE-2025-3248');
  assert.ok(kev, 'the KEV-listed Langflow CVE is in the feed');
  assert.equal(kev.kev, true);
  assert.ok(kev.references.some(x => x.kind === 'kev'));
  const scored = SEED.records.find(x => x.cvss);
  const e = (await srv.req('GET', `/api/threat-intel/${scored.id}/playbook`)).json.playbook.supporting_evidence;
  assert.equal(e.cvss.base_score, scored.cvss.base_score);
});

test('filters by type (plural names) and severity, alone and together; totals count every match', async () => {
  for (const [plural, singular] of Object.entries(TYPES)) {
    for (const sev of [null, ...SEVERITIES]) {
      const q = `type=${plural}&limit=100` + (sev ? `&severity=${sev}` : '');
      const r = await feed(q);
      assert.equal(r.status, 200, r.text);
      const want = SEED.records.filter(x => x.type === singular && (!sev || x.severity === sev));
      assert.equal(r.json.total, want.length, q);
      assert.deepEqual(r.json.feed.map(e => e.id), want.sort(newestFirst).slice(0, 100).map(x => x.id), q);
    }
  }
  for (const sev of SEVERITIES) {
    const r = await feed(`severity=${sev}`);
    assert.equal(r.json.total, SEED.records.filter(x => x.severity === sev).length);
    assert.ok(r.json.feed.every(e => e.severity === sev));
  }
});

test('paging with limit and offset; past the end is an empty page with the same total', async () => {
  const all = (await feed('limit=100')).json.feed;
  const pages = [];
  for (let off = 0; off < 60; off += 15) pages.push(...(await feed(`limit=15&offset=${off}`)).json.feed);
  assert.deepEqual(pages.map(e => e.id), all.slice(0, 60).map(e => e.id));
  const past = await feed('offset=100000');
  assert.equal(past.status, 200);
  assert.deepEqual(past.json.feed, []);
  assert.equal(past.json.total, SEED.records.length);
});

test('bad filters, limits and offsets are 400 VALIDATION_ERROR, never clamped or empty', async () => {
  for (const [q, field] of [['type=ai_cve', 'type'], ['type=', 'type'], ['type=CVE', 'type'], ['severity=high', 'severity'],
    ['severity=', 'severity'], ['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=abc', 'limit'], ['limit=', 'limit'],
    ['limit=5.5', 'limit'], ['offset=-1', 'offset'], ['offset=x', 'offset'], ['offset=1.5', 'offset']]) {
    const err = assertError(assert, await feed(q), 400, 'VALIDATION_ERROR');
    assert.deepEqual(err.errors.map(e => e.field), [field], q);
  }
  const err = assertError(assert, await feed('type=nope&severity=nope&limit=0'), 400, 'VALIDATION_ERROR');
  assert.deepEqual(err.errors.map(e => e.field).sort(), ['limit', 'severity', 'type']);
  assert.match(err.errors.find(e => e.field === 'type').message, /prompt_attacks, agent_threats, ai_cves, model_advisories/);
});

test('anonymous playbook: on demand, not persisted, deterministic; unknown ids are 404', async () => {
  const a = await playbook('AML.T0051');
  assert.equal(a.status, 200, a.text);
  assert.equal(a.json.success, true);
  assert.equal(a.json.persisted, false);
  assert.equal(a.json.stale, false);
  assert.equal(a.json.generated_at, null);
  assert.equal(a.json.threat_id, 'AML.T0051');
  assert.match(a.json.playbook_id, /^pbk_[A-Za-z0-9]{22}$/);
  assert.deepEqual(Object.keys(a.json.playbook), PLAYBOOK_KEYS);
  assert.ok(a.json.playbook.soc_playbook.every(s => typeof s.stage === 'string' && typeof s.action === 'string'));
  assert.equal(typeof a.json.playbook.threat_hunting_guide.suggested_query, 'string');
  const b = await playbook('AML.T0051');
  assert.equal(b.text, a.text, 'the same record version gives the same envelope');
  assert.notEqual((await playbook('CVE-2023-1176')).json.playbook_id, a.json.playbook_id);
  for (const id of ['CVE-1999-0001', 'nope', 'a'.repeat(65), '..', 'x%20y']) assertError(assert, await playbook(id), 404, 'NOT_FOUND');
  // the admin key is not an account: it is served like an anonymous caller
  const adm = await playbook('AML.T0051', { key: srv.adminKey });
  assert.equal(adm.status, 200);
  assert.equal(adm.text, a.text);
});

test('KEV dates in a playbook are whole days, though the store keeps timestamps', async () => {
  const r = await playbook('CVE-2025-3248'); // in the seed with date_added 2025-05-05T00:00:00Z
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.playbook.supporting_evidence.kev_details.date_added, '2025-05-05T00:00:00Z');
  const { supporting_evidence, ...rest } = r.json.playbook;
  const text = JSON.stringify(rest);
  assert.match(text, /added 2025-05-05[^0-9T]/);
  assert.doesNotMatch(text, /T00:0/);
  assert.ok(r.json.playbook.operational_checklist.some(c => c.due.includes('no later than 2025-05-26 (CISA KEV due date)')));
});

test('POST and history need an account; the admin key is not one', async () => {
  assertError(assert, await regenerate('AML.T0051'), 401, 'AUTH_REQUIRED');
  assertError(assert, await history(), 401, 'AUTH_REQUIRED');
  // it authenticated, but may not act for an account: 403 FORBIDDEN naming what the route takes
  const e1 = assertError(assert, await regenerate('AML.T0051', { key: srv.adminKey }), 403, 'FORBIDDEN');
  assert.match(e1.message, /bearer token|X-API-Key/);
  assertError(assert, await history('', { key: srv.adminKey }), 403, 'FORBIDDEN');
  assertError(assert, await regenerate('AML.T0051', { key: 'svc_not_a_real_key_000000000000000000000' }), 401, 'AUTH_REQUIRED');
});

test('signed in: the first GET saves a generation, later GETs return it; POST saves a new one; history', async () => {
  const u = await srv.session('FREE', { key: true });
  const anon = await playbook('CVE-2023-51449');
  // HEAD is safe: it answers like GET but saves nothing
  const head = await srv.req('HEAD', '/api/threat-intel/CVE-2023-51449/playbook', { token: u.token });
  assert.equal(head.status, 200);
  assert.equal((await history('', { token: u.token })).json.total, 0);
  const first = await playbook('CVE-2023-51449', { token: u.token });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.json.persisted, true);
  assert.equal(first.json.stale, false);
  assert.match(first.json.generated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.notEqual(first.json.playbook_id, anon.json.playbook_id);
  assert.equal(playbookBytes(first), playbookBytes(anon), 'the same record version gives the same playbook bytes');
  const again = await playbook('CVE-2023-51449', { key: u.key }); // the API key is the same account
  assert.equal(again.json.playbook_id, first.json.playbook_id);
  assert.equal(again.text, first.text);
  assertError(assert, await regenerate('CVE-1999-0001', { token: u.token }), 404, 'NOT_FOUND');
  const post = await regenerate('CVE-2023-51449', { token: u.token });
  assert.equal(post.status, 201, post.text);
  assert.equal(post.json.persisted, true);
  assert.notEqual(post.json.playbook_id, first.json.playbook_id);
  assert.equal(playbookBytes(post), playbookBytes(first));
  assert.equal((await playbook('CVE-2023-51449', { token: u.token })).json.playbook_id, post.json.playbook_id);
  await playbook('AML.T0053', { key: u.key });
  const h = await history('', { token: u.token });
  assert.equal(h.status, 200, h.text);
  assert.equal(h.json.total, 3);
  assert.deepEqual(h.json.history.map(x => x.threat_id), ['AML.T0053', 'CVE-2023-51449', 'CVE-2023-51449']);
  assert.deepEqual(Object.keys(h.json.history[0]).sort(), ['generated_at', 'playbook_id', 'record_version', 'risk_tier', 'stale', 'threat_id']);
  assert.ok(h.json.history.every(x => x.stale === false));
  assert.equal(h.json.history[1].playbook_id, post.json.playbook_id);
  const paged = await history('limit=1&offset=2', { token: u.token });
  assert.deepEqual(paged.json.history.map(x => x.playbook_id), [first.json.playbook_id]);
  assert.equal(paged.json.total, 3);
  for (const q of ['limit=0', 'limit=101', 'offset=-1']) assertError(assert, await history(q, { token: u.token }), 400, 'VALIDATION_ERROR');
  // another account sees none of it and gets its own generation
  const other = await srv.session('FREE');
  assert.equal((await history('', { token: other.token })).json.total, 0);
  const mine = await playbook('CVE-2023-51449', { token: other.token });
  assert.notEqual(mine.json.playbook_id, post.json.playbook_id);
  assert.equal((await history('', { token: other.token })).json.total, 1);
});

test('a re-import that changes a record makes saved playbooks stale; POST regenerates from the new version', async () => {
  const u = await srv.session('STARTER');
  const before = await playbook('CVE-2023-1176', { token: u.token });
  assert.equal(before.json.stale, false);
  assert.equal(before.json.record_version, 1);
  const anonBefore = await playbook('CVE-2023-1176');
  // the same advisory, modified at the source
  const edit = (text) => text.replace(/^modified: .*$/m, 'modified: "2026-11-01T10:00:00Z"')
    .replace(/^details: .*$/m, 'details: Absolute path traversal in mlflow before 2.2.2 lets a remote attacker read arbitrary files.');
  const imp = reimportOsv('PYSEC-2023-28.yaml', edit);
  assert.deepEqual([imp.added, imp.updated, imp.unchanged], [0, 1, 0]);
  const same = reimportOsv('PYSEC-2023-28.yaml', edit);
  assert.deepEqual([same.updated, same.unchanged], [0, 1], 'importing it again changes nothing');

  const after = await playbook('CVE-2023-1176', { token: u.token });
  assert.equal(after.json.stale, true);
  assert.equal(after.json.playbook_id, before.json.playbook_id);
  assert.equal(after.json.record_version, 1);
  const anonAfter = await playbook('CVE-2023-1176');
  assert.equal(anonAfter.json.stale, false);
  assert.equal(anonAfter.json.record_version, 2);
  assert.notEqual(anonAfter.json.playbook_id, anonBefore.json.playbook_id);
  const entry = (await feed('type=ai_cves&limit=100&severity=' + anonAfter.json.playbook.supporting_evidence.severity)).json;
  assert.notEqual(entry.updated_at, SEED.generated_at, 'updated_at is the newest intel change');
  assert.equal(entry.feed.find(e => e.id === 'CVE-2023-1176').updated_at, entry.updated_at);

  const post = await regenerate('CVE-2023-1176', { token: u.token });
  assert.equal(post.status, 201);
  assert.equal(post.json.stale, false);
  assert.equal(post.json.record_version, 2);
  assert.equal(playbookBytes(post), playbookBytes(anonAfter));
  const h = (await history('', { token: u.token })).json.history;
  assert.deepEqual(h.map(x => [x.playbook_id, x.stale]), [[post.json.playbook_id, false], [before.json.playbook_id, true]]);
});

test('an orchestrator run regenerates its account\'s stale playbooks from the record as stored now', async () => {
  const ORCH = '/api/orchestrator/god-mode';
  const id = 'CVE-2024-28088';
  const e = await srv.session('ENTERPRISE', { key: true });
  const other = await srv.session('ENTERPRISE', { key: true });
  const before = await playbook(id, { token: e.token });
  assert.equal(before.status, 200, before.text);
  assert.equal(before.json.record_version, 1);
  assert.equal((await playbook(id, { token: other.token })).json.stale, false);
  const imp = reimportOsv('PYSEC-2024-43.yaml', (text) => text.replace(/^modified: .*$/m, 'modified: "2026-11-20T08:00:00Z"')
    .replace(/^details: .*$/m, 'details: LangChain through 0.1.10 lets the caller of load_chain reach files outside the hub with ../, when it is'));
  assert.equal(imp.updated, 1, JSON.stringify(imp));
  assert.equal((await playbook(id, { token: e.token })).json.stale, true);

  const run = await srv.req('POST', `${ORCH}/run`, { key: e.key, body: {} });
  assert.equal(run.status, 202, run.text);
  let done;
  for (const end = Date.now() + 60000; ;) {
    done = (await srv.req('GET', `${ORCH}/run/${run.json.job_id}`, { key: e.key })).json;
    if (done.status === 'completed' || done.status === 'failed' || Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(done.status, 'completed', JSON.stringify(done));
  const ciso = await srv.req('GET', `${ORCH}/ciso`, { key: e.key });
  assert.equal(ciso.status, 200, ciso.text);
  assert.deepEqual(ciso.json.pipeline.refresh_stale_playbooks, { stale: 1, regenerated: 1, failed: 0, regeneration: true });

  // the saved generation is now the record's second version, byte for byte what GET builds from it
  const after = await playbook(id, { token: e.token });
  assert.equal(after.status, 200, after.text);
  assert.equal(after.json.stale, false);
  assert.equal(after.json.persisted, true);
  assert.equal(after.json.record_version, 2);
  assert.notEqual(after.json.playbook_id, before.json.playbook_id);
  const anon = await playbook(id);
  assert.equal(anon.json.record_version, 2);
  assert.equal(playbookBytes(after), playbookBytes(anon));
  const h = (await history('', { token: e.token })).json.history.filter((x) => x.threat_id === id);
  assert.deepEqual(h.map((x) => [x.playbook_id, x.record_version, x.stale]),
    [[after.json.playbook_id, 2, false], [before.json.playbook_id, 1, true]]);
  assert.equal(h[0].risk_tier, after.json.playbook.risk_tier, 'stored with the playbook\'s own tier');
  // another account's saved playbook is its own: the run did not touch it
  const theirs = await playbook(id, { token: other.token });
  assert.equal(theirs.json.stale, true);
  assert.equal(theirs.json.record_version, 1);
});

test('intel import: the fixtures are already in the seed; malformed input is rejected whole, with positions', async () => {
  let r = intel(['import', '--format', 'atlas', join(FIX, 'ATLAS.yaml')]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual([r.report.added, r.report.updated, r.report.unchanged], [0, 0, 80]);
  r = intel(['import', '--format', 'kev', join(FIX, 'kev-subset.json')]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual([r.report.added, r.report.unchanged, r.report.skipped], [0, 1, 12]);

  // one good (but changed) advisory and one malformed: nothing is imported
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-osv-'));
  try {
    const good = readFileSync(join(FIX, 'osv/PYSEC-2024-12.yaml'), 'utf8').replace(/^modified: .*$/m, 'modified: "2026-10-01T00:00:00Z"');
    writeFileSync(join(dir, 'a-good.yaml'), good);
    copyFileSync(join(FIX, 'bad/osv-wrong-type.yaml'), join(dir, 'b-bad.yaml'));
    const before = (await playbook('CVE-2024-23751')).json.record_version;
    r = intel(['import', '--format', 'osv', dir]);
    assert.equal(r.code, 1);
    assert.equal(r.report.imported, false);
    assert.deepEqual(r.report.rejected, [{ file: join(dir, 'b-bad.yaml'), line: 99, column: 12,
      message: "advisory: 'published' must be a string, not a list" }]);
    assert.match(r.err, /b-bad\.yaml:99:12: /);
    assert.equal((await playbook('CVE-2024-23751')).json.record_version, before, 'the good file was not imported either');
  } finally { rmSync(dir, { recursive: true, force: true }); }

  for (const [fmt, file, line, column] of [['kev', 'kev-truncated.json', 29, 208], ['kev', 'kev-missing-cve.json', 22, 9],
    ['osv', 'osv-bad-indent.yaml', 6, 14], ['atlas', 'atlas-missing-name.yaml', 19, 5]]) {
    r = intel(['import', '--format', fmt, join(FIX, 'bad', file)]);
    assert.equal(r.code, 1, file);
    assert.deepEqual([r.report.rejected[0].line, r.report.rejected[0].column], [line, column], file);
  }
  assert.equal((await feed()).json.total, SEED.records.length, 'nothing was added');

  // usage errors
  assert.equal(intel(['import', join(FIX, 'kev-subset.json')]).code, 2);
  assert.equal(intel(['import', '--format', 'nvd', join(FIX, 'kev-subset.json')]).code, 2);
  assert.equal(intel(['import', '--format', 'kev', join(FIX, 'osv')]).code, 2);
  assert.equal(intel(['import', '--format', 'osv', join(FIX, 'missing')]).code, 2);
  const empty = mkdtempSync(join(tmpdir(), 'bulwark-osv-'));
  try { assert.equal(intel(['import', '--format', 'osv', empty]).code, 2, 'a directory without advisories'); }
  finally { rmSync(empty, { recursive: true, force: true }); }
  assert.equal(intel(['frobnicate']).code, 2);
});
