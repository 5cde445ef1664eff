// Keyset cursors on every list (feed, assets, playbook history): walking with next_cursor gives
// the rows offset paging gives; next_cursor is null on the last page; a cursor reused with other
// filters, on another list, beside an offset, changed by one character or cut is 400 naming
// `cursor`; and a cursor is still good after a restart (the sealing key is the database's).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { startServer, assertError, Server } from './lib/server.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const SEED = JSON.parse(readFileSync(ROOT + 'data/intel/seed.json', 'utf8'));

let srv;
before(async () => { srv = await startServer({ env: { BULWARK_RATE_ANON: '0', BULWARK_RATE_FREE: '0', BULWARK_RATE_PRO: '0' } }); });
after(async () => { if (srv) assert.equal(await srv.stop(), 0); });

// Every page of path (a query string may follow) by cursor; returns the pages' bodies.
async function walk(path, list, opts = {}) {
  const pages = [];
  let cursor = null;
  const sep = path.includes('?') ? '&' : '?';
  for (let i = 0; i < 1000; i++) {
    const r = await srv.req('GET', path + (cursor ? `${sep}cursor=${cursor}` : ''), opts);
    assert.equal(r.status, 200, r.text);
    assert.ok('next_cursor' in r.json);
    pages.push(r.json);
    if (r.json.next_cursor === null) return pages;
    assert.match(r.json.next_cursor, /^[A-Za-z0-9_-]+$/);
    assert.equal(r.json[list].length, r.json.limit, 'a page with a next_cursor is full');
    cursor = r.json.next_cursor;
  }
  throw new Error('no last page');
}

test('feed: cursor pages are the offset pages, for every filter; the last page says null', async () => {
  for (const q of ['limit=7', 'limit=5&type=ai_cves', 'limit=3&severity=HIGH', 'limit=2&type=prompt_attacks&severity=HIGH']) {
    // the same rows by offset, 100 at a time
    const all = { feed: [] };
    for (let off = 0; ; off += 100) {
      const r = (await srv.req('GET', `/api/ai-security/threat-feed?${q.replace(/limit=\d+/, 'limit=100')}&offset=${off}`)).json;
      all.total = r.total;
      all.feed.push(...r.feed);
      if (r.feed.length < 100) break;
    }
    const pages = await walk(`/api/ai-security/threat-feed?${q}`, 'feed');
    assert.deepEqual(pages.flatMap(p => p.feed.map(e => e.id)), all.feed.map(e => e.id), q);
    for (const p of pages) assert.equal(p.total, all.total);
  }
  // the whole feed (more than 100 records) walks too
  const pages = await walk('/api/ai-security/threat-feed?limit=100', 'feed');
  assert.equal(pages.flatMap(p => p.feed).length, SEED.records.length);
  // an exactly full last page still ends with null (the store looks one row ahead)
  const n = SEED.records.length;
  const exact = await srv.req('GET', `/api/ai-security/threat-feed?limit=${n <= 100 ? n : 100}&offset=${n <= 100 ? 0 : n - 100}`);
  assert.equal(exact.json.next_cursor, null);
});

test('a cursor is bound to its list, filters and sort, cannot be forged, and excludes offset', async () => {
  const first = (await srv.req('GET', '/api/ai-security/threat-feed?limit=3&type=ai_cves')).json;
  const c = first.next_cursor;
  assert.ok(c);
  const field = (r) => assertError(assert, r, 400, 'VALIDATION_ERROR').errors.map(e => e.field);
  // the same filters spelled the same way: fine; another limit is fine too (not a filter)
  assert.equal((await srv.req('GET', `/api/ai-security/threat-feed?limit=3&type=ai_cves&cursor=${c}`)).status, 200);
  assert.equal((await srv.req('GET', `/api/ai-security/threat-feed?limit=9&type=ai_cves&cursor=${c}`)).status, 200);
  for (const q of [`type=prompt_attacks&cursor=${c}`, `cursor=${c}`, `type=ai_cves&severity=LOW&cursor=${c}`]) {
    const err = assertError(assert, await srv.req('GET', `/api/ai-security/threat-feed?${q}`), 400, 'VALIDATION_ERROR');
    assert.deepEqual(err.errors.map(e => e.field), ['cursor'], q);
    assert.match(err.errors[0].message, /other filters or another sort/);
  }
  assert.deepEqual(field(await srv.req('GET', `/api/ai-security/threat-feed?type=ai_cves&offset=0&cursor=${c}`)), ['cursor']);
  // one character changed anywhere, cut, padded, or not base64url at all
  const flip = (s, i) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  for (const bad of [flip(c, 0), flip(c, c.length >> 1), flip(c, c.length - 2), c.slice(0, -1), c + 'A', c + '=',
    'x', '', '%00', 'A'.repeat(400)]) {
    const r = await srv.req('GET', `/api/ai-security/threat-feed?type=ai_cves&cursor=${encodeURIComponent(bad)}`);
    assert.deepEqual(field(r), ['cursor'], bad);
  }
  // a feed cursor on the asset list
  const u = await srv.session('PRO', { key: true });
  assert.deepEqual(field(await srv.req('GET', `/api/ai-security/assets?cursor=${c}`, { key: u.key })), ['cursor']);
});

test('assets: cursor pages are the offset pages, per filter, ties included; another account sees nothing', async () => {
  const u = await srv.session('PRO', { key: true });
  const ids = [];
  for (let i = 0; i < 23; i++) {
    const r = await srv.req('POST', '/api/ai-security/assets/register', { key: u.key,
      body: { name: 'a' + i, type: i % 3 ? 'model' : 'agent', provider: 'p', endpoint: `https://a${i}.example` } });
    assert.equal(r.status, 201, r.text);
    ids.push(r.json.asset_id);
  }
  for (const q of ['limit=4', 'limit=3&type=model', 'limit=1&type=agent', 'limit=5&type=model&risk=LOW']) {
    const all = (await srv.req('GET', `/api/ai-security/assets?${q.replace(/limit=\d+/, 'limit=100')}`, { key: u.key })).json;
    const pages = await walk(`/api/ai-security/assets?${q}`, 'assets', { key: u.key });
    assert.deepEqual(pages.flatMap(p => p.assets.map(a => a.asset_id)), all.assets.map(a => a.asset_id), q);
    assert.ok(pages.every(p => p.total === all.total));
  }
  const every = (await walk('/api/ai-security/assets?limit=6', 'assets', { key: u.key })).flatMap(p => p.assets.map(a => a.asset_id));
  assert.deepEqual(every, [...ids].reverse());
  // another account with the first account's cursor: its own (empty) list, never the other's rows
  const c = (await srv.req('GET', '/api/ai-security/assets?limit=2', { key: u.key })).json.next_cursor;
  const v = await srv.session('PRO', { key: true });
  const r = await srv.req('GET', `/api/ai-security/assets?limit=2&cursor=${c}`, { key: v.key });
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.assets, []);
  assert.equal(r.json.next_cursor, null);
});

test('playbook history: cursor pages are the offset pages', async () => {
  const u = await srv.session('PRO', { key: true });
  const ids = SEED.records.slice(0, 9).map(x => x.id);
  for (const id of ids) assert.equal((await srv.req('POST', `/api/threat-intel/${id}/playbook`, { key: u.key })).status, 201);
  const all = (await srv.req('GET', '/api/threat-intel/playbooks/history?limit=100', { key: u.key })).json;
  assert.equal(all.total, 9);
  assert.equal(all.next_cursor, null);
  const pages = await walk('/api/threat-intel/playbooks/history?limit=2', 'history', { key: u.key });
  assert.equal(pages.length, 5);
  assert.deepEqual(pages.flatMap(p => p.history.map(h => h.playbook_id)), all.history.map(h => h.playbook_id));
});

test('a cursor outlives a restart: the sealing key is kept in the database', async () => {
  const s1 = await startServer({ env: { BULWARK_RATE_ANON: '0' } });
  const c = (await s1.req('GET', '/api/ai-security/threat-feed?limit=4')).json.next_cursor;
  const second = (await s1.req('GET', `/api/ai-security/threat-feed?limit=4&cursor=${c}`)).json.feed.map(e => e.id);
  await s1.stop({ keepData: true });
  const s2 = await new Server({ dir: s1.dir, database: s1.database, env: { BULWARK_RATE_ANON: '0' } }).start();
  try {
    const r = await s2.req('GET', `/api/ai-security/threat-feed?limit=4&cursor=${c}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.feed.map(e => e.id), second);
    // and another database's server does not take it
    const r3 = await srv.req('GET', `/api/ai-security/threat-feed?limit=4&cursor=${c}`);
    assert.equal(r3.status, 400);
  } finally {
    assert.equal(await s2.stop(), 0);
    rmSync(s1.dir, { recursive: true, force: true });
  }
});
