// `npx tsx scripts/console-screenshots.ts [--check DIR]`: the console's main pages as PNGs in docs/console/, taken in
// chromium from Hearth run in this process on a temporary SQLite store holding the demo community; with --check, also
// every page whole at 360 px and 1280 px wide into DIR, to look over (not for the docs).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { createCommunitiesService } from '../src/communities/communities.service.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/db/store.js';
import { fillDemo } from '../src/demo/demo.service.js';
import { vocabulary } from '../src/demo/vocabulary.js';
import { createOperatorsService } from '../src/operators/operators.service.js';
import { signInUrl } from '../src/operators/sign-in-url.js';
import { upgradeStore } from '../src/store-upgrade.js';

const executablePath = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const check = parseArgs({ options: { check: { type: 'string' } } }).values.check;
const out = fileURLToPath(new URL('../docs/console/', import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 780 };
/** One fixed moment for the demo and the server, so that a new run changes a picture only when the console changed. */
const NOW = Date.parse('2026-03-10T12:00:00Z');
const clock = () => NOW;

if (!existsSync(executablePath)) {
  console.error(`No chromium at ${executablePath} (apt-get install -y chromium, or set CHROMIUM).`);
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'hearth-screenshots-'));
const databaseUrl = join(dir, 'hearth.db');
const store = openStore(databaseUrl);
await upgradeStore(store);
const community = await createCommunitiesService(store.db, store.dialect, clock).create('demo', 'Demo');
await fillDemo(store, community.id, { clock, seed: 1 });
const { link } = await createOperatorsService(store.db, clock).create('ana@example.com', ['demo']);

const config = loadConfig({}, { databaseUrl, host: '127.0.0.1', port: 0, logLevel: 'warn' });
const app = await buildApp(config, { store, clock, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
const base = `http://127.0.0.1:${address.port}`;
const pages = `${base}/console/c/demo`;

const browser = await chromium.launch({
  executablePath,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto(signInUrl({ consoleUrl: base, host: '127.0.0.1', port: 0 }, link));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${pages}/events`);

  // A token and a webhook made as an operator makes them, so that their pages have a row to show.
  await page.goto(`${pages}/tokens`);
  await page.getByLabel('Name', { exact: true }).fill('Website');
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.waitForLoadState();
  await page.goto(`${pages}/webhooks`);
  await page.getByLabel('Address (http or https)').fill('https://hooks.example.com/hearth');
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await page.waitForLoadState();

  const month = new Date(NOW).toISOString().slice(0, 7);
  const shots: [string, string][] = [
    ['events', `${pages}/events?time_filter=upcoming`],
    ['month', `${pages}/events/month?month=${month}`],
    ['event-form', `${pages}/events/new`],
    ['search', `${pages}/content/search?type=post&q=${encodeURIComponent(vocabulary.nouns[0] ?? 'garden')}`],
    ['members', `${pages}/members`],
    ['tokens', `${pages}/tokens`],
    ['webhooks', `${pages}/webhooks`],
    ['imports', `${pages}/imports`],
    ['health', `${pages}/health`],
  ];
  mkdirSync(out, { recursive: true });
  const shoot = async (on: Page, name: string, url: string) => {
    await on.goto(url);
    await on.screenshot({ path: join(out, `${name}.png`) });
    console.log(`docs/console/${name}.png`);
  };
  for (const [name, url] of shots) await shoot(page, name, url);
  // The same console at a phone's width.
  const phone = await context.newPage();
  await phone.setViewportSize(PHONE);
  await shoot(phone, 'events-360', `${pages}/events?time_filter=upcoming`);
  if (check) {
    mkdirSync(check, { recursive: true });
    const extra: [string, string][] = [
      ['past', `${pages}/events?time_filter=past`],
      ['content', `${pages}/content`],
      ['feed', `${pages}/content/feeds/home`],
      ['comments', `${pages}/content/search?type=comment&q=${encodeURIComponent(vocabulary.nouns[0] ?? 'garden')}`],
    ];
    for (const [name, url] of [...shots, ...extra])
      for (const [on, width] of [
        [phone, 360],
        [page, 1280],
      ] as const) {
        await on.goto(url);
        await on.screenshot({ path: join(check, `${name}-${width}.png`), fullPage: true });
      }
    console.log(`${check}: every page at 360 and 1280 px`);
  }
} finally {
  await browser.close();
  await app.close();
  // The app closes only a store it opened itself.
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
