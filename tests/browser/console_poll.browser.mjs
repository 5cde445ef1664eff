// The orchestrator page polls a run only while it is shown: against a server with no job workers
// (BULWARK_WORKERS=0) a run stays queued, so the page polls it every second for as long as it is
// open; once the user moves to another page not one more request for the run is made. Coming back
// follows the same run again (the status's current_run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, newPage, signIn, skip } from './lib/harness.mjs';
import { check } from './lib/layout.mjs';

const h = useBrowser({ env: { BULWARK_WORKERS: '0' } });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('a queued run is polled while its page is shown, and not after the page is left', { skip }, async () => {
  const u = h.srv.addUser('ENTERPRISE');
  const { page, problems } = await newPage();
  let polls = 0;
  page.on('request', (r) => { if (/\/api\/orchestrator\/god-mode\/run\/job_/.test(r.url())) polls++; });
  await signIn(page, u);
  await page.waitForSelector('#grade', { timeout: 30000 });
  await page.click('a[href="#/orchestrator"]');
  await page.waitForSelector('#no-run');
  await page.click('#o-start');
  await page.waitForSelector('#run[data-status="queued"]');
  assert.equal(await page.$eval('#o-start', (b) => b.disabled), true, 'no second run while one is queued');
  await sleep(3500);
  assert.ok(polls >= 2, `polled ${polls} times in 3.5 s`);
  await check(page, 'orchestrator-queued');

  await page.click('a[href="#/overview"]');
  await page.waitForSelector('#grade', { timeout: 30000 });
  const at = polls;
  await sleep(3000);
  assert.equal(polls, at, 'no poll after the page was left');

  // back: the status names the queued run, and the page follows it again
  await page.click('a[href="#/orchestrator"]');
  await page.waitForSelector('#run[data-status="queued"]');
  await sleep(2500);
  assert.ok(polls > at, 'polling again');
  assert.deepEqual(problems, []);
  await page.close();
});
