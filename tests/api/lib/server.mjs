// Test harness: starts the real bulwark binary on a free port with its own database (a fresh
// SQLite directory, or a fresh PostgreSQL database in the cluster scripts/test.sh started) and
// gives the tests a small HTTP client. No mocks: every test talks to the binary over TCP.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import net from 'node:net';

export const BIN = resolve(process.env.BULWARK_BIN || new URL('../../../build/bulwark', import.meta.url).pathname);
export const BACKEND = process.env.BULWARK_TEST_BACKEND || 'sqlite';
export const ADMIN_PASSWORD = 'bootstrap-password-for-tests';

function pgUrl(db) {
  const host = process.env.BULWARK_TEST_PG_HOST || '127.0.0.1';
  const port = process.env.BULWARK_TEST_PG_PORT || '5432';
  return `postgres://postgres@${host}:${port}/${db}`;
}

// A fresh PostgreSQL database per server, so tests running in parallel never see each other.
function createPgDatabase() {
  const name = 'bw_' + randomBytes(6).toString('hex');
  execFileSync('psql', ['-q', '-h', process.env.BULWARK_TEST_PG_HOST || '127.0.0.1',
    '-p', process.env.BULWARK_TEST_PG_PORT || '5432', '-U', 'postgres', '-d', 'postgres',
    '-c', `CREATE DATABASE ${name}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  return name;
}

export class Server {
  constructor(opts = {}) {
    this.extraEnv = opts.env || {};
    this.dir = opts.dir || mkdtempSync(join(tmpdir(), 'bulwark-api-'));
    this.ownsDir = !opts.dir;
    this.adminKey = opts.adminKey ?? ('adm_test_' + randomBytes(12).toString('hex'));
    this.database = opts.database;
    this.logs = [];
    this.stderrBytes = []; // the raw bytes, for checks node's decoding would hide (UTF-8)
    this.exitCode = undefined;
  }

  env() {
    const env = {
      PATH: process.env.PATH,
      BULWARK_LISTEN: '127.0.0.1:0',
      BULWARK_DATA_DIR: this.dir,
      BULWARK_BOOTSTRAP_PASSWORD: ADMIN_PASSWORD,
      BULWARK_LOG_LEVEL: 'info',
      ASAN_OPTIONS: process.env.ASAN_OPTIONS || '',
      UBSAN_OPTIONS: process.env.UBSAN_OPTIONS || '',
      ...this.extraEnv,
    };
    if (this.adminKey) env.BULWARK_ADMIN_KEY = this.adminKey;
    if (BACKEND === 'postgres') {
      if (!this.database) this.database = createPgDatabase();
      env.BULWARK_DATABASE_URL = pgUrl(this.database);
    }
    for (const k of Object.keys(env)) if (env[k] === undefined || env[k] === null) delete env[k];
    return env;
  }

  async start() {
    // a Server may be started again after stop(): the state of the last process must not make
    // stop() think the new one has exited already (it would be left running, the test file hung)
    this.exitCode = undefined;
    this.exitSignal = undefined;
    this.stopping = false;
    this.port = undefined;
    const env = this.env();
    this.proc = spawn(BIN, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, sig) => {
      this.exitCode = code; this.exitSignal = sig; resolve(code);
      // a crash (or a sanitizer report) must be visible in the CI log
      if (!this.stopping && this.port) {
        console.error(`bulwark exited unexpectedly (code ${code}, signal ${sig}); its log:\n` +
          this.logs.map(l => l.raw).join('\n'));
      }
    }));
    let buf = '';
    const ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('server did not start:\n' + this.logs.map(l => l.raw).join('\n'))), 30000);
      this.proc.stderr.on('data', (chunk) => {
        this.stderrBytes.push(chunk);
        buf += chunk.toString();
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const raw = buf.slice(0, i); buf = buf.slice(i + 1);
          let obj = null;
          try { obj = JSON.parse(raw); } catch { /* sanitizer output and the like */ }
          this.logs.push({ raw, obj });
          if (obj && obj.msg === 'listening') {
            clearTimeout(timer);
            this.port = obj.port;
            resolve();
          }
        }
      });
      this.proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n` + this.logs.map(l => l.raw).join('\n'))); });
    });
    this.proc.stdout.on('data', () => {});
    await ready;
    this.base = `http://127.0.0.1:${this.port}`;
    return this;
  }

  // SIGTERM and wait; returns the exit code.
  async stop({ keepData = false } = {}) {
    this.stopping = true;
    if (this.proc && this.exitCode === undefined) {
      this.proc.kill('SIGTERM');
      const t = setTimeout(() => this.proc.kill('SIGKILL'), 40000);
      await this.exited;
      clearTimeout(t);
    }
    if (!keepData && this.ownsDir) rmSync(this.dir, { recursive: true, force: true });
    if (this.exitCode !== 0) console.error(`bulwark exited with ${this.exitCode}; its log:\n` + this.logs.map(l => l.raw).join('\n'));
    return this.exitCode;
  }

  // The CLI against the same database and settings.
  cli(args, input) {
    const out = execFileSync(BIN, args, { env: this.env(), input: input ?? '', stdio: ['pipe', 'pipe', 'pipe'] });
    return out.toString();
  }

  // A new account of the given tier (role optional); returns {email, password, id}.
  addUser(tier = 'FREE', role) {
    const email = `u${randomBytes(5).toString('hex')}@example.com`;
    const password = 'pw-' + randomBytes(9).toString('hex');
    const args = ['user', 'add', email, '--tier', tier, '--password-stdin'];
    if (role) args.push('--role', role);
    const out = JSON.parse(this.cli(args, password + '\n'));
    return { email, password, id: out.id, tier };
  }

  async login(email, password) {
    const r = await this.req('POST', '/api/auth/login', { body: { email, password } });
    if (r.status !== 200) throw new Error(`login failed ${r.status} ${r.text}`);
    return r.json.token;
  }

  // A user with a session token and (optionally) an API key.
  async session(tier = 'FREE', { key = false, role } = {}) {
    const u = this.addUser(tier, role);
    u.token = await this.login(u.email, u.password);
    if (key) {
      const r = await this.req('POST', '/api/developer/keys', { token: u.token, body: { label: 'test' } });
      if (r.status !== 201) throw new Error(`key creation failed ${r.status} ${r.text}`);
      u.key = r.json.key;
      u.keyId = r.json.id;
    }
    return u;
  }

  // fetch wrapper: body objects are sent as JSON; returns {status, headers, text, json}.
  async req(method, path, { body, token, key, headers = {}, raw } = {}) {
    const h = { ...headers };
    if (token) h.authorization = `Bearer ${token}`;
    if (key) h['x-api-key'] = key;
    let payload;
    if (raw !== undefined) payload = raw;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      if (!Object.keys(h).some(k => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json';
    }
    let res;
    try {
      res = await fetch(this.base + path, { method, headers: h, body: payload });
    } catch (e) {
      // A kept-alive connection the server closed after its idle timeout (BULWARK_CONN_TIMEOUT_S)
      // while this process was busy (a long synchronous check on a loaded machine) is only
      // noticed when reused: "other side closed". A GET or HEAD is sent again on a new
      // connection, as browsers and HTTP clients do; anything else, and any other failure (a
      // server that died refuses the new connection), still fails the test.
      const stale = e?.cause?.code === 'UND_ERR_SOCKET' && (method === 'GET' || method === 'HEAD');
      if (!stale) throw e;
      res = await fetch(this.base + path, { method, headers: h, body: payload });
    }
    const text = await res.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, headers: res.headers, text, json };
  }

  // The JSON log lines written so far.
  logLines() { return this.logs.filter(l => l.obj).map(l => l.obj); }
}

export async function startServer(opts) {
  return new Server(opts).start();
}

// One raw HTTP/1.1 exchange on a socket the caller controls, for what fetch hides.
export function rawSocket(port) {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

// Reads one full HTTP response (headers + Content-Length body) from socket s.
export function readResponse(s, timeoutMs = 10000) {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => { cleanup(); reject(new Error('timeout waiting for response: ' + buf.toString())); }, timeoutMs);
    const onData = (d) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.slice(0, end).toString();
      const m = /content-length:\s*(\d+)/i.exec(head);
      const len = m ? Number(m[1]) : 0;
      if (buf.length < end + 4 + len) return;
      cleanup();
      const lines = head.split('\r\n');
      const status = Number(lines[0].split(' ')[1]);
      const headers = {};
      for (const l of lines.slice(1)) {
        const c = l.indexOf(':');
        headers[l.slice(0, c).trim().toLowerCase()] = l.slice(c + 1).trim();
      }
      const body = buf.slice(end + 4, end + 4 + len).toString();
      s.unshift?.(buf.slice(end + 4 + len));
      resolve({ status, headers, body, json: (() => { try { return JSON.parse(body); } catch { return null; } })() });
    };
    const onClose = () => { cleanup(); reject(new Error('connection closed: ' + buf.toString())); };
    const cleanup = () => { clearTimeout(timer); s.off('data', onData); s.off('close', onClose); };
    s.on('data', onData);
    s.on('close', onClose);
  });
}

// Asserts the spec's error envelope and returns the error object.
export function assertError(assert, r, status, code) {
  assert.equal(r.status, status, `expected ${status} ${code}, got ${r.status}: ${r.text}`);
  assert.ok(r.json && r.json.error, 'error envelope: ' + r.text);
  assert.equal(r.json.error.code, code);
  assert.equal(typeof r.json.error.message, 'string');
  assert.ok(r.json.error.message.length > 0);
  assert.equal(r.json.error.request_id, r.headers.get ? r.headers.get('x-request-id') : r.headers['x-request-id']);
  return r.json.error;
}
