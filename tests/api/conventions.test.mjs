// Conventions every endpoint follows: envelope, request ids, headers, 404/405/413/415, JSON
// validation, health, the OpenAPI document.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertError, rawSocket, readResponse } from './lib/server.mjs';

let srv;
before(async () => { srv = await startServer(); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0, 'clean exit on SIGTERM'); });

test('healthz and readyz answer 200 with the standard headers', async () => {
  for (const p of ['/healthz', '/readyz']) {
    const r = await srv.req('GET', p);
    assert.equal(r.status, 200, r.text);
    assert.match(r.headers.get('content-type'), /^application\/json; charset=utf-8$/);
    assert.equal(r.headers.get('api-version'), '1');
    assert.match(r.headers.get('x-request-id'), /^req_[0-9a-f]{20}$/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  }
});

test('a valid incoming x-request-id is echoed, an invalid one replaced', async () => {
  let r = await srv.req('GET', '/healthz', { headers: { 'x-request-id': 'abc.DEF-123_x' } });
  assert.equal(r.headers.get('x-request-id'), 'abc.DEF-123_x');
  r = await srv.req('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
  assert.match(r.headers.get('x-request-id'), /^req_[0-9a-f]{20}$/);
  r = await srv.req('GET', '/healthz', { headers: { 'x-request-id': 'a'.repeat(65) } });
  assert.match(r.headers.get('x-request-id'), /^req_[0-9a-f]{20}$/);
  r = await srv.req('GET', '/nope', { headers: { 'x-request-id': 'trace-42' } });
  assert.equal(assertError(assert, r, 404, 'NOT_FOUND').request_id, 'trace-42');
});

test('the request id appears in that request\'s access log line', async () => {
  const id = 'logcheck-' + Date.now();
  await srv.req('GET', '/api/ai-security/governance/frameworks', { headers: { 'x-request-id': id } });
  let line;
  for (let i = 0; i < 50 && !line; i++) {
    line = srv.logLines().find(l => l.request_id === id);
    if (!line) await new Promise(r => setTimeout(r, 50));
  }
  assert.ok(line, 'a log line with the request id');
  assert.equal(line.status, 200);
});

test('unknown path is 404 NOT_FOUND in the envelope', async () => {
  const r = await srv.req('GET', '/api/does-not-exist');
  assertError(assert, r, 404, 'NOT_FOUND');
  assert.equal(r.json.error.errors, undefined);
});

test('wrong method is 405 with Allow', async () => {
  const r = await srv.req('DELETE', '/api/ai-security/governance/frameworks');
  assertError(assert, r, 405, 'METHOD_NOT_ALLOWED');
  assert.match(r.headers.get('allow'), /GET/);
});

test('login body that is not JSON, not an object, or mistyped is 400 naming fields', async () => {
  let r = await srv.req('POST', '/api/auth/login', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  assert.ok(Array.isArray(r.json.error.errors));
  r = await srv.req('POST', '/api/auth/login', { raw: '[1,2]', headers: { 'content-type': 'application/json' } });
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  r = await srv.req('POST', '/api/auth/login', { body: { email: 5, password: true } });
  const e = assertError(assert, r, 400, 'VALIDATION_ERROR');
  const fields = e.errors.map(x => x.field).sort();
  assert.deepEqual(fields, ['email', 'password']);
  r = await srv.req('POST', '/api/auth/login', { body: {} });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(x => x.field).sort(), ['email', 'password']);
});

test('a path a literal route owns is 405 for other methods, not a parameter', async () => {
  const u = await srv.session('PRO');
  for (const m of ['GET', 'DELETE']) {
    const r = await srv.req(m, '/api/ai-security/assets/register', { token: u.token });
    assertError(assert, r, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(r.headers.get('allow'), 'POST');
  }
});

test('JSON that is valid but unusable is told apart from JSON that is not', async () => {
  const msg = async (raw) => {
    const r = await srv.req('POST', '/api/auth/login', { raw, headers: { 'content-type': 'application/json' } });
    const e = assertError(assert, r, 400, 'VALIDATION_ERROR');
    assert.equal(e.errors[0].field, 'body');
    return e.errors[0].message;
  };
  assert.match(await msg('null'), /must be a JSON object/);
  assert.match(await msg('"x"'), /must be a JSON object/);
  assert.match(await msg('[1]'), /must be a JSON object/);
  assert.match(await msg('{"email":"a\\u0000b","password":"x"}'), /NUL/);
  assert.match(await msg('{"email":"a","email":"b","password":"x"}'), /same member twice/);
  assert.match(await msg('{"email":'), /not valid JSON/);
});

test('a body sent to an endpoint that takes none must still be JSON', async () => {
  const u = await srv.session('PRO');
  let r = await srv.req('POST', '/api/ai-security/assets/ast_missing/scan', { token: u.token, raw: 'notjson', headers: { 'content-type': 'application/json' } });
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  r = await srv.req('POST', '/api/ai-security/assets/ast_missing/scan', { token: u.token, raw: 'x', headers: { 'content-type': 'text/plain' } });
  assertError(assert, r, 415, 'UNSUPPORTED_MEDIA_TYPE');
  // no body, or an empty object, reaches the endpoint
  r = await srv.req('POST', '/api/ai-security/assets/ast_missing/scan', { token: u.token });
  assertError(assert, r, 404, 'NOT_FOUND');
  r = await srv.req('POST', '/api/ai-security/assets/ast_missing/scan', { token: u.token, body: {} });
  assertError(assert, r, 404, 'NOT_FOUND');
});

test('query parameters: each at most once, no %00, at most 32', async () => {
  const bad = async (q, field, re) => {
    const r = await srv.req('GET', '/api/ai-security/threat-feed?' + q);
    const e = assertError(assert, r, 400, 'VALIDATION_ERROR');
    assert.equal(e.errors[0].field, field);
    assert.match(e.errors[0].message, re);
  };
  await bad('limit=10%00abc', 'limit', /NUL/);
  await bad('type=ai_cves%00junk', 'type', /NUL/);
  await bad('limit=5&limit=abc', 'limit', /at most once/);
  await bad('severity=HIGH&severity=HIGH', 'severity', /at most once/);
  await bad(Array.from({ length: 33 }, (_, i) => `p${i}=1`).join('&'), 'query', /32/);
  await bad('%01x=1&%01x=2', 'query', /at most once/);
  const ok = await srv.req('GET', '/api/ai-security/threat-feed?' + Array.from({ length: 30 }, (_, i) => `p${i}=1`).join('&') + '&limit=2');
  assert.equal(ok.status, 200);
  assert.equal(ok.json.feed.length, 2);
});

test('credential headers are read without surrounding whitespace', async () => {
  const u = await srv.session('STARTER', { key: true });
  // raw requests: fetch would trim the values itself
  const get = async (header) => {
    const s = await rawSocket(srv.port);
    s.write(`GET /api/ai-security/assets HTTP/1.1\r\nHost: x\r\n${header}\r\nConnection: close\r\n\r\n`);
    const r = await readResponse(s);
    s.destroy();
    return r.status;
  };
  assert.equal(await get(`X-API-Key: ${u.key} `), 200);
  assert.equal(await get(`X-API-Key: ${u.key}\t \t`), 200);
  assert.equal(await get(`Authorization: Bearer ${u.token}  `), 200);
  assert.equal(await get(`X-API-Key: ${u.key}x`), 401);
  assert.equal(await get(`X-API-Key: ${u.key.slice(0, -1)} `), 401);
});

test('a non-JSON content type is 415', async () => {
  const r = await srv.req('POST', '/api/auth/login', { raw: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assertError(assert, r, 415, 'UNSUPPORTED_MEDIA_TYPE');
});

test('JSON nested deeper than the limit is rejected with 400, not a crash', async () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const r = await srv.req('POST', '/api/auth/login', { raw: `{"email":${deep}}`, headers: { 'content-type': 'application/json' } });
  assertError(assert, r, 400, 'VALIDATION_ERROR');
  assert.equal((await srv.req('GET', '/healthz')).status, 200);
});

test('a body over the limit is refused with 413 before it is sent in full', async () => {
  const s = await rawSocket(srv.port);
  // Announce 64 MiB but send only the headers: the answer must come without the body.
  s.write('POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 67108864\r\n\r\n');
  const r = await readResponse(s);
  s.destroy();
  assert.equal(r.status, 413);
  assert.equal(r.json.error.code, 'PAYLOAD_TOO_LARGE');
});

test('keep-alive: several requests on one connection', async () => {
  const s = await rawSocket(srv.port);
  for (let i = 0; i < 5; i++) {
    s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const r = await readResponse(s);
    assert.equal(r.status, 200);
    assert.notEqual((r.headers.connection || '').toLowerCase(), 'close');
  }
  // an error answer does not close the connection either
  s.write('GET /nope HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.equal((await readResponse(s)).status, 404);
  s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.equal((await readResponse(s)).status, 200);
  s.destroy();
});

test('OpenAPI document is public, 3.1, and lists the routes', async () => {
  const r = await srv.req('GET', '/api/openapi.json');
  assert.equal(r.status, 200);
  assert.match(r.json.openapi, /^3\.1/);
  for (const p of ['/api/auth/login', '/api/developer/keys', '/api/developer/keys/{id}',
    '/api/developer/keys/{id}/rotate', '/api/ai-security/governance/frameworks']) {
    assert.ok(r.json.paths[p], `path ${p} documented`);
  }
});

test('framework catalog: the four frameworks with control counts, anonymous', async () => {
  const r = await srv.req('GET', '/api/ai-security/governance/frameworks');
  assert.equal(r.status, 200);
  const ids = r.json.frameworks.map(f => f.id);
  assert.deepEqual(ids, ['nist-ai-rmf', 'iso-42001', 'eu-ai-act', 'owasp-llm']);
  const by = Object.fromEntries(r.json.frameworks.map(f => [f.id, f]));
  for (const f of r.json.frameworks) {
    assert.equal(typeof f.name, 'string');
    assert.ok(Number.isInteger(f.controls) && f.controls > 0);
  }
  assert.equal(by['nist-ai-rmf'].controls, 72);
  assert.equal(by['iso-42001'].controls, 38);
  assert.equal(by['owasp-llm'].controls, 10);
  assert.ok(r.headers.get('ratelimit-limit'), 'anonymous calls are rate limited');
});

test('one framework with its controls (extension); unknown id 404', async () => {
  const list = (await srv.req('GET', '/api/ai-security/governance/frameworks')).json.frameworks;
  for (const f of list) {
    const r = await srv.req('GET', `/api/ai-security/governance/frameworks/${f.id}`);
    assert.equal(r.status, 200);
    assert.equal(r.json.id, f.id);
    assert.equal(r.json.name, f.name);
    assert.equal(r.json.controls.length, f.controls);
    assert.equal(r.json.controls_total, f.controls);
    for (const c of r.json.controls) assert.ok(typeof c.id === 'string' && typeof c.title === 'string');
  }
  const o = await srv.req('GET', '/api/ai-security/governance/frameworks/owasp-llm');
  assert.deepEqual(o.json.controls.map(c => c.id), ['LLM01', 'LLM02', 'LLM03', 'LLM04', 'LLM05', 'LLM06', 'LLM07', 'LLM08', 'LLM09', 'LLM10']);
  const n = await srv.req('GET', '/api/ai-security/governance/frameworks/nist-ai-rmf');
  assert.ok(n.json.controls.some(c => c.id === 'GOVERN 1.1'), 'subcategories by id');
  assertError(assert, await srv.req('GET', '/api/ai-security/governance/frameworks/sox'), 404, 'NOT_FOUND');
});

test('metrics: 401 anonymous, 403 FORBIDDEN for a non-admin account, Prometheus text for the admin key', async () => {
  let r = await srv.req('GET', '/metrics');
  assertError(assert, r, 401, 'AUTH_REQUIRED');
  const u = await srv.session('ENTERPRISE', { key: true });
  r = await srv.req('GET', '/metrics', { key: u.key });
  assertError(assert, r, 403, 'FORBIDDEN');
  r = await srv.req('GET', '/metrics', { key: srv.adminKey });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
  assert.match(r.text, /^bulwark_http_requests_total\{route="[^"]+",method="[A-Z]+",status="2\d\d"\} [1-9]\d*$/m);
  assert.match(r.text, /^bulwark_http_requests_total\{route="\/metrics",method="GET",status="401"\} [1-9]\d*$/m);
  assert.match(r.text, /^bulwark_build_info\{version="[^"]+",backend="(sqlite|postgres)"\} 1$/m);
  assert.equal(r.headers.get('ratelimit-limit'), null, 'metrics are not rate limited');
  // the admin role works too
  const admin = await srv.login('admin@localhost', (await import('./lib/server.mjs')).ADMIN_PASSWORD);
  assert.equal((await srv.req('GET', '/metrics', { token: admin })).status, 200);
});

test('governance assess: STARTER+ only (403 TIER_REQUIRED with tiers), validated, stored per account', async () => {
  const free = await srv.session('FREE', { key: true });
  const body = { framework_id: 'eu-ai-act', ai_use_cases: ['CV screening for hiring', 'customer support chatbot'],
    org_context: 'We keep technical documentation and logs, and human oversight by trained reviewers.' };
  let r = await srv.req('POST', '/api/ai-security/governance/assess', { body });
  assertError(assert, r, 401, 'AUTH_REQUIRED');
  r = await srv.req('POST', '/api/ai-security/governance/assess', { key: free.key, body });
  const e = assertError(assert, r, 403, 'TIER_REQUIRED');
  assert.equal(e.required_tier, 'STARTER');
  assert.equal(e.current_tier, 'FREE');

  const a = await srv.session('STARTER', { key: true });
  r = await srv.req('POST', '/api/ai-security/governance/assess', { key: a.key, body: { framework_id: 'nope', ai_use_cases: [] } });
  assert.deepEqual(assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(x => x.field).sort(), ['ai_use_cases', 'framework_id']);
  r = await srv.req('POST', '/api/ai-security/governance/assess', { key: a.key, body: { framework_id: 'eu-ai-act', ai_use_cases: Array(51).fill('x') } });
  assertError(assert, r, 400, 'VALIDATION_ERROR');

  r = await srv.req('POST', '/api/ai-security/governance/assess', { key: a.key, body });
  assert.equal(r.status, 201, r.text);
  const x = r.json;
  assert.match(x.assessment_id, /^asm_[A-Za-z0-9]+$/);
  assert.equal(x.framework_id, 'eu-ai-act');
  assert.equal(x.status, 'completed');
  assert.equal(x.risk_classification, 'high', 'hiring is an Annex III area');
  assert.equal(x.controls_total, (await srv.req('GET', '/api/ai-security/governance/frameworks')).json.frameworks.find(f => f.id === 'eu-ai-act').controls);
  assert.ok(x.controls_met >= 1 && x.controls_met < x.controls_total);
  assert.equal(x.score, Math.round(100 * x.controls_met / x.controls_total));
  assert.ok(x.gaps.length > 0 && x.gaps.every(g => g.control_id && g.title && g.recommendation && ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'].includes(g.severity)));
  assert.ok(x.recommendations.length >= 1 && x.recommendations.length <= 5);
  // the same input gives the same result
  const again = await srv.req('POST', '/api/ai-security/governance/assess', { key: a.key, body });
  assert.deepEqual({ ...again.json, assessment_id: 0, created_at: 0 }, { ...x, assessment_id: 0, created_at: 0 });
  // read back by its owner; 404 for another account, exactly like a missing id
  const got = await srv.req('GET', `/api/ai-security/governance/assessments/${x.assessment_id}`, { key: a.key });
  assert.equal(got.status, 200);
  assert.deepEqual(got.json, x);
  const b = await srv.session('PRO', { key: true });
  const other = await srv.req('GET', `/api/ai-security/governance/assessments/${x.assessment_id}`, { key: b.key });
  const missing = await srv.req('GET', '/api/ai-security/governance/assessments/asm_doesnotexist000000000', { key: b.key });
  assertError(assert, other, 404, 'NOT_FOUND');
  assertError(assert, missing, 404, 'NOT_FOUND');
  assert.equal(other.json.error.message, missing.json.error.message);
});
