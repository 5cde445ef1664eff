// nginx in front of one or more bulwark instances, configured from docs/deploy/nginx.conf itself:
// only ports, certificate paths and the upstream servers are substituted (and the IPv6 listeners
// dropped), so the tests exercise the file operators install. Used by nginx.test.mjs (one
// instance) and multiinstance.test.mjs (two instances on one PostgreSQL).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import https from 'node:https';
import net from 'node:net';

export const DOC = new URL('../../../docs/deploy/nginx.conf', import.meta.url).pathname;
export const NGINX = ['nginx', '/usr/sbin/nginx', '/usr/local/sbin/nginx']
  .find((p) => spawnSync(p, ['-v']).status === 0);
export const NO_NGINX = NGINX ? false : 'nginx not found (Debian package nginx; scripts/deps.sh test installs it)';

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

// The settings the doc's header lists for bulwark ("#   BULWARK_X=value").
export function docSettings(text = readFileSync(DOC, 'utf8')) {
  const env = {};
  for (const m of text.matchAll(/^#\s+(BULWARK_[A-Z_]+)=(\S+)\s*$/gm)) env[m[1]] = m[2];
  return env;
}

// Starts nginx with the doc's site proxying to 127.0.0.1:<port> for each of upstreamPorts.
// Returns { tlsPort, httpPort, ca, via(path, opts), log(), stop() }.
export async function startNginx(upstreamPorts) {
  const doc = readFileSync(DOC, 'utf8');
  const dir = mkdtempSync(join(tmpdir(), 'bulwark-nginx-'));
  chmodSync(dir, 0o755); // nginx workers (nobody, when the test runs as root) use the temp paths
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  const ca = readFileSync(join(dir, 'cert.pem'));
  const [tlsPort, httpPort] = [await freePort(), await freePort()];
  const servers = upstreamPorts.map((p) => `server 127.0.0.1:${p};`).join('\n    ');
  const site = doc
    .split('\n').filter((l) => !l.includes('[::]')).join('\n')
    .replaceAll('server 127.0.0.1:8080;', servers)
    .replace(/listen 443 ssl( http2)?;/, `listen 127.0.0.1:${tlsPort} ssl$1;`)
    .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
    .replace('/etc/ssl/bulwark/fullchain.pem', join(dir, 'cert.pem'))
    .replace('/etc/ssl/bulwark/privkey.pem', join(dir, 'key.pem'));
  for (const needle of [servers, `127.0.0.1:${tlsPort} ssl`, `127.0.0.1:${httpPort};`, join(dir, 'key.pem')])
    assert.ok(site.includes(needle), `substitution failed: ${needle}`);
  writeFileSync(join(dir, 'bulwark.conf'), site);
  writeFileSync(join(dir, 'nginx.conf'), `worker_processes 1;
events { worker_connections 256; }
http {
  default_type application/octet-stream;
  access_log ${join(dir, 'access.log')};
  client_body_temp_path ${join(dir, 'client_body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  include ${join(dir, 'bulwark.conf')};
}
`);
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr',
    '-g', `daemon off; pid ${join(dir, 'nginx.pid')}; error_log stderr;`];
  const t = spawnSync(NGINX, [...args, '-t']);
  assert.equal(t.status, 0, 'nginx -t on the derived configuration:\n' + t.stderr);
  const proc = spawn(NGINX, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => { log += d; });
  for (let i = 0; ; i++) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(tlsPort, '127.0.0.1', () => { s.destroy(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) break;
    if (i > 100 || proc.exitCode !== null) throw new Error('nginx did not start:\n' + log);
    await new Promise((r) => setTimeout(r, 100));
  }

  // One HTTPS request through nginx from the given local address (127.0.0.x are all this machine).
  const via = (path, { from = '127.0.0.1', method = 'GET', headers = {}, body } = {}) =>
    new Promise((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port: tlsPort, path, method, ca, servername: 'localhost',
        localAddress: from, agent: false, headers }, (res) => {
        let text = '';
        res.on('data', (d) => { text += d; });
        res.on('end', () => {
          let json = null;
          try { json = JSON.parse(text); } catch { /* not JSON */ }
          resolve({ status: res.statusCode, headers: res.headers, text, json });
        });
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });

  const stop = async () => {
    if (proc.exitCode === null) {
      const gone = new Promise((r) => proc.on('exit', r));
      proc.kill('SIGTERM');
      await gone;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { tlsPort, httpPort, ca, via, stop, log: () => log };
}
