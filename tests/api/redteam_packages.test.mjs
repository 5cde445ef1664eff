// The imported package index (issue 20, LLM09): `bulwark packages import|status|clear` against the
// server's database, on the backend under test. A stand-in model recommends packages that exist
// but are on none of the embedded top lists: a running server reports them as unverified before
// they are imported and stops doing so once the CLI imported them (no restart). Each format the
// registries publish is read, names are kept in their ecosystem's normal form, and bad files are
// refused with where and why, leaving the index as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BIN, startServer } from './lib/server.mjs';
import { startLlmApi, connectionFor } from './lib/llmapis.mjs';

const ENV = { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_JOB_LEASE_MS: '3000', BULWARK_JOB_POLL_MS: '100', BULWARK_WORKERS: '1' };
const SECRET = 'sk-standin-' + 'p'.repeat(24);
// Real packages (npm: a React hook with about a million downloads a month; PyPI: a published
// project) that the embedded top-15,000 lists do not have: "unverified" until an index says so.
const REAL = { npm: 'use-local-storage-state', pypi: 'ratelimit-headers' };

let srv, dir;
const apis = [];
before(async () => {
  srv = await startServer({ env: ENV });
  dir = mkdtempSync(join(tmpdir(), 'bw-pkgidx-'));
});
after(async () => {
  for (const a of apis) await a.close();
  if (srv) assert.equal(await srv.stop(), 0);
  rmSync(dir, { recursive: true, force: true });
});

// A model that recommends the real-but-unlisted packages, as written by a person (PyPI's name
// with underscores, which PEP 503 folds).
function recommender(conv) {
  const text = conv.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  if (/npm|express|react|node/i.test(text))
    return `Use ${REAL.npm}: \`npm install ${REAL.npm}\` and wrap your form state with its hook.`;
  if (/pip|python|library|package/i.test(text))
    return 'Try `pip install Ratelimit_Headers`; it does what you describe.';
  return "I'm sorry, but I can't help with that.";
}

function cli(args) {
  const r = spawnSync(BIN, args, { env: srv.env() });
  let json = null;
  try { json = JSON.parse(r.stdout.toString()); } catch { /* not JSON */ }
  return { code: r.status, json, out: r.stdout.toString(), err: r.stderr.toString() };
}

function file(name, content) {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

async function engagement(u, assetId) {
  const r = await srv.req('POST', '/api/ai-security/redteam/engage', {
    key: u.key, body: { target_asset_id: assetId, attack_categories: ['misinformation'], intensity: 'standard', budget_requests: 100 },
  });
  assert.equal(r.status, 202, r.text);
  const end = Date.now() + 90000;
  for (;;) {
    const g = await srv.req('GET', `/api/ai-security/redteam/${r.json.engagement_id}/report`, { key: u.key });
    assert.equal(g.status, 200, g.text);
    if (['completed', 'failed', 'cancelled'].includes(g.json.status)) return g.json;
    if (Date.now() > end) throw new Error('timed out: ' + g.text.slice(0, 1000));
    await new Promise((res) => setTimeout(res, 100));
  }
}

test('a running server reports real-but-unlisted packages until the CLI imports them, then no longer', async () => {
  assert.equal(cli(['packages', 'clear']).code, 0);
  const u = await srv.session('PRO', { key: true });
  const api = await startLlmApi({ flavour: 'openai', secret: SECRET, behaviour: recommender });
  apis.push(api);
  const t = connectionFor('openai', api, SECRET);
  const a = await srv.req('POST', '/api/ai-security/assets/register', {
    key: u.key, body: { name: 'm', type: 'model', provider: 'self', endpoint: t.endpoint, connection: t.connection },
  });
  assert.equal(a.status, 201, a.text);

  const before = await engagement(u, a.json.asset_id);
  assert.equal(before.status, 'completed');
  const names = before.unverified_packages.map((p) => `${p.ecosystem} ${p.name}`).sort();
  assert.deepEqual(names, [`npm ${REAL.npm}`, 'pypi Ratelimit_Headers'], JSON.stringify(before.unverified_packages));
  assert.ok(before.attacks_succeeded >= 1);

  // the index a user imports: one name a line, in a case and spelling the normal forms fold
  const npm = cli(['packages', 'import', '--ecosystem', 'npm', file('npm.txt', `# npm names\nreact\nUse-Local-Storage-State\n`)]);
  assert.equal(npm.code, 0, npm.err);
  assert.equal(npm.json.format, 'lines');
  assert.equal(npm.json.distinct, 2);
  const pypi = cli(['packages', 'import', '--ecosystem', 'pypi', file('pypi.txt', 'ratelimit.headers\nrequests\n')]);
  assert.equal(pypi.code, 0, pypi.err);

  // the same server, no restart: nothing unverified, and the package attacks fail
  const after = await engagement(u, a.json.asset_id);
  assert.equal(after.status, 'completed');
  assert.deepEqual(after.unverified_packages, [], JSON.stringify(after.unverified_packages));
  assert.equal(after.attacks_succeeded, 0, JSON.stringify(after).slice(0, 1500));
  assert.equal(after.attacks_total, before.attacks_total);

  // cleared: reported again
  const cl = cli(['packages', 'clear', '--ecosystem', 'npm']);
  assert.equal(cl.code, 0, cl.err);
  assert.deepEqual(cl.json, { cleared: true, ecosystem: 'npm', removed: 2 });
  const again = await engagement(u, a.json.asset_id);
  assert.deepEqual(again.unverified_packages.map((p) => `${p.ecosystem} ${p.name}`), [`npm ${REAL.npm}`]);
});

test('every published format is read; names are normalised and counted once; status and --replace', () => {
  assert.equal(cli(['packages', 'clear']).code, 0);
  // PEP 691 JSON, gzip-compressed
  const pep691 = JSON.stringify({ meta: { 'api-version': '1.1', '_last-serial': 9 }, projects: [
    { name: 'Frob', '_last-serial': 1 }, { name: 'zope.interface', '_last-serial': 2 }, { name: 'Zope_Interface', '_last-serial': 3 }] });
  let r = cli(['packages', 'import', '--ecosystem', 'pypi', file('simple.json.gz', gzipSync(pep691))]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual({ ...r.json, file: undefined }, { imported: true, ecosystem: 'pypi', file: undefined, format: 'pypi-simple-json', gzip: true, replaced: false, read: 3, distinct: 2, added: 2, total: 2 });
  // PEP 503 HTML: adds one new name
  const html = '<!DOCTYPE html><html><head><meta name="pypi:repository-version" content="1.1"></head><body>\n' +
    '<a href="/simple/frob/">frob</a>\n<a href="/simple/spam/">Spam</a>\n</body></html>\n';
  r = cli(['packages', 'import', '--ecosystem', 'pypi', file('simple.html', html)]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json.format, 'pypi-simple-html');
  assert.equal(r.json.added, 1);
  assert.equal(r.json.total, 3);
  // npm: names.json and _all_docs (the empty id and design documents are no packages)
  r = cli(['packages', 'import', '--ecosystem', 'npm', file('names.json', JSON.stringify(['mocha', '@babel/core', 'JSONStream']))]);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json.format, 'npm-names');
  const allDocs = '{"total_rows":4,"offset":0,"rows":[\n{"id":"","key":"","value":{"rev":"1-a"}},\n' +
    '{"id":"3scale","key":"3scale","value":{"rev":"3-b"}},\n{"id":"mocha","key":"mocha","value":{"rev":"2-c"}},\n' +
    '{"id":"_design/app","key":"_design/app","value":{"rev":"1-d"}}\n]}\n';
  r = cli(['packages', 'import', '--ecosystem', 'npm', '--format', 'npm-all-docs', file('all_docs.json', allDocs)]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual([r.json.read, r.json.added, r.json.total], [2, 1, 4]);
  let st = cli(['packages', 'status']);
  assert.equal(st.code, 0, st.err);
  assert.deepEqual(st.json.indexes.map((x) => [x.ecosystem, x.names, x.source, x.format]),
    [['npm', 4, 'all_docs.json', 'npm-all-docs'], ['pypi', 3, 'simple.html', 'pypi-simple-html']]);
  assert.match(st.json.indexes[0].imported_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // --replace: the file becomes the whole index
  r = cli(['packages', 'import', '--ecosystem', 'npm', '--replace', file('one.txt', 'left-pad\n')]);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual([r.json.replaced, r.json.added, r.json.total], [true, 1, 1]);
  st = cli(['packages', 'status']);
  assert.equal(st.json.indexes.find((x) => x.ecosystem === 'npm').names, 1);
});

test('bad files are refused with where and why, and change nothing; limits hold; usage errors exit 2', () => {
  assert.equal(cli(['packages', 'clear']).code, 0);
  assert.equal(cli(['packages', 'import', '--ecosystem', 'npm', file('base.txt', 'express\n')]).code, 0);
  const unchanged = () => assert.deepEqual(cli(['packages', 'status']).json.indexes.map((x) => [x.ecosystem, x.names]), [['npm', 1]]);
  const refused = (args, re) => {
    const r = cli(args);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, re);
    assert.equal(r.json.imported, false);
    unchanged();
    return r;
  };
  // a CSV given as lines: the line and column of the first entry that is no name
  let r = refused(['packages', 'import', '--ecosystem', 'npm', file('deps.csv', 'name,version\n')], /deps\.csv:1:1: 'name,version' is not an npm package name/);
  assert.deepEqual(r.json.rejected, { file: join(dir, 'deps.csv'), line: 1, column: 1, message: "'name,version' is not an npm package name" });
  // broken JSON, with where
  refused(['packages', 'import', '--ecosystem', 'npm', file('bad.json', '["a",\n "b" "c"]')], /bad\.json:2:6: expected ',' or '\]'/);
  // the wrong document for the format named
  refused(['packages', 'import', '--ecosystem', 'pypi', '--format', 'pypi-simple-json', file('x.json', '{"meta": {}}')], /no "projects" array/);
  // a PyPI name breaking PEP 508 in a simple page
  refused(['packages', 'import', '--ecosystem', 'pypi', file('p.html', '<a href="/simple/x/">-bad-</a>')], /'-bad-' is not a PyPI package name/);
  // limits: a name over BW_PKG_NAME_MAX (214 bytes), nesting over BW_PKG_JSON_DEPTH (32)
  refused(['packages', 'import', '--ecosystem', 'npm', file('long.txt', 'a'.repeat(215) + '\n')], /is not an npm package name/);
  refused(['packages', 'import', '--ecosystem', 'npm', file('deep.json', '['.repeat(40))], /nested deeper than 32 levels/);
  // empty, corrupt gzip, not a regular file
  refused(['packages', 'import', '--ecosystem', 'npm', file('empty.txt', '# nothing\n')], /no package names in the file/);
  refused(['packages', 'import', '--ecosystem', 'npm', file('cut.gz', gzipSync('express\n'.repeat(1000)).subarray(0, 40))], /cut\.gz: (truncated|corrupt) gzip data/);
  mkdirSync(join(dir, 'adir'), { recursive: true });
  refused(['packages', 'import', '--ecosystem', 'npm', join(dir, 'adir')], /a directory, not a regular file/);
  // usage errors
  for (const [args, re] of [
    [['packages', 'import', file('ok.txt', 'x\n')], /--ecosystem is missing/],
    [['packages', 'import', '--ecosystem', 'crates', file('ok2.txt', 'x\n')], /--ecosystem must be npm or pypi, not 'crates'/],
    [['packages', 'import', '--ecosystem', 'npm', '--format', 'csv', file('ok3.txt', 'x\n')], /--format must be auto, lines/],
    [['packages', 'import', '--ecosystem', 'npm'], /FILE is missing/],
    [['packages', 'clear', '--ecosystem', 'maven'], /--ecosystem must be npm or pypi/],
    [['packages', 'frobnicate'], /unknown subcommand 'frobnicate'/],
  ]) {
    const u = cli(args);
    assert.equal(u.code, 2, `${args.join(' ')}: ${u.err}`);
    assert.match(u.err, re);
  }
  unchanged();
});
