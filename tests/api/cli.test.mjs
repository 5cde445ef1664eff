// `bulwark scan` as CI uses it: walking, skipping, formats, exit codes, SARIF valid against the
// OASIS schema. And `bulwark rules test` on the embedded catalog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { BIN } from './lib/server.mjs';

const require = createRequire(new URL('../package.json', import.meta.url));
const Ajv4 = require('ajv-draft-04');
const addFormats = require('ajv-formats');

const RULES_DIR = new URL('../../data/rules/', import.meta.url).pathname;
const rules = readdirSync(RULES_DIR).filter(f => f.endsWith('.json'))
  .flatMap(f => JSON.parse(readFileSync(RULES_DIR + f, 'utf8')).rules);
const positive = (lang) => {
  for (const r of rules) {
    const ex = r.examples.positive.find(e => e.lang === lang);
    if (ex) return { id: r.id, code: ex.code, severity: r.severity };
  }
  return null;
};

function run(args, opts = {}) {
  const r = spawnSync(BIN, args, { encoding: 'utf8', maxBuffer: 256 << 20, ...opts });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function project() {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-scan-'));
  const py = positive('py'), js = positive('js'), go = positive('go');
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', 'lib'), { recursive: true });
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, 'src', 'app.py'), py.code + '\n');
  writeFileSync(join(dir, 'src', 'deep', 'web.js'), js.code + '\n');
  writeFileSync(join(dir, 'src', 'main.go'), go.code + '\n');
  writeFileSync(join(dir, 'src', 'clean.py'), 'def f(a):\n    return a * 2\n');
  writeFileSync(join(dir, 'node_modules', 'lib', 'x.js'), js.code + '\n');  // vendored: skipped
  writeFileSync(join(dir, '.git', 'hook.py'), py.code + '\n');              // VCS: skipped
  writeFileSync(join(dir, 'src', 'blob.py'), Buffer.concat([Buffer.from(py.code), Buffer.from([0, 1, 2, 0])])); // binary
  writeFileSync(join(dir, 'README.md'), py.code);                            // not a source file
  return { dir, py, js, go };
}

test('json format: findings with paths, nothing from vendored, VCS or binary files', () => {
  const p = project();
  try {
    const r = run(['scan', '--format', 'json', p.dir]);
    assert.equal(r.code, 1, r.err);
    const doc = JSON.parse(r.out);
    assert.equal(doc.files_scanned, 4);
    const paths = new Set(doc.findings.map(f => f.path.slice(p.dir.length + 1)));
    assert.ok(paths.has('src/app.py') && paths.has('src/deep/web.js') && paths.has('src/main.go'), [...paths].join());
    assert.ok(![...paths].some(x => x.includes('node_modules') || x.includes('.git') || x.includes('blob')));
    assert.ok(doc.findings.some(f => f.rule_id === p.py.id));
    const counts = doc.summary.critical + doc.summary.high + doc.summary.medium + doc.summary.low;
    assert.equal(counts, doc.findings.length);
  } finally { rmSync(p.dir, { recursive: true, force: true }); }
});

test('exit codes: 0 clean, 1 at or above --fail-on, 2 on usage errors', () => {
  const p = project();
  try {
    assert.equal(run(['scan', join(p.dir, 'src', 'clean.py')]).code, 0);
    assert.equal(run(['scan', p.dir]).code, 1);
    assert.equal(run(['scan', '--fail-on', 'none', p.dir]).code, 0);
    // only findings at or above the threshold fail the run
    const doc = JSON.parse(run(['scan', '--format', 'json', p.dir]).out);
    const worst = ['critical', 'high', 'medium', 'low'].find(s => doc.summary[s] > 0);
    assert.equal(run(['scan', '--fail-on', worst, p.dir]).code, 1);
    if (worst !== 'critical') {
      const above = ['critical', 'high', 'medium', 'low'][['critical', 'high', 'medium', 'low'].indexOf(worst) - 1];
      assert.equal(run(['scan', '--fail-on', above, p.dir]).code, 0);
    }
    assert.equal(run(['scan']).code, 2);
    assert.equal(run(['scan', '--format', 'xml', p.dir]).code, 2);
    assert.equal(run(['scan', '--fail-on', 'severe', p.dir]).code, 2);
    assert.equal(run(['scan', '--lang', 'cobol', p.dir]).code, 2);
    assert.equal(run(['scan', '--bogus', p.dir]).code, 2);
    // `git diff --name-only | xargs bulwark scan` names deleted files and READMEs: a note, no failure
    const gone = run(['scan', join(p.dir, 'missing')]);
    assert.equal(gone.code, 0, gone.err);
    assert.match(gone.err, /missing: skipped: no such file/);
    const readme = run(['scan', join(p.dir, 'README.md')]);
    assert.equal(readme.code, 0, 'unknown language without --lang: skipped with a note');
    assert.match(readme.err, /README\.md: skipped: not a language bulwark scans/);
    assert.equal(run(['scan', '--lang', 'py', join(p.dir, 'README.md')]).code, 1, 'with --lang it is scanned');
  } finally { rmSync(p.dir, { recursive: true, force: true }); }
});

test('--lang restricts a directory walk to one language', () => {
  const p = project();
  try {
    const doc = JSON.parse(run(['scan', '--format', 'json', '--lang', 'go', p.dir]).out);
    assert.equal(doc.files_scanned, 1);
    assert.ok(doc.findings.every(f => f.path.endsWith('.go')));
  } finally { rmSync(p.dir, { recursive: true, force: true }); }
});

test('text output is deterministic and names path:line:col, severity and rule', () => {
  const p = project();
  try {
    const a = run(['scan', '--jobs', '4', p.dir]).out;
    const b = run(['scan', '--jobs', '1', p.dir]).out;
    assert.equal(a, b);
    assert.match(a, /src\/app\.py:\d+:\d+: (CRITICAL|HIGH|MEDIUM|LOW) BW-[A-Z]+-\d{3} /);
    assert.match(a, /\d+ files scanned/);
  } finally { rmSync(p.dir, { recursive: true, force: true }); }
});

test('SARIF 2.1.0 output validates against the OASIS schema and carries what GitHub needs', () => {
  const p = project();
  try {
    const r = run(['scan', '--format', 'sarif', p.dir], { cwd: p.dir });
    assert.equal(r.code, 1, r.err);
    const sarif = JSON.parse(r.out);
    const schema = JSON.parse(readFileSync(new URL('../schemas/sarif-schema-2.1.0.json', import.meta.url)));
    const ajv = new Ajv4({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 1));
    assert.equal(sarif.version, '2.1.0');
    const run0 = sarif.runs[0];
    assert.equal(run0.tool.driver.name, 'bulwark');
    // the catalog's rules and BW-SH-001 (piped downloads in shell and Dockerfiles, checked in the CLI)
    assert.equal(run0.tool.driver.rules.length, rules.length + 1);
    for (const rule of run0.tool.driver.rules) {
      assert.match(rule.properties['security-severity'], /^\d+\.\d$/);
      assert.ok(rule.properties.tags.some(t => /^external\/cwe\/cwe-\d+$/.test(t)));
    }
    assert.ok(run0.results.length >= 3);
    for (const res of run0.results) {
      assert.equal(run0.tool.driver.rules[res.ruleIndex].id, res.ruleId);
      assert.match(res.partialFingerprints.primaryLocationLineHash, /^[0-9a-f]{16}:\d+$/);
      const loc = res.locations[0].physicalLocation;
      assert.ok(loc.region.startLine >= 1);
      assert.ok(!loc.artifactLocation.uri.startsWith('/'));
    }
    // fingerprints are stable across runs
    const again = JSON.parse(run(['scan', '--format', 'sarif', p.dir], { cwd: p.dir }).out);
    assert.deepEqual(again.runs[0].results.map(x => x.partialFingerprints), run0.results.map(x => x.partialFingerprints));
  } finally { rmSync(p.dir, { recursive: true, force: true }); }
});

function sarifValidator() {
  const schema = JSON.parse(readFileSync(new URL('../schemas/sarif-schema-2.1.0.json', import.meta.url)));
  const ajv = new Ajv4({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

test('a taint finding: SARIF codeFlows from the source to the sink (valid SARIF), trace in JSON', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-flow-'));
  try {
    writeFileSync(join(dir, 'proxy.js'),
      "app.get('/p', async (req, res) => {\n  const { target } = req.query;\n  const endpoint = `${target}/status`;\n" +
      "  const r = await fetch(endpoint);\n  res.send(await r.text());\n});\n");
    const r = run(['scan', '--format', 'sarif', dir], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    const sarif = JSON.parse(r.out);
    const validate = sarifValidator();
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 1));
    const res = sarif.runs[0].results.find(x => x.ruleId === 'BW-SSRF-025');
    assert.ok(res, JSON.stringify(sarif.runs[0].results.map(x => x.ruleId)));
    const locs = res.codeFlows[0].threadFlows[0].locations;
    assert.deepEqual(locs.map(l => [l.kinds[0], l.location.physicalLocation.region.startLine]),
      [['source', 2], ['step', 2], ['step', 3], ['sink', 4]]);
    assert.equal(locs[0].location.physicalLocation.artifactLocation.uri, 'proxy.js');
    assert.equal(res.locations[0].physicalLocation.region.startLine, 4);
    const json = JSON.parse(run(['scan', '--format', 'json', dir], { cwd: dir }).out);
    const f = json.findings.find(x => x.rule_id === 'BW-SSRF-025');
    assert.deepEqual(f.trace.map(s => s.kind), ['source', 'step', 'step', 'sink']);
    // the taint rule needed a syntax tree; a file no syntax or taint rule's prefilter hits is not parsed
    assert.equal(json.files_parsed, 1);
    writeFileSync(join(dir, 'plain.js'), 'const a = 1;\n');
    const both = run(['scan', '--format', 'json', dir], { cwd: dir });
    assert.deepEqual([JSON.parse(both.out).files_scanned, JSON.parse(both.out).files_parsed], [2, 1]);
    assert.match(run(['scan', dir], { cwd: dir }).out, /^2 files scanned, .* \(1 parsed for syntax and taint rules\)$/m);
    // findings of line rules carry no flow
    for (const x of sarif.runs[0].results.filter(y => y.ruleId !== 'BW-SSRF-025')) assert.equal(x.codeFlows, undefined);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('SARIF for a path outside the working directory: an absolute file URI, every finding listed', () => {
  const p = project();
  const elsewhere = mkdtempSync(join(tmpdir(), 'bulwark-cwd-'));
  try {
    const r = run(['scan', '--format', 'sarif', join(p.dir, 'src')], { cwd: elsewhere });
    assert.equal(r.code, 1, r.err);
    const sarif = JSON.parse(r.out);
    const validate = sarifValidator();
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 1));
    const json = JSON.parse(run(['scan', '--format', 'json', join(p.dir, 'src')], { cwd: elsewhere }).out);
    const results = sarif.runs[0].results;
    assert.equal(results.length, json.findings.length);
    assert.ok(results.length >= 3);
    for (const res of results) {
      const loc = res.locations[0].physicalLocation.artifactLocation;
      assert.ok(loc.uri.startsWith('file://' + p.dir + '/src/'), loc.uri);
      assert.equal(loc.uriBaseId, undefined);
    }
  } finally {
    rmSync(p.dir, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test('Latin-1 file names and lines: every finding in JSON and SARIF, bad bytes as U+FFFD', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-scan-'));
  try {
    const line = Buffer.concat([Buffer.from('exec(llm_response)  # r'), Buffer.from([0xe9]), Buffer.from('ponse\n')]);
    writeFileSync(Buffer.from(join(dir, 'caf') + '\xe9.py', 'latin1'), line);
    writeFileSync(join(dir, 'ok.py'), 'exec(llm_response)\n');
    const text = run(['scan', dir]);
    assert.equal(text.code, 1);
    assert.match(text.out, /2 files scanned, 2 critical/);
    const json = run(['scan', '--format', 'json', dir]);
    assert.equal(json.code, 1, json.err);
    const doc = JSON.parse(json.out);
    assert.equal(doc.findings.length, 2);
    const latin = doc.findings.find(f => !f.path.endsWith('ok.py'));
    assert.equal(latin.path, join(dir, 'caf\ufffd.py'));
    assert.equal(latin.snippet, 'exec(llm_response)  # r\ufffdponse');
    const sarif = run(['scan', '--format', 'sarif', dir], { cwd: dir });
    assert.equal(sarif.code, 1, sarif.err);
    const s = JSON.parse(sarif.out);
    assert.equal(s.runs[0].results.length, 2);
    assert.ok(s.runs[0].results.some(r => r.locations[0].physicalLocation.region.snippet.text.includes('\ufffd')));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('SARIF URIs are percent-encoded (RFC 3986): spaces, #, %, non-ASCII bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-scan-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'bulwark-cwd-'));
  try {
    mkdirSync(join(dir, 'dir with space'));
    writeFileSync(join(dir, 'dir with space', 'a#b%.py'), 'exec(llm_response)\n');
    writeFileSync(Buffer.from(join(dir, 'caf') + '\xe9.py', 'latin1'), 'exec(llm_response)\n');
    writeFileSync(join(dir, 'na\u00efve?.py'), 'exec(llm_response)\n');
    const validate = sarifValidator();
    const uris = (cwd) => {
      const r = run(['scan', '--format', 'sarif', dir], { cwd });
      assert.equal(r.code, 1, r.err);
      const s = JSON.parse(r.out);
      assert.ok(validate(s), JSON.stringify(validate.errors, null, 1));
      return s.runs[0].results.map(x => x.locations[0].physicalLocation.artifactLocation.uri).sort();
    };
    assert.deepEqual(uris(dir), ['caf%E9.py', 'dir%20with%20space/a%23b%25.py', 'na%C3%AFve%3F.py']);
    const abs = uris(elsewhere);
    assert.equal(abs.length, 3);
    for (const u of abs) assert.ok(u.startsWith('file:///') && !/[ #?\u0080-\uffff]/.test(u), u);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

// intel commands against a throwaway SQLite database
function intelEnv(dir) {
  const env = { ...process.env, BULWARK_DATA_DIR: dir };
  delete env.BULWARK_DATABASE_URL;
  return env;
}

test('a FIFO, socket or device is refused before it is opened (no hang); a named binary file gets a note', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-scan-'));
  try {
    execFileSync('mkfifo', [join(dir, 'fifo.py'), join(dir, 'kev.json')]);
    const opts = { timeout: 10000 };
    let r = run(['scan', join(dir, 'fifo.py')], opts);
    assert.equal(r.code, 2, 'a FIFO named on the command line');
    assert.match(r.err, /fifo\.py: a FIFO, not a regular file or directory/);
    r = run(['scan', '/dev/null'], opts);
    assert.equal(r.code, 2);
    assert.match(r.err, /character device/);
    writeFileSync(join(dir, 'ok.py'), 'x = 1\n');
    r = run(['scan', dir], opts); // in a walk a FIFO is not a source file: passed over
    assert.equal(r.code, 0, r.err);
    r = run(['intel', 'import', '--format', 'kev', join(dir, 'kev.json')], { ...opts, env: intelEnv(dir) });
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /kev\.json: a FIFO, not a regular file/);
    r = run(['rules', 'test', join(dir, 'kev.json')], opts);
    assert.equal(r.code, 2);
    assert.match(r.err, /a FIFO, not a regular file/);
    writeFileSync(join(dir, 'blob.py'), Buffer.from([0x65, 0x78, 0, 1, 2]));
    r = run(['scan', join(dir, 'blob.py')], opts);
    assert.equal(r.code, 0);
    assert.match(r.err, /note: .*blob\.py: not scanned: a binary file/);
    assert.match(r.out, /^0 files scanned/m);
    r = run(['scan', dir], opts); // found in a walk: skipped quietly
    assert.equal(r.err, '');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('rules test DIR: says it is a directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-rules-'));
  try {
    const r = run(['rules', 'test', dir]);
    assert.equal(r.code, 2);
    assert.match(r.err, /a directory, not a regular file/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('intel import: a minified 20,000-entry KEV file imports (linear), and errors in it name the right column', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-intel-'));
  try {
    const vulns = Array.from({ length: 20000 }, (_, i) => ({
      cveID: `CVE-2020-${String(i).padStart(5, '0')}`, vendorProject: i % 10 === 0 ? 'Langflow' : `Vendör ${i}`,
      product: `Prödüct ${i}`, vulnerabilityName: `Remote code execution ${i}`, dateAdded: '2024-01-02',
      shortDescription: `A remote attacker can run code (${i}).`, requiredAction: 'Apply updates.', dueDate: '2024-02-02',
      knownRansomwareCampaignUse: 'Unknown', notes: `https://example.com/${i}`, cwes: ['CWE-94'],
    }));
    const text = JSON.stringify({ title: 'KEV', catalogVersion: '1', count: vulns.length, vulnerabilities: vulns });
    writeFileSync(join(dir, 'kev.json'), text);
    const opts = { env: intelEnv(dir), timeout: 120000 };
    let r = run(['intel', 'import', '--format', 'kev', join(dir, 'kev.json')], opts);
    assert.equal(r.code, 0, r.err);
    const rep = JSON.parse(r.out);
    assert.deepEqual([rep.records, rep.added, rep.skipped], [20000, 2000, 18000]);

    // a bad value near the end: line 1, the column of its opening quote (in characters)
    const bad = text.replace('"CVE-2020-19990"', '"CVE-BAD"');
    writeFileSync(join(dir, 'bad.json'), bad);
    r = run(['intel', 'import', '--format', 'kev', join(dir, 'bad.json')], opts);
    assert.equal(r.code, 1, r.err);
    let rej = JSON.parse(r.out).rejected[0];
    assert.deepEqual([rej.line, rej.column], [1, bad.indexOf('"CVE-BAD"') + 1]);
    assert.match(rej.message, /vulnerabilities\[19990\]: 'cveID' is not a CVE id/);
    // a syntax error: jansson's position
    const broken = text.replace('"CVE-2020-19990"', '"CVE-2020-19990" x');
    writeFileSync(join(dir, 'broken.json'), broken);
    r = run(['intel', 'import', '--format', 'kev', join(dir, 'broken.json')], opts);
    assert.equal(r.code, 1, r.err);
    rej = JSON.parse(r.out).rejected[0];
    assert.deepEqual([rej.line, rej.column], [1, broken.indexOf(' x') + 2]);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('every subcommand takes --help (stdout, exit 0, no side effects); usage errors name the word at fault', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-cli-'));
  try {
    const opts = { env: intelEnv(dir), timeout: 30000 };
    for (const cmd of [['scan'], ['rules'], ['rules', 'test'], ['migrate'], ['serve'], ['worker'], ['user'],
      ['user', 'add'], ['user', 'list'], ['user', 'set-tier'], ['intel'], ['intel', 'import'], ['intel', 'seed-build'],
      ['packages'], ['packages', 'import'], ['packages', 'status'], ['packages', 'clear']]) {
      for (const h of ['--help', '-h']) {
        const r = run([...cmd, h], opts);
        assert.equal(r.code, 0, `${cmd.join(' ')} ${h}: ${r.err}`);
        assert.match(r.out, /^usage: bulwark /, cmd.join(' '));
        assert.equal(r.err, '', cmd.join(' '));
      }
    }
    assert.equal(readdirSync(dir).length, 0, 'no database was created or migrated');
    for (const [args, re] of [
      [['migrate', '--bogus'], /unknown option --bogus/], [['migrate', 'extra'], /unexpected argument 'extra'/],
      [['serve', '--bogus-flag', '1'], /unknown option --bogus-flag/], [['worker', 'x'], /unexpected argument 'x'/],
      [['scan', '--bogus', '.'], /unknown option --bogus/], [['scan', '--format'], /--format needs a value/],
      [['scan', '--format=xml', '.'], /--format must be text, json, sarif, gitlab-sast or junit, not 'xml'/],
      [['user', 'set-tier', 'a@example.com'], /TIER is missing/], [['user', 'frob'], /unknown subcommand 'frob'/],
      [['user', 'add', 'a@example.com', '--tier', 'PRO'], /a password .* is missing/],
      [['user', 'list', 'x'], /unexpected argument 'x'/], [['intel', 'import', '--bogus'], /unknown option --bogus/],
      [['intel', 'import', 'x.json'], /--format is missing/], [['intel', 'seed-build', '--kev', 'k'], /--osv is missing/],
      [['rules', 'frob'], /unknown subcommand 'frob'/],
      [['packages', 'import', 'x.txt'], /--ecosystem is missing/], [['packages', 'status', 'x'], /unexpected argument 'x'/],
      [['packages', 'import', '--ecosystem', 'npm', '--format', 'xml', 'x.txt'], /--format must be auto, lines/],
      [['packages', 'clear', '--ecosystem', 'go'], /--ecosystem must be npm or pypi, not 'go'/], [['packages'], /expected import, status or clear/],
    ]) {
      const r = run(args, opts);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, re, args.join(' '));
    }
    assert.equal(readdirSync(dir).length, 0, 'usage errors touch no database');
    const m = run(['migrate'], opts);
    assert.equal(m.code, 0, m.err);
    assert.ok(existsSync(join(dir, 'bulwark.db')));
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('--option=VALUE works wherever --option VALUE does', () => {
  const p = project();
  try {
    const a = run(['scan', '--format', 'json', '--fail-on', 'high', '--lang', 'py', '--jobs', '2', p.dir]);
    const b = run(['scan', '--format=json', '--fail-on=high', '--lang=py', '--jobs=2', p.dir]);
    assert.equal(b.code, a.code, b.err);
    assert.equal(b.out, a.out);
    const out = join(p.dir, 'r.sarif');
    assert.equal(run(['scan', '--format=sarif', `--output=${out}`, join(p.dir, 'src', 'clean.py')]).code, 0);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).version, '2.1.0');
    const env = intelEnv(p.dir);
    const u = run(['user', 'add', 'eq@example.com', '--tier=PRO', '--role=admin', '--password=correct-horse-1'], { env });
    assert.equal(u.code, 0, u.err);
    assert.deepEqual([JSON.parse(u.out).tier, JSON.parse(u.out).role], ['PRO', 'admin']);
  } finally { rmSync(p.dir, { recursive: true, force: true }); }
});

test('intel import report adds up: records = added + updated + unchanged + skipped + merged', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-intel-'));
  try {
    const osv = join(dir, 'osv');
    mkdirSync(osv);
    const fixtures = new URL('../fixtures/intel/osv/', import.meta.url).pathname;
    const files = readdirSync(fixtures).filter(f => f.endsWith('.yaml')).slice(0, 3);
    for (const f of files) writeFileSync(join(osv, f), readFileSync(join(fixtures, f)));
    writeFileSync(join(osv, 'copy-' + files[0]), readFileSync(join(fixtures, files[0]))); // the same advisory twice
    const r = run(['intel', 'import', '--format', 'osv', osv], { env: intelEnv(join(dir)) });
    assert.equal(r.code, 0, r.err);
    const rep = JSON.parse(r.out);
    assert.equal(rep.records, 4);
    assert.equal(rep.merged, 1);
    assert.equal(rep.added + rep.updated + rep.unchanged + rep.skipped + rep.merged, rep.records);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a file named twice (or walked and named) is scanned once; "1 file scanned"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-scan-'));
  try {
    mkdirSync(join(dir, 'c1'));
    writeFileSync(join(dir, 'c1', 'a.py'), 'exec(llm_response)\n');
    const args = ['c1', 'c1/a.py', './c1', join(dir, 'c1', 'a.py')];
    const text = run(['scan', ...args], { cwd: dir });
    assert.equal(text.code, 1, text.err);
    assert.match(text.out, /^1 file scanned, 1 critical,/m);
    const sarif = JSON.parse(run(['scan', '--format', 'sarif', ...args], { cwd: dir }).out);
    assert.equal(sarif.runs[0].results.length, 1);
    const json = JSON.parse(run(['scan', '--format', 'json', ...args], { cwd: dir }).out);
    assert.deepEqual([json.files_scanned, json.findings.length], [1, 1]);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('--output writes the report to a file', () => {
  const p = project();
  try {
    const out = join(p.dir, 'report.json');
    const r = run(['scan', '--format', 'json', '--output', out, join(p.dir, 'src')]);
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.ok(JSON.parse(readFileSync(out, 'utf8')).findings.length > 0);
  } finally { rmSync(p.dir, { recursive: true, force: true }); }
});

test('more than 1000 findings in a file: reported as truncated, and one past the cap still fails the run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-scan-'));
  try {
    writeFileSync(join(dir, 'many.py'), 'h = hashlib.md5(x)\n'.repeat(1100) + 'exec(llm_response)\n');
    writeFileSync(join(dir, 'few.py'), 'h = hashlib.md5(x)\n'.repeat(250) + 'exec(llm_response)\n');
    const r = run(['scan', '--format', 'json', '--fail-on', 'critical', dir]);
    assert.equal(r.code, 1, r.err);
    const doc = JSON.parse(r.out);
    assert.equal(doc.truncated, true);
    assert.deepEqual(doc.truncated_files, [join(dir, 'many.py')]);
    assert.equal(doc.findings.filter(f => f.path.endsWith('many.py')).length, 1000);
    assert.equal(doc.findings.filter(f => f.path.endsWith('few.py')).length, 251);
    assert.match(r.err, /many\.py: more than 1000 findings/);
    const few = run(['scan', '--format', 'json', join(dir, 'few.py')]);
    assert.equal(JSON.parse(few.out).truncated, false);
    assert.deepEqual(JSON.parse(few.out).truncated_files, []);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('rules test: every rule of the embedded catalog passes its own examples', () => {
  const r = run(['rules', 'test']);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, new RegExp(`^${rules.length} rules, \\d+ examples, 0 failing$`, 'm'));
});
