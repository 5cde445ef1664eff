// Crash survival: SIGKILL the server in the middle of a write load (key creations, asset
// registrations, red-team engagements, an orchestrator run) and start it again on the same
// database. Every write answered 2xx before the kill must be there afterwards, and the jobs the
// kill interrupted must finish. Runs on SQLite and on PostgreSQL (the API suite runs once per backend).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Server } from './lib/server.mjs';
import { startTarget } from './lib/targets.mjs';

const ENV = { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_JOB_LEASE_MS: '4000', BULWARK_JOB_POLL_MS: '100', BULWARK_WORKERS: '2' };
// (the lease also sets the probes' timeout, a third of it: 1.3 s leaves room for a loaded CI machine)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let target;
after(async () => { if (target) await target.close(); });

test('SIGKILL under write load: acknowledged writes survive, interrupted jobs finish', async () => {
  target = await startTarget({ mode: 'careless', delayMs: 40 });
  const first = new Server({ env: ENV });
  await first.start();
  const users = [];
  for (let i = 0; i < 3; i++) users.push(await first.session('ENTERPRISE', { key: true }));
  // one asset per user to aim engagements at
  for (const u of users) {
    const r = await first.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: 'crash-target', type: 'model', provider: 'self', endpoint: target.url } });
    assert.equal(r.status, 201, r.text);
    u.target = r.json.asset_id;
  }
  const acked = { keys: [], assets: [], engagements: [], runs: [] };
  let stop = false;
  // each writer loops until the kill; a request in flight when the process dies just fails
  const writer = async (u, n) => {
    for (let i = 0; !stop; i++) {
      try {
        const kind = (i + n) % 4;
        if (kind === 0) {
          const r = await first.req('POST', '/api/developer/keys', { token: u.token, body: { label: `crash-${n}-${i}` } });
          if (r.status === 201) acked.keys.push({ u, id: r.json.id, prefix: r.json.key_prefix ?? r.json.prefix });
        } else if (kind === 1 || kind === 2) {
          const r = await first.req('POST', '/api/ai-security/assets/register', { key: u.key, body: { name: `a-${n}-${i}`, type: 'rag', endpoint: `https://a${i}.example.com/` } });
          if (r.status === 201) acked.assets.push({ u, id: r.json.asset_id });
        } else {
          const r = await first.req('POST', '/api/ai-security/redteam/engage', { key: u.key, body: { target_asset_id: u.target, intensity: 'light' } });
          if (r.status === 202) acked.engagements.push({ u, id: r.json.engagement_id });
        }
      } catch { /* the server died under this request: not acknowledged */ }
    }
  };
  const run = await first.req('POST', '/api/orchestrator/god-mode/run', { key: first.adminKey, body: { max_items: 50 } });
  assert.equal(run.status, 202, run.text);
  acked.runs.push(run.json.job_id);
  const writers = users.flatMap((u, k) => [writer(u, 2 * k), writer(u, 2 * k + 1)]);
  await sleep(1500);
  first.stopping = true; // an intended kill, not a crash to report
  first.proc.kill('SIGKILL');
  await first.exited;
  stop = true;
  await Promise.all(writers);
  assert.ok(acked.keys.length > 0 && acked.assets.length > 0 && acked.engagements.length > 0,
    `load reached every kind of write: ${acked.keys.length} keys, ${acked.assets.length} assets, ${acked.engagements.length} engagements`);

  const second = new Server({ env: ENV, dir: first.dir, database: first.database, adminKey: first.adminKey });
  await second.start();
  try {
    // sessions survive the restart (the JWT secret is stored), so the same tokens still work
    for (const u of users) {
      const r = await second.req('GET', '/api/developer/keys', { token: u.token });
      assert.equal(r.status, 200, r.text);
      const have = new Set(r.json.keys.map((k) => k.id));
      for (const k of acked.keys.filter((x) => x.u === u)) assert.ok(have.has(k.id), `key ${k.id} acknowledged before the kill is gone`);
    }
    for (const a of acked.assets) {
      const r = await second.req('GET', `/api/ai-security/assets/${a.id}`, { key: a.u.key });
      assert.equal(r.status, 200, `asset ${a.id}: ${r.text}`);
    }
    // every engagement accepted before the kill runs to its end after the restart
    const end = Date.now() + 120000;
    for (const e of acked.engagements) {
      for (;;) {
        const r = await second.req('GET', `/api/ai-security/redteam/${e.id}/report`, { key: e.u.key });
        assert.equal(r.status, 200, `engagement ${e.id}: ${r.text}`);
        if (r.json.status === 'completed') {
          assert.equal(r.json.progress.done, r.json.progress.total);
          break;
        }
        assert.ok(!['failed', 'cancelled'].includes(r.json.status), `engagement ${e.id} ended ${r.json.status}: ${r.json.error}`);
        assert.ok(Date.now() < end, `engagement ${e.id} did not finish after the restart: ${r.text}`);
        await sleep(200);
      }
    }
    for (const id of acked.runs) {
      for (;;) {
        const r = await second.req('GET', `/api/orchestrator/god-mode/run/${id}`, { key: second.adminKey });
        assert.equal(r.status, 200, r.text);
        if (r.json.status === 'completed') { assert.equal(r.json.phases_done, 16); break; }
        assert.notEqual(r.json.status, 'failed', r.text);
        assert.ok(Date.now() < end, `run ${id} did not finish: ${r.text}`);
        await sleep(200);
      }
    }
  } finally {
    assert.equal(await second.stop(), 0);
    rmSync(first.dir, { recursive: true, force: true });
  }
});
