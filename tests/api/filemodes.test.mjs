// File modes: the SQLite database holds the JWT signing secret, so what bulwark creates is its
// owner's alone (data directory 0700, bulwark.db and its -wal and -shm files 0600) whatever the
// umask, and a data directory or database file that group or others may read or write stops the
// start (serve and the CLI alike) with the path and the chmod that fixes it, unless
// BULWARK_ALLOW_INSECURE_FILE_MODES=1 (then a warning). A world-readable TLS private key is warned
// about. PostgreSQL keeps nothing in the data directory.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKEND, BIN, Server } from './lib/server.mjs';

const sqlite = BACKEND === 'sqlite';
const sqliteOnly = !sqlite && 'SQLite only: PostgreSQL keeps nothing in the data directory';
const haveOpenssl = spawnSync('openssl', ['version']).status === 0;
const root = mkdtempSync(join(tmpdir(), 'bulwark-modes-'));
after(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
// A path under root for a data directory; made with `mode` unless mode is null.
function dataDir(mode) {
  const d = join(root, `d${n++}`);
  if (mode !== null) {
    mkdirSync(d);
    chmodSync(d, mode);
  }
  return d;
}

const mode = (p) => statSync(p).mode & 0o7777;
const octal = (m) => '0' + m.toString(8).padStart(3, '0');

// Every file 0600 and every directory 0700 below (and including) dir.
function assertPrivate(dir, what) {
  assert.equal(octal(mode(dir)), '0700', `${what}: ${dir}`);
  const names = readdirSync(dir);
  for (const name of names) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) assertPrivate(p, what);
    else assert.equal(octal(mode(p)), '0600', `${what}: ${p}`);
  }
  return names;
}

// Runs fn with the process umask set to mask (children inherit it when spawned).
async function withUmask(mask, fn) {
  const old = process.umask(mask);
  try { return await fn(); } finally { process.umask(old); }
}

function serveOnce(dir, env = {}) {
  return spawnSync(BIN, ['serve'], {
    env: { PATH: process.env.PATH, BULWARK_LISTEN: '127.0.0.1:0', BULWARK_DATA_DIR: dir, BULWARK_WORKERS: '0', ...env },
    timeout: 20000,
  });
}

function cli(dir, args, env = {}, input = '') {
  const e = { ...process.env, BULWARK_DATA_DIR: dir, ...env };
  if (sqlite) delete e.BULWARK_DATABASE_URL;
  return spawnSync(BIN, args, { env: e, input, timeout: 30000 });
}

test('a data directory group or others may read is refused at start, naming it and the fix', { skip: sqliteOnly }, () => {
  const d = dataDir(0o755);
  const r = serveOnce(d);
  assert.equal(r.status, 1);
  const err = r.stderr.toString();
  assert.ok(err.includes(`data directory ${d} is readable or writable by group or others (mode 0755)`), err);
  assert.ok(err.includes(`run chmod 700 ${d}`), err);
  assert.ok(err.includes('BULWARK_ALLOW_INSECURE_FILE_MODES=1'), err);
  assert.deepEqual(readdirSync(d), [], 'nothing was created in it');
  // group-writable only, or others-readable only: refused too; traversable only is not
  for (const m of [0o720, 0o704]) {
    chmodSync(d, m);
    assert.equal(serveOnce(d).status, 1, octal(m));
  }
});

test('a database file group or others may read is refused, naming the file', { skip: sqliteOnly }, () => {
  const d = dataDir(0o700);
  for (const f of ['bulwark.db', 'bulwark.db-wal']) {
    writeFileSync(join(d, f), '');
    chmodSync(join(d, f), 0o644);
    const r = serveOnce(d);
    assert.equal(r.status, 1, f);
    const err = r.stderr.toString();
    assert.ok(err.includes(`database file ${join(d, f)} is readable or writable by group or others (mode 0644)`), err);
    assert.ok(err.includes(`run chmod 600 ${join(d, f)}`), err);
    chmodSync(join(d, f), 0o600);
  }
});

test('BULWARK_ALLOW_INSECURE_FILE_MODES=1: the start goes on with a warning', async () => {
  const d = dataDir(0o755);
  const s = new Server({ dir: d, env: { BULWARK_ALLOW_INSECURE_FILE_MODES: '1', BULWARK_WORKERS: '0' } });
  await s.start();
  try {
    assert.equal((await s.req('GET', '/readyz')).status, 200);
    const warn = s.logLines().find((l) => l.level === 'warn' && /data directory .* is readable or writable/.test(l.msg));
    if (sqlite) {
      assert.ok(warn, 'a warning: ' + s.logs.map((l) => l.raw).join('\n'));
      assert.ok(warn.msg.includes(d) && warn.msg.includes('chmod 700') && warn.msg.includes('BULWARK_ALLOW_INSECURE_FILE_MODES'));
    } else {
      assert.equal(warn, undefined, 'PostgreSQL does not use the data directory');
    }
  } finally {
    assert.equal(await s.stop(), 0);
  }
});

// The database is elsewhere; the data directory holds only the key secrets are sealed with
// (secret.key, 0600 whatever the umask), and nothing at all when BULWARK_SECRET_KEY gives it.
test('PostgreSQL: the data directory holds only the seal key, 0600; nothing with BULWARK_SECRET_KEY', { skip: sqlite && 'PostgreSQL only' }, async () => {
  const d = dataDir(0o755);
  const s = new Server({ dir: d, env: { BULWARK_WORKERS: '0' } });
  await s.start();
  try {
    assert.equal((await s.req('GET', '/readyz')).status, 200);
    assert.deepEqual(readdirSync(d), ['secret.key']);
    assert.equal(mode(join(d, 'secret.key')), 0o600);
  } finally {
    assert.equal(await s.stop(), 0);
  }
  const e = dataDir(0o755);
  const t = new Server({ dir: e, env: { BULWARK_WORKERS: '0', BULWARK_SECRET_KEY: readFileSync(join(d, 'secret.key'), 'utf8').trim() } });
  await t.start();
  try {
    assert.equal((await t.req('GET', '/readyz')).status, 200);
    assert.deepEqual(readdirSync(e), []);
  } finally {
    assert.equal(await t.stop(), 0);
  }
});

for (const mask of [0o022, 0o000]) {
  test(`umask ${octal(mask)}: the data directory is 0700, the database and its -wal and -shm 0600`, { skip: sqliteOnly }, async () => {
    const d = dataDir(null); // bulwark creates it
    const s = new Server({ dir: d, env: { BULWARK_WORKERS: '0' } });
    await withUmask(mask, () => s.start());
    try {
      const u = await s.session('FREE', { key: true }); // writes: the -wal and -shm files exist now
      assert.ok(u.key);
      const names = assertPrivate(d, 'while serving');
      for (const f of ['bulwark.db', 'bulwark.db-wal', 'bulwark.db-shm']) assert.ok(names.includes(f), `${f} in ${names}`);
    } finally {
      assert.equal(await s.stop({ keepData: true }), 0);
    }
    assertPrivate(d, 'after the stop');
  });
}

test('bulwark user add: creates the database privately under umask 000, refuses an open directory', { skip: sqliteOnly }, async () => {
  const add = (d, env) => cli(d, ['user', 'add', `u${n++}@example.com`, '--tier', 'FREE', '--password-stdin'], env,
    'a-password-for-the-cli-test\n');
  const fresh = dataDir(null);
  const r = await withUmask(0o000, () => add(fresh));
  assert.equal(r.status, 0, r.stderr.toString());
  assert.ok(readdirSync(fresh).includes('bulwark.db'));
  assertPrivate(fresh, 'user add');

  const open = dataDir(0o775);
  const refused = add(open);
  assert.notEqual(refused.status, 0);
  assert.ok(refused.stderr.toString().includes(`data directory ${open} is readable or writable by group or others (mode 0775)`),
    refused.stderr.toString());
  assert.ok(refused.stderr.toString().includes(`chmod 700 ${open}`));
  assert.deepEqual(readdirSync(open), []);
  const allowed = add(open, { BULWARK_ALLOW_INSECURE_FILE_MODES: '1' });
  assert.equal(allowed.status, 0, allowed.stderr.toString());
  assert.match(allowed.stderr.toString(), /"level":"warn".*data directory .* is readable or writable/);
  // the files it created are private all the same
  for (const f of readdirSync(open)) assert.equal(octal(mode(join(open, f))), '0600', f);
});

test('a TLS private key every user may read is warned about; a private one is not', { skip: !haveOpenssl && 'openssl not installed' }, async () => {
  const d = mkdtempSync(join(root, 'tls-'));
  const key = join(d, 'key.pem'), cert = join(d, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=localhost'], { stdio: 'ignore' });
  for (const [m, warned] of [[0o644, true], [0o600, false], [0o640, false]]) {
    chmodSync(key, m);
    const s = new Server({ env: { BULWARK_TLS_CERT: cert, BULWARK_TLS_KEY: key, BULWARK_WORKERS: '0' } });
    await s.start();
    const w = s.logLines().find((l) => l.level === 'warn' && l.msg.startsWith('BULWARK_TLS_KEY:'));
    assert.equal(await s.stop(), 0);
    if (warned) {
      assert.ok(w, 'a warning for mode ' + octal(m));
      assert.equal(w.msg, `BULWARK_TLS_KEY: the private key ${key} is readable or writable by every user (mode 0644): run chmod 600 ${key}`);
    } else {
      assert.equal(w, undefined, 'no warning for mode ' + octal(m));
    }
  }
});
