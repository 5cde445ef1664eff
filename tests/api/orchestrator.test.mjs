// The orchestration API: the access matrix over every route and principal; the packs' numbers
// against what the store holds (the embedded intel seed, assets, a live scan, audit events);
// scoping (ENTERPRISE own, mssp own + managed, admin everything); a run through its 16 phases,
// 409 while it runs, progress, the snapshot it persists; every hunt-pack Sigma rule validated
// against the Sigma JSON schema and every YARA rule compiled by libyara (yarac).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { startServer, assertError } from './lib/server.mjs';
import { startTarget } from './lib/targets.mjs';

const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats');

const B = '/api/orchestrator/god-mode';
const SEED = JSON.parse(readFileSync(new URL('../../data/intel/seed.json', import.meta.url))).records;
const ENV = {
  BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_WORKERS: '2', BULWARK_JOB_POLL_MS: '100',
  BULWARK_TRUSTED_PROXIES: '127.0.0.1', BULWARK_RATE_STARTER: '3', // only the managed account below is STARTER
};

let srv, target;
before(async () => {
  srv = await startServer({ env: ENV });
  target = await startTarget({ mode: 'careless' });
});
after(async () => {
  if (target) await target.close();
  if (srv) assert.equal(await srv.stop(), 0);
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function addManaged(s, tier, manager) {
  const email = `m${Math.random().toString(16).slice(2, 10)}@example.com`;
  const password = 'pw-managed-' + Math.random().toString(16).slice(2);
  const out = JSON.parse(s.cli(['user', 'add', email, '--tier', tier, '--managed-by', manager.email, '--password-stdin'], password + '\n'));
  assert.equal(out.managed_by, manager.id);
  return { email, password, id: out.id };
}

async function withKey(s, u) {
  u.token = await s.login(u.email, u.password);
  const r = await s.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'orch' } });
  assert.equal(r.status, 201, r.text);
  u.key = r.json.key;
  return u;
}

async function waitRun(s, auth, id, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await s.req('GET', `${B}/run/${id}`, auth);
    assert.equal(r.status, 200, r.text);
    if (r.json.status === 'completed' || r.json.status === 'failed') return r.json;
    if (Date.now() > end) throw new Error('run did not finish: ' + r.text);
    await sleep(100);
  }
}

test('access matrix: every route, every kind of caller', async () => {
  const admin = { key: srv.adminKey };
  const who = {
    anonymous: {},
    FREE: { key: (await srv.session('FREE', { key: true })).key },
    PRO: { key: (await srv.session('PRO', { key: true })).key },
    ENTERPRISE: { key: (await srv.session('ENTERPRISE', { key: true })).key },
    mssp: { key: (await srv.session('FREE', { key: true, role: 'mssp' })).key },
    adminRole: { token: (await srv.session('FREE', { role: 'admin' })).token },
    adminKey: admin,
    wrongAdminKey: { key: 'adm_wrong_' + 'x'.repeat(20) },
  };
  const privileged = new Set(['ENTERPRISE', 'mssp', 'adminRole', 'adminKey']);
  for (const [name, auth] of Object.entries(who)) {
    // status: coarse for everyone valid, detailed only for the privileged
    const st = await srv.req('GET', `${B}/status`, auth);
    if (name === 'wrongAdminKey') { assertError(assert, st, 401, 'AUTH_REQUIRED'); continue; }
    assert.equal(st.status, 200, `${name}: ${st.text}`);
    if (privileged.has(name)) {
      for (const k of ['last_run', 'runs_total', 'intel_records', 'assets', 'uptime_s', 'version']) assert.ok(k in st.json, `${name} status lacks ${k}`);
      assert.equal(st.json.status, 'ok');
      assert.equal(st.json.available, true);
    } else {
      assert.deepEqual(st.json, { status: 'ok', available: true }, name);
    }
  }
  const routes = [['GET', '/ciso'], ['GET', '/aspm'], ['GET', '/compliance'], ['GET', '/hunt-pack'], ['POST', '/run']];
  for (const [name, auth] of Object.entries(who)) {
    for (const [m, p] of routes) {
      const r = await srv.req(m, B + p, { ...auth, body: m === 'POST' ? { max_items: 5 } : undefined });
      if (name === 'anonymous' || name === 'wrongAdminKey') assertError(assert, r, 401, 'AUTH_REQUIRED');
      else if (!privileged.has(name)) {
        assertError(assert, r, 403, 'TIER_REQUIRED');
        assert.equal(r.json.error.required_tier, 'ENTERPRISE');
      } else if (m === 'POST') {
        assert.ok(r.status === 202 || r.status === 409, `${name} run: ${r.status} ${r.text}`);
        const id = r.status === 202 ? r.json.job_id : r.json.error.job_id;
        assert.match(id, /^job_[A-Za-z0-9]+$/);
        const g = await srv.req('GET', `${B}/run/${id}`, auth);
        assert.equal(g.status, 200, `${name} run status: ${g.text}`);
        await waitRun(srv, auth, id);
      } else assert.equal(r.status, 200, `${name} ${p}: ${r.text}`);
    }
    const g = await srv.req('GET', `${B}/run/job_doesnotexist000000000`, auth);
    if (name === 'anonymous' || name === 'wrongAdminKey') assertError(assert, g, 401, 'AUTH_REQUIRED');
    else if (!privileged.has(name)) assertError(assert, g, 403, 'TIER_REQUIRED');
    else assertError(assert, g, 404, 'NOT_FOUND');
  }
});

test('run: 202 shape, 409 while running, 16 phases, snapshot served afterwards, validation, isolation', async () => {
  const e = await srv.session('ENTERPRISE', { key: true });
  const other = await srv.session('ENTERPRISE', { key: true });
  for (const body of [{ max_items: 0 }, { max_items: 1001 }, { max_items: 'x' }, { max_items: 2.5 }, [1]]) {
    assertError(assert, await srv.req('POST', `${B}/run`, { key: e.key, body }), 400, 'VALIDATION_ERROR');
  }
  const r = await srv.req('POST', `${B}/run`, { key: e.key, body: { max_items: 25 } });
  assert.equal(r.status, 202, r.text);
  assert.match(r.json.job_id, /^job_[A-Za-z0-9]+$/);
  assert.equal(r.json.status, 'queued');
  assert.equal(r.json.phases_total, 16);
  assert.equal(r.json.max_items, 25);
  assert.match(r.json.accepted_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const again = await srv.req('POST', `${B}/run`, { key: e.key, body: {} });
  if (again.status === 409) {
    assertError(assert, again, 409, 'CONFLICT');
    assert.equal(again.json.error.job_id, r.json.job_id);
  } else {
    // the first finished in between (fast machine): the second is a run of its own
    assert.equal(again.status, 202, again.text);
    await waitRun(srv, { key: e.key }, again.json.job_id);
  }
  // another account cannot see it; the admin key can
  assertError(assert, await srv.req('GET', `${B}/run/${r.json.job_id}`, { key: other.key }), 404, 'NOT_FOUND');
  const done = await waitRun(srv, { key: e.key }, r.json.job_id);
  assert.equal(done.status, 'completed', JSON.stringify(done));
  assert.equal(done.phases_done, 16);
  assert.equal(done.phases_total, 16);
  assert.equal(done.phase, 16);
  assert.equal(done.phase_name, 'persist_snapshot');
  assert.equal(done.error, null);
  assert.ok(done.started_at && done.finished_at && done.finished_at >= done.started_at);
  assert.equal(done.phases.length, 16);
  assert.ok(done.phases.every((p) => p.status === 'done'));
  assert.deepEqual(done.phases.map((p) => p.name).slice(0, 2), ['load_sources', 'normalise']);
  const adm = await srv.req('GET', `${B}/run/${r.json.job_id}`, { key: srv.adminKey });
  assert.equal(adm.status, 200);
  // the packs now come from the run's snapshot
  let latest = again.status === 202 ? again.json.job_id : r.json.job_id;
  for (const p of ['ciso', 'aspm', 'compliance', 'hunt-pack']) {
    const g = await srv.req('GET', `${B}/${p}`, { key: e.key });
    assert.equal(g.status, 200, g.text);
    assert.equal(g.json.snapshot.source, 'run');
    assert.equal(g.json.snapshot.job_id, latest);
    assert.match(g.json.snapshot.id, /^snp_/);
  }
  const whole = (await srv.req('GET', `${B}/compliance`, { key: e.key })).json;
  const narrowed = await srv.req('GET', `${B}/compliance?framework=owasp_llm_2025`, { key: e.key });
  assert.equal(narrowed.status, 200, narrowed.text);
  assert.equal(narrowed.json.snapshot.id, whole.snapshot.id);
  assert.deepEqual(narrowed.json.frameworks, whole.frameworks.filter((f) => f.id === 'owasp_llm_2025'));
  // the other account has no snapshot: computed on demand
  const od = await srv.req('GET', `${B}/ciso`, { key: other.key });
  assert.equal(od.json.snapshot.source, 'on_demand');
  assert.equal(od.json.snapshot.id, null);
  // status shows the run
  const st = await srv.req('GET', `${B}/status`, { key: e.key });
  assert.equal(st.json.last_run.job_id, latest);
  assert.equal(st.json.current_run, null);
  assert.ok(st.json.runs_total >= 1);
  assert.equal(st.json.phases.length, 16);
});

test('packs: numbers match the store; scope of ENTERPRISE, mssp and admin; anomalies from audit events', async () => {
  // the seed's facts, counted independently
  const cves = SEED.filter((r) => r.id.startsWith('CVE-'));
  const crit = cves.filter((r) => r.severity === 'CRITICAL');
  const expectCritical = {
    total: crit.length,
    in_kev: crit.filter((r) => r.kev).length,
    ai_related: crit.filter((r) => r.ai_impact.length || r.atlas_techniques.length).length,
  };
  const kev = SEED.filter((r) => r.kev);
  assert.ok(kev.length >= 1, 'the seed has a KEV entry');
  const kevProduct = kev[0].kev_details.product;

  // an mssp managing a STARTER account, and an unrelated ENTERPRISE account
  const m = await srv.session('FREE', { key: true, role: 'mssp' });
  const f = await withKey(srv, addManaged(srv, 'STARTER', m));
  const e = await srv.session('ENTERPRISE', { key: true });

  // E: three assets, one named after the KEV product, one scanned against a careless endpoint
  const reg = async (u, name, endpoint) => {
    const r = await srv.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name, type: 'model', provider: 'self', endpoint } });
    assert.equal(r.status, 201, r.text);
    return r.json.asset_id ?? r.json.id;
  };
  const aKev = await reg(e, `${kevProduct} flows`, 'https://flows.example.com/');
  const aScan = await reg(e, 'chatbot', target.url);
  const aIdle = await reg(e, 'summariser', 'https://sum.example.com/');
  const scan = await srv.req('POST', `/api/ai-security/assets/${aScan}/scan`, { key: e.key });
  assert.equal(scan.status, 200, scan.text);
  const sev = (s) => scan.json.findings.filter((x) => x.severity === s).length;
  const fAsset = await reg(f, 'managed-bot', 'https://managed.example.com/');

  // audit events: F exhausts its budget (429s), E's key is used from many forwarded addresses
  for (let i = 0; i < 14; i++) await srv.req('GET', '/api/ai-security/assets', { key: f.key });
  for (let i = 0; i < 6; i++) {
    const r = await srv.req('GET', '/api/ai-security/assets', { key: e.key, headers: { 'x-forwarded-for': `198.51.100.${10 + i}` } });
    assert.equal(r.status, 200);
  }
  for (let i = 0; i < 12; i++) await srv.req('GET', '/api/ai-security/assets', { key: 'svc_' + 'Z'.repeat(38) });

  // ---- E's CISO pack (no snapshot for E: on demand) ----
  const c = await srv.req('GET', `${B}/ciso`, { key: e.key });
  assert.equal(c.status, 200, c.text);
  assert.equal(c.json.snapshot.source, 'on_demand');
  assert.equal(c.json.scope.kind, 'account');
  assert.deepEqual(c.json.critical_cves, expectCritical);
  assert.equal(c.json.intel.records, SEED.length);
  assert.equal(c.json.intel.cves, cves.length);
  assert.equal(c.json.kev_entries_total, kev.length);
  const ke = c.json.kev_entries.find((x) => x.threat_id === kev[0].id);
  assert.ok(ke, 'the KEV entry is listed');
  assert.equal(ke.relevance, 'asset_match');
  assert.deepEqual(ke.matched_assets, [aKev]);
  assert.equal(c.json.kev_entries[0].threat_id, kev[0].id, 'matched entries first');
  assert.equal(ke.past_due, kev[0].kev_details.due_date.slice(0, 10) < new Date().toISOString().slice(0, 10));
  // the score, recomputed from the formula with the pack's own inputs
  const comp = c.json.posture.components;
  assert.equal(comp.findings.critical, sev('CRITICAL'));
  assert.equal(comp.findings.high, sev('HIGH'));
  assert.equal(comp.findings.deduction, Math.min(40, 10 * sev('CRITICAL') + 4 * sev('HIGH')));
  assert.equal(comp.coverage.registered, 3);
  assert.equal(comp.coverage.scanned_30d, 1);
  assert.equal(comp.coverage.deduction, Math.round((20 * 2) / 3));
  assert.equal(comp.assets.mean_security_score, scan.json.score);
  assert.equal(comp.assets.deduction, Math.min(20, Math.floor((100 - scan.json.score) / 5)));
  assert.ok(comp.exposure.matched_threats >= 1);
  assert.ok(comp.exposure.deduction >= 5);
  const score = 100 - comp.findings.deduction - comp.coverage.deduction - comp.assets.deduction - comp.exposure.deduction - comp.abuse.deduction;
  assert.equal(c.json.posture.score, Math.max(0, score));
  const g = c.json.posture.score;
  assert.equal(c.json.posture.grade, g >= 90 ? 'A' : g >= 80 ? 'B' : g >= 70 ? 'C' : g >= 60 ? 'D' : 'F');
  // techniques: counts add up, ATT&CK and ATLAS both present, most observed first
  const t = c.json.mitre_techniques;
  assert.ok(t.some((x) => x.framework === 'ATT&CK') && t.some((x) => x.framework === 'ATLAS'));
  for (const x of t) assert.equal(x.count, x.intel_records + x.findings);
  for (let i = 1; i < t.length; i++) assert.ok(t[i - 1].count >= t[i].count);
  assert.ok(t.some((x) => x.findings > 0), 'scan findings contribute techniques');
  // recommendations: ranked, each citing records that exist
  const recs = c.json.recommendations;
  assert.ok(recs.length >= 3 && recs.length <= 20);
  recs.forEach((x, i) => assert.equal(x.rank, i + 1));
  const kevRec = recs.find((x) => x.cites.some((y) => y.type === 'intel' && y.id === kev[0].id) && x.cites.some((y) => y.id === aKev));
  assert.ok(kevRec, 'the KEV match is recommended, citing record and asset');
  assert.equal(kevRec.priority, 'CRITICAL');
  const ids = new Set(SEED.map((x) => x.id));
  for (const x of recs) for (const y of x.cites) {
    if (y.type === 'intel') assert.ok(ids.has(y.id), y.id);
    if (y.type === 'asset') assert.ok([aKev, aScan, aIdle].includes(y.id), 'E sees only its assets: ' + y.id);
  }
  assert.ok(recs.some((x) => x.cites.some((y) => y.type === 'asset' && y.id === aIdle)), 'unscanned assets recommended');

  // ---- ASPM: E's assets only; anomalies of E's key only ----
  const a = await srv.req('GET', `${B}/aspm`, { key: e.key });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.json.assets.registered, 3);
  assert.equal(a.json.assets.scanned, 1);
  assert.equal(a.json.assets.unscanned, 2);
  assert.deepEqual(new Set(a.json.assets.never_scanned), new Set([aKev, aIdle]));
  assert.equal(a.json.critical_findings.critical, sev('CRITICAL'));
  assert.equal(a.json.critical_findings.high, sev('HIGH'));
  assert.ok(a.json.critical_findings.items.every((x) => x.asset_id === aScan));
  const hits = new Set(scan.json.findings.filter((x) => ['HIGH', 'CRITICAL'].includes(x.severity)).map((x) => x.owasp_llm).filter(Boolean));
  assert.deepEqual(new Set(a.json.open_risks.map((x) => x.owasp_llm)), hits);
  const multi = a.json.zero_trust.anomalies.find((x) => x.type === 'KEY_MULTI_IP');
  assert.ok(multi, 'KEY_MULTI_IP for E: ' + JSON.stringify(a.json.zero_trust));
  assert.equal(multi.principal, e.key.slice(0, 12));
  assert.equal(multi.principal_type, 'api_key');
  assert.ok(multi.count >= 6);
  assert.ok(multi.first_seen <= multi.last_seen);
  assert.ok(!a.json.zero_trust.anomalies.some((x) => x.principal_type === 'ip'), 'IP-only anomalies are admin-only');
  assert.ok(!a.json.zero_trust.anomalies.some((x) => x.type === 'RATE_LIMIT_BURST'), "F's 429s are not E's");

  // ---- the mssp sees its own and F's, not E's ----
  const ma = await srv.req('GET', `${B}/aspm`, { key: m.key });
  assert.equal(ma.status, 200, ma.text);
  assert.equal(ma.json.scope.kind, 'mssp');
  assert.deepEqual(new Set(ma.json.scope.accounts), new Set([m.id, f.id]));
  assert.equal(ma.json.assets.registered, 1);
  assert.deepEqual(ma.json.assets.never_scanned, [fAsset]);
  const burst = ma.json.zero_trust.anomalies.find((x) => x.type === 'RATE_LIMIT_BURST');
  assert.ok(burst, 'RATE_LIMIT_BURST of the managed account: ' + JSON.stringify(ma.json.zero_trust));
  assert.equal(burst.principal, f.key.slice(0, 12));
  assert.ok(burst.count >= 10, JSON.stringify(burst));
  assert.equal(burst.window_s, 300);

  // ---- the admin key sees everything, IP anomalies included, through a fresh run's snapshot ----
  await sleep(1500); // the audit flusher writes about every second; the run reads the database
  const run = await srv.req('POST', `${B}/run`, { key: srv.adminKey, body: { max_items: 10 } });
  assert.equal(run.status, 202, run.text);
  assert.equal((await waitRun(srv, { key: srv.adminKey }, run.json.job_id)).status, 'completed');
  const all = await srv.req('GET', `${B}/aspm`, { key: srv.adminKey });
  assert.equal(all.json.snapshot.job_id, run.json.job_id);
  assert.equal(all.json.scope.kind, 'all');
  assert.ok(all.json.assets.registered >= 4);
  const af = all.json.zero_trust.anomalies.find((x) => x.type === 'AUTH_FAILURE_BURST' && x.principal_type === 'ip');
  assert.ok(af, 'AUTH_FAILURE_BURST by IP: ' + JSON.stringify(all.json.zero_trust));
  assert.ok(af.count >= 12);
  assert.ok(all.json.zero_trust.anomalies.some((x) => x.type === 'PRIVILEGED_ROUTE_PROBE'), 'FREE/PRO callers probed privileged routes');
});

test('compliance posture: six frameworks, gaps traceable to CVEs and reasons', async () => {
  const e = await srv.session('ENTERPRISE', { key: true });
  const r = await srv.req('GET', `${B}/compliance`, { key: e.key });
  assert.equal(r.status, 200, r.text);
  const fw = r.json.frameworks;
  assert.deepEqual(fw.map((x) => x.id), ['iso_27001_2022', 'soc2_tsc', 'nist_csf_2.0', 'gdpr', 'dpdp_2023', 'owasp_llm_2025']);
  const active = SEED.filter((x) => x.id.startsWith('CVE-') && (x.kev || ['CRITICAL', 'HIGH'].includes(x.severity)));
  assert.equal(r.json.active_cves, Math.min(100, active.length));
  assert.equal(r.json.cves.length, r.json.active_cves);
  const byId = Object.fromEntries(fw.map((x) => [x.id, x]));
  for (const x of fw) {
    assert.equal(x.controls_affected, x.controls.length);
    for (const c of x.controls) {
      assert.ok(c.why.length > 0 && c.threat_ids.length > 0, `${x.id} ${c.control_id} explains itself`);
      for (const w of c.why) assert.ok(c.threat_ids.includes(w.threat_id) && w.rationale && w.via);
    }
  }
  for (const c of r.json.cves) {
    for (const [f, ctl] of Object.entries(c.gaps)) {
      for (const id of ctl) {
        const control = byId[f].controls.find((k) => k.control_id === id);
        assert.ok(control && control.threat_ids.includes(c.threat_id), `${c.threat_id} -> ${f} ${id}`);
      }
    }
  }
  assert.ok(byId.iso_27001_2022.controls.some((k) => /^A\.\d+\.\d+$/.test(k.control_id)));
  assert.ok(byId.gdpr.controls.every((k) => /^Art\. \d+/.test(k.control_id)));
  // ?framework= narrows the pack to one framework, the same content as in the whole pack
  const one = await srv.req('GET', `${B}/compliance?framework=gdpr`, { key: e.key });
  assert.equal(one.status, 200, one.text);
  assert.deepEqual(one.json.filter, { framework: 'gdpr' });
  assert.deepEqual(one.json.frameworks, [byId.gdpr]);
  assert.equal(one.json.cves.length, r.json.cves.length);
  for (const [i, c] of one.json.cves.entries()) {
    assert.deepEqual(Object.keys(c.gaps), Object.keys(r.json.cves[i].gaps).includes('gdpr') ? ['gdpr'] : []);
    if (c.gaps.gdpr) assert.deepEqual(c.gaps.gdpr, r.json.cves[i].gaps.gdpr);
  }
  assert.ok(one.text.length < r.text.length / 2);
  for (const q of ['framework=GDPR', 'framework=', 'framework=iso-27001', 'framework=gdpr&framework=gdpr']) {
    assertError(assert, await srv.req('GET', `${B}/compliance?${q}`, { key: e.key }), 400, 'VALIDATION_ERROR');
  }
});

test('hunt pack: every Sigma rule valid against the schema, every YARA rule compiles, no trivial detection', async () => {
  const r = await srv.req('GET', `${B}/hunt-pack`, { key: srv.adminKey });
  assert.equal(r.status, 200, r.text);
  const rules = r.json.rules;
  assert.ok(rules.length > 0);
  assert.equal(rules.length + r.json.skipped.length, r.json.active_cves);
  const schema = JSON.parse(readFileSync(new URL('../schemas/sigma-detection-rule-schema.json', import.meta.url)));
  delete schema.$schema; // the file names the draft with a trailing '#', which Ajv2020 does not resolve
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-hunt-'));
  try {
    const uuids = new Set();
    for (const h of rules) {
      assert.ok(validate(h.sigma), `${h.threat_id}: ${JSON.stringify(validate.errors)}`);
      assert.ok(!uuids.has(h.sigma.id), 'unique rule ids');
      uuids.add(h.sigma.id);
      assert.ok(h.sigma.tags.includes('cve.' + h.threat_id.slice(4).toLowerCase()), h.threat_id);
      const det = h.sigma.detection;
      assert.ok(typeof det.condition === 'string' && det.condition.length > 0);
      for (const [k, v] of Object.entries(det)) {
        if (k === 'condition') continue;
        assert.ok(v && JSON.stringify(v) !== '{}' && JSON.stringify(v) !== '[]', `${h.threat_id} ${k} is empty`);
        assert.ok(!/"\*"/.test(JSON.stringify(v)), `${h.threat_id} ${k} matches anything`);
      }
      assert.ok(h.kql.includes('ago(') && h.kql.length > 40, h.threat_id);
      assert.doesNotMatch(h.yara, /condition:\s*true\b/);
      const f = join(dir, 'r.yar');
      writeFileSync(f, h.yara);
      try {
        execFileSync('yarac', [f, join(dir, 'r.bin')], { stdio: 'pipe' });
      } catch (err) {
        assert.fail(`${h.threat_id}: yarac rejected the rule: ${err.stderr}\n${h.yara}`);
      }
    }
    // deterministic: the same records give the same pack
    const again = await srv.req('GET', `${B}/hunt-pack`, { key: srv.adminKey });
    assert.deepEqual(again.json.rules, rules);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
