// Conditional GETs on the deterministic answers: the feed and playbooks carry an ETag and
// `Vary: Authorization, X-API-Key`, and If-None-Match with that tag is 304 with no body. The
// anonymous playbook of a record version is the same bytes (and tag) every time, served from the
// playbook cache; a signed-in playbook's tag is the account's and the generation's: another
// account, a new generation or a record that moved on gives another tag.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, BACKEND } from './lib/server.mjs';
import { importKev, kevEntry } from './lib/kev.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const SEED = JSON.parse(readFileSync(ROOT + 'data/intel/seed.json', 'utf8'));
const ID = SEED.records[0].id;

let srv;
// The intel generation may be reused for a minute: on SQLite a write by another process must
// still be seen at once (the database's files are watched), which a TTL would hide otherwise.
before(async () => {
  srv = await startServer({ env: { BULWARK_RATE_ANON: '0', BULWARK_RATE_PRO: '0', BULWARK_INTEL_CACHE_MS: '60000' } });
});
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

function tagged(r) {
  assert.equal(r.status, 200, r.text);
  const etag = r.headers.get('etag');
  assert.match(etag, /^"[A-Za-z0-9_-]{22}"$/);
  assert.equal(r.headers.get('vary'), 'Authorization, X-API-Key');
  return etag;
}

async function notModified(path, etag, opts = {}, inm = etag) {
  const r = await srv.req('GET', path, { ...opts, headers: { 'if-none-match': inm } });
  assert.equal(r.status, 304, r.text);
  assert.equal(r.text, '');
  assert.equal(r.headers.get('etag'), etag);
  return r;
}

test('feed: a tag per page; 304 for it, in a list, weak, or *; 200 for another', async () => {
  const path = '/api/ai-security/threat-feed?limit=5';
  const a = await srv.req('GET', path);
  const etag = tagged(a);
  assert.equal(tagged(await srv.req('GET', path)), etag, 'the same page, the same tag');
  await notModified(path, etag);
  await notModified(path, etag, {}, `"nope", W/${etag}`);
  await notModified(path, etag, {}, '*');
  const other = await srv.req('GET', path, { headers: { 'if-none-match': '"nope"' } });
  assert.equal(other.status, 200);
  assert.deepEqual(other.json, a.json);
  // another page has another tag
  assert.notEqual(tagged(await srv.req('GET', '/api/ai-security/threat-feed?limit=6')), etag);
});

test('anonymous playbook: the same bytes and tag each time (cached), 304 on a match', async () => {
  const path = `/api/threat-intel/${ID}/playbook`;
  const first = await srv.req('GET', path);
  const etag = tagged(first);
  for (let i = 0; i < 3; i++) {
    const again = await srv.req('GET', path);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('etag'), etag);
  }
  await notModified(path, etag);
  // another record: another tag; an unknown one is still 404
  assert.notEqual(tagged(await srv.req('GET', `/api/threat-intel/${SEED.records[1].id}/playbook`)), etag);
  assert.equal((await srv.req('GET', '/api/threat-intel/CVE-1999-99999/playbook', { headers: { 'if-none-match': '*' } })).status, 404);
});

test('signed-in playbook: the tag is the account\'s and the generation\'s', async () => {
  const path = `/api/threat-intel/${ID}/playbook`;
  const u = await srv.session('PRO', { key: true });
  const v = await srv.session('PRO', { key: true });
  const a = tagged(await srv.req('GET', path, { key: u.key }));
  assert.equal(tagged(await srv.req('GET', path, { key: u.key })), a);
  assert.equal(tagged(await srv.req('GET', path, { token: u.token })), a, 'the same account by token');
  await notModified(path, a, { key: u.key });
  const anon = tagged(await srv.req('GET', path));
  assert.notEqual(anon, a);
  // the anonymous tag does not make a signed-in answer 304, nor one account's another's
  assert.equal((await srv.req('GET', path, { key: u.key, headers: { 'if-none-match': anon } })).status, 200);
  const b = tagged(await srv.req('GET', path, { key: v.key }));
  assert.notEqual(b, a);
  assert.equal((await srv.req('GET', path, { key: v.key, headers: { 'if-none-match': a } })).status, 200);
  // a new generation: a new tag, and the old one no longer matches
  assert.equal((await srv.req('POST', path, { key: u.key })).status, 201);
  const c = tagged(await srv.req('GET', path, { key: u.key }));
  assert.notEqual(c, a);
  assert.equal((await srv.req('GET', path, { key: u.key, headers: { 'if-none-match': a } })).status, 200);
});

// The playbook cache on /metrics: a record's first anonymous GET builds the playbook (a miss), the
// next ones are hits; the entries and bytes held are there too.
async function cacheMetrics(cache = 'playbooks') {
  const r = await srv.req('GET', '/metrics', { key: srv.adminKey });
  assert.equal(r.status, 200, r.text);
  const get = (name) => {
    const m = r.text.match(new RegExp(`^${name}\\{cache="${cache}"\\} (\\d+)$`, 'm'));
    assert.ok(m, `${name}{cache="${cache}"} in /metrics`);
    return Number(m[1]);
  };
  return { hits: get('bulwark_cache_hits_total'), misses: get('bulwark_cache_misses_total'),
           entries: get('bulwark_cache_entries'), bytes: get('bulwark_cache_bytes') };
}

test('playbook cache hits and misses on /metrics', async () => {
  const id = SEED.records[SEED.records.length - 1].id;
  const before = await cacheMetrics();
  const first = await srv.req('GET', `/api/threat-intel/${id}/playbook`);
  assert.equal(first.status, 200, first.text);
  const built = await cacheMetrics();
  assert.equal(built.misses, before.misses + 1);
  assert.equal(built.hits, before.hits);
  assert.equal(built.entries, before.entries + 1);
  assert.ok(built.bytes >= before.bytes + first.text.length / 2, 'the envelope is held');
  for (let i = 0; i < 3; i++) assert.equal((await srv.req('GET', `/api/threat-intel/${id}/playbook`)).status, 200);
  const after = await cacheMetrics();
  assert.equal(after.hits, built.hits + 3);
  assert.equal(after.misses, built.misses);
});

// The feed's pages are kept in memory by query and intel generation: a repeated page is a cache
// hit, and any intel write (here an import by the CLI, another process) is seen (on SQLite by the
// very next request): the read after it builds the page again, with the new record and a new tag.
test('feed pages come from the cache until an intel write, which the next page shows', async () => {
  const path = '/api/ai-security/threat-feed?limit=3&sort=published';
  const a = await srv.req('GET', path);
  const etag = tagged(a);
  const m0 = await cacheMetrics('feed');
  for (let i = 0; i < 3; i++) assert.equal(tagged(await srv.req('GET', path)), etag);
  const m1 = await cacheMetrics('feed');
  assert.equal(m1.hits, m0.hits + 3);
  assert.equal(m1.misses, m0.misses);
  await notModified(path, etag);

  importKev(srv, [kevEntry('CVE-2099-77001', 'Langflow')]);
  // the CLI is another process: SQLite's server sees its writes to the database's files (inotify)
  // by the next request; PostgreSQL's is told by the import's NOTIFY at its commit, within
  // moments (hits on the old page meanwhile)
  let b;
  for (const end = Date.now() + (BACKEND === 'sqlite' ? 0 : 2000); ;) {
    b = await srv.req('GET', path, { headers: { 'if-none-match': etag } });
    if (b.status !== 304 || Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(b.status, 200, 'the old tag no longer matches');
  assert.notEqual(tagged(b), etag);
  assert.equal(b.json.total, a.json.total + 1);
  assert.ok(b.json.feed.some((x) => x.id === 'CVE-2099-77001'), JSON.stringify(b.json.feed.map((x) => x.id)));
  const m2 = await cacheMetrics('feed');
  assert.equal(m2.misses, m1.misses + 1, 'the new generation was built once');
});
