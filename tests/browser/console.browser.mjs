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
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startServer } from '../api/lib/server.mjs';

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.BULWARK_CHROMIUM || '/usr/bin/chromium';
const REQUIRED = process.env.BULWARK_REQUIRE_BROWSER === '1' || process.env.CI === 'true';
const OUT = process.env.BULWARK_SCREENSHOT_DIR || join(process.cwd(), 'console-screenshots');
const haveChromium = existsSync(CHROMIUM);
const skip = !haveChromium && !REQUIRED
  ? `chromium not found at ${CHROMIUM} (apt-get install chromium, or scripts/deps.sh test); browser test skipped`
  : false;
if (skip) console.log(`# SKIP ${skip}`);

let srv, browser, puppeteer;
before(async () => {
  if (skip) return;
  assert.ok(haveChromium, `chromium is required here (BULWARK_REQUIRE_BROWSER) but missing at ${CHROMIUM}`);
  puppeteer = (await import('puppeteer-core')).default;
  mkdirSync(OUT, { recursive: true });
  srv = await startServer();
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // root in containers and CI has no user namespaces for chromium's sandbox
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--no-first-run', '--disable-gpu'],
  });
});
after(async () => {
  if (browser) await browser.close();
  if (srv) assert.equal(await srv.stop(), 0);
});

const AXE = () => readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// A page that records CSP violations (the DOM event) and script errors.
async function newPage() {
  const page = await browser.newPage();
  const problems = [];
  await page.evaluateOnNewDocument(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // the browser logs every 4xx answer; those the test provokes (401 before sign-in, 400 for the
    // wrong password) are expected, anything else is a problem
    if (/^Failed to load resource: the server responded with a status of (400|401)/.test(m.text())) return;
    problems.push(`console: ${m.text()}`);
  });
  page.on('dialog', (d) => d.accept()); // the revoke confirmation
  return { page, problems };
}

async function checkPage(page, name) {
  const csp = await page.evaluate(() => window.__csp);
  assert.deepEqual(csp, [], `${name}: CSP violations`);
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE());
  const res = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  const bad = res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(bad, [], `${name}: axe serious/critical violations ${JSON.stringify(bad)}`);
  for (const width of [1280, 390]) {
    await page.setViewport({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: join(OUT, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewport({ width: 1280, height: 800 });
}

test('sign in, create and revoke a key, sign out: no CSP violation, no serious accessibility issue', { skip }, async () => {
  const u = srv.addUser('PRO');
  const { page, problems } = await newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(`${srv.base}/`, { waitUntil: 'networkidle0' });
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
  const r = await srv.req('GET', '/api/ai-security/assets', { key });
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
  assert.equal((await srv.req('GET', '/api/ai-security/assets', { key })).status, 401, 'the revoked key stops working');
  await checkPage(page, 'keys-revoked');

  // sign out: back to the sign-in page, and the session is over
  await page.click('#signout');
  await page.waitForSelector('#email');
  assert.equal(await shown('#signout'), false);
  assert.equal((await page.cookies()).some((x) => x.name === 'bulwark_console'), false);
  const after = await page.evaluate(async () => (await fetch('/api/developer/keys')).status);
  assert.equal(after, 401);
  assert.deepEqual(problems.filter((p) => !/status of 401/.test(p)), []);
  await page.close();
});
