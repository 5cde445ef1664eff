// The web console in a real browser: Debian's chromium, headless, driven by puppeteer-core (no
// browser download) against the real binary. Signs in (a wrong password first: the error shows
// its message and request id), creates a key (shown once), revokes it, signs out; checks the
// cookie's flags from the browser's side, that no Content-Security-Policy violation or script
// error happened, and that axe-core finds no serious or critical accessibility violation on each
// page (the keys page in dark mode too). Screenshots of each page at 1280 and 390 px wide go to
// BULWARK_SCREENSHOT_DIR.
//
// Without chromium the test is skipped with a message, unless BULWARK_REQUIRE_BROWSER=1 (make
// test, CI) makes that a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, newPage, checkPage, skip } from './lib/harness.mjs';

const h = useBrowser();

test('sign in, create and revoke a key, sign out: no CSP violation, no serious accessibility issue', { skip }, async () => {
  const u = h.srv.addUser('PRO');
  const { page, problems } = await newPage();
  await page.goto(`${h.srv.base}/`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('#email');
  assert.equal(await page.title(), 'Sign in · bulwark console');
  const shown = (sel) => page.$eval(sel, (e) => e.checkVisibility());
  assert.equal(await shown('#signout'), false, 'no sign-out button before sign-in');
  assert.equal(await shown('#nav'), false, 'no navigation before sign-in');
  await checkPage(page, 'signin');

  // a wrong password: the API's message and the request id are shown
  await page.type('#email', u.email);
  await page.type('#password', 'not-the-password');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#signin-status .alert.error');
  const err = await page.$eval('#signin-status .alert.error', (e) => e.textContent);
  assert.match(err, /invalid email or password/);
  assert.match(err, /request id: req_[A-Za-z0-9]+/);
  await checkPage(page, 'signin-error');

  // the right one (keyboard only)
  await page.$eval('#password', (e) => { e.value = ''; });
  await page.type('#password', u.password);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Overview');
  assert.equal(await shown('#signout'), true);
  const cookies = await page.cookies();
  const c = cookies.find((x) => x.name === 'bulwark_console');
  assert.ok(c, 'the session cookie is set');
  assert.equal(c.httpOnly, true);
  assert.equal(c.sameSite, 'Strict');
  assert.equal(c.path, '/');
  assert.equal(await page.evaluate(() => document.cookie), '', 'the cookie is not readable by scripts');
  await page.waitForFunction(() => document.querySelectorAll('.grid .card').length >= 4);
  await checkPage(page, 'overview');

  // API keys: create (shown once, with a copy button), then revoke
  await page.click('a[href="#/keys"]');
  await page.waitForSelector('#create-key');
  await page.type('#key-label', 'browser test');
  await page.click('#create-key');
  await page.waitForSelector('#new-key');
  const key = await page.$eval('#new-key', (e) => e.textContent);
  assert.match(key, /^svc_[A-Za-z0-9]{38}$/);
  await page.waitForSelector('#keys-table tbody tr');
  assert.ok(await page.$('#copy-key'));
  await page.click('#copy-key');
  await page.waitForFunction(() => /Copied|Selected/.test(document.querySelector('#secret-panel').textContent));
  // the key works against the API, and the list shows it without the secret
  const r = await h.srv.req('GET', '/api/ai-security/assets', { key });
  assert.equal(r.status, 200, r.text);
  const rows = await page.$$eval('#keys-table tbody tr', (trs) => trs.map((t) => t.textContent));
  assert.equal(rows.length, 1);
  assert.ok(rows[0].includes('browser test') && !rows[0].includes(key));
  await checkPage(page, 'keys');
  // dark: the same checks (axe's contrast rules included) under prefers-color-scheme: dark
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), true);
  await checkPage(page, 'keys-dark');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);

  await page.click('#keys-table tbody tr button.danger');
  await page.waitForFunction(() => document.querySelector('#keys-table .badge')?.textContent === 'revoked');
  assert.equal((await h.srv.req('GET', '/api/ai-security/assets', { key })).status, 401, 'the revoked key stops working');
  await checkPage(page, 'keys-revoked');

  // sign out: back to the sign-in page, and the session is over
  await page.click('#signout');
  await page.waitForSelector('#email');
  assert.equal(await shown('#signout'), false);
  assert.equal((await page.cookies()).some((x) => x.name === 'bulwark_console'), false);
  const after = await page.evaluate(async () => (await fetch('/api/developer/keys')).status);
  assert.equal(after, 401);
  // 401 after sign-out; 403: the overview shows a PRO account the CISO pack's TIER_REQUIRED (why no grade)
  assert.deepEqual(problems.filter((p) => !/status of 40[13]/.test(p)), []);
  await page.close();
});
