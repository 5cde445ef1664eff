// The console's overview and threat feed in a real browser against the real binary: an ENTERPRISE
// account sees the posture grade from the CISO pack with its charts (SVG role=img with a data
// table), in light and dark; a FREE account sees its own summary and why there is no grade (the
// API's TIER_REQUIRED message with required and current tier, and the request id); the feed
// (the seed's records) filtered, paged by cursor, a record opened with its playbook's phases and
// KQL, and a new generation of it. checkPage on each: no CSP violation, no serious or critical
// axe finding, screenshots at 1280 and 390 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, newPage, signIn, skip } from './lib/harness.mjs';
import { check } from './lib/layout.mjs';

const h = useBrowser();
const text = (page, sel) => page.$eval(sel, (e) => e.textContent);

test('ENTERPRISE: the posture grade, its deductions and charts, KEV exposure and the last run', { skip }, async () => {
  const u = h.srv.addUser('ENTERPRISE');
  const { page, problems } = await newPage();
  await signIn(page, u);
  await page.waitForSelector('#grade', { timeout: 30000 });
  assert.match(await text(page, '#grade'), /^[A-F]$/);
  // the grade and score are the API's
  const token = await h.srv.login(u.email, u.password);
  const ciso = (await h.srv.req('GET', '/api/orchestrator/god-mode/ciso', { token })).json;
  assert.equal(await text(page, '#grade'), ciso.posture.grade);
  assert.match(await text(page, '#posture'), new RegExp(`score ${ciso.posture.score}/100`));
  // charts: SVG with role=img, a title and description, and the same numbers in a table
  const charts = await page.$$eval('svg[role="img"]', (ss) => ss.map((s) => ({
    title: s.querySelector('title')?.textContent, desc: s.querySelector('desc')?.textContent, labelled: s.getAttribute('aria-labelledby'),
  })));
  assert.ok(charts.length >= 3, `charts: ${JSON.stringify(charts)}`);
  for (const c of charts) assert.ok(c.title && c.desc && c.labelled, JSON.stringify(c));
  const rows = await page.$$eval('#deductions-chart table tbody tr', (trs) => trs.map((t) => [t.cells[0].textContent, t.cells[1].textContent]));
  assert.deepEqual(rows.find((r) => r[0] === 'Scan coverage'), ['Scan coverage', String(ciso.posture.components.coverage.deduction)]);
  assert.match(await text(page, '#kev'), new RegExp(`${ciso.kev_entries_matched} of ${ciso.kev_entries_total} known-exploited`));
  assert.match(await text(page, '#last-run'), /none/);
  await check(page, 'overview-enterprise');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await check(page, 'overview-enterprise-dark');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('FREE: a summary of its own data and why there is no grade (the API\'s tier reason)', { skip }, async () => {
  const u = h.srv.addUser('FREE');
  const { page, problems } = await newPage([/status of 403/]);
  await page.deleteCookie(...(await page.cookies(h.srv.base)));
  await signIn(page, u);
  await page.waitForSelector('#no-grade .alert.gate');
  const why = await text(page, '#no-grade');
  assert.match(why, /needs an ENTERPRISE plan, an mssp or admin role/);
  assert.match(why, /Needs the ENTERPRISE tier; this account is FREE/);
  assert.match(why, /request id: req_[0-9a-f]+/);
  assert.match(why, /top 3 findings/);
  assert.equal(await page.$('#grade'), null, 'no grade for FREE');
  // assets are STARTER+: the API's 403 with its tiers, in place of the count
  assert.match(await text(page, 'main'), /this endpoint needs the STARTER plan or above/);
  assert.match(await text(page, 'main'), /Needs the STARTER tier; this account is FREE/);
  await check(page, 'overview-free');
  // the pages FREE cannot use say so with the API's tiers: governance (STARTER+), the orchestrator
  await page.click('a[href="#/governance"]');
  await page.waitForSelector('.alert.gate[data-required-tier="STARTER"]');
  assert.match(await text(page, '.alert.gate'), /Governance assessments: .*Needs the STARTER tier; this account is FREE/);
  await check(page, 'governance-free');
  await page.click('a[href="#/orchestrator"]');
  await page.waitForSelector('#orch-status .alert.gate[data-required-tier="ENTERPRISE"]');
  assert.match(await text(page, '#orch-status'), /request id: req_/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('threat feed: filter, page by cursor, open a record and its playbook with phases and KQL, generate anew', { skip }, async () => {
  const u = h.srv.addUser('STARTER');
  const { page, problems } = await newPage([/status of 403/]); // the overview's CISO pack and engagements
  await page.deleteCookie(...(await page.cookies(h.srv.base)));
  await signIn(page, u);
  await page.click('a[href="#/feed"]');
  await page.waitForSelector('#feed-table tbody tr');
  assert.equal(await page.$eval('a[href="#/feed"]', (a) => a.getAttribute('aria-current')), 'page');
  const total = (await h.srv.req('GET', '/api/ai-security/threat-feed?limit=1')).json.total;
  assert.match(await text(page, '#feed-total'), new RegExp(`^${total} records match`));
  assert.equal((await page.$$('#feed-table tbody tr')).length, 10);
  await check(page, 'feed');

  // filter: CRITICAL, highest risk first (keyboard: the select and Enter on Apply)
  await page.select('#f-severity', 'CRITICAL');
  await page.select('#f-sort', 'risk');
  await page.click('#f-apply');
  const crit = (await h.srv.req('GET', '/api/ai-security/threat-feed?severity=CRITICAL&sort=risk&limit=10')).json;
  await page.waitForFunction((n) => document.querySelector('#feed-total')?.textContent.startsWith(`${n} records`), {}, crit.total);
  const sevs = await page.$$eval('#feed-table tbody tr .badge.sev-CRITICAL', (b) => b.length);
  assert.equal(sevs, Math.min(crit.total, 10));
  const firstIds = await page.$$eval('#feed-table tbody tr', (trs) => trs.map((t) => t.dataset.id));
  assert.deepEqual(firstIds, crit.feed.map((r) => r.id), 'the page is the API\'s page, in its order');

  // next page by the API's cursor, and back
  assert.ok(crit.next_cursor, 'the seed has more than 10 CRITICAL records');
  await page.click('nav.pager button:last-child');
  await page.waitForFunction(() => /^Page 2/.test(document.querySelector('nav.pager [role="status"]').textContent));
  const page2 = (await h.srv.req('GET', `/api/ai-security/threat-feed?severity=CRITICAL&sort=risk&limit=10&cursor=${encodeURIComponent(crit.next_cursor)}`)).json;
  assert.deepEqual(await page.$$eval('#feed-table tbody tr', (trs) => trs.map((t) => t.dataset.id)), page2.feed.map((r) => r.id));
  await page.click('nav.pager button:first-child');
  await page.waitForFunction(() => /^Page 1/.test(document.querySelector('nav.pager [role="status"]').textContent));

  // a filter the API rejects: its message and request id
  await page.type('#f-epss', '2');
  await page.click('#f-apply');
  await page.waitForSelector('.paged .alert.error');
  assert.match(await text(page, '.paged .alert.error'), /epss_min.*request id: req_/s);
  await page.$eval('#f-epss', (e) => { e.value = ''; });
  await page.click('#f-apply');
  await page.waitForSelector('#feed-table tbody tr');

  // a record and its playbook
  const id = firstIds[0];
  await page.click(`#feed-table tr[data-id="${id}"] a`);
  await page.waitForSelector('#playbook #ir-phases');
  assert.equal(page.url().endsWith(`#/feed/${encodeURIComponent(id)}`), true);
  const rec = (await h.srv.req('GET', `/api/ai-security/threat-feed/${encodeURIComponent(id)}`)).json;
  assert.equal(await text(page, 'h1'), rec.title);
  const phases = await page.$$eval('#ir-phases > li h4', (hs) => hs.map((x) => x.textContent));
  assert.deepEqual(phases.map((p) => p.split(' ')[0]), ['Govern', 'Identify', 'Protect', 'Detect', 'Respond', 'Recover']);
  const token = await h.srv.login(u.email, u.password);
  const pb = (await h.srv.req('GET', `/api/threat-intel/${encodeURIComponent(id)}/playbook`, { token })).json;
  const queries = await page.$$eval('pre code.kql', (cs) => cs.map((c) => c.textContent));
  assert.equal(queries[0], pb.playbook.threat_hunting_guide.suggested_query, 'the KQL is the API\'s, as text');
  assert.match(queries[0], /\n\| where /);
  assert.equal((await page.$$('#soc-stages li')).length, pb.playbook.soc_playbook.length);
  await check(page, 'feed-record');

  // a new generation (POST, signed in)
  await page.click('#regenerate');
  await page.waitForSelector('#playbook-status .alert.ok');
  const hist = (await h.srv.req('GET', '/api/threat-intel/playbooks/history', { token })).json;
  assert.ok(hist.history.length >= 2, 'the GET saved one generation and the button another');
  assert.match(await text(page, '#playbook-status'), new RegExp(hist.history[0].playbook_id));
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await check(page, 'feed-record-dark');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
  assert.deepEqual(problems, []);
  await page.close();
});
