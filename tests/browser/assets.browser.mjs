// The assets page in a real browser: a PRO account registers a local stand-in of Anthropic's
// Messages API (tests/api/lib/llmapis.mjs, the vulnerable variant: it obeys injected instructions
// and leaks) through the form, with its x-api-key credential; the read-back says a credential is
// kept and never shows it; a live scan from the asset's view shows the score, a score history
// and the findings with severity, OWASP id and evidence; the asset is deleted. A FREE account
// sees the API's 403 with the tier it needs and its own. layout.mjs check on each state (CSP, axe
// in light and dark, screenshots at 1280 and 390 px, nothing wider than 390 px).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, newPage, signIn, skip } from './lib/harness.mjs';
import { check } from './lib/layout.mjs';
import { startLlmApi } from '../api/lib/llmapis.mjs';

const h = useBrowser({ env: { BULWARK_EGRESS_ALLOW: 'loopback' } });
const SECRET = 'sk-ant-standin-' + 'w'.repeat(24);
let model;
after(async () => { if (model) await model.close(); });

async function fill(page, sel, text) {
  await page.$eval(sel, (e) => { e.value = ''; });
  await page.type(sel, text);
}

test('register a model with a connection, scan it, see score and findings, delete it; FREE sees the tier it needs', { skip }, async () => {
  model = await startLlmApi({ flavour: 'anthropic', secret: SECRET });
  const u = h.srv.addUser('PRO');
  const { page, problems } = await newPage([/status of 403/]); // the overview asks for the CISO pack: its 403 is why there is no grade
  await signIn(page, u);
  await page.click('a[href="#/assets"]');
  await page.waitForSelector('#register-asset');
  await page.waitForFunction(() => /No assets yet/.test(document.body.textContent));
  assert.equal(await page.title(), 'AI assets · bulwark console');
  await check(page, 'assets-empty');

  // the API's validation errors are shown field by field
  await page.type('#asset-name', 'support bot');
  await page.type('#asset-endpoint', 'ftp://nowhere');
  await page.click('#register-asset');
  await page.waitForSelector('#register-status .alert.error ul.fields li');
  assert.match(await page.$eval('#register-status .alert.error', (e) => e.textContent), /endpoint: .*request id: req_/);
  await check(page, 'assets-invalid');
  await page.$eval('#asset-endpoint', (e) => { e.value = ''; });

  await page.select('#asset-type', 'model');
  await page.type('#asset-endpoint', model.base);
  await page.type('#asset-provider', 'anthropic');
  await page.select('#asset-api', 'anthropic');
  await page.type('#asset-model', 'm1');
  await page.select('#asset-auth', 'header');
  await page.type('#asset-auth-name', 'x-api-key');
  await page.type('#asset-secret', SECRET);
  await page.click('#register-asset');
  await page.waitForSelector('#register-readback');
  const readback = await page.$eval('#register-readback', (e) => e.textContent);
  assert.match(readback, /header \(x-api-key\): stored, sealed/);
  assert.match(readback, /anthropic/);
  await page.waitForSelector('#asset-view');
  assert.equal(await page.$eval('#asset-secret', (e) => e.value), '', 'the form forgets the credential');
  const html = await page.content();
  assert.ok(!html.includes(SECRET), 'the credential is nowhere in the page');
  assert.match(await page.$eval('#latest-scan', (e) => e.textContent), /Not scanned yet/);
  await page.waitForSelector('#assets-table tbody tr');

  // a live scan: the stand-in leaks, so there are LLM findings with evidence
  await page.click('#run-scan');
  await page.waitForSelector('#latest-scan table.findings tbody tr', { timeout: 60000 });
  const rows = await page.$$eval('#latest-scan table.findings tbody tr', (trs) => trs.map((t) => ({
    id: t.dataset.finding, sev: t.querySelector('.badge').textContent, owasp: t.children[2].textContent, evidence: t.children[3].textContent })));
  assert.ok(rows.some((r) => r.sev === 'CRITICAL' || r.sev === 'HIGH'), JSON.stringify(rows));
  assert.ok(rows.some((r) => /^LLM\d\d$/.test(r.owasp) && r.evidence.length > 0), JSON.stringify(rows));
  // what the page shows is what the API stored
  const id = await page.$eval('#asset-view', (e) => e.dataset.assetId);
  const key = (await h.srv.req('POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).json.token;
  const stored = await h.srv.req('GET', `/api/ai-security/assets/${id}/scans`, { token: key });
  assert.equal(stored.status, 200, stored.text);
  assert.deepEqual(rows.map((r) => r.id), stored.json.scans[0].findings.map((f) => f.id));
  assert.match(await page.$eval('#latest-scan', (e) => e.textContent), new RegExp(`Score${stored.json.scans[0].score}`));
  await page.waitForSelector('#scans-table tbody tr');
  assert.ok(!(await page.content()).includes(SECRET));
  await check(page, 'asset-scanned');

  // a second scan: the history has two points and draws the chart
  await page.click('#run-scan');
  await page.waitForFunction(() => document.querySelectorAll('#scans-table tbody tr').length === 2, { timeout: 60000 });
  await page.waitForSelector('#score-history svg.score-chart');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await check(page, 'asset-scanned-dark');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);

  // keyboard: the asset's name in the list is a button reached by Tab and opened with Enter
  await page.focus('#assets-table tbody tr button.link');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'asset-title');

  await page.click('#delete-asset');
  await page.waitForFunction(() => /deleted/.test(document.querySelector('#asset-detail').textContent));
  await page.waitForFunction(() => /No assets yet/.test(document.body.textContent));
  assert.equal((await h.srv.req('GET', `/api/ai-security/assets/${id}`, { token: key })).status, 404);
  assert.deepEqual(problems, []);

  // the session ends elsewhere (the cookie is gone): the next request leads back to the sign-in
  await page.deleteCookie({ name: 'bulwark_console' });
  await page.click('#register-asset');
  await page.waitForSelector('#email');

  // FREE: the API's 403 with the plan it needs and the account's own
  const free = h.srv.addUser('FREE');
  await signIn(page, free);
  await page.click('a[href="#/assets"]');
  await page.waitForSelector('.paged .alert.gate');
  const err = await page.$eval('.paged .alert.gate', (e) => e.textContent);
  assert.match(err, /Needs the STARTER tier; this account is FREE\./);
  assert.match(err, /request id: req_/);
  await check(page, 'assets-free');
  await page.close();
});
