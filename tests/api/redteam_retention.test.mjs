// Retention of the red team's stored requests (engagement_turns, issue 20): they are kept while
// an engagement runs (a resumed one replays them) and deleted BULWARK_RT_TURNS_RETENTION_DAYS
// after it ended; the report, kept in the engagement and its attack rows, stays whole after the
// purge. The rows are counted in the database itself, on the backend under test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, BACKEND } from './lib/server.mjs';
import { startLlmApi, connectionFor } from './lib/llmapis.mjs';
import { encodedOnly } from './lib/failmodes.mjs';

const ENV = { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_JOB_LEASE_MS: '3000', BULWARK_JOB_POLL_MS: '100', BULWARK_WORKERS: '1' };
const SECRET = 'sk-standin-' + 'r'.repeat(24);

let keep, purge;
const apis = [];
before(async () => {
  keep = await startServer({ env: ENV }); // the default retention (30 days)
  purge = await startServer({ env: { ...ENV, BULWARK_RT_TURNS_RETENTION_DAYS: '0' } });
});
after(async () => {
  for (const a of apis) await a.close();
  for (const s of [keep, purge]) if (s) assert.equal(await s.stop(), 0);
});

function turns(srv, engagementId) {
  const sql = `SELECT COUNT(*) FROM engagement_turns WHERE engagement_id = '${engagementId.replace(/'/g, '')}'`;
  const out = BACKEND === 'postgres'
    ? execFileSync('psql', ['-qtA', '-h', process.env.BULWARK_TEST_PG_HOST || '127.0.0.1', '-p', process.env.BULWARK_TEST_PG_PORT || '5432',
      '-U', 'postgres', '-d', srv.database, '-c', sql])
    : execFileSync('sqlite3', [join(srv.dir, 'bulwark.db'), sql]);
  return Number(String(out).trim());
}

async function engagement(srv) {
  const api = await startLlmApi({ flavour: 'openai', secret: SECRET, behaviour: encodedOnly({ base64: true, split: false }) });
  apis.push(api);
  const t = connectionFor('openai', api, SECRET);
  const u = await srv.session('PRO', { key: true });
  let r = await srv.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'm', type: 'model', provider: 'self', endpoint: t.endpoint, connection: t.connection } });
  assert.equal(r.status, 201, r.text);
  r = await srv.req('POST', '/api/ai-security/redteam/engage', { key: u.key, body: { target_asset_id: r.json.asset_id, attack_categories: ['prompt_injection'], intensity: 'light', budget_requests: 200 } });
  assert.equal(r.status, 202, r.text);
  const id = r.json.engagement_id;
  const end = Date.now() + 90000;
  for (;;) {
    r = await srv.req('GET', `/api/ai-security/redteam/${id}/report`, { key: u.key });
    assert.equal(r.status, 200, r.text);
    if (r.json.status === 'completed') return { id, u };
    assert.ok(['queued', 'running'].includes(r.json.status), r.text.slice(0, 500));
    if (Date.now() > end) throw new Error('timed out: ' + r.text.slice(0, 500));
    await new Promise((res) => setTimeout(res, 100));
  }
}

const report = async (srv, e) => (await srv.req('GET', `/api/ai-security/redteam/${e.id}/report`, { key: e.u.key })).json;

test('an ended engagement\'s stored requests are deleted after the retention; its report stays whole', async () => {
  const [k, p] = await Promise.all([engagement(keep), engagement(purge)]);

  // the default keeps them: every request of the escalation is there
  const kept = await report(keep, k);
  assert.ok(kept.escalation.attacks.length >= 1, JSON.stringify(kept.escalation));
  await new Promise((res) => setTimeout(res, 2500)); // more than a retention-0 sweep period
  assert.ok(turns(keep, k.id) >= kept.escalation.attacks.length, 'the default retention keeps the stored requests');

  // retention 0: gone about a second after the end, and the sweep says so
  const end = Date.now() + 20000;
  while (turns(purge, p.id) > 0) {
    assert.ok(Date.now() < end, 'the stored requests were not purged');
    await new Promise((res) => setTimeout(res, 200));
  }
  const line = purge.logLines().find((l) => l.msg === 'red-team turns retention');
  assert.ok(line && line.deleted > 0, JSON.stringify(purge.logLines().slice(-5)));

  // the report after the purge: the same as the one whose requests were kept
  const after = await report(purge, p);
  assert.equal(after.status, 'completed');
  for (const f of ['attacks_succeeded', 'attacks_total', 'overall_risk', 'weighted_success_rate']) assert.deepEqual(after[f], kept[f], f);
  const strip = (r) => r.escalation.attacks.map(({ attack_id, path, requests, search_ended, succeeded, transformations, turns }) => ({ attack_id, path, requests, search_ended, succeeded, transformations, turns }));
  assert.deepEqual(strip(after), strip(kept));
  assert.equal(after.escalation.requests, kept.escalation.requests);
  assert.deepEqual(after.critical_findings.map((f) => [f.attack_id, f.path, f.response_excerpt.length > 0]),
    kept.critical_findings.map((f) => [f.attack_id, f.path, f.response_excerpt.length > 0]));
});

test('BULWARK_RT_TURNS_RETENTION_DAYS is checked at start', async () => {
  await assert.rejects(startServer({ env: { ...ENV, BULWARK_RT_TURNS_RETENTION_DAYS: '-1' } }), /RT_TURNS_RETENTION_DAYS/);
});
