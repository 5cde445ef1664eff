// The code scanner API: catalog, gating by tier, validation, limits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { startServer, assertError } from './lib/server.mjs';

const RULES_DIR = new URL('../../data/rules/', import.meta.url).pathname;
const rules = readdirSync(RULES_DIR).filter(f => f.endsWith('.json'))
  .flatMap(f => JSON.parse(readFileSync(RULES_DIR + f, 'utf8')).rules);
const SEV = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1 };

// Python code made of the positive examples of several different rules.
function pythonWithFindings(n) {
  const picked = [];
  for (const r of rules) {
    const ex = r.examples.positive.find(e => e.lang === 'py');
    if (ex && !picked.some(p => p.id === r.id)) picked.push({ id: r.id, code: ex.code });
    if (picked.length === n) break;
  }
  return { ids: picked.map(p => p.id), code: picked.map(p => p.code).join('\n\n') + '\n' };
}

let srv;
before(async () => { srv = await startServer({ env: { BULWARK_MAX_CODE: '200000', BULWARK_RATE_ANON: '1000' } }); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

test('patterns: the whole catalog, anonymous', async () => {
  const r = await srv.req('GET', '/api/vibe-code/patterns');
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.categories, ['injection', 'auth', 'secrets', 'crypto', 'ssrf', 'ai_llm']);
  assert.equal(r.json.total_rules, rules.length);
  assert.equal(r.json.patterns.length, rules.length);
  for (const p of r.json.patterns) {
    assert.match(p.rule_id, /^BW-[A-Z]+-\d{3}$/);
    assert.ok(r.json.categories.includes(p.category));
    assert.ok(p.severity in SEV);
    assert.match(p.cwe, /^CWE-\d+$/);
    assert.ok(p.languages.length > 0 && p.title && p.description && p.remediation);
  }
});

test('STARTER sees every finding with tier; FREE and anonymous see the top 3, gated', async () => {
  const { ids, code } = pythonWithFindings(6);
  assert.ok(ids.length >= 5, 'enough python rules to build the input');
  const starter = await srv.session('STARTER', { key: true });
  const full = await srv.req('POST', '/api/vibe-code/scan', { key: starter.key, body: { code, language: 'py' } });
  assert.equal(full.status, 200, full.text);
  assert.equal(full.json.ok, true);
  assert.equal(full.json.gated, false);
  assert.equal(full.json.tier, 'STARTER');
  assert.equal(full.json.locked_count, undefined);
  assert.equal(full.json.upgrade, undefined);
  const found = new Set(full.json.findings.map(f => f.rule_id));
  for (const id of ids) assert.ok(found.has(id), `${id} reported`);
  // ordered by severity (worst first), then line
  const f = full.json.findings;
  for (let i = 1; i < f.length; i++) {
    const a = SEV[f[i - 1].severity], b = SEV[f[i].severity];
    assert.ok(a > b || (a === b && f[i - 1].line <= f[i].line), 'order');
  }
  for (const x of f) {
    assert.match(x.cwe, /^CWE-\d+$/);
    assert.ok(Number.isInteger(x.line) && x.line >= 1 && Number.isInteger(x.column) && x.end_line >= x.line);
    assert.ok(x.title && x.remediation && x.category && typeof x.snippet === 'string');
  }
  assert.equal(full.json.risk_grade, f.some(x => x.severity === 'CRITICAL') ? 'F' : f.some(x => x.severity === 'HIGH') ? 'D' : 'C');
  assert.ok(full.json.risk_score > 0 && full.json.risk_score <= 100);

  const free = await srv.session('FREE', { key: true });
  for (const creds of [{ key: free.key }, {}]) {
    const g = await srv.req('POST', '/api/vibe-code/scan', { ...creds, body: { code, language: 'py' } });
    assert.equal(g.status, 200, g.text);
    assert.equal(g.json.gated, true);
    assert.equal(g.json.findings.length, 3);
    assert.deepEqual(g.json.findings, f.slice(0, 3), 'the top 3 of the full result');
    assert.equal(g.json.locked_count, f.length - 3);
    assert.equal(typeof g.json.upgrade.price, 'string');
    assert.equal(typeof g.json.upgrade.url, 'string');
    assert.equal(g.json.tier, undefined);
    assert.equal(g.json.risk_score, full.json.risk_score, 'score from all findings');
    assert.equal(g.json.risk_grade, full.json.risk_grade);
  }
});

test('a taint finding carries its trace: source, the assignment, the sink', async () => {
  const code = 'from flask import request\nimport requests\n\nurl = request.args.get("url")\nresp = requests.get(url, timeout=5)\n';
  const r = await srv.req('POST', '/api/vibe-code/scan', { body: { code, language: 'py' } });
  assert.equal(r.status, 200, r.text);
  const f = r.json.findings.find(x => x.rule_id === 'BW-SSRF-025');
  assert.ok(f, JSON.stringify(r.json.findings));
  assert.equal(f.severity, 'HIGH');
  assert.equal(f.line, 5);
  assert.deepEqual(f.trace.map(s => [s.kind, s.line]), [['source', 4], ['step', 4], ['sink', 5]]);
  for (const s of f.trace) assert.ok(s.column >= 1 && s.end_line >= s.line);
  assert.equal(f.owasp_llm, undefined, 'the SSRF rule maps to no OWASP LLM risk');
  // a finding without a flow has no trace
  const plain = await srv.req('POST', '/api/vibe-code/scan', { body: { code: 'eval(user_input)\n', language: 'py' } });
  assert.ok(plain.json.findings.length >= 1);
  for (const x of plain.json.findings) assert.equal(x.trace, undefined);
});

test('a language model\'s reply is a source: the finding stays HIGH and carries LLM05', async () => {
  const code = 'from openai import OpenAI\nimport requests\n\nclient = OpenAI()\n' +
    'reply = client.chat.completions.create(model="gpt-4o-mini", messages=msgs)\n' +
    'link = reply.choices[0].message.content\nresp = requests.get(link, timeout=5)\n';
  const r = await srv.req('POST', '/api/vibe-code/scan', { body: { code, language: 'py' } });
  assert.equal(r.status, 200, r.text);
  const f = r.json.findings.find(x => x.rule_id === 'BW-SSRF-025');
  assert.ok(f, JSON.stringify(r.json.findings));
  assert.equal(f.severity, 'HIGH');
  assert.equal(f.owasp_llm, 'LLM05');
  // the reply's field is itself a model output: the trace starts where it is read
  assert.deepEqual(f.trace.map(s => [s.kind, s.line]), [['source', 6], ['step', 6], ['sink', 7]]);
});

test('clean code: grade A, no findings; the FREE view is still the gated one', async () => {
  const r = await srv.req('POST', '/api/vibe-code/scan', { body: { code: 'def add(a, b):\n    return a + b\n', language: 'py' } });
  assert.equal(r.status, 200);
  assert.equal(r.json.risk_grade, 'A');
  assert.equal(r.json.risk_score, 0);
  assert.deepEqual(r.json.findings, []);
  assert.equal(r.json.gated, true);
  assert.equal(r.json.locked_count, 0);
  assert.equal(typeof r.json.upgrade.url, 'string');
});

test('validation: code and language are required and checked; every bad field is named', async () => {
  let r = await srv.req('POST', '/api/vibe-code/scan', { body: {} });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field).sort(), ['code', 'language']);
  r = await srv.req('POST', '/api/vibe-code/scan', { body: { code: 'x', language: 'cobol' } });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['language']);
  r = await srv.req('POST', '/api/vibe-code/scan', { body: { code: 42, language: 'py' } });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['code']);
  r = await srv.req('POST', '/api/vibe-code/scan', { body: { code: '', language: 'py' } });
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  r = await srv.req('POST', '/api/vibe-code/scan', { body: { code: 'x', language: 'py', context: 'c'.repeat(5000) } });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['context']);
  r = await srv.req('POST', '/api/vibe-code/scan', { raw: 'code=x', headers: { 'content-type': 'text/plain' } });
  assertError(assert, r, 415, 'UNSUPPORTED_MEDIA_TYPE');
});

test('code over the limit is 413; large code under it is scanned', async () => {
  let r = await srv.req('POST', '/api/vibe-code/scan', { body: { code: 'x = 1\n'.repeat(40000), language: 'py' } });
  assertError(assert, r, 413, 'PAYLOAD_TOO_LARGE');
  const { code } = pythonWithFindings(2);
  const big = '# filler line\n'.repeat(10000) + code; // > 64 KiB: scanned off the event threads
  r = await srv.req('POST', '/api/vibe-code/scan', { body: { code: big, language: 'py' } });
  assert.equal(r.status, 200, r.text);
  assert.ok(r.json.findings.length >= 1);
  assert.ok(r.json.findings.every(f => f.line > 10000));
});

test('a secret found in the code is not echoed back whole', async () => {
  const sec = rules.find(r => r.category === 'secrets' && r.examples.positive.some(e => e.lang === 'py'));
  const ex = sec.examples.positive.find(e => e.lang === 'py');
  const r = await srv.req('POST', '/api/vibe-code/scan', { body: { code: ex.code, language: 'py' } });
  assert.equal(r.status, 200);
  const hit = r.json.findings.find(f => f.rule_id === sec.id);
  assert.ok(hit, 'the secret is found');
  const longest = (ex.code.match(/[A-Za-z0-9_\-\/+=]{16,}/g) || []).sort((a, b) => b.length - a.length)[0];
  if (longest) assert.ok(!hit.snippet.includes(longest), 'secret masked in snippet');
});

test('comments and suppressions are honoured over the API', async () => {
  const { code } = pythonWithFindings(1);
  const r1 = await srv.req('POST', '/api/vibe-code/scan', { body: { code, language: 'py' } });
  const n = r1.json.findings.length + r1.json.locked_count;
  assert.ok(n >= 1);
  const suppressed = code.split('\n').map(l => l.trim() ? l + '  # bulwark-ignore' : l).join('\n');
  const r2 = await srv.req('POST', '/api/vibe-code/scan', { body: { code: suppressed, language: 'py' } });
  assert.equal(r2.json.findings.length, 0, r2.text);
});

test('the 1000-finding cap counts distinct findings; a CRITICAL past it still makes the grade F', async () => {
  // md5 on every line: overlapping confirmation windows find each line several times
  const code = 'h = hashlib.md5(x)\n'.repeat(250) + 'exec(llm_response)\n';
  const starter = await srv.session('STARTER', { key: true });
  let r = await srv.req('POST', '/api/vibe-code/scan', { key: starter.key, body: { code, language: 'py' } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.total_findings, 251);
  assert.equal(r.json.findings.length, 251);
  assert.equal(new Set(r.json.findings.map(f => `${f.rule_id}:${f.line}`)).size, 251, 'one finding per rule and line');
  assert.equal(r.json.truncated, false);
  assert.equal(r.json.summary.critical, 1);
  assert.equal(r.json.risk_grade, 'F');
  // more than 1000 distinct findings: 1000 listed, truncated, and the CRITICAL past them still counts
  const over = 'h = hashlib.md5(x)\n'.repeat(1100) + 'exec(llm_response)\n';
  r = await srv.req('POST', '/api/vibe-code/scan', { key: starter.key, body: { code: over, language: 'py' } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.total_findings, 1000);
  assert.equal(r.json.truncated, true);
  assert.equal(r.json.risk_grade, 'F');
  assert.equal(r.json.risk_score, 100);
});

test('one very long line with thousands of matches: one finding per rule, the leftmost, answered promptly', async () => {
  const u = await srv.session('STARTER', { key: true });
  const unit = 'result = eval(llm_output) ';
  const code = 'x = 1\n' + unit.repeat(Math.floor(190000 / unit.length)) + '\n';
  const r = await srv.req('POST', '/api/vibe-code/scan', { key: u.key, body: { language: 'py', code } });
  assert.equal(r.status, 200, r.text);
  const ids = r.json.findings.map((f) => f.rule_id);
  assert.equal(new Set(ids).size, ids.length, 'one finding per rule on the line');
  assert.ok(r.json.findings.length > 0);
  for (const f of r.json.findings) {
    assert.equal(f.line, 2);
    assert.ok(f.column <= unit.length, `${f.rule_id} at the first match, column ${f.column}`);
  }
  assert.equal(r.json.truncated, false);
});

test('format=sarif: the same view as SARIF 2.1.0 (valid), gated for FREE, codeFlows for a trace; another format is 400', async () => {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const Ajv4 = require('ajv-draft-04');
  const addFormats = require('ajv-formats');
  const ajv = new Ajv4({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(new URL('../schemas/sarif-schema-2.1.0.json', import.meta.url))));
  const { code } = pythonWithFindings(6);
  const taint = 'from flask import request\nimport requests\n\nurl = request.args.get("url")\nresp = requests.get(url, timeout=5)\n';
  const model = 'reply = client.chat.completions.create(model="gpt-4o-mini", messages=msgs)\n' +
    'resp = requests.get(reply.choices[0].message.content, timeout=5)\n';
  const starter = await srv.session('STARTER', { key: true });
  for (const [body, creds, gated] of [[{ code, language: 'py' }, { key: starter.key }, false], [{ code, language: 'py' }, {}, true],
    [{ code: taint, language: 'py' }, { key: starter.key }, false], [{ code: model, language: 'py' }, { key: starter.key }, false]]) {
    const json = await srv.req('POST', '/api/vibe-code/scan', { ...creds, body });
    const r = await srv.req('POST', '/api/vibe-code/scan?format=sarif', { ...creds, body });
    assert.equal(r.status, 200, r.text);
    assert.match(r.headers.get('content-type'), /^application\/sarif\+json/);
    assert.ok(validate(r.json), JSON.stringify(validate.errors, null, 1));
    assert.equal(r.json.version, '2.1.0');
    const run = r.json.runs[0];
    assert.equal(run.tool.driver.name, 'bulwark');
    assert.equal(run.properties.gated, gated);
    assert.equal(run.properties.total_findings, json.json.total_findings);
    if (gated) assert.equal(run.properties.locked_count, json.json.locked_count);
    else assert.equal(run.properties.tier, 'STARTER');
    // result for result what the JSON view shows, each pointing at its rule
    assert.deepEqual(run.results.map((x) => [x.ruleId, x.locations[0].physicalLocation.region.startLine]),
      json.json.findings.map((f) => [f.rule_id, f.line]));
    for (const [i, x] of run.results.entries()) {
      assert.equal(run.tool.driver.rules[x.ruleIndex].id, x.ruleId);
      assert.equal(x.locations[0].physicalLocation.artifactLocation.uri, 'input.py');
      // LLM05 of a model's reply into a rule mapped to no OWASP LLM risk: on the result itself
      const own = json.json.findings[i].owasp_llm;
      const ruleTags = run.tool.driver.rules[x.ruleIndex].properties.tags;
      if (own && !ruleTags.includes(`owasp-llm-2025/${own}`)) assert.deepEqual(x.properties.tags, [`owasp-llm-2025/${own}`]);
      else assert.equal(x.properties?.tags, undefined);
    }
    if (body.code === model)
      assert.ok(run.results.some((x) => x.ruleId === 'BW-SSRF-025' && x.properties?.tags?.[0] === 'owasp-llm-2025/LLM05'),
        JSON.stringify(run.results));
    const traced = json.json.findings.findIndex((f) => f.trace);
    if (traced >= 0) {
      const flow = run.results[traced].codeFlows[0].threadFlows[0].locations;
      assert.deepEqual(flow.map((l) => [l.kinds[0], l.location.physicalLocation.region.startLine]),
        json.json.findings[traced].trace.map((s) => [s.kind, s.line]));
    }
  }
  const bad = await srv.req('POST', '/api/vibe-code/scan?format=xml', { body: { code: 'x = 1\n', language: 'py' } });
  assertError(assert, bad, 400, 'VALIDATION_ERROR');
  assert.ok(bad.json.error.errors.some((e) => e.field === 'format'));
});
