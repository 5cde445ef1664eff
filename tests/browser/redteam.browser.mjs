// The red-team page in a real browser: a PRO account starts an engagement from the form against a
// local stand-in of the OpenAI API that leaks its system prompt (and the key in it) once asked to
// role-play (tests/api/lib/failmodes.mjs roleplayLeaker), watches the progress while it runs, and
// reads the report: overall risk, a critical finding with its transcript and detectors, the
// escalation path of the attacks refused as written, the remediation plan — each as the API's
// report says. Leaving the page stops the polling; STARTER sees the 403 with the tiers. layout.mjs
// check (CSP, axe in light and dark, screenshots at 1280 and 390 px, nothing wider than 390 px).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, newPage, signIn, skip } from './lib/harness.mjs';
import { check } from './lib/layout.mjs';
import { startLlmApi, connectionFor } from '../api/lib/llmapis.mjs';
import { roleplayLeaker, LEAKER_PROMPT, LEAK_KEY } from '../api/lib/failmodes.mjs';

const h = useBrowser({ env: { BULWARK_EGRESS_ALLOW: 'loopback', BULWARK_WORKERS: '1', BULWARK_JOB_POLL_MS: '100' } });
const SECRET = 'sk-standin-' + 'r'.repeat(24);
const models = [];
after(async () => { for (const m of models) await m.close(); });

async function leakingAsset(token, delayMs) {
  const api = await startLlmApi({ flavour: 'openai', secret: SECRET, behaviour: roleplayLeaker, delayMs });
  models.push(api);
  const t = connectionFor('openai', api, SECRET);
  const r = await h.srv.req('POST', '/api/ai-security/assets/register', { token,
    body: { name: `finbot ${models.length}`, type: 'model', provider: 'self', endpoint: t.endpoint, connection: { ...t.connection, system_prompt: LEAKER_PROMPT } } });
  assert.equal(r.status, 201, r.text);
  return r.json.asset_id;
}

async function only(page, categories) {
  for (const el of await page.$$('input[name="attack_categories"]')) {
    const want = categories.includes(await el.evaluate((e) => e.value));
    if (want !== await el.evaluate((e) => e.checked)) await el.click();
  }
}

test('start an engagement, watch it complete, read its critical finding, transcript, escalation and plan', { skip }, async () => {
  const u = h.srv.addUser('PRO');
  const token = await h.srv.login(u.email, u.password);
  const assetId = await leakingAsset(token, 60);
  const { page, problems } = await newPage([/status of 403/]); // the overview asks for the CISO pack: its 403 is why there is no grade
  await signIn(page, u);
  await page.click('a[href="#/redteam"]');
  await page.waitForSelector('#start-engagement');
  await page.waitForFunction(() => /No engagements yet/.test(document.body.textContent));
  assert.equal(await page.title(), 'Red team · bulwark console');
  await check(page, 'redteam-empty');

  await page.select('#rt-target', assetId);
  await page.select('#rt-intensity', 'light');
  await only(page, ['jailbreak', 'system_prompt_leakage']);
  await page.click('#start-engagement');
  // live progress: the report while it is queued or running, with a progress bar
  await page.waitForSelector('#report');
  const first = await page.$eval('#report', (e) => e.dataset.status);
  assert.ok(['queued', 'running', 'completed'].includes(first), first);
  assert.ok(await page.$('#eng-progress'));
  await page.waitForSelector('#report[data-status="completed"]', { timeout: 150000 });
  const id = (await page.$eval('#engagement-title', (e) => e.textContent)).replace('Engagement ', '');

  // the page says what the API's report says
  const rep = (await h.srv.req('GET', `/api/ai-security/redteam/${id}/report`, { token })).json;
  assert.equal(rep.status, 'completed');
  assert.equal(rep.overall_risk, 'CRITICAL', JSON.stringify(rep).slice(0, 1000));
  assert.equal(await page.$eval('#overall-risk', (e) => e.textContent), 'CRITICAL');
  const cards = await page.$$eval('#critical-findings article', (as) => as.map((a) => ({
    text: a.textContent, sent: a.querySelector('.turn.sent pre').textContent, reply: a.querySelector('.turn.reply pre').textContent,
    detectors: [...a.querySelectorAll('.detectors li strong')].map((s) => s.textContent) })));
  assert.equal(cards.length, rep.critical_findings.length);
  assert.ok(cards.some((c) => c.text.includes('CRITICAL')));
  cards.forEach((c, i) => {
    assert.equal(c.sent, rep.critical_findings[i].prompt, 'the transcript as sent');
    assert.equal(c.reply, rep.critical_findings[i].response_excerpt);
    assert.deepEqual(c.detectors, rep.critical_findings[i].detectors.map((d) => d.detector));
  });
  assert.ok(cards.some((c) => c.detectors.includes('prompt_leak')), JSON.stringify(cards).slice(0, 1500));
  // escalation: every escalated attack, with the path the search found
  assert.ok(rep.escalation.attacks.length >= 1, JSON.stringify(rep.escalation));
  const esc = await page.$$eval('#escalation-table tbody tr', (trs) => trs.map((t) => [...t.children].map((c) => c.textContent)));
  assert.deepEqual(esc.map((r) => r[0]), rep.escalation.attacks.map((a) => a.attack_id));
  assert.deepEqual(esc.map((r) => r[2]), rep.escalation.attacks.map((a) => a.path || (a.transformations.length ? a.transformations.join('+') : '—')));
  assert.ok(esc.some((r) => r[2] !== '—'), 'some escalation path is shown');
  assert.match(await page.$eval('#escalation-facts', (e) => e.textContent), new RegExp(`Requests made${rep.escalation.requests}`));
  assert.match(await page.$eval('#escalation-facts', (e) => e.textContent), new RegExp(`Budget ended a search${rep.escalation.budget_ended ? 'yes' : 'no'}`));
  assert.equal(await page.$eval('#plan-summary', (e) => e.textContent), rep.remediation_plan.summary);
  assert.equal((await page.$$('#remediation li')).length, rep.remediation_plan.actions.length);
  assert.ok(!(await page.content()).includes(LEAK_KEY), 'the leaked key is masked in the page as in the report');
  await page.waitForSelector('#engagements-table tbody tr');
  await check(page, 'redteam-report');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await check(page, 'redteam-report-dark');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);

  // leaving the page while one runs stops the polling
  const slow = await leakingAsset(token, 1500);
  await page.reload({ waitUntil: 'networkidle0' });
  await page.waitForSelector('#start-engagement');
  await page.select('#rt-target', slow);
  await page.select('#rt-intensity', 'light');
  await only(page, ['prompt_injection']);
  await page.click('#start-engagement');
  await page.waitForSelector('#report[data-status="queued"], #report[data-status="running"]');
  assert.ok(await page.$('#cancel-engagement:not([hidden])'), 'a running engagement can be cancelled');
  let polls = 0;
  page.on('request', (r) => { if (/\/redteam\/eng_[A-Za-z0-9]+\/report$/.test(r.url())) polls++; });
  await page.click('a[href="#/overview"]');
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Overview');
  polls = 0;
  await new Promise((r) => setTimeout(r, 4000));
  assert.equal(polls, 0, 'no report polled after the page was left');
  // back, open it and cancel it from the page
  await page.click('a[href="#/redteam"]');
  await page.waitForSelector('#engagements-table tbody tr button.link');
  await page.click('#engagements-table tbody tr button.link');
  await page.waitForSelector('#cancel-engagement:not([hidden])');
  await page.click('#cancel-engagement');
  await page.waitForSelector('#report[data-status="cancelled"]');
  assert.deepEqual(problems, []);

  // STARTER: the API's 403, with the tier it needs and the account's own
  await page.click('#signout');
  await page.waitForSelector('#email');
  await signIn(page, h.srv.addUser('STARTER'));
  await page.click('a[href="#/redteam"]');
  await page.waitForSelector('.paged .alert.gate');
  assert.match(await page.$eval('.paged .alert.gate', (e) => e.textContent), /Needs the PRO tier; this account is STARTER\.request id: req_/);
  assert.equal(await page.$eval('#start-engagement', (e) => e.disabled), true);
  await check(page, 'redteam-starter');
  await page.close();
});
