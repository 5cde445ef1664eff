// The browser harness every console test shares: Debian's chromium, headless, driven by
// puppeteer-core (no browser download) against the real binary; a page that records CSP
// violations and script errors; checkPage (no CSP violation, no serious or critical axe-core
// finding, screenshots at 1280 and 390 px into BULWARK_SCREENSHOT_DIR); signIn through the form.
//
// Without chromium a test is skipped with a message, unless BULWARK_REQUIRE_BROWSER=1 (make
// test, CI) makes that a failure.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startServer } from '../../api/lib/server.mjs';

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.BULWARK_CHROMIUM || '/usr/bin/chromium';
const REQUIRED = process.env.BULWARK_REQUIRE_BROWSER === '1' || process.env.CI === 'true';
const OUT = process.env.BULWARK_SCREENSHOT_DIR || join(process.cwd(), 'console-screenshots');
const haveChromium = existsSync(CHROMIUM);
export const skip = !haveChromium && !REQUIRED
  ? `chromium not found at ${CHROMIUM} (apt-get install chromium, or scripts/deps.sh test); browser test skipped`
  : false;
if (skip) console.log(`# SKIP ${skip}`);

// env: extra server environment (startServer's options), for tests that need a setting
export const h = { srv: null, browser: null };

export function useBrowser(serverOpts) {
  before(async () => {
    if (skip) return;
    assert.ok(haveChromium, `chromium is required here (BULWARK_REQUIRE_BROWSER) but missing at ${CHROMIUM}`);
    const puppeteer = (await import('puppeteer-core')).default;
    mkdirSync(OUT, { recursive: true });
    h.srv = await startServer(serverOpts);
    h.browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      // root in containers and CI has no user namespaces for chromium's sandbox
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--no-first-run', '--disable-gpu'],
    });
  });
  after(async () => {
    if (h.browser) await h.browser.close();
    if (h.srv) assert.equal(await h.srv.stop(), 0);
  });
  return h;
}

const AXE = () => readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// A page that records CSP violations (the DOM event) and script errors. allow: more console
// error texts (regexps) the test provokes on purpose.
export async function newPage(allow = []) {
  const page = await h.browser.newPage();
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
    if (allow.some((re) => re.test(m.text()))) return;
    problems.push(`console: ${m.text()}`);
  });
  page.on('dialog', (d) => d.accept()); // confirmations (revoke, delete)
  await page.setViewport({ width: 1280, height: 800 });
  return { page, problems };
}

export async function checkPage(page, name) {
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

// newPage without the cookies an earlier page of this browser left (a signed-out start).
export async function freshPage(allow) {
  const p = await newPage(allow);
  await p.page.deleteCookie(...(await p.page.cookies(h.srv.base)));
  return p;
}

// Sign in through the form (keyboard: Enter submits) and wait for the overview; with idle false,
// only until the overview has begun (its heading), not until its requests are done.
export async function signIn(page, user, { idle = true } = {}) {
  await page.goto(`${h.srv.base}/`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('#email');
  await page.type('#email', user.email);
  await page.type('#password', user.password);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Overview');
  // the overview's own requests done: a test's next step sees a page that is not loading any more
  if (idle) await page.waitForNetworkIdle({ idleTime: 250, timeout: 60000 });
}
