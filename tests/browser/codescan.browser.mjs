// The code-scan page in a real browser: a STARTER account opens a Flask handler with an SSRF
// (a file read in the page with FileReader; its extension picks the language), scans it and sees
// the finding marked on its line (severity, rule id, CWE, the trace from the request argument to
// the sink, the trace's lines marked too), then downloads the SARIF (saved by the browser from a
// blob: URL; the file parses as SARIF 2.1.0 against the schema, with a run and the result). Code
// pasted by a FREE account shows the API's gated view: the top 3 and how many are hidden.
// layout.mjs check on each state (CSP, axe in light and dark, screenshots at 1280 and 390 px,
// nothing wider than a 390 px phone).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useBrowser, newPage, signIn, skip } from './lib/harness.mjs';
import { check } from './lib/layout.mjs';

const require = createRequire(import.meta.url);
const h = useBrowser();
const dir = mkdtempSync(join(tmpdir(), 'bulwark-codescan-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FLASK_SSRF = [
  'from flask import Flask, request',
  'import requests',
  '',
  'app = Flask(__name__)',
  '',
  '@app.route("/fetch")',
  'def fetch():',
  '    url = request.args.get("url")',
  '    resp = requests.get(url, timeout=5)',
  '    return resp.text',
  '',
].join('\n');

// Python with several findings (the catalog's positive examples), for the gated view.
function manyFindings() {
  const rules = readdirSync(new URL('../../data/rules/', import.meta.url).pathname).filter((f) => f.endsWith('.json'))
    .flatMap((f) => JSON.parse(readFileSync(new URL(`../../data/rules/${f}`, import.meta.url), 'utf8')).rules);
  return rules.map((r) => r.examples.positive.find((e) => e.lang === 'py')).filter(Boolean).slice(0, 8).map((e) => e.code).join('\n\n') + '\n';
}

async function waitForFile(d, ext, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const f = readdirSync(d).find((n) => n.endsWith(ext));
    if (f) return join(d, f);
    if (Date.now() > end) throw new Error(`no ${ext} file downloaded into ${d}: ${readdirSync(d)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('open a file with an SSRF, see it marked on its line with the trace, download SARIF; FREE sees the gated view', { skip }, async () => {
  const u = h.srv.addUser('STARTER');
  const { page, problems } = await newPage([/status of 403/]); // the overview asks for the CISO pack: its 403 is why there is no grade
  await signIn(page, u);
  await page.click('a[href="#/code"]');
  await page.waitForSelector('#code-input');
  assert.equal(await page.title(), 'Code scan · bulwark console');
  await check(page, 'code-empty');

  // a file, read in the page: the textarea takes its text, the extension the language
  const file = join(dir, 'proxy.py');
  writeFileSync(file, FLASK_SSRF);
  await page.select('#code-lang', 'js');
  const input = await page.$('#code-file');
  await input.uploadFile(file);
  await page.waitForFunction((t) => document.querySelector('#code-input').value === t, {}, FLASK_SSRF);
  assert.equal(await page.$eval('#code-lang', (e) => e.value), 'py');
  await page.click('#scan-code');
  await page.waitForSelector('#code-view .code-line.marked');
  const marked = await page.$$eval('#code-view .code-line.marked', (ls) => ls.map((l) => ({
    line: Number(l.dataset.line), cls: l.className, notes: [...l.querySelectorAll('.finding-note')].map((n) => ({
      rule: n.dataset.rule, text: n.textContent, trace: [...n.querySelectorAll('.trace li')].map((x) => x.textContent) })) })));
  const ssrf = marked.find((m) => m.notes.some((n) => n.rule === 'BW-SSRF-025'));
  assert.ok(ssrf, JSON.stringify(marked));
  assert.equal(ssrf.line, 9);
  assert.match(ssrf.cls, /sev-high/);
  const note = ssrf.notes.find((n) => n.rule === 'BW-SSRF-025');
  assert.match(note.text, /HIGH/);
  assert.match(note.text, /CWE-918/);
  assert.deepEqual(note.trace.map((t) => t.split(':')[0] + t.match(/line (\d+)/)[1]), ['source8', 'step8', 'sink9']);
  assert.match(await page.$eval('.code-line[data-line="8"]', (e) => e.className), /traced/);
  assert.equal(await page.$eval('#code-view .code-line[data-line="9"] code', (e) => e.textContent), '    resp = requests.get(url, timeout=5)');
  assert.equal(await page.$('#gated-note'), null, 'STARTER sees every finding');
  assert.doesNotMatch(await page.$eval('#code-results', (e) => e.textContent), /null|undefined/);
  await check(page, 'code-findings');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await check(page, 'code-findings-dark');
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);

  // SARIF: saved by the browser from the blob: URL, as a user would get it
  const downloads = mkdtempSync(join(dir, 'dl-'));
  const cdp = await h.browser.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await page.click('#download-sarif');
  await page.waitForFunction(() => /SARIF saved/.test(document.querySelector('#sarif-status').textContent));
  const saved = await waitForFile(downloads, '.sarif');
  assert.match(saved, /bulwark-py\.sarif$/);
  await new Promise((r) => setTimeout(r, 200)); // the browser renames the file when it is complete
  const sarif = JSON.parse(readFileSync(saved, 'utf8'));
  const Ajv4 = require('ajv-draft-04');
  const addFormats = require('ajv-formats');
  const ajv = new Ajv4({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(new URL('../schemas/sarif-schema-2.1.0.json', import.meta.url), 'utf8')));
  assert.ok(validate(sarif), JSON.stringify(validate.errors, null, 1));
  assert.equal(sarif.version, '2.1.0');
  assert.equal(sarif.runs.length, 1);
  const res = sarif.runs[0].results.find((x) => x.ruleId === 'BW-SSRF-025');
  assert.ok(res, JSON.stringify(sarif.runs[0].results));
  assert.equal(res.locations[0].physicalLocation.region.startLine, 9);
  assert.equal(res.codeFlows[0].threadFlows[0].locations.length, 3);
  assert.equal(sarif.runs[0].properties.gated, false);
  await check(page, 'code-sarif');
  assert.deepEqual(problems, []);

  // FREE: pasted code, the gated view
  await page.click('#signout');
  await page.waitForSelector('#email');
  await signIn(page, h.srv.addUser('FREE'));
  await page.click('a[href="#/code"]');
  await page.waitForSelector('#code-input');
  const code = manyFindings();
  await page.$eval('#code-input', (e, t) => { e.value = t; e.dispatchEvent(new Event('input')); }, code);
  await page.select('#code-lang', 'py');
  await page.focus('#code-input');
  await page.keyboard.press('Tab'); // keyboard: Tab to the Scan button, Enter submits
  assert.equal(await page.evaluate(() => document.activeElement.id), 'scan-code');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#gated-note');
  const api = await h.srv.req('POST', '/api/vibe-code/scan', { body: { code, language: 'py' } });
  assert.equal(api.json.gated, true);
  assert.ok(api.json.locked_count > 0, 'the example has more than 3 findings');
  const gated = await page.$eval('#gated-note', (e) => e.textContent);
  assert.match(gated, new RegExp(`top 3 of ${api.json.total_findings} findings`));
  assert.match(gated, new RegExp(`${api.json.locked_count} more are hidden on the FREE plan`));
  assert.equal(await page.$$eval('#code-view .finding-note', (n) => n.length), 3);
  await check(page, 'code-free');
  await page.close();
});
