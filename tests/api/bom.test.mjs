// The CycloneDX 1.7 ML-BOM of an account's AI assets (GET /api/ai-security/assets/bom): every
// document validated against the CycloneDX 1.7 JSON schema (../shared/data/schemas/cyclonedx-1.7/);
// assets of each kind as components and services, an asset's `components` list (validated on
// register and PATCH), pinned MCP servers with their tools, the last scan as properties; intel
// records imported here that match by provider and by a component's name as vulnerabilities
// (KEV: exploitable, others in triage), and one that matches nothing absent; access (401, 403
// FREE) and isolation between accounts; deterministic apart from serialNumber and timestamp.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { startServer, assertError, BIN } from './lib/server.mjs';

const require = createRequire(import.meta.url);
const Ajv = require('ajv').default;
const addFormats = require('ajv-formats');

const ROOT = new URL('../../', import.meta.url).pathname;
const PATH = '/api/ai-security/assets/bom';

// The schemas beside the repository as the project's shared folder places them, or where
// BULWARK_CYCLONEDX_SCHEMAS says. Missing schemas fail the test.
function validator() {
  const cands = [process.env.BULWARK_CYCLONEDX_SCHEMAS, join(ROOT, '../shared/data/schemas/cyclonedx-1.7'),
    join(ROOT, '../../shared/data/schemas/cyclonedx-1.7'), '/work/shared/data/schemas/cyclonedx-1.7'].filter(Boolean);
  const dir = cands.find(c => existsSync(join(c, 'bom-1.7.schema.json')));
  assert.ok(dir, 'the CycloneDX 1.7 JSON schemas: looked in ' + cands.join(', '));
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // draft-07's IRI formats, which ajv-formats leaves out: no spaces or characters RFC 3987 excludes
  ajv.addFormat('idn-email', (s) => /^[^\s@]+@[^\s@]+$/.test(s));
  for (const f of ['iri-reference', 'iri']) ajv.addFormat(f, (s) => !/[\s<>"{}|\\^`]/.test(s) && (f === 'iri-reference' || /^[a-z][a-z0-9+.-]*:/i.test(s)));
  for (const f of readdirSync(dir).filter(f => f.endsWith('.schema.json') && f !== 'bom-1.7.schema.json')) {
    ajv.addSchema(JSON.parse(readFileSync(join(dir, f), 'utf8')));
  }
  return ajv.compile(JSON.parse(readFileSync(join(dir, 'bom-1.7.schema.json'), 'utf8')));
}

let srv, V;
before(async () => {
  V = validator();
  srv = await startServer({ env: { BULWARK_RATE_STARTER: '0', BULWARK_RATE_PRO: '0', BULWARK_RATE_FREE: '0', BULWARK_EGRESS_ALLOW: 'loopback' } });
});
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

function valid(bom) {
  const ok = V(bom);
  assert.ok(ok, 'CycloneDX 1.7 schema: ' + JSON.stringify(V.errors?.slice(0, 5), null, 1));
}

const reg = (u, body) => srv.req('POST', '/api/ai-security/assets/register', { key: u.key, body });
const bom = async (u) => {
  const r = await srv.req('GET', PATH, { key: u.key });
  assert.equal(r.status, 200, r.text);
  assert.match(r.headers.get('content-type'), /^application\/json/);
  valid(r.json);
  return r.json;
};

function intel(args) {
  const r = spawnSync(BIN, ['intel', ...args], { env: srv.env(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

// A KEV entry whose vendor is an asset's provider (the KEV import keeps AI products only: the
// product names vLLM), one that names nothing of ours, and an OSV advisory whose package is an
// asset's component, all invented here so that nothing in the seed matches the same names.
function seedIntel() {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-bom-'));
  try {
    const kev = {
      title: 'CISA Catalog of Known Exploited Vulnerabilities', catalogVersion: '2026.11.26',
      dateReleased: '2026-11-26T12:00:00.000Z', count: 2,
      vulnerabilities: [
        { cveID: 'CVE-2026-90001', vendorProject: 'Bomtest Labs', product: 'Bomtest vLLM Gateway',
          vulnerabilityName: 'Bomtest Labs vLLM Gateway Missing Authentication', dateAdded: '2026-11-20',
          shortDescription: 'Bomtest Labs vLLM Gateway lets an unauthenticated caller run prompts as any tenant.',
          requiredAction: 'Apply mitigations per vendor instructions or discontinue use of the product.',
          dueDate: '2026-12-11', knownRansomwareCampaignUse: 'Unknown', notes: '', cwes: ['CWE-306'] },
        { cveID: 'CVE-2026-90002', vendorProject: 'Unrelated Vendor', product: 'Unrelated Ray Server',
          vulnerabilityName: 'Unrelated Vendor Ray Server Path Traversal', dateAdded: '2026-11-21',
          shortDescription: 'Unrelated Vendor Ray Server has a path traversal.',
          requiredAction: 'Apply mitigations per vendor instructions.', dueDate: '2026-12-12',
          knownRansomwareCampaignUse: 'Unknown', notes: '', cwes: ['CWE-22'] },
      ],
    };
    writeFileSync(join(dir, 'kev.json'), JSON.stringify(kev));
    intel(['import', '--format', 'kev', join(dir, 'kev.json')]);
    const osv = join(dir, 'osv');
    spawnSync('mkdir', [osv]);
    writeFileSync(join(osv, 'PYSEC-2026-900.yaml'), [
      'id: PYSEC-2026-900',
      'details: Deserialisation of untrusted tokenizer files in bomtest-tokenizer before 1.4.2 runs code.',
      'affected:',
      '- package:',
      '    name: bomtest-tokenizer',
      '    ecosystem: PyPI',
      '    purl: pkg:pypi/bomtest-tokenizer',
      '  ranges:',
      '  - type: ECOSYSTEM',
      '    events:',
      '    - introduced: "0"',
      '    - fixed: 1.4.2',
      'references:',
      '- type: ADVISORY',
      '  url: https://example.org/advisories/bomtest-tokenizer',
      'aliases:',
      '- CVE-2026-90003',
      'modified: "2026-11-02T10:00:00Z"',
      'published: "2026-11-01T10:00:00Z"',
      '',
    ].join('\n'));
    intel(['import', '--format', 'osv', osv]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('access: 401 anonymous, 403 FREE, the admin key is not an account', async () => {
  assertError(assert, await srv.req('GET', PATH), 401, 'AUTH_REQUIRED');
  const free = await srv.session('FREE', { key: true });
  const r = assertError(assert, await srv.req('GET', PATH, { key: free.key }), 403, 'TIER_REQUIRED');
  assert.equal(r.required_tier, 'STARTER');
  assertError(assert, await srv.req('GET', PATH, { key: srv.adminKey }), 403, 'FORBIDDEN');
});

test("the engine's golden BOM (tests/data/bom/expected.json, every member bulwark writes) is valid CycloneDX 1.7", () => {
  valid(JSON.parse(readFileSync(join(ROOT, 'tests/data/bom/expected.json'), 'utf8')));
});

test('an account without assets gets a valid, empty BOM', async () => {
  const u = await srv.session('STARTER', { key: true });
  const b = await bom(u);
  assert.equal(b.bomFormat, 'CycloneDX');
  assert.equal(b.specVersion, '1.7');
  assert.match(b.serialNumber, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual([b.components, b.services, b.vulnerabilities, b.dependencies], [[], [], [], []]);
  assert.equal(b.metadata.tools.components[0].name, 'bulwark');
  assert.ok(!Number.isNaN(Date.parse(b.metadata.timestamp)));
});

test('components are validated on register and PATCH, shown on the asset, and cleared with null', async () => {
  const u = await srv.session('STARTER', { key: true });
  const base = { name: 'm', type: 'model', endpoint: 'https://m.example/v1' };
  const bad = async (components, fields) => {
    const r = await reg(u, { ...base, components });
    assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), fields, JSON.stringify(components));
  };
  await bad('torch', ['components']);
  await bad([{}], ['components[0].name']);
  await bad([{ name: '  ' }], ['components[0].name']);
  await bad([{ name: 'a', version: 3 }], ['components[0].version']);
  await bad([{ name: 'a', purl: 'npm/a' }], ['components[0].purl']);
  await bad([{ name: 'a', purl: 'pkg:pypi' }], ['components[0].purl']);
  await bad([{ name: 'a\u0001' }], ['components[0].name']);
  await bad([{ name: 'x'.repeat(201) }], ['components[0].name']);
  await bad([{ name: 'a', version: '1' }, { name: 'a', version: '1' }], ['components[1].name']);
  await bad([{ name: 'a' }, 5], ['components[1]']);
  await bad(Array.from({ length: 65 }, (_, i) => ({ name: 'c' + i })), ['components']);
  let r = await reg(u, { ...base, components: [{ name: 'torch', version: '2.3.1', purl: 'pkg:pypi/torch@2.3.1', extra: 1 }, { name: 'torch', version: '2.4.0' }] });
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.json.components, [{ name: 'torch', version: '2.3.1', purl: 'pkg:pypi/torch@2.3.1' }, { name: 'torch', version: '2.4.0' }]);
  const id = r.json.asset_id;
  r = await srv.req('GET', `/api/ai-security/assets/${id}`, { key: u.key });
  assert.equal(r.json.components.length, 2);
  r = await srv.req('PATCH', `/api/ai-security/assets/${id}`, { key: u.key, body: { components: [{ name: 'vllm' }] } });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.components, [{ name: 'vllm' }]);
  r = await srv.req('PATCH', `/api/ai-security/assets/${id}`, { key: u.key, body: { components: [{ name: '' }] } });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field), ['components[0].name']);
  r = await srv.req('PATCH', `/api/ai-security/assets/${id}`, { key: u.key, body: { name: 'renamed' } });
  assert.deepEqual(r.json.components, [{ name: 'vllm' }], 'a PATCH without components keeps them');
  r = await srv.req('PATCH', `/api/ai-security/assets/${id}`, { key: u.key, body: { components: null } });
  assert.equal(r.json.components, null);
  r = await reg(u, base);
  assert.equal(r.json.components, null);
});

test('the BOM: assets as components and services, MCP servers, last scan, matching intel as vulnerabilities', async () => {
  seedIntel();
  const u = await srv.session('PRO', { key: true });
  const other = await srv.session('STARTER', { key: true });
  // the other account's asset has the same provider: it must not appear, nor its refs
  const theirs = await reg(other, { name: 'their model', type: 'model', provider: 'Bomtest Labs', endpoint: 'https://theirs.example/v1' });
  assert.equal(theirs.status, 201);

  const model = await reg(u, { name: 'support model', type: 'model', provider: 'bomtest labs', endpoint: 'https://llm.example/v1',
    connection: { api: 'openai', model: 'gpt-support' }, components: [{ name: 'Bomtest-Tokenizer', version: '1.4.0', purl: 'pkg:pypi/bomtest-tokenizer@1.4.0' }] });
  assert.equal(model.status, 201, model.text);
  const agent = await reg(u, { name: 'ops agent', type: 'agent', provider: 'self', endpoint: 'https://agent.example/run' });
  const rag = await reg(u, { name: 'kb', type: 'rag', endpoint: 'https://kb.example/query', components: [{ name: 'faiss' }] });
  const api = await reg(u, { name: 'gateway', type: 'api', provider: 'acme', endpoint: 'https://api.example/' });
  for (const r of [agent, rag, api]) assert.equal(r.status, 201, r.text);
  // one scan: nothing listens on the endpoint (loopback is allowed here), and the
  // scan's result shows as the asset's last scan
  const scanned = await reg(u, { name: 'local', type: 'api', endpoint: 'http://127.0.0.1:9/' });
  const scan = await srv.req('POST', `/api/ai-security/assets/${scanned.json.asset_id}/scan`, { key: u.key });
  assert.equal(scan.status, 200, scan.text);
  // a pinned MCP server with two tools
  const pin = await srv.req('POST', '/api/mcp-security/scan', { key: u.key, body: { mcp_config: {
    server_url: 'https://tools.example.com/mcp', auth_method: 'oauth',
    tools: [{ name: 'add', description: 'Adds two numbers.' }, { name: 'get_forecast', description: 'Returns the forecast for a city.' }] } } });
  assert.equal(pin.status, 200, pin.text);

  const b = await bom(u);
  const all = JSON.stringify(b);
  assert.ok(!all.includes(theirs.json.asset_id), "another account's asset is absent");
  assert.ok(!all.includes('their model'));

  const m = b.components.find(c => c['bom-ref'] === model.json.asset_id);
  assert.equal(m.type, 'machine-learning-model');
  assert.equal(m.name, 'support model');
  assert.deepEqual(m.supplier, { name: 'bomtest labs' });
  const props = (x) => Object.fromEntries(x.properties.map(p => [p.name, p.value]));
  assert.equal(props(m)['bulwark:asset_type'], 'model');
  assert.equal(props(m)['bulwark:connection:model'], 'gpt-support');
  assert.equal(props(m)['bulwark:last_scan:status'], 'never_scanned');
  const tokRef = `${model.json.asset_id}/component/Bomtest-Tokenizer@1.4.0`;
  const tok = b.components.find(c => c['bom-ref'] === tokRef);
  assert.deepEqual(tok, { type: 'library', 'bom-ref': tokRef, name: 'Bomtest-Tokenizer', version: '1.4.0', purl: 'pkg:pypi/bomtest-tokenizer@1.4.0' });
  assert.deepEqual(b.dependencies.find(d => d.ref === model.json.asset_id).dependsOn, [tokRef]);
  assert.deepEqual(b.dependencies.find(d => d.ref === rag.json.asset_id).dependsOn, [`${rag.json.asset_id}/component/faiss`]);

  for (const [a, type] of [[agent, 'agent'], [rag, 'rag'], [api, 'api'], [scanned, 'api']]) {
    const s = b.services.find(x => x['bom-ref'] === a.json.asset_id);
    assert.ok(s, type + ' as a service');
    assert.deepEqual(s.endpoints, [a.json.endpoint]);
    assert.equal(props(s)['bulwark:asset_type'], type);
    assert.equal(s.data[0].flow, 'bi-directional');
  }
  assert.deepEqual(b.services.find(x => x['bom-ref'] === api.json.asset_id).provider, { name: 'acme' });
  const sp = props(b.services.find(x => x['bom-ref'] === scanned.json.asset_id));
  assert.equal(sp['bulwark:last_scan:id'], scan.json.scan_id);
  assert.equal(sp['bulwark:last_scan:status'], scan.json.status);
  assert.equal(sp['bulwark:last_scan:score'], String(scan.json.score));
  assert.equal(sp['bulwark:last_scan:findings'], String(scan.json.findings.length));
  const mcp = b.services.find(x => props(x)['bulwark:asset_type'] === 'mcp_server');
  assert.equal(mcp.name, 'https://tools.example.com/mcp');
  assert.deepEqual(mcp.services.map(t => t.name), ['add', 'get_forecast']);
  assert.match(props(mcp.services[0])['bulwark:mcp:definition_sha256'], /^[0-9a-f]{64}$/);

  // vulnerabilities: the KEV entry by provider (case aside), the OSV advisory by component name
  const ids = b.vulnerabilities.map(v => v.id);
  assert.ok(!ids.includes('CVE-2026-90002'), 'a record naming nothing of ours is absent');
  const kev = b.vulnerabilities.find(v => v.id === 'CVE-2026-90001');
  assert.ok(kev, ids.join(','));
  assert.equal(kev.analysis.state, 'exploitable');
  assert.match(kev.analysis.detail, /kev vendor 'Bomtest Labs'/);
  assert.deepEqual(kev.affects, [{ ref: model.json.asset_id }]);
  assert.deepEqual(kev.cwes, [306]);
  assert.equal(kev.source.name, 'NVD');
  assert.equal(props(kev)['bulwark:kev'], 'true');
  const osv = b.vulnerabilities.find(v => v.id === 'CVE-2026-90003');
  assert.ok(osv, ids.join(','));
  assert.equal(osv.analysis.state, 'in_triage');
  assert.deepEqual(osv.affects, [{ ref: tokRef }]);
  assert.match(osv.analysis.detail, /affected package 'bomtest-tokenizer'/);
  assert.deepEqual(ids, [...ids].sort(), 'by record id');

  // the other account sees its own asset matched, and nothing of ours
  const ob = await bom(other);
  assert.deepEqual(ob.components.map(c => c['bom-ref']), [theirs.json.asset_id]);
  assert.deepEqual(ob.vulnerabilities.map(v => v.id), ['CVE-2026-90001']);
  assert.ok(!JSON.stringify(ob).includes(model.json.asset_id));

  // the same inventory and intel: the same document but for serialNumber and timestamp
  const again = await bom(u);
  assert.notEqual(again.serialNumber, b.serialNumber);
  const strip = (x) => ({ ...x, serialNumber: '', metadata: { ...x.metadata, timestamp: '' } });
  assert.deepEqual(strip(again), strip(b));

  // a deleted asset leaves the BOM with its vulnerabilities
  await srv.req('DELETE', `/api/ai-security/assets/${model.json.asset_id}`, { key: u.key });
  const after = await bom(u);
  assert.ok(!after.components.some(c => c['bom-ref'].startsWith(model.json.asset_id)));
  assert.ok(!after.vulnerabilities.some(v => v.id === 'CVE-2026-90001' || v.id === 'CVE-2026-90003'));
});
