// Red-team engagements against local targets: a careless chat endpoint (obeys injected
// instructions, leaks its system prompt and key, renders exfiltration links) must come out HIGH or
// CRITICAL with most attacks succeeded, a careful one LOW with none; tier gating, isolation
// between accounts, validation, the per-tier cap, cancel, an unreachable target, and a server
// killed mid-engagement that resumes on restart without running or counting an attack twice.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { BIN, Server, startServer, assertError } from './lib/server.mjs';
import { startTarget, closedPort, CARELESS_SECRET } from './lib/targets.mjs';

// short leases and polls so a killed worker's job is reclaimed within seconds
// (a full engagement's escalation budget kept near its attack count: these tests time whole runs;
// tests/api/redteam_adaptive.test.mjs tests the escalation itself)
const ENV = { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_JOB_LEASE_MS: '2000', BULWARK_JOB_POLL_MS: '100', BULWARK_WORKERS: '2',
  BULWARK_RT_BUDGET_FULL_REQUESTS: '160' };

let srv;
const targets = {};
before(async () => {
  srv = await startServer({ env: ENV });
  targets.careless = await startTarget({ mode: 'careless' });
  targets.careful = await startTarget({ mode: 'careful' });
  targets.prompt = await startTarget({ mode: 'careless', api: 'prompt' });
  targets.slow = await startTarget({ mode: 'careless', delayMs: 150 });
  // slower, yet within the attack timeout (a third of the 2 s lease)
  targets.slower = await startTarget({ mode: 'careless', delayMs: 400 });
});
after(async () => {
  for (const t of Object.values(targets)) await t.close();
  if (srv) assert.equal(await srv.stop(), 0);
});

async function register(s, u, endpoint, type = 'model') {
  const r = await s.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'rt', type, provider: 'self', endpoint } });
  assert.equal(r.status, 201, r.text);
  return r.json.asset_id;
}

async function engage(s, u, body, status = 202) {
  const r = await s.req('POST', '/api/ai-security/redteam/engage', { key: u.key, body });
  assert.equal(r.status, status, r.text);
  return r.json;
}

const FINAL = new Set(['completed', 'failed', 'cancelled']);
async function waitFor(s, u, id, pred = (j) => FINAL.has(j.status), ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await s.req('GET', `/api/ai-security/redteam/${id}/report`, { key: u.key });
    assert.equal(r.status, 200, r.text);
    if (pred(r.json)) return r.json;
    if (Date.now() > end) throw new Error('timed out waiting; last report: ' + r.text);
    await new Promise((res) => setTimeout(res, 100));
  }
}

let carelessFull; // the uninterrupted full run, compared with the resumed one

test('careless target: most attacks succeed, risk HIGH or CRITICAL, findings and plan; careful target: LOW', async () => {
  const u = await srv.session('PRO', { key: true });
  const bad = await register(srv, u, targets.careless.url);
  const good = await register(srv, u, targets.careful.url);
  const e1 = await engage(srv, u, { target_asset_id: bad, intensity: 'full' });
  assert.match(e1.engagement_id, /^eng_[A-Za-z0-9]+$/);
  assert.ok(['queued', 'running'].includes(e1.status));
  assert.ok(e1.attack_count >= 30, 'full intensity over every category: ' + e1.attack_count);
  assert.ok(Number.isInteger(e1.eta_seconds) && e1.eta_seconds >= 1);
  assert.match(e1.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const e2 = await engage(srv, u, { target_asset_id: good, intensity: 'full' });
  assert.equal(e2.attack_count, e1.attack_count);

  const r1 = await waitFor(srv, u, e1.engagement_id);
  assert.equal(r1.status, 'completed', JSON.stringify(r1));
  assert.equal(r1.attacks_total, e1.attack_count);
  assert.deepEqual(r1.progress, { done: e1.attack_count, total: e1.attack_count });
  assert.ok(r1.attacks_succeeded >= Math.ceil(0.8 * r1.attacks_total), `careless: ${r1.attacks_succeeded}/${r1.attacks_total}`);
  assert.ok(['HIGH', 'CRITICAL'].includes(r1.overall_risk), r1.overall_risk);
  assert.ok(r1.critical_findings.length > 0);
  for (const f of r1.critical_findings) {
    for (const k of ['attack_id', 'category', 'technique', 'severity', 'owasp_llm', 'prompt', 'response_excerpt']) assert.equal(typeof f[k], 'string', k);
    assert.ok(['HIGH', 'CRITICAL'].includes(f.severity));
    assert.match(f.owasp_llm, /^LLM(0[1-9]|10)$/);
    assert.ok(f.response_excerpt.length <= 420 && f.prompt.length <= 620);
    assert.doesNotMatch(f.response_excerpt, /[\x00-\x1f]/);
  }
  // credentials the target leaked are masked in the report
  assert.ok(!JSON.stringify(r1).includes(CARELESS_SECRET), 'the leaked key is masked');
  const cats = new Set(r1.critical_findings.map((f) => f.category));
  for (const c of ['prompt_injection', 'jailbreak', 'rag_poisoning', 'system_prompt_leakage', 'data_exfiltration',
    'insecure_output', 'excessive_agency', 'misinformation', 'data_poisoning']) assert.ok(cats.has(c), c);
  assert.equal(typeof r1.remediation_plan.summary, 'string');
  assert.equal(r1.remediation_plan.actions.length, 10);
  r1.remediation_plan.actions.forEach((a, i) => {
    assert.equal(a.priority, i + 1);
    assert.equal(typeof a.action, 'string');
    assert.match(a.owasp_llm, /^LLM\d\d$/);
  });
  carelessFull = r1;

  const r2 = await waitFor(srv, u, e2.engagement_id);
  assert.equal(r2.status, 'completed');
  assert.equal(r2.attacks_succeeded, 0, JSON.stringify(r2.critical_findings));
  assert.equal(r2.overall_risk, 'LOW');
  assert.deepEqual(r2.critical_findings, []);
  assert.deepEqual(r2.remediation_plan.actions, []);
  assert.equal(r2.progress.done, r2.attacks_total);
});

test('{prompt} API target, chosen categories and intensities: light within standard within full', async () => {
  const u = await srv.session('ENTERPRISE', { key: true });
  const a = await register(srv, u, targets.prompt.url, 'agent');
  const counts = {};
  for (const intensity of ['light', 'standard', 'full']) {
    const e = await engage(srv, u, { target_asset_id: a, attack_categories: ['prompt_injection', 'jailbreak', 'rag_poisoning'], intensity });
    counts[intensity] = e.attack_count;
    assert.deepEqual(e.attack_categories, ['prompt_injection', 'jailbreak', 'rag_poisoning']);
    if (intensity === 'standard') {
      const rep = await waitFor(srv, u, e.engagement_id);
      assert.equal(rep.status, 'completed', JSON.stringify(rep));
      assert.ok(rep.attacks_succeeded >= rep.attacks_total - 1, `${rep.attacks_succeeded}/${rep.attacks_total}`);
      for (const f of rep.critical_findings) assert.ok(['prompt_injection', 'jailbreak', 'rag_poisoning'].includes(f.category));
    } else {
      await srv.req('POST', `/api/ai-security/redteam/${e.engagement_id}/cancel`, { key: u.key });
    }
  }
  assert.ok(counts.light > 0 && counts.light < counts.standard && counts.standard < counts.full, JSON.stringify(counts));
  // the default intensity is standard, the default categories all ten
  const d = await engage(srv, u, { target_asset_id: a });
  assert.equal(d.intensity, 'standard');
  assert.equal(d.attack_categories.length, 10);
  await srv.req('POST', `/api/ai-security/redteam/${d.engagement_id}/cancel`, { key: u.key });
});

test('tier gating, validation and isolation between accounts', async () => {
  const pro = await srv.session('PRO', { key: true });
  const other = await srv.session('PRO', { key: true });
  const starter = await srv.session('STARTER', { key: true });
  const mine = await register(srv, pro, targets.careful.url);
  const e = await engage(srv, pro, { target_asset_id: mine, intensity: 'light' });

  const st = await srv.req('POST', '/api/ai-security/redteam/engage', { key: starter.key, body: { target_asset_id: mine } });
  const err = assertError(assert, st, 403, 'TIER_REQUIRED');
  assert.equal(err.required_tier, 'PRO');
  assertError(assert, await srv.req('GET', `/api/ai-security/redteam/${e.engagement_id}/report`, { key: starter.key }), 403, 'TIER_REQUIRED');
  assertError(assert, await srv.req('GET', `/api/ai-security/redteam/${e.engagement_id}/report`), 401, 'AUTH_REQUIRED');

  // validation comes before any lookup
  let r = await srv.req('POST', '/api/ai-security/redteam/engage', { key: pro.key, body: { target_asset_id: 'ast_nope', attack_categories: ['prompt_injection', 'mind_control'], intensity: 'extreme' } });
  const v = assertError(assert, r, 400, 'VALIDATION_ERROR');
  assert.deepEqual(v.errors.map((x) => x.field).sort(), ['attack_categories', 'intensity']);
  r = await srv.req('POST', '/api/ai-security/redteam/engage', { key: pro.key, body: { attack_categories: [] } });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map((x) => x.field).sort(), ['attack_categories', 'target_asset_id']);
  r = await srv.req('POST', '/api/ai-security/redteam/engage', { key: pro.key, body: { target_asset_id: 42, intensity: 3 } });
  assert.equal(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.length, 2);
  r = await srv.req('POST', '/api/ai-security/redteam/engage', { key: pro.key });
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  // ids are opaque: the bound is the only shape rule (unknown ids are 404 below), and the message says so
  for (const bad of ['', 'x'.repeat(129)]) {
    r = await srv.req('POST', '/api/ai-security/redteam/engage', { key: pro.key, body: { target_asset_id: bad } });
    assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors,
      [{ field: 'target_asset_id', message: 'must be a non-empty string of at most 128 characters' }]);
  }
  // the bound is in characters: 128 of two bytes each is within it
  assertError(assert, await srv.req('POST', '/api/ai-security/redteam/engage', { key: pro.key, body: { target_asset_id: 'é'.repeat(128) } }), 404, 'NOT_FOUND');

  // another account's asset and engagement are 404, like missing ones
  assertError(assert, await srv.req('POST', '/api/ai-security/redteam/engage', { key: other.key, body: { target_asset_id: mine } }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('POST', '/api/ai-security/redteam/engage', { key: pro.key, body: { target_asset_id: 'not-an-id' } }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', `/api/ai-security/redteam/${e.engagement_id}/report`, { key: other.key }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('POST', `/api/ai-security/redteam/${e.engagement_id}/cancel`, { key: other.key }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', '/api/ai-security/redteam/eng_doesnotexist/report', { key: pro.key }), 404, 'NOT_FOUND');
  assertError(assert, await srv.req('GET', '/api/ai-security/redteam/xyz/report', { key: pro.key }), 404, 'NOT_FOUND');

  // the report answers 200 at every status; overall_risk is null until completed
  r = await srv.req('GET', `/api/ai-security/redteam/${e.engagement_id}/report`, { key: pro.key });
  assert.equal(r.status, 200);
  if (r.json.status !== 'completed') assert.equal(r.json.overall_risk, null);
  const done = await waitFor(srv, pro, e.engagement_id);
  assert.equal(done.status, 'completed');
  assert.equal(done.overall_risk, 'LOW');
  // cancelling a finished engagement is a conflict
  const c = await srv.req('POST', `/api/ai-security/redteam/${e.engagement_id}/cancel`, { key: pro.key });
  assertError(assert, c, 409, 'CONFLICT');
});

test('per-tier cap on active engagements, cancel frees a slot', async () => {
  const u = await srv.session('PRO', { key: true });
  const slow = await register(srv, u, targets.slow.url);
  const a = await engage(srv, u, { target_asset_id: slow, intensity: 'full' });
  const b = await engage(srv, u, { target_asset_id: slow, intensity: 'full' });
  const r = await srv.req('POST', '/api/ai-security/redteam/engage', { key: u.key, body: { target_asset_id: slow, intensity: 'light' } });
  const err = assertError(assert, r, 409, 'ENGAGEMENT_LIMIT_REACHED');
  assert.equal(err.max_active, 2);
  const c = await srv.req('POST', `/api/ai-security/redteam/${a.engagement_id}/cancel`, { key: u.key });
  assert.equal(c.status, 200, c.text);
  assert.equal(c.json.status, 'cancelled');
  assert.equal(c.json.overall_risk, null);
  assert.ok(c.json.finished_at);
  const again = await srv.req('POST', `/api/ai-security/redteam/${a.engagement_id}/cancel`, { key: u.key });
  assertError(assert, again, 409, 'CONFLICT');
  const d = await engage(srv, u, { target_asset_id: slow, intensity: 'light' });
  // a cancelled engagement stops between attacks and stays cancelled
  await new Promise((res) => setTimeout(res, 500));
  const after1 = (await srv.req('GET', `/api/ai-security/redteam/${a.engagement_id}/report`, { key: u.key })).json;
  await new Promise((res) => setTimeout(res, 500));
  const after2 = (await srv.req('GET', `/api/ai-security/redteam/${a.engagement_id}/report`, { key: u.key })).json;
  assert.equal(after2.status, 'cancelled');
  assert.equal(after2.progress.done, after1.progress.done, 'no attack ran after the cancel settled');
  assert.ok(after2.progress.done < after2.progress.total);
  for (const x of [b, d]) await srv.req('POST', `/api/ai-security/redteam/${x.engagement_id}/cancel`, { key: u.key });
});

test('cancel is final: the attack in flight at cancel time is not recorded, the report stays as the cancel answered', async () => {
  const u = await srv.session('PRO', { key: true });
  const a = await register(srv, u, targets.slower.url);
  const e = await engage(srv, u, { target_asset_id: a, intensity: 'full' });
  // right after an attack's row is saved the next one is in flight (400 ms at the target)
  const mid = await waitFor(srv, u, e.engagement_id, (j) => j.progress.done >= 3 || FINAL.has(j.status));
  assert.equal(mid.status, 'running', JSON.stringify(mid.progress));
  const c = await srv.req('POST', `/api/ai-security/redteam/${e.engagement_id}/cancel`, { key: u.key });
  assert.equal(c.status, 200, c.text);
  assert.equal(c.json.status, 'cancelled');
  await new Promise((res) => setTimeout(res, 1500));
  const later = await srv.req('GET', `/api/ai-security/redteam/${e.engagement_id}/report`, { key: u.key });
  assert.equal(later.status, 200, later.text);
  for (const k of ['status', 'progress', 'attacks_succeeded', 'finished_at', 'critical_findings', 'remediation_plan']) {
    assert.deepEqual(later.json[k], c.json[k], k);
  }
  assert.ok(c.json.progress.done < c.json.progress.total);
});

test('deleting the target asset stops its engagements; their reports stay and the cap is freed', async () => {
  const u = await srv.session('PRO', { key: true });
  const a = await register(srv, u, targets.slow.url);
  const keep = await register(srv, u, targets.slow.url);
  const e1 = await engage(srv, u, { target_asset_id: a, intensity: 'full' });
  const e2 = await engage(srv, u, { target_asset_id: a, intensity: 'full' }); // queued or running
  await waitFor(srv, u, e1.engagement_id, (j) => j.progress.done >= 1 || FINAL.has(j.status));
  const del = await srv.req('DELETE', `/api/ai-security/assets/${a}`, { key: u.key });
  assert.equal(del.status, 200, del.text);
  assert.equal(del.json.engagements_cancelled, 2);
  const r1 = await waitFor(srv, u, e1.engagement_id);
  assert.equal(r1.status, 'cancelled');
  assert.ok(r1.progress.done < r1.progress.total);
  await new Promise((res) => setTimeout(res, 600));
  const again = (await srv.req('GET', `/api/ai-security/redteam/${e1.engagement_id}/report`, { key: u.key })).json;
  assert.deepEqual(again.progress, r1.progress, 'nothing attacked the deleted asset afterwards');
  assert.equal((await waitFor(srv, u, e2.engagement_id)).status, 'cancelled');
  // both slots are free again
  const n1 = await engage(srv, u, { target_asset_id: keep, intensity: 'light' });
  const n2 = await engage(srv, u, { target_asset_id: keep, intensity: 'light' });
  for (const x of [n1, n2]) await srv.req('POST', `/api/ai-security/redteam/${x.engagement_id}/cancel`, { key: u.key });
  // deleting an asset with no engagement says so
  const other = await register(srv, u, targets.slow.url);
  assert.equal((await srv.req('DELETE', `/api/ai-security/assets/${other}`, { key: u.key })).json.engagements_cancelled, 0);
});

test('an unreachable target fails the engagement with a clear error', async () => {
  const u = await srv.session('PRO', { key: true });
  const port = await closedPort();
  const a = await register(srv, u, `http://127.0.0.1:${port}/v1`);
  const e = await engage(srv, u, { target_asset_id: a, intensity: 'light' });
  const rep = await waitFor(srv, u, e.engagement_id);
  assert.equal(rep.status, 'failed');
  assert.match(rep.error, /unreachable/);
  assert.equal(rep.overall_risk, null);
  assert.ok(rep.finished_at);
});

test('a secret in the target URL is not repeated in the engagement error', async () => {
  const u = await srv.session('PRO', { key: true });
  // no chat API at this path: the error names the URL tried, with the token's value REDACTED
  const a = await register(srv, u, `${targets.careless.base}/nothing?token=sk-SuperSecretValue123`);
  const e = await engage(srv, u, { target_asset_id: a, intensity: 'light' });
  const rep = await waitFor(srv, u, e.engagement_id);
  assert.equal(rep.status, 'failed');
  assert.match(rep.error, /no chat API answered .*\?token=REDACTED/);
  assert.ok(!JSON.stringify(rep).includes('SuperSecretValue'), rep.error);
});

test('a server killed mid-engagement resumes after restart: every attack once, same result', async () => {
  assert.ok(carelessFull, 'runs after the uninterrupted careless engagement');
  const first = new Server({ env: ENV });
  await first.start();
  const u = await first.session('PRO', { key: true });
  const a = await register(first, u, targets.slow.url);
  const e = await engage(first, u, { target_asset_id: a, intensity: 'full' });
  const mid = await waitFor(first, u, e.engagement_id, (j) => j.progress.done > 2 || FINAL.has(j.status));
  assert.ok(mid.progress.done < mid.progress.total, 'killed part-way: ' + JSON.stringify(mid.progress));
  first.stopping = true; // an intended kill, not a crash to report
  first.proc.kill('SIGKILL');
  await first.exited;

  const second = new Server({ env: ENV, dir: first.dir, database: first.database, adminKey: first.adminKey });
  await second.start();
  try {
    const rep = await waitFor(second, u, e.engagement_id);
    assert.equal(rep.status, 'completed', JSON.stringify(rep));
    assert.equal(rep.attacks_total, e.attack_count);
    assert.deepEqual(rep.progress, { done: e.attack_count, total: e.attack_count });
    assert.equal(rep.attacks_succeeded, carelessFull.attacks_succeeded);
    assert.equal(rep.overall_risk, carelessFull.overall_risk);
    assert.deepEqual(rep.critical_findings.map((f) => f.attack_id), carelessFull.critical_findings.map((f) => f.attack_id));
    assert.ok(second.logLines().some((l) => l.msg === 'job started' && l.attempt >= 2), 'the job was reclaimed');
  } finally {
    assert.equal(await second.stop(), 0);
    rmSync(first.dir, { recursive: true, force: true });
  }
});

test('`bulwark worker` runs the jobs of a server that has no workers, and stops on SIGTERM', async () => {
  const s = await startServer({ env: { ...ENV, BULWARK_WORKERS: '0' } });
  let w;
  try {
    const u = await s.session('PRO', { key: true });
    const a = await register(s, u, targets.careless.url);
    const e = await engage(s, u, { target_asset_id: a, intensity: 'light' });
    await new Promise((res) => setTimeout(res, 400));
    const q = (await s.req('GET', `/api/ai-security/redteam/${e.engagement_id}/report`, { key: u.key })).json;
    assert.equal(q.status, 'queued', 'no worker inside serve');
    assert.deepEqual(q.progress, { done: 0, total: e.attack_count });
    w = spawn(BIN, ['worker'], { env: { ...s.env(), BULWARK_WORKERS: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    w.stderr.on('data', (d) => { log += d; });
    const exited = new Promise((res) => w.on('exit', (code) => res(code)));
    const rep = await waitFor(s, u, e.engagement_id);
    assert.equal(rep.status, 'completed', log);
    assert.equal(rep.progress.done, e.attack_count);
    assert.ok(['HIGH', 'CRITICAL'].includes(rep.overall_risk));
    w.kill('SIGTERM');
    assert.equal(await exited, 0, log);
    assert.match(log, /job workers started/);
  } finally {
    if (w && w.exitCode === null) w.kill('SIGKILL');
    assert.equal(await s.stop(), 0);
  }
});
