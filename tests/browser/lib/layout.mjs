// checkPage (lib/harness.mjs) and, at a phone's width (390 px), nothing wider than the screen: a
// page that makes a phone scroll sideways fails.
import assert from 'node:assert/strict';
import { checkPage } from './harness.mjs';

export async function check(page, name) {
  await checkPage(page, name);
  await page.setViewport({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.setViewport({ width: 1280, height: 800 });
  assert.ok(wide <= 390, `${name}: ${wide} px wide at 390`);
}
