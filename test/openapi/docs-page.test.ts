// The /docs page renders in Debian's chromium (via playwright-core) from this server alone: Hearth's own header, every
// operation, and "Try it out" with a token answering real data; a screenshot is saved in test-output/. Skipped, saying so, without chromium.
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords } from '../../fixtures/community.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const executablePath = '/usr/bin/chromium';
const outputDir = new URL('../../test-output/', import.meta.url).pathname;
const screenshot = `${outputDir}docs-try-it-out.png`;
const hasChromium = existsSync(executablePath);
if (!hasChromium)
  console.log(`The /docs browser test is skipped: ${executablePath} is not installed (apt-get install -y chromium).`);

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
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ now: Date.parse('2026-03-08T12:00:00Z') });
    ({ token } = await t.seed('docs', baseRecords, ['read']));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
    base = `http://127.0.0.1:${address.port}`;
    const document = (await (await fetch(`${base}/admin/v0/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
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
    page.on('requestfailed', (request) =>
      failures.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`),
    );

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

  it("is Hearth's page: its title, its header, no spec sections, no Swagger or fastify branding", async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/docs`);
    await page.getByText('List calendar events', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await page.title()).toBe('Hearth API');
    const logo = page.locator('.topbar img');
    expect(await logo.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/\/docs\/static\/theme\/favicon\.svg$/);
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/spec \d/i);
    expect(text).not.toMatch(/fastify|swagger/i);
    mkdirSync(outputDir, { recursive: true });
    await page.screenshot({ path: `${outputDir}docs-page.png` });
    await page.close();
  });

  it('authorises with a token and runs "Try it out" on list events, nothing pre-filled that changes the answer', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(`${base}/docs#/Calendar%20events/listCalendarEvents`);
    await page.locator('.btn.authorize').first().waitFor({ timeout: 15_000 });

    await page.locator('.btn.authorize').first().click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').fill(token);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click();
    await dialog.locator('button.btn-done').click();

    const operation = page.locator('#operations-Calendar_events-listCalendarEvents');
    await operation.locator('.parameters').waitFor({ timeout: 15_000 });
    await operation.getByRole('button', { name: 'Try it out' }).click();
    expect(await operation.locator('tr[data-param-name="date_filter"] input').inputValue()).toBe('');
    await operation.locator('tr[data-param-name="time_filter"] select').selectOption('upcoming');
    await operation.getByRole('button', { name: 'Execute' }).click();

    const live = operation.locator('.live-responses-table tr.response');
    await live.locator('.response-col_status').waitFor({ timeout: 15_000 });
    expect((await live.locator('.response-col_status').innerText()).trim()).toBe('200');
    const answer = await live.locator('.response-col_description pre.microlight').first().innerText();
    const body = JSON.parse(answer) as { data: { records: { title: string }[]; total_records: number } };
    const expected = (await t.get('/admin/v0/calendar_events?time_filter=upcoming', token)).json<{
      data: { records: { title: string }[]; total_records: number };
    }>();
    expect(body.data.total_records).toBe(expected.data.total_records);
    expect(body.data.records.map((r) => r.title)).toEqual(expected.data.records.map((r) => r.title));
    const requestUrl = await operation.locator('.request-url').innerText();
    expect(requestUrl).toMatch(/\/admin\/v0\/calendar_events\?(.*&)?time_filter=upcoming/);
    expect(requestUrl).not.toContain('date_filter');

    mkdirSync(outputDir, { recursive: true });
    await operation.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshot, fullPage: false });
    console.log(`The /docs screenshot: ${screenshot}`);
    expect(existsSync(screenshot)).toBe(true);
    await page.close();
  }, 60_000);
});
