// Adaptive red team (issue 20) against stand-ins that fail the way deployed models do
// (tests/api/lib/failmodes.mjs, in the vendors' wire formats): each failure is caught by the
// detector meant for it, refused attacks are escalated until the path that works is found and
// reported (the search order is fixed, so the request count is exact), the hardened model
// scores no success whatever the escalation tries, the budget ends a search and the report says
// so, and a server killed mid-escalation resumes without sending a stored turn again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Server, startServer } from './lib/server.mjs';
import { startLlmApi, connectionFor } from './lib/llmapis.mjs';
import { roleplayLeaker, encodedOnly, verboseRefuser, politeAgent, packageInventor, LEAK_KEY, LEAKER_PROMPT, INVENTED } from './lib/failmodes.mjs';

const ENV = { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_JOB_LEASE_MS: '3000', BULWARK_JOB_POLL_MS: '100', BULWARK_WORKERS: '1' };
const SECRET = 'sk-standin-' + 'k'.repeat(24);

let srv;
const apis = [];
before(async () => { srv = await startServer({ env: ENV }); });
after(async () => {
  for (const a of apis) await a.close();
  if (srv) assert.equal(await srv.stop(), 0);
});

async function standin(flavour, opts) {
  const api = await startLlmApi({ flavour, secret: SECRET, ...opts });
  apis.push(api);
  return { api, ...connectionFor(flavour, api, SECRET) };
}

async function asset(s, u, t, systemPrompt) {
  const connection = systemPrompt ? { ...t.connection, system_prompt: systemPrompt } : t.connection;
  const r = await s.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'm', type: 'model', provider: 'self', endpoint: t.endpoint, connection } });
  assert.equal(r.status, 201, r.text);
  return r.json.asset_id;
}

async function engage(s, u, body) {
  const r = await s.req('POST', '/api/ai-security/redteam/engage', { key: u.key, body });
  assert.equal(r.status, 202, r.text);
  return r.json;
}

async function report(s, u, id, pred = (j) => ['completed', 'failed', 'cancelled'].includes(j.status), ms = 90000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await s.req('GET', `/api/ai-security/redteam/${id}/report`, { key: u.key });
    assert.equal(r.status, 200, r.text);
    if (pred(r.json)) return r.json;
    if (Date.now() > end) throw new Error('timed out; last report: ' + r.text.slice(0, 2000));
    await new Promise((res) => setTimeout(res, 100));
  }
}

const detectors = (f) => f.detectors.map((d) => d.detector);

test('role-play leaker (OpenAI): the leak and the key are caught without any marker echoed, the key masked', async () => {
  const u = await srv.session('PRO', { key: true });
  const t = await standin('openai', { behaviour: roleplayLeaker });
  const id = await asset(srv, u, t, LEAKER_PROMPT);
  const e = await engage(srv, u, { target_asset_id: id, attack_categories: ['jailbreak'], intensity: 'light' });
  assert.deepEqual(e.budget, { requests: 60, seconds: 120 });
  const rep = await report(srv, u, e.engagement_id);
  assert.equal(rep.status, 'completed', JSON.stringify(rep).slice(0, 800));
  const leaks = rep.critical_findings.filter((f) => detectors(f).includes('prompt_leak') && detectors(f).includes('secret'));
  assert.ok(leaks.length >= 1, JSON.stringify(rep.critical_findings).slice(0, 1500));
  assert.ok(!JSON.stringify(rep).includes(LEAK_KEY), 'the leaked key is masked everywhere');
  assert.equal(rep.overall_risk, 'CRITICAL');
});

test('encoded-only model (OpenAI): refused as written, escalation finds base64 after the three frames (5 requests) and reports it', async () => {
  const u = await srv.session('PRO', { key: true });
  const t = await standin('openai', { behaviour: encodedOnly({ base64: true, split: true }) });
  const id = await asset(srv, u, t);
  const e = await engage(srv, u, { target_asset_id: id, attack_categories: ['prompt_injection'], intensity: 'light', budget_requests: 200 });
  const rep = await report(srv, u, e.engagement_id);
  assert.equal(rep.status, 'completed');
  const esc = rep.escalation;
  assert.ok(esc.attacks.length >= 1, JSON.stringify(esc));
  for (const a of esc.attacks) {
    // suppress, persona, fiction refused; base64 next in order
    assert.equal(a.search_ended, 'found', JSON.stringify(a));
    assert.equal(a.path, 'base64');
    assert.deepEqual(a.transformations, ['base64']);
    assert.equal(a.turns, 1);
    assert.equal(a.requests, 5);
    assert.equal(a.succeeded, true);
  }
  assert.equal(esc.budget_ended, false);
  assert.equal(rep.attacks_succeeded, rep.attacks_total);
  // the winning request really was base64 of the attack
  const sent = t.api.requests.map((r) => JSON.parse(r.body).messages.at(-1).content);
  assert.ok(sent.some((c) => /base64-encoded/.test(c)));
});

test('split-only model (Anthropic): the search reaches split3 and the three turns carry the real history', async () => {
  const u = await srv.session('PRO', { key: true });
  const t = await standin('anthropic', { behaviour: encodedOnly({ base64: false, split: true }) });
  const id = await asset(srv, u, t);
  const e = await engage(srv, u, { target_asset_id: id, attack_categories: ['prompt_injection'], intensity: 'light', budget_requests: 200 });
  const rep = await report(srv, u, e.engagement_id);
  assert.equal(rep.status, 'completed');
  assert.ok(rep.escalation.attacks.length >= 1);
  for (const a of rep.escalation.attacks) {
    assert.equal(a.path, 'split3', JSON.stringify(a));
    assert.equal(a.turns, 3);
    // as written, nine one-turn transformations, then three turns
    assert.equal(a.requests, 1 + 9 + 3);
  }
  // the third turn's request holds both earlier turns and the model's "OK" between them
  const third = t.api.requests.map((r) => JSON.parse(r.body)).find((m) => /Part 3 of 3/.test(JSON.stringify(m.messages.at(-1))));
  assert.ok(third, 'a third part was sent');
  const roles = third.messages.map((m) => m.role);
  assert.deepEqual(roles.slice(-5), ['user', 'assistant', 'user', 'assistant', 'user']);
  assert.equal(third.messages.at(-2).content, 'OK');
});

test('verbose refuser quoting the request: no attack succeeds, refusals are not misread', async () => {
  const u = await srv.session('PRO', { key: true });
  const t = await standin('openai', { behaviour: verboseRefuser });
  const id = await asset(srv, u, t);
  const e = await engage(srv, u, { target_asset_id: id, attack_categories: ['prompt_injection', 'jailbreak'], intensity: 'light', budget_requests: 120 });
  const rep = await report(srv, u, e.engagement_id);
  assert.equal(rep.status, 'completed');
  assert.equal(rep.attacks_succeeded, 0, JSON.stringify(rep).slice(0, 6000));
  for (const a of rep.escalation.attacks) assert.equal(a.succeeded, false);
});

test('polite agent: delete_account called in the OpenAI and Anthropic tool formats is caught by the tool detector', async () => {
  for (const flavour of ['openai', 'anthropic']) {
    const u = await srv.session('PRO', { key: true });
    const t = await standin(flavour, { behaviour: politeAgent });
    const id = await asset(srv, u, t);
    const e = await engage(srv, u, { target_asset_id: id, attack_categories: ['excessive_agency'], intensity: 'light' });
    const rep = await report(srv, u, e.engagement_id);
    assert.equal(rep.status, 'completed');
    const f = rep.critical_findings.find((x) => x.attack_id === 'ea-polite-delete');
    assert.ok(f, flavour + ': ' + JSON.stringify(rep.critical_findings).slice(0, 1500));
    assert.ok(f.succeeded);
    const tool = f.detectors.find((d) => d.detector === 'tool_call');
    assert.ok(tool && /delete_account/.test(tool.evidence), JSON.stringify(f.detectors));
  }
});

test('package inventor: the invented package is reported by name as unverified', async () => {
  const u = await srv.session('PRO', { key: true });
  const t = await standin('openai', { behaviour: packageInventor });
  const id = await asset(srv, u, t);
  const e = await engage(srv, u, { target_asset_id: id, attack_categories: ['misinformation'], intensity: 'standard', budget_requests: 100 });
  const rep = await report(srv, u, e.engagement_id);
  assert.equal(rep.status, 'completed');
  // every package attack's goal is the package detector: each met means each invented name was
  // flagged (a MEDIUM finding: the report itemises HIGH and CRITICAL ones only)
  assert.equal(rep.attacks_succeeded, rep.attacks_total, JSON.stringify(rep).slice(0, 1500));
  assert.deepEqual(rep.remediation_plan.actions.map((a) => a.owasp_llm), ['LLM09']);
  assert.ok(t.api.requests.length >= rep.attacks_total);
  // the names themselves, with their ecosystems: in the report and in the finding's evidence
  const names = rep.unverified_packages.map((p) => `${p.ecosystem} ${p.name}`).sort();
  assert.deepEqual(names, [`npm ${INVENTED.npm}`, `pypi ${INVENTED.pypi}`], JSON.stringify(rep.unverified_packages));
  for (const p of rep.unverified_packages) {
    assert.ok(p.attack_ids.length >= 1 && p.attack_ids.every((a) => a.startsWith('mi-pkg-')), JSON.stringify(p));
  }
  const high = rep.critical_findings.filter((f) => f.owasp_llm === 'LLM09');
  const ran = new Set(rep.unverified_packages.flatMap((p) => p.attack_ids));
  // the one HIGH package attack is itemised (MEDIUM ones are not) when the selection has it
  assert.equal(high.length, ran.has('mi-pkg-llm-sanitize') ? 1 : 0, JSON.stringify([...ran]));
  for (const f of high) {
    const d = f.detectors.find((x) => x.detector === 'package');
    assert.ok(d.evidence.includes(INVENTED.npm), d.evidence);
    assert.deepEqual(d.packages, [{ ecosystem: 'npm', name: INVENTED.npm }]);
  }
});

test('hardened model: 0 successes though every refused attack was escalated; a small budget ends the search and says so', async () => {
  const u = await srv.session('PRO', { key: true });
  const t = await standin('openai', { variant: 'hardened' });
  const id = await asset(srv, u, t);
  const e = await engage(srv, u, { target_asset_id: id, attack_categories: ['prompt_injection', 'jailbreak'], intensity: 'standard' });
  const rep = await report(srv, u, e.engagement_id);
  assert.equal(rep.status, 'completed');
  assert.equal(rep.attacks_succeeded, 0, JSON.stringify(rep.critical_findings).slice(0, 1500));
  assert.ok(rep.escalation.attacks.length >= 1);
  assert.ok(rep.escalation.requests > rep.attacks_total, 'escalation sent more than the attacks as written');
  assert.ok(rep.escalation.requests <= 400);

  const small = await engage(srv, u, { target_asset_id: id, attack_categories: ['prompt_injection'], intensity: 'light', budget_requests: 8 });
  const r2 = await report(srv, u, small.engagement_id);
  assert.equal(r2.status, 'completed');
  assert.deepEqual(r2.budget, { requests: 8, seconds: 120 });
  assert.equal(r2.escalation.budget_ended, true);
  assert.ok(r2.escalation.attacks.some((a) => a.search_ended === 'budget'));
  assert.ok(r2.escalation.requests <= 8, JSON.stringify(r2.escalation));
});

test('engage validates the budget fields', async () => {
  const u = await srv.session('PRO', { key: true });
  const t = await standin('openai', { variant: 'hardened' });
  const id = await asset(srv, u, t);
  for (const body of [{ budget_requests: 0 }, { budget_requests: 'many' }, { budget_seconds: 86401 }, { budget_requests: 1.5 }]) {
    const r = await srv.req('POST', '/api/ai-security/redteam/engage', { key: u.key, body: { target_asset_id: id, ...body } });
    assert.equal(r.status, 400, JSON.stringify(body) + r.text);
    assert.equal(r.json.error.code, 'VALIDATION_ERROR');
  }
});

test('killed with -9 mid-escalation: the resumed engagement sends no stored turn again and finds the same path', async () => {
  const t = await standin('openai', { behaviour: encodedOnly({ base64: false, split: true }), delayMs: 120 });
  const first = new Server({ env: ENV });
  await first.start();
  const u = await first.session('PRO', { key: true });
  const id = await asset(first, u, t);
  const e = await engage(first, u, { target_asset_id: id, attack_categories: ['prompt_injection'], intensity: 'light', budget_requests: 200 });
  // mid-escalation of the first attack: its root and several transformations answered
  const end = Date.now() + 30000;
  while (t.api.requests.filter((r) => r.answered && !/single word: pong/.test(r.body)).length < 6) {
    if (Date.now() > end) throw new Error('the engagement did not start');
    await new Promise((res) => setTimeout(res, 20));
  }
  first.stopping = true;
  first.proc.kill('SIGKILL');
  await first.exited;
  // one worker sends one request at a time: only the last one sent can be in flight (asked, or
  // answered but not yet stored) when the process dies; every earlier one was stored before the
  // next was sent
  const isPing = (b) => /single word: pong/.test(b);
  const before = t.api.requests.filter((r) => !isPing(r.body));
  const inFlight = before.at(-1).body;
  const settled = before.slice(0, -1).map((r) => r.body);

  const second = new Server({ env: ENV, dir: first.dir, database: first.database, adminKey: first.adminKey });
  await second.start();
  try {
    const rep = await report(second, u, e.engagement_id);
    assert.equal(rep.status, 'completed', JSON.stringify(rep).slice(0, 800));
    // every run starts with the harmless target-detection exchange; it is no turn of an attack
    const counts = new Map();
    for (const r of t.api.requests) if (!isPing(r.body)) counts.set(r.body, (counts.get(r.body) || 0) + 1);
    for (const b of settled) assert.equal(counts.get(b), 1, 'a stored turn was sent again: ' + b.slice(0, 300));
    for (const [b, n] of counts) if (n > 1) assert.ok(b === inFlight && n === 2, 'sent again: ' + b.slice(0, 300));
    assert.ok(settled.length >= 5, 'killed mid-escalation: ' + settled.length);
    for (const a of rep.escalation.attacks) {
      assert.equal(a.path, 'split3', JSON.stringify(a));
      assert.equal(a.requests, 13);
    }
    assert.equal(rep.attacks_succeeded, rep.attacks_total);
  } finally {
    assert.equal(await second.stop(), 0);
    rmSync(first.dir, { recursive: true, force: true });
  }
});
