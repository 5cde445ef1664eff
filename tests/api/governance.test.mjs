// Governance assessments weigh the platform evidence held for the account: registered assets,
// live scans and their findings, API key rotation and age. Each account starts empty, so every
// test sees only what it did itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertError } from './lib/server.mjs';
import { startTarget } from './lib/targets.mjs';

let srv;
const targets = {};
before(async () => {
  srv = await startServer({ env: { BULWARK_EGRESS_ALLOW: 'loopback' } });
});
after(async () => {
  for (const t of Object.values(targets)) await t.close();
  if (srv) assert.equal(await srv.stop(), 0);
});

async function assess(u, framework_id, { org_context, use_cases = ['customer support chatbot'] } = {}) {
  const body = { framework_id, ai_use_cases: use_cases };
  if (org_context !== undefined) body.org_context = org_context;
  const r = await srv.req('POST', '/api/ai-security/governance/assess', { key: u.key, body });
  assert.equal(r.status, 201, r.text);
  return r.json;
}

async function register(u, endpoint, type = 'model') {
  const r = await srv.req('POST', '/api/ai-security/assets/register', {
    key: u.key, body: { name: 'bot', type, provider: 'self', endpoint, env: 'production' },
  });
  assert.equal(r.status, 201, r.text);
  return r.json.asset_id;
}

const gap = (a, id) => a.gaps.find(g => g.control_id === id);

test('no assets: the inventory control is a gap that says why, and the evidence object has every fact', async () => {
  const u = await srv.session('STARTER', { key: true });
  const a = await assess(u, 'nist-ai-rmf');
  const e = a.evidence;
  assert.ok(e, 'evidence object');
  for (const k of ['assets_registered', 'assets_by_type', 'assets_scanned', 'assets_scanned_90d', 'open_findings',
    'owasp_llm_hits', 'owasp_llm_tested', 'keys_active', 'keys_rotated', 'oldest_active_key_days',
    'controls_met_by_evidence', 'controls_contradicted']) assert.ok(k in e, k);
  assert.equal(e.assets_registered, 0);
  assert.deepEqual(e.assets_by_type, {});
  assert.deepEqual(e.open_findings, { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0 });
  assert.deepEqual(e.owasp_llm_hits, []);
  assert.equal(e.keys_active, 1);
  assert.equal(e.keys_rotated, 0);
  assert.equal(e.oldest_active_key_days, 0);
  assert.deepEqual(e.controls_met_by_evidence, []);
  assert.deepEqual(e.controls_contradicted, []);
  assert.equal(gap(a, 'GOVERN 1.6')?.evidence, 'no AI asset is registered on the platform');
  assert.match(gap(a, 'MEASURE 2.7')?.evidence ?? '', /no AI asset is registered/);
  // gaps decided by the catalog alone carry no evidence member
  assert.ok(a.gaps.some(g => !('evidence' in g)));
  // stored whole: the same document comes back
  const g = await srv.req('GET', `/api/ai-security/governance/assessments/${a.assessment_id}`, { key: u.key });
  assert.equal(g.status, 200);
  assert.deepEqual(g.json, a);
});

test('registered assets meet the inventory controls by evidence; unscanned ones are a testing gap', async () => {
  const u = await srv.session('STARTER', { key: true });
  const before = await assess(u, 'nist-ai-rmf');
  await register(u, 'https://models.example.com/v1', 'model');
  await register(u, 'https://rag.example.com/query', 'rag');
  const a = await assess(u, 'nist-ai-rmf');
  assert.equal(a.evidence.assets_registered, 2);
  assert.deepEqual(a.evidence.assets_by_type, { model: 1, rag: 1 });
  assert.equal(a.evidence.assets_scanned, 0);
  assert.equal(gap(a, 'GOVERN 1.6'), undefined);
  assert.ok(a.evidence.controls_met_by_evidence.includes('GOVERN 1.6'));
  assert.equal(a.controls_met, before.controls_met + 1);
  assert.equal(gap(a, 'MEASURE 2.7')?.evidence, '2 of 2 registered AI assets have no live scan from the last 90 days');
  const iso = await assess(u, 'iso-42001');
  assert.ok(iso.evidence.controls_met_by_evidence.includes('A.4.2'));
  // another account's assets are not this account's evidence
  const other = await srv.session('STARTER', { key: true });
  const o = await assess(other, 'nist-ai-rmf');
  assert.equal(o.evidence.assets_registered, 0);
  assert.ok(gap(o, 'GOVERN 1.6'));
});

test('a rotated key meets the key-hygiene control by evidence', async () => {
  const u = await srv.session('STARTER', { key: true });
  let a = await assess(u, 'iso-42001');
  assert.equal(gap(a, 'A.2.3')?.evidence, 'no API key of the account has ever been rotated');
  const rot = await srv.req('POST', `/api/developer/keys/${u.keyId}/rotate`, { token: u.token });
  assert.equal(rot.status, 201, rot.text);
  u.key = rot.json.key;
  a = await assess(u, 'iso-42001');
  assert.equal(a.evidence.keys_rotated, 1);
  assert.equal(a.evidence.keys_active, 1);
  assert.equal(gap(a, 'A.2.3'), undefined);
  assert.ok(a.evidence.controls_met_by_evidence.includes('A.2.3'));
});

test('org_context alone still meets a control that evidence only fails to prove', async () => {
  const u = await srv.session('STARTER', { key: true });
  const a = await assess(u, 'nist-ai-rmf', { org_context: 'We maintain an AI system inventory, reviewed quarterly.' });
  assert.equal(gap(a, 'GOVERN 1.6'), undefined);
  assert.ok(!a.evidence.controls_met_by_evidence.includes('GOVERN 1.6'));
});

test('a live scan that finds prompt injection makes LLM01 a gap with evidence, whatever org_context claims', async () => {
  targets.careless = await startTarget({ mode: 'careless' });
  const u = await srv.session('PRO', { key: true });
  const id = await register(u, targets.careless.url);
  const s = await srv.req('POST', `/api/ai-security/assets/${id}/scan`, { key: u.key });
  assert.equal(s.status, 200, s.text);
  assert.ok(s.json.owasp_llm_hits.includes('LLM01'), s.text);

  const a = await assess(u, 'owasp-llm', { org_context: 'We defend against prompt injection in every release.' });
  const g = gap(a, 'LLM01');
  assert.ok(g, 'LLM01 is a gap');
  assert.match(g.evidence, /^LLM01 found by the latest live scan of 1 asset \(.*PROMPT_INJECTION.*\)/);
  assert.match(g.evidence, /org_context claims this control/);
  assert.ok(a.evidence.controls_contradicted.includes('LLM01'));
  assert.deepEqual(a.evidence.owasp_llm_hits, s.json.owasp_llm_hits);
  assert.equal(a.evidence.assets_scanned, 1);
  assert.equal(a.evidence.assets_scanned_90d, 1);
  assert.ok(a.evidence.open_findings.CRITICAL >= 1);

  // the same scan contradicts security controls in the other frameworks
  const nist = await assess(u, 'nist-ai-rmf', { org_context: 'Security and resilience are evaluated and documented.' });
  assert.ok(nist.evidence.controls_contradicted.includes('MEASURE 2.7'));
  assert.match(gap(nist, 'MEASURE 2.7').evidence, /CRITICAL findings? open/);
  assert.ok(nist.evidence.controls_met_by_evidence.includes('GOVERN 4.3'), 'every asset was tested recently');
  const eu = await assess(u, 'eu-ai-act', { use_cases: ['credit scoring'] });
  assert.ok(eu.evidence.controls_contradicted.includes('Art. 15'));
});

test('a careful endpoint: the risks its scan probed and did not find are met by evidence', async () => {
  targets.careful = await startTarget({ mode: 'careful' });
  const u = await srv.session('PRO', { key: true });
  const id = await register(u, targets.careful.url);
  const s = await srv.req('POST', `/api/ai-security/assets/${id}/scan`, { key: u.key });
  assert.equal(s.status, 200, s.text);
  assert.equal(s.json.llm_api, 'openai');
  const a = await assess(u, 'owasp-llm');
  for (const r of ['LLM01', 'LLM07']) {
    assert.ok(!s.json.owasp_llm_hits.includes(r), `${r} not found by the scan`);
    assert.ok(a.evidence.owasp_llm_tested.includes(r), r);
    assert.ok(a.evidence.controls_met_by_evidence.includes(r), r);
    assert.equal(gap(a, r), undefined);
  }
  // what the scan did find stays a gap
  for (const r of s.json.owasp_llm_hits) assert.ok(a.evidence.controls_contradicted.includes(r), r);
});

test('ai_use_cases items are bounded in characters, not bytes: 1001 ASCII is 400, 1000 multibyte is 201', async () => {
  const u = await srv.session('STARTER', { key: true });
  const r = await srv.req('POST', '/api/ai-security/governance/assess', { key: u.key, body: { framework_id: 'owasp-llm', ai_use_cases: ['x'.repeat(1001)] } });
  const err = assertError(assert, r, 400, 'VALIDATION_ERROR');
  assert.deepEqual(err.errors.map(x => x.field), ['ai_use_cases']);
  assert.match(err.errors[0].message, /at most 1000 characters/);
  // 1000 characters of 2, 3 and 4 bytes each (the last beyond the BMP)
  for (const ch of ['é', '€', '😀']) {
    const a = await assess(u, 'owasp-llm', { use_cases: ['ok', ch.repeat(1000)] });
    assert.match(a.assessment_id, /^asm_/);
  }
  const more = await srv.req('POST', '/api/ai-security/governance/assess', { key: u.key, body: { framework_id: 'owasp-llm', ai_use_cases: ['€'.repeat(1001)] } });
  assertError(assert, more, 400, 'VALIDATION_ERROR');
});

test('applicability: CV screening gets the high-risk obligations, not the prohibited practices, each gap with its basis', async () => {
  const u = await srv.session('STARTER', { key: true });
  const a = await assess(u, 'eu-ai-act', { use_cases: ['CV screening for hiring'],
    org_context: 'No crime prediction, no facial scraping.' });
  assert.equal(a.risk_classification, 'high');
  assert.equal(a.classification.risk, 'high');
  assert.match(a.classification.basis, /Annex III point 4.*"CV screening"/);
  const cat = a.classification.categories.find(c => c.id === 'annex3_employment');
  assert.deepEqual([cat.kind, cat.source], ['high_risk_area', 'ai_use_cases[0]']);
  assert.ok(cat.words.includes('CV screening'));
  assert.ok(a.classification.ruled_out.some(c => c.id === 'art5_crime_prediction' && c.source === 'org_context'));
  const ids = a.gaps.map(g => g.control_id);
  for (const id of ['Art. 9', 'Art. 10', 'Art. 11', 'Art. 12', 'Art. 13', 'Art. 14', 'Art. 15', 'Art. 26', 'Art. 27'])
    assert.ok(ids.includes(id), id);
  assert.ok(ids.slice(0, 10).includes('Art. 9') && ids.slice(0, 10).includes('Art. 26'), ids.join());
  assert.ok(!ids.some(id => id.startsWith('Art. 5(')), 'no prohibited practice is described');
  for (const g of a.gaps) assert.ok(typeof g.basis === 'string' && g.basis.length > 0, g.control_id);
  assert.match(a.gaps.find(g => g.control_id === 'Art. 14').basis, /^high-risk use: EU AI Act Annex III point 4/);
  assert.equal(a.controls_applicable, a.gaps.length + a.controls_applicable_met);
  assert.ok(a.controls_applicable < a.controls_total);
  // a prohibited practice is a gap where a use case describes it, and org_context that rules it out closes it
  const b = await assess(u, 'eu-ai-act', { use_cases: ['predicting which residents are likely to commit burglary from their profiles'] });
  assert.equal(b.risk_classification, 'unacceptable');
  assert.equal(b.gaps[0].control_id, 'Art. 5(1)(d)');
  assert.match(b.gaps[0].basis, /Art\. 5\(1\)\(d\)/);
  const c = await assess(u, 'eu-ai-act', { use_cases: ['customer support chatbot'],
    org_context: 'We do not use emotion recognition.' });
  assert.equal(c.risk_classification, 'limited');
  assert.deepEqual(c.gaps.filter(g => g.control_id.startsWith('Art. 5(') || ['Art. 9', 'Art. 26'].includes(g.control_id)), []);
  assert.ok(c.gaps.some(g => g.control_id === 'Art. 50(1)'));
});

test('applicability per framework: OWASP LLM only with an LLM, NIST and ISO third-party controls only with a third-party model', async () => {
  const u = await srv.session('STARTER', { key: true });
  const none = await assess(u, 'owasp-llm', { use_cases: ['gradient-boosted credit scoring model'] });
  assert.deepEqual(none.gaps.filter(g => !g.evidence), []);
  assert.equal(none.classification.traits.some(t => t.id === 'llm'), false);
  const agent = await assess(u, 'owasp-llm', { use_cases: ['coding agent that runs shell commands and opens pull requests'] });
  const ids = agent.gaps.map(g => g.control_id);
  assert.ok(ids.includes('LLM06') && ids.includes('LLM01'));
  assert.ok(!ids.includes('LLM08'), 'no retrieval store');
  assert.match(agent.gaps.find(g => g.control_id === 'LLM06').basis, /takes actions through tools/);
  const inhouse = await assess(u, 'nist-ai-rmf', { use_cases: ['demand forecasting for warehouse stock, trained in-house on sales volumes'] });
  for (const id of ['GOVERN 6.1', 'MANAGE 3.1', 'MEASURE 2.11', 'MEASURE 2.10'])
    assert.ok(!inhouse.gaps.some(g => g.control_id === id), id);
  const vendor = await assess(u, 'iso-42001', { use_cases: ['customer chatbot using a third-party LLM API'] });
  assert.ok(vendor.gaps.some(g => g.control_id === 'A.10.3'));
  assert.ok(!vendor.gaps.some(g => g.control_id === 'A.7.2'), 'nothing is trained');
  // the catalog says when each control applies
  const fw = await srv.req('GET', '/api/ai-security/governance/frameworks/owasp-llm', { key: u.key });
  assert.deepEqual(fw.json.controls.find(c => c.id === 'LLM06').applies_when, ['trait:agentic']);
});
