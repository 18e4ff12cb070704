// The /docs page renders in Debian's chromium (via playwright-core) from this server alone and lists every operation; skipped, saying so, without chromium.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const executablePath = '/usr/bin/chromium';
const hasChromium = existsSync(executablePath);
if (!hasChromium) console.log(`The /docs browser test is skipped: ${executablePath} is not installed (apt-get install -y chromium).`);

const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Operation {
  summary: string;
}

describe.skipIf(!hasChromium)('GET /docs in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let summaries: string[];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
    base = `http://127.0.0.1:${address.port}`;
    const document = (await (await fetch(`${base}/admin/v0/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    summaries = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.summary));
    browser = await chromium.launch({ executablePath, args });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists every operation by its summary, loading nothing from anywhere else', async () => {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const failures: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(base) && !url.startsWith('data:')) elsewhere.push(url);
    });
    page.on('pageerror', (error) => failures.push(error.message));
    page.on('requestfailed', (request) => failures.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));

    const res = await page.goto(`${base}/docs`);
    expect(res?.status()).toBe(200);
    await page.getByText('List calendar events', { exact: true }).waitFor({ timeout: 15_000 });
    const listed = await page.locator('.opblock-summary-description').allTextContents();

    expect(summaries.length).toBeGreaterThanOrEqual(5);
    expect([...listed].sort()).toEqual([...summaries].sort());
    expect(await page.locator('.btn.authorize').count()).toBe(1);
    expect(elsewhere).toEqual([]);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('opens an operation with its parameters and a captured example', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/docs#/Calendar%20events/listCalendarEvents`);
    const operation = page.locator('#operations-Calendar_events-listCalendarEvents');
    await operation.locator('.parameters').waitFor({ timeout: 15_000 });
    const text = await operation.innerText();
    expect(text).toContain('time_filter');
    expect(text).toContain('Needs a token with the read scope.');
    expect(text).toContain('Past events, one per page');
    await page.close();
  });
});
