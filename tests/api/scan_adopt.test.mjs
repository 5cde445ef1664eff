// `bulwark scan` adopted on an existing repository (issue 18), on real git repositories built in
// a temporary folder: baselines, --changed-since, ignore rules, .bulwark.yml, notebooks, .env and
// other file kinds, file lists through xargs, SARIF (2.1.0 schema), GitLab SAST (GitLab's schema)
// and JUnit output, the Action's scan step and the pre-commit hook's entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { BIN } from './lib/server.mjs';

const require = createRequire(new URL('../package.json', import.meta.url));
const Ajv4 = require('ajv-draft-04');
const Ajv7 = require('ajv').default;
const addFormats = require('ajv-formats');

// Lines the catalog reports (from its own positive examples, so the test follows the catalog)
const EXEC = 'exec(llm_response)';                                  // BW-AI-001, CRITICAL
// BW-AI-001 too, and BW-INJ-091 (a model's reply traced into eval): two findings on its line
const EVAL2 = 'eval(completion.choices[0].message.content)';
const OPENAI = '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';

function run(args, opts = {}) {
  const r = spawnSync(BIN, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const git = (cwd, ...args) => execFileSync('git', args, {
  cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't',
         GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
});
function write(dir, rel, text) {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}
function repo(files) {
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-adopt-'));
  git(dir, 'init', '-q', '-b', 'main');
  for (const [rel, text] of Object.entries(files)) write(dir, rel, text);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'first');
  return dir;
}
const json = (r) => { try { return JSON.parse(r.out); } catch { assert.fail(`not JSON: ${r.out}\n${r.err}`); } };
function sarifValidator() {
  const schema = JSON.parse(readFileSync(new URL('../schemas/sarif-schema-2.1.0.json', import.meta.url)));
  const ajv = new Ajv4({ allErrors: true, strict: false, validateSchema: false });
  addFormats(ajv);
  return ajv.compile(schema);
}
// GitLab's own JSON schema of the SAST report format (tests/schemas/SOURCES.md)
function gitlabValidator() {
  const schema = JSON.parse(readFileSync(new URL('../schemas/gitlab-sast-report-format-15.0.7.json', import.meta.url)));
  const ajv = new Ajv7({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

test('baseline round trip: only the new finding is reported; moved and reindented code is not new', () => {
  const dir = repo({ 'app.py': `import os\n\ndef run(llm_response):\n    ${EXEC}\n` });
  try {
    const first = run(['scan', '--format', 'json', '-o', join(dir, 'base.json'), '.'], { cwd: dir });
    assert.equal(first.code, 1, first.err);
    const base = JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8'));
    assert.equal(base.findings.length, 1);
    assert.match(base.findings[0].fingerprint, /^[0-9a-f]{16}:1$/);

    // accepted: the same tree with the baseline is clean
    let r = run(['scan', '--format', 'json', '--baseline', 'base.json', '.'], { cwd: dir });
    assert.equal(r.code, 0, r.err);
    assert.equal(json(r).findings.length, 0);

    // one vulnerability added: only it is reported (the identical line twice: occurrence 2 is new)
    write(dir, 'app.py', `import os\n\ndef run(llm_response):\n    ${EXEC}\n\ndef again(llm_response):\n    ${EXEC}\n`);
    r = run(['scan', '--format', 'json', '--baseline', 'base.json', '.'], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    let f = json(r).findings;
    assert.equal(f.length, 1, JSON.stringify(f));
    assert.equal(f[0].line, 7);
    assert.match(f[0].fingerprint, /:2$/);

    // code moved down, reindented and respaced: nothing new
    write(dir, 'app.py', `import os\nimport sys\n\n\nclass K:\n        def run(self, llm_response):\n            exec( llm_response )\n`);
    r = run(['scan', '--format', 'json', '--baseline', 'base.json', '.'], { cwd: dir });
    assert.equal(r.code, 0, r.out + r.err);

    // the same from a SARIF baseline, with baselineState: unchanged, new and absent, schema-valid
    write(dir, 'app.py', `def run(llm_response):\n    ${EXEC}\n`);
    const sb = run(['scan', '--format', 'sarif', '-o', 'base.sarif', '.'], { cwd: dir });
    assert.equal(sb.code, 1, sb.err);
    write(dir, 'app.py', `def run(llm_response):\n    ${EXEC}\n`);
    write(dir, 'other.py', `def g(completion):\n    ${EVAL2}\n`);
    write(dir, 'gone.py', '');
    r = run(['scan', '--format', 'sarif', '--baseline', 'base.sarif', '--baseline-state', '.'], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    const sarif = json(r);
    const validate = sarifValidator();
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 1));
    const states = sarif.runs[0].results.map(x => `${x.locations[0].physicalLocation.artifactLocation.uri}:${x.baselineState}`).sort();
    assert.deepEqual(states, ['app.py:unchanged', 'other.py:new', 'other.py:new']);
    // the fixed finding comes back as absent
    write(dir, 'app.py', 'def run(x):\n    return x\n');
    r = run(['scan', '--format', 'sarif', '--baseline', 'base.sarif', '--baseline-state', '.'], { cwd: dir });
    const absent = json(r).runs[0].results.filter(x => x.baselineState === 'absent');
    assert.equal(absent.length, 1);
    assert.equal(absent[0].locations[0].physicalLocation.artifactLocation.uri, 'app.py');
    assert.ok(validate(json(r)), JSON.stringify(validate.errors, null, 1));
    // each result carries its fingerprint where GitHub and --baseline read it
    for (const x of sarif.runs[0].results) assert.match(x.partialFingerprints['bulwark/v1'], /^[0-9a-f]{16}:\d+$/);

    // --baseline-state needs --baseline; a baseline that is neither report is an error
    assert.equal(run(['scan', '--baseline-state', '.'], { cwd: dir }).code, 2);
    write(dir, 'junk.json', '{"x":1}');
    r = run(['scan', '--baseline', 'junk.json', '.'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.err, /neither a bulwark JSON report/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a bulwark-ignore comment moves with its line, and silences only the line it stands on', () => {
  const dir = repo({ 'a.py': `def f(llm_response):\n    ${EXEC}  # bulwark-ignore\n` });
  try {
    assert.equal(run(['scan', '.'], { cwd: dir }).code, 0);
    write(dir, 'a.py', `import os\n\n\ndef f(llm_response):\n    ${EXEC}  # bulwark-ignore\n    ${EXEC}\n`);
    const r = run(['scan', '--format', 'json', '.'], { cwd: dir });
    assert.equal(r.code, 1);
    assert.deepEqual(json(r).findings.map(f => f.line), [6]);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('--changed-since: findings on lines changed since the merge base, untracked files included', () => {
  const dir = repo({ 'old.py': `def f(llm_response):\n    ${EXEC}\n`, 'lib.py': 'def g(x):\n    return x\n',
                     '.gitignore': 'scratch/\n' });
  try {
    git(dir, 'checkout', '-qb', 'feature');
    write(dir, 'lib.py', `def g(x):\n    return x\n\ndef h(completion):\n    ${EVAL2}\n`);
    git(dir, 'commit', '-qam', 'feature');
    git(dir, 'checkout', '-q', 'main');
    write(dir, 'main_only.py', `def m(llm_response):\n    ${EXEC}\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'main moves on');
    git(dir, 'checkout', '-q', 'feature');
    write(dir, 'new.py', `def n(llm_response):\n    ${EXEC}\n`);       // untracked, not ignored
    write(dir, 'scratch/tmp.py', `def s(llm_response):\n    ${EXEC}\n`); // untracked, ignored
    const r = run(['scan', '--format', 'json', '--changed-since', 'main', '.'], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    const got = json(r).findings.map(f => `${f.path}:${f.line}`).sort();
    assert.deepEqual(got, ['lib.py:5', 'lib.py:5', 'new.py:2']);
    // nothing changed in the tree under a folder: nothing reported there
    const clean = run(['scan', '--changed-since', 'main', dir + '/scratch']);
    assert.equal(clean.code, 0, clean.out + clean.err);
    // a revision that does not exist
    const bad = run(['scan', '--changed-since', 'no-such-branch', '.'], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /no-such-branch.*fetch-depth: 0/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('--changed-since in a shallow clone: exit 2 naming fetch-depth: 0', () => {
  const dir = repo({ 'a.py': 'x = 1\n' });
  const clone = mkdtempSync(join(tmpdir(), 'bulwark-shallow-'));
  try {
    for (let i = 0; i < 3; i++) { write(dir, 'a.py', `x = ${i + 2}\n`); git(dir, 'commit', '-qam', `c${i}`); }
    git(dir, 'checkout', '-qb', 'feature');
    write(dir, 'b.py', `def f(llm_response):\n    ${EXEC}\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'feature');
    git(clone, 'clone', '-q', '--depth', '1', '--branch', 'feature', 'file://' + dir, 'c');
    const c = join(clone, 'c');
    let r = run(['scan', '--changed-since', 'origin/main', '.'], { cwd: c });
    assert.equal(r.code, 2, r.out);
    assert.match(r.err, /shallow clone.*fetch-depth: 0/);
    // main fetched at depth 1: main's tip is the feature commit's parent, but the clone marks that
    // commit shallow (no parents). Whether libgit2 walks through the shallow mark differs between
    // runs, so both answers are accepted as long as each is right: no merge base, exit 2 with
    // the hint; or the true merge base (main's tip), and then only the feature's file is reported.
    git(c, 'fetch', '-q', '--depth', '1', 'origin', 'main:refs/remotes/origin/main');
    r = run(['scan', '--format', 'json', '--changed-since', 'origin/main', '.'], { cwd: c });
    if (r.code === 2) assert.match(r.err, /no merge base.*fetch-depth: 0/);
    else {
      assert.equal(r.code, 1, r.err);
      assert.deepEqual(json(r).findings.map(f => f.path), ['b.py']);
    }
    // with the history it works
    git(c, 'fetch', '-q', '--unshallow', 'origin');
    r = run(['scan', '--format', 'json', '--changed-since', 'origin/main', '.'], { cwd: c });
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(json(r).findings.map(f => f.path), ['b.py']);
  } finally { rmSync(dir, { recursive: true, force: true }); rmSync(clone, { recursive: true, force: true }); }
});

test('ignore rules: nested .gitignore with negation, .bulwarkignore, --exclude, --no-ignore-vcs', () => {
  const v = `def f(llm_response):\n    ${EXEC}\n`;
  const dir = repo({
    '.gitignore': 'build/\ndist/\n*.gen.py\n',
    // a nested file re-including what the root's excludes: git honours it (libgit2 1.5 does not,
    // libgit2#7284, which is why scan.c reads .gitignore files itself)
    'src/.gitignore': '!keep.gen.py\nlocal_*.py\n',
    'src/app.py': v, 'src/keep.gen.py': v, 'src/drop.gen.py': v, 'src/local_dev.py': v,
    'build/out.py': v, 'dist/pkg.py': v, 'legacy/old.py': v, 'tests/test_a.py': v,
    '.bulwarkignore': '# old code we do not own\nlegacy/\n',
  });
  try {
    const paths = (args) => json(run(['scan', '--format', 'json', ...args, '.'], { cwd: dir })).findings.map(f => f.path).sort();
    assert.deepEqual(paths([]), ['src/app.py', 'src/keep.gen.py', 'tests/test_a.py']);
    assert.deepEqual(paths(['--exclude', 'tests/', '--exclude=*.gen.py']), ['src/app.py']);
    assert.deepEqual(paths(['--exclude', 'tests/**', '--exclude', '!tests/test_a.py']).length, 3,
      'a file under an excluded folder cannot come back (as in git)');
    assert.deepEqual(paths(['--no-ignore-vcs']), ['build/out.py', 'dist/pkg.py', 'src/app.py', 'src/drop.gen.py',
      'src/keep.gen.py', 'src/local_dev.py', 'tests/test_a.py']);
    // .git/info/exclude applies below every .gitignore, from the root or a subfolder
    writeFileSync(join(dir, '.git', 'info', 'exclude'), 'tests/\n');
    assert.deepEqual(paths([]), ['src/app.py', 'src/keep.gen.py']);
    assert.deepEqual(json(run(['scan', '--format', 'json', 'src'], { cwd: dir })).findings.map(f => f.path).sort(),
      ['src/app.py', 'src/keep.gen.py']);
    // a file named on the command line is scanned even if .gitignore lists it; --exclude still applies
    assert.equal(run(['scan', 'build/out.py'], { cwd: dir }).code, 1);
    assert.equal(run(['scan', '--exclude', 'build/', 'build/out.py'], { cwd: dir }).code, 0);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('.bulwark.yml: options, rule selection and overrides; errors name the key and line', () => {
  const dir = repo({
    'app.py': `def f(llm_response):\n    ${EXEC}\n`,
    'tests/t.py': `KEY = "${OPENAI}"\n`,
    'sub/deep/x.py': `def g(completion):\n    ${EVAL2}\n`,
  });
  try {
    const cfg = (text) => writeFileSync(join(dir, '.bulwark.yml'), text);
    cfg('format: json\nfail-on: critical\noverrides:\n  - paths: ["tests/**"]\n    context: test\n    severity:\n      BW-SEC-026: low\n');
    let r = run(['scan', '.'], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    let f = json(r).findings;
    assert.equal(f.find(x => x.path === 'tests/t.py').severity, 'LOW');
    // found from a subfolder upwards; the command line wins over the file
    r = run(['scan', '--format', 'text', '.'], { cwd: join(dir, 'sub') });
    assert.match(r.out, /deep\/x\.py:2:/);
    cfg('rules:\n  disable: [BW-AI-001]\n');
    r = run(['scan', '--format', 'json', '.'], { cwd: dir });
    assert.deepEqual(json(r).findings.map(x => x.rule_id).sort(), ['BW-INJ-091', 'BW-SEC-026']);
    cfg('rules:\n  enable_only:\n    - BW-SEC-026\n');
    assert.deepEqual(json(run(['scan', '--format', 'json', '.'], { cwd: dir })).findings.map(x => x.rule_id), ['BW-SEC-026']);
    assert.equal(run(['scan', '--no-config', '--format', 'json', '.'], { cwd: dir }).code, 1);

    for (const [text, re] of [
      ['format: json\nfial-on: high\n', /\.bulwark\.yml:2: fial-on: unknown key/],
      ['fail-on: severe\n', /\.bulwark\.yml:1: fail-on: expected critical, high, medium, low or none, not 'severe'/],
      ['rules:\n  disable: BW-NOPE-1\n', /\.bulwark\.yml:2: rules: unknown rule id 'BW-NOPE-1'/],
      ['rules:\n  severity:\n    BW-AI-001: urgent\n', /\.bulwark\.yml:3: rules\.severity: BW-AI-001: expected critical/],
      ['rules:\n  disable:\n    - [1, 2]\n', /\.bulwark\.yml:3: rules\.disable: entry 1: expected a rule id/],
      ['overrides:\n  - context: test\n', /\.bulwark\.yml:2: overrides: an override needs paths/],
      ['context: staging\n', /\.bulwark\.yml:1: context: expected production, test/],
      ['format: [json\n', /\.bulwark\.yml:2: not valid YAML/],
      ['- a\n- b\n', /\.bulwark\.yml:1: \(top\): expected a mapping/],
    ]) {
      cfg(text);
      const e = run(['scan', '.'], { cwd: dir });
      assert.equal(e.code, 2, text);
      assert.match(e.err, re, text);
    }
    let e = run(['scan', '--config', 'none.yml', '.'], { cwd: dir });
    assert.equal(e.code, 2);
    assert.match(e.err, /^bulwark scan: none\.yml: /);

    // --config FILE: every error names FILE, not .bulwark.yml (which exists here and is valid)
    cfg('format: json\n');
    for (const [text, re] of [
      ['rules:\n  disable: [BW-NOPE-1]\n', /^bulwark scan: ci\/other\.yml:2: rules: unknown rule id 'BW-NOPE-1'/],
      ['fail-on: severe\n', /^bulwark scan: ci\/other\.yml:1: fail-on: expected critical/],
      ['baseline: missing.json\n', /^bulwark scan: ci\/other\.yml:1: baseline: \S*\/ci\/missing\.json: /],
      ['sarif-root: nowhere\n', /^bulwark scan: ci\/other\.yml:1: sarif-root: \S*\/ci\/nowhere: /],
    ]) {
      write(dir, 'ci/other.yml', text);
      e = run(['scan', '--config', 'ci/other.yml', '.'], { cwd: dir });
      assert.equal(e.code, 2, text);
      assert.match(e.err, re, text);
      assert.doesNotMatch(e.err, /\.bulwark\.yml/, text);
    }
    // baseline and sarif-root in the file are relative to the file's folder, as its other paths
    // are, whichever folder the scan runs from
    assert.equal(run(['scan', '--no-config', '--format', 'json', '-o', join(dir, 'ci/base.json'), '.'], { cwd: dir }).code, 1);
    write(dir, 'ci/other.yml', 'format: json\nbaseline: base.json\nsarif-root: ..\n');
    r = run(['scan', '--config', '../ci/other.yml', '..'], { cwd: join(dir, 'sub') });
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(json(r).findings, []);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('a notebook cell by cell, a key in .env, YAML, TOML, JSON, INI, .properties and shell files (by #! too), a Dockerfile; lockfiles and minified files counted', () => {
  const nb = {
    cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# exec(llm_response) in prose is fine\n'] },
      { cell_type: 'code', metadata: {}, execution_count: 1, outputs: [], source: ['import os\n', 'x = 1'] },
      { cell_type: 'code', metadata: {}, execution_count: 2, outputs: [],
        source: ['def f(llm_response):\n', `    ${EXEC}\n`] },
    ],
    metadata: { language_info: { name: 'python' } }, nbformat: 4, nbformat_minor: 5,
  };
  const nbText = JSON.stringify(nb, null, 1);
  const dir = repo({
    'analysis.ipynb': nbText,
    '.env': `OPENAI_API_KEY=${OPENAI}\n`,
    'deploy/values.yaml': `openai:\n  key: "${OPENAI}"\n`,
    'config.toml': `debug = true\n[openai]\napi_key = "${OPENAI}"\n`,
    'conf/settings.json': `{"openai": {"key": "${OPENAI}"}}\n`,
    'conf/app.ini': `[openai]\nkey=${OPENAI}\n`,
    'conf/app.properties': `openai.key=${OPENAI}\n`,
    'scripts/deploy.sh': `#!/bin/sh\nexport OPENAI_API_KEY=${OPENAI}\n`,
    'scripts/install': `#!/usr/bin/env bash\nset -e\ncurl -fsSL https://get.example.com/x | sudo bash\n`,
    'Dockerfile': 'FROM debian\nRUN curl -fsSL https://get.example.com/install.sh | sh\nRUN curl -o x https://e.com/x  # | sh in a comment\n',
    'package-lock.json': `{"k": "${OPENAI}"}`,
    'web/app.min.js': 'var a=1;'.repeat(4000) + `eval(userInput);`,
  });
  try {
    let r = run(['scan', '.'], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /analysis\.ipynb:cell 3 line 2: CRITICAL BW-AI-001/);
    assert.match(r.out, /\.env:1:\d+: CRITICAL BW-SEC-026/);
    assert.match(r.out, /deploy\/values\.yaml:2:\d+: CRITICAL BW-SEC-026/);
    for (const f of ['config\\.toml:3', 'conf/settings\\.json:1', 'conf/app\\.ini:2', 'conf/app\\.properties:1', 'scripts/deploy\\.sh:2'])
      assert.match(r.out, new RegExp(`^${f}:\\d+: CRITICAL BW-SEC-026`, 'm'), f);
    assert.match(r.out, /Dockerfile:2:1: MEDIUM BW-SH-001/);
    assert.match(r.out, /^scripts\/install:3:1: MEDIUM BW-SH-001/m); // no extension: its #! line names a shell
    assert.doesNotMatch(r.out, /Dockerfile:3/);
    assert.doesNotMatch(r.out, /package-lock|app\.min\.js/);
    assert.match(r.out, /\(2 skipped/);

    r = run(['scan', '--format', 'sarif', '.'], { cwd: dir });
    const sarif = json(r);
    const validate = sarifValidator();
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 1));
    const cell = sarif.runs[0].results.find(x => x.locations[0].physicalLocation.artifactLocation.uri === 'analysis.ipynb');
    // the region is the .ipynb line holding that source line, which GitHub can show
    const want = nbText.split('\n').findIndex(l => l.includes('exec(llm_response)') && !l.includes('#')) + 1;
    assert.equal(cell.locations[0].physicalLocation.region.startLine, want);
    assert.deepEqual(cell.properties, { cell: 3, cellLine: 2 });
    assert.match(cell.message.text, /cell 3 line 2/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('mixed file lists through xargs: deleted files and READMEs are skipped with a note', () => {
  const dir = repo({ 'a.py': 'x = 1\n', 'README.md': 'hello\n', 'gone.py': 'y = 2\n', 'b.js': 'let z = 3;\n' });
  try {
    write(dir, 'a.py', `def f(llm_response):\n    ${EXEC}\n`);
    write(dir, 'README.md', 'hello again\n');
    rmSync(join(dir, 'gone.py'));
    write(dir, 'b.js', 'let z = 4;\n');
    const r = spawnSync('sh', ['-c', `git diff --name-only | xargs "${BIN}" scan --format json`],
      { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 123, r.stderr); // xargs: the command exited 1 (a finding)
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(doc.findings.map(f => f.path), ['a.py']);
    assert.equal(doc.files_scanned, 2);
    assert.match(r.stderr, /gone\.py: skipped: no such file/);
    assert.match(r.stderr, /README\.md: skipped: not a language bulwark scans/);
    // without the finding, the same list exits 0
    write(dir, 'a.py', 'x = 5\n');
    const ok = spawnSync('sh', ['-c', `git diff --name-only | xargs "${BIN}" scan`], { cwd: dir, encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('SARIF paths relative to --sarif-root (default the work tree root), rules with helpUri and help.markdown, invocations', () => {
  const dir = repo({ 'pkg/app.py': `def f(llm_response):\n    ${EXEC}\n` });
  try {
    let r = run(['scan', '--format', 'sarif', 'app.py'], { cwd: join(dir, 'pkg') });
    let s = json(r);
    assert.ok(sarifValidator()(s));
    const run0 = s.runs[0];
    assert.equal(run0.results[0].locations[0].physicalLocation.artifactLocation.uri, 'pkg/app.py');
    assert.equal(run0.originalUriBaseIds['%SRCROOT%'].uri, `file://${execFileSync('realpath', [dir], { encoding: 'utf8' }).trim()}/`);
    assert.deepEqual(run0.invocations.map(i => [i.executionSuccessful, i.exitCode]), [[true, 1]]);
    const rule = run0.tool.driver.rules.find(x => x.id === 'BW-AI-001');
    assert.equal(rule.helpUri, 'https://github.com/bulwark-security/bulwark/blob/main/docs/rules/ai_llm.md#bw-ai-001');
    assert.match(rule.help.markdown, /\*\*Fix:\*\*/);
    r = run(['scan', '--format', 'sarif', '--sarif-root', 'pkg', '.'], { cwd: dir });
    assert.equal(json(r).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'app.py');
    assert.equal(run(['scan', '--sarif-root', 'nowhere', '.'], { cwd: dir }).code, 2);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

// GitLab's SAST report format 15.0.7: validated against GitLab's own JSON schema
// (tests/schemas/gitlab-sast-report-format-15.0.7.json), then as its documentation describes it
// (docs.gitlab.com, "Security report ingestion"/"SAST report format"):
// required version, vulnerabilities and scan; each vulnerability an id, identifiers (type, name,
// value, each non-empty), a location with file and lines; severities Info, Unknown, Low,
// Medium, High, Critical; scan with analyzer and scanner (id, name, version, vendor.name),
// type "sast", start_time and end_time as YYYY-MM-DDTHH:MM:SS, status success or failure.
test('--format gitlab-sast: field by field as GitLab SAST report format 15.x requires', () => {
  const dir = repo({ 'app.py': `def f(llm_response):\n    ${EXEC}\n`, '.env': `OPENAI_API_KEY=${OPENAI}\n` });
  try {
    const r = run(['scan', '--format', 'gitlab-sast', '.'], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    const doc = json(r);
    const valid = gitlabValidator();
    assert.ok(valid(doc), JSON.stringify(valid.errors, null, 1));
    assert.equal(doc.version, '15.0.7'); // the schema version validated against
    // the validator can fail: GitLab refuses a time zone suffix and an empty identifier name
    const bad = structuredClone(doc);
    bad.scan.start_time += 'Z';
    bad.vulnerabilities[0].identifiers[0].name = '';
    assert.equal(valid(bad), false);
    assert.deepEqual(valid.errors.map(e => e.instancePath).sort(), ['/scan/start_time', '/vulnerabilities/0/identifiers/0/name']);
    const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
    assert.equal(doc.scan.type, 'sast');
    assert.match(doc.scan.start_time, time);
    assert.match(doc.scan.end_time, time);
    assert.ok(['success', 'failure'].includes(doc.scan.status));
    for (const part of [doc.scan.analyzer, doc.scan.scanner]) {
      for (const k of ['id', 'name', 'version']) assert.ok(typeof part[k] === 'string' && part[k].length > 0, k);
      assert.ok(part.vendor.name.length > 0);
    }
    assert.equal(doc.vulnerabilities.length, 2);
    const ids = new Set();
    for (const v of doc.vulnerabilities) {
      assert.ok(typeof v.id === 'string' && v.id.length > 0 && !ids.has(v.id));
      ids.add(v.id);
      assert.ok(['Info', 'Unknown', 'Low', 'Medium', 'High', 'Critical'].includes(v.severity), v.severity);
      assert.ok(v.name.length > 0 && v.name.length <= 255);
      assert.ok(v.description.length > 0 && v.description.length <= 1048576);
      assert.ok(v.identifiers.length >= 1);
      for (const id of v.identifiers) {
        for (const k of ['type', 'name', 'value']) assert.ok(typeof id[k] === 'string' && id[k].length > 0, k);
        if (id.url) assert.match(id.url, /^https:\/\//);
      }
      const cwe = v.identifiers.find(i => i.type === 'cwe');
      assert.match(cwe.value, /^\d+$/);
      assert.equal(cwe.name, `CWE-${cwe.value}`);
      assert.ok(typeof v.location.file === 'string' && !v.location.file.startsWith('/'));
      assert.ok(Number.isInteger(v.location.start_line) && v.location.end_line >= v.location.start_line);
    }
    assert.deepEqual(doc.vulnerabilities.map(v => [v.location.file, v.severity]).sort(), [['.env', 'Critical'], ['app.py', 'Critical']]);
    // a clean tree is a valid report too, with no vulnerabilities and status success
    write(dir, 'app.py', 'x = 1\n');
    write(dir, '.env', 'DEBUG=1\n');
    const clean = run(['scan', '--format', 'gitlab-sast', '.'], { cwd: dir });
    assert.equal(clean.code, 0, clean.err);
    const cdoc = json(clean);
    assert.ok(valid(cdoc), JSON.stringify(valid.errors, null, 1));
    assert.deepEqual([cdoc.vulnerabilities, cdoc.scan.status], [[], 'success']);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

// The repository's own GitHub Action scan step and pre-commit hook, run as GitHub and pre-commit
// run them (GitHub's runner cannot be reached from here, so the step's script is run directly).
const ROOT = new URL('../..', import.meta.url).pathname;
test("the Action's scan step (scripts/action-scan.sh) and the pre-commit hook's entry", () => {
  const dir = repo({ 'app.py': `def f(llm_response):\n    ${EXEC}\n`, 'README.md': 'hello\n' });
  try {
    const out = join(dir, '.gh-output'), summary = join(dir, '.gh-summary');
    const env = { ...process.env, BULWARK: BIN, GITHUB_OUTPUT: out, GITHUB_STEP_SUMMARY: summary,
                  BW_FAIL_ON: 'high', BW_PATH: '.', BW_SARIF: 'bulwark.sarif', BW_ARGS: '--exclude README.md' };
    const step = (extra = {}) => spawnSync('bash', [join(ROOT, 'scripts/action-scan.sh')],
      { cwd: dir, env: { ...env, ...extra }, encoding: 'utf8' });
    let r = step();
    assert.equal(r.status, 0, r.stderr); // the scan ran, findings or not: the upload step must run
    assert.deepEqual(readFileSync(out, 'utf8').trim().split('\n'), ['exit-code=1', 'sarif-file=bulwark.sarif']);
    const sarif = JSON.parse(readFileSync(join(dir, 'bulwark.sarif'), 'utf8'));
    const validate = sarifValidator();
    assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 1));
    assert.deepEqual(sarif.runs[0].results.map(x => [x.ruleId, x.locations[0].physicalLocation.artifactLocation.uri]),
                     [['BW-AI-001', 'app.py']]);
    if (spawnSync('jq', ['--version']).status === 0)
      assert.match(readFileSync(summary, 'utf8'), /^### bulwark scan\n\n1 finding\(s\); exit 1$/m);
    // a usage or I/O error fails the step itself, and there is no SARIF to upload
    writeFileSync(out, '');
    r = step({ BW_CHANGED_SINCE: 'origin/main' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /origin\/main.*fetch-depth: 0/);
    assert.match(r.stderr, /::error::bulwark scan failed \(exit 2\)/);
    assert.equal(readFileSync(out, 'utf8'), 'exit-code=2\n');

    // pre-commit runs the hook's entry with the staged files' names appended
    const entry = readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8').match(/^\s*entry:\s*(.+)$/m)[1].trim().split(/\s+/);
    assert.equal(entry[0], 'bulwark');
    r = run([...entry.slice(1), 'README.md', 'app.py'], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^app\.py:2:\d+: CRITICAL BW-AI-001/m);
    assert.match(r.err, /README\.md: skipped: not a language bulwark scans/);
    write(dir, 'app.py', 'x = 1\n');
    r = run([...entry.slice(1), 'README.md', 'app.py'], { cwd: dir });
    assert.equal(r.code, 0, r.err);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('--format junit: one failing testcase per finding, escaped; one passing case when clean', () => {
  const dir = repo({ 'a&b.py': `def f(llm_response):\n    ${EXEC}  # <x> "q"\n` });
  try {
    let r = run(['scan', '--format', 'junit', '.'], { cwd: dir });
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="bulwark scan" tests="1" failures="1">/);
    assert.match(r.out, /<testcase classname="a&amp;b\.py" name="BW-AI-001 line 2" file="a&amp;b\.py" line="2">/);
    assert.match(r.out, /&lt;x&gt; &quot;q&quot;/);
    assert.doesNotMatch(r.out.replace(/&(amp|lt|gt|quot|apos);/g, ''), /&|<x>/);
    write(dir, 'a&b.py', 'x = 1\n');
    r = run(['scan', '--format', 'junit', '.'], { cwd: dir });
    assert.equal(r.code, 0);
    assert.match(r.out, /tests="1" failures="0"/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('--help lists every option with its accepted values; --context is validated', () => {
  const h = run(['scan', '--help']);
  assert.equal(h.code, 0);
  for (const o of ['--format', 'gitlab-sast', 'junit', '--fail-on', '--baseline', '--baseline-state', '--changed-since',
                   '--exclude', '--no-ignore-vcs', '--lang', '--config', '--no-config', '--context', 'production',
                   '--jobs', '--output', '--sarif-root', 'Exit status: 0']) assert.ok(h.out.includes(o), o);
  const r = run(['scan', '--context', 'whatever', '.']);
  assert.equal(r.code, 2);
  assert.match(r.err, /--context must be production, test, example or fixture, not 'whatever'/);
});
