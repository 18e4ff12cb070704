// The console in Debian's chromium (playwright-core), over real HTTP, 360 px wide: sign in, create an event the API
// then lists, a stale edit refused, members added and deactivated, a token created then revoked (the API answers
// 401), a webhook whose delivery is seen, an import watched through its phases and a refused one, sign out. Every
// page passes axe-core with no serious or critical violation and fits the width. Skipped, saying so, without chromium.
/// <reference lib="dom" />
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseRecords, feedIds, profileIds } from '../../fixtures/community.js';
import { listAudit } from '../../src/audit/audit.service.js';
import { createOperatorsService } from '../../src/operators/operators.service.js';
import { signInUrl } from '../../src/operators/sign-in-url.js';
import { startDispatcher, type Dispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const executablePath = '/usr/bin/chromium';
const hasChromium = existsSync(executablePath);
if (!hasChromium)
  console.log(`The console browser test is skipped: ${executablePath} is not installed (apt-get install -y chromium).`);
const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-sync',
];

interface Delivery {
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that keeps what it is sent and answers 204. */
async function receiver(): Promise<{ url: string; received: Delivery[]; server: Server }> {
  const received: Delivery[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return { url: `http://127.0.0.1:${address.port}/hooks`, received, server };
}

/** Posts in the imported file: enough that the import takes seconds, so its page is seen going through its phases. */
const IMPORTED = 40_000;

/** An NDJSON file of a feed, an author and `count` posts: big enough that the import is seen in its phases. */
function bigImport(count: number): Buffer {
  const feed = '0f0f0f0f-0000-4000-8000-000000000001';
  const author = '0f0f0f0f-0000-4000-8000-0000000000a1';
  const lines = [
    JSON.stringify({ kind: 'feed', id: feed, label: 'Imported', created_at: '2025-06-01T00:00:00Z' }),
    JSON.stringify({
      kind: 'profile',
      id: author,
      preferred_name: 'Imported Author',
      created_at: '2025-06-01T00:00:00Z',
    }),
  ];
  for (let i = 0; i < count; i++)
    lines.push(
      JSON.stringify({
        kind: 'post',
        id: `imp${String(i).padStart(9, '0')}`,
        created_at: '2025-06-02T00:00:00Z',
        title: `Imported post ${i}`,
        feed_id: feed,
        author_profile_id: author,
        body_plaintext: `Imported post number ${i}.`,
      }),
    );
  return Buffer.from(`${lines.join('\n')}\n`);
}

describe.skipIf(!hasChromium)('the console in Chromium', () => {
  let t: TestApp;
  let acme: string;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dispatcher: Dispatcher;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  const checked: string[] = [];

  /** axe-core on the page: no serious or critical violation; and nothing wider than the 360 px window. */
  async function check(on: Page, name: string): Promise<void> {
    const results = await new AxeBuilder({ page: on }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious).toEqual([]);
    expect(await on.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    checked.push(name);
  }

  const notice = (on: Page) => on.locator('p.notice').innerText();
  /** The cells of a page's table body rows, as text. */
  const cells = (on: Page) =>
    on
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => Array.from((row as HTMLTableRowElement).cells).map((c) => c.innerText.trim())),
      );
  const api = (path: string, token: string) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await createTestApp({ config: { webhookAllowPrivate: true } });
    ({ community: acme } = await t.seed('acme', baseRecords, ['read']));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
    base = `http://127.0.0.1:${address.port}`;
    hooks = await receiver();
    dispatcher = startDispatcher({
      store: t.testStore.store,
      config: {
        webhookAllowPrivate: true,
        webhookTimeoutMs: 2000,
        webhookRetryBaseMs: 60_000,
        webhookPollMs: 100,
        webhookConcurrency: 2,
        webhookRetentionDays: 7,
      },
      log: t.app.log,
      clock: () => t.clock.now,
      onMessages: (wake) => t.app.writes.committed.subscribe((commit) => commit.messages > 0 && wake()),
    });
    browser = await chromium.launch({ executablePath, args });
    context = await browser.newContext({ viewport: { width: 360, height: 780 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await dispatcher?.stop();
    hooks?.server.close();
    await t?.close();
  });

  it('signs in with a one-time link', async () => {
    const operators = createOperatorsService(t.testStore.store.db, () => t.clock.now);
    const { link } = await operators.create('ops@example.com', ['acme']);
    const url = signInUrl({ consoleUrl: base, host: '127.0.0.1', port: 0 }, link);
    await page.goto(url);
    await check(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console/c/acme/events`);
    expect(await page.locator('.who').innerText()).toBe('ops@example.com');
    await check(page, 'events');
    // The link is spent.
    const other = await browser.newPage();
    await other.goto(url);
    await other.getByRole('button', { name: 'Sign in' }).click();
    expect(await other.locator('.problem').innerText()).toContain(
      'This sign-in link is unknown, already used or expired',
    );
    await other.close();
  });

  let eventId = '';
  let signingSecret = '';
  it('creates an event, which GET /admin/v0/calendar_events then lists', async () => {
    await page.getByRole('link', { name: 'New event' }).click();
    await check(page, 'new event');
    await page.getByLabel('Title').fill('Console meetup');
    await page.getByLabel('Starts (in the time zone below)').fill('2026-04-01T18:00');
    await page.getByLabel('Ends').fill('2026-04-01T20:00');
    await page.getByLabel('Time zone (IANA, such as Europe/Paris; empty for UTC)').fill('Europe/Paris');
    await page.getByLabel('Hosts (e-mails or profile ids, comma-separated, 1 to 5)').fill('ada@example.com');
    await page.getByLabel('Description').fill('Bring a friend.');
    await page.getByLabel('Location').fill('The library');
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.waitForURL(/\/console\/c\/acme\/events\/[a-z0-9]{12}$/);
    expect(await notice(page)).toBe('Event “Console meetup” created.');
    eventId = page.url().slice(-12);
    await check(page, 'edit event');

    const token = await t.token(acme, ['read']);
    const listed = (await (await api('/admin/v0/calendar_events?time_filter=upcoming&per_page=100', token)).json()) as {
      data: { records: Record<string, unknown>[] };
    };
    const event = listed.data.records.find((r) => r['id'] === eventId);
    expect(event).toMatchObject({
      title: 'Console meetup',
      start_date: '2026-04-01T18:00:00+02:00',
      end_date: '2026-04-01T20:00:00+02:00',
      location: 'The library',
      status: 'published',
      description_chat_blocks: [
        {
          type: 'rich_text',
          elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Bring a friend.' }] }],
        },
      ],
    });
    expect(((event?.['hosts'] ?? []) as { profile_id: string }[]).map((h) => h.profile_id)).toEqual([profileIds.ada]);
    // The list and the month view show it (the month's days and times are UTC: 18:00 at +02:00 is 16:00).
    await page.goto(`${base}/console/c/acme/events?time_filter=upcoming`);
    await expect(page.getByRole('link', { name: 'Console meetup' }).count()).resolves.toBe(1);
    await page.goto(`${base}/console/c/acme/events/month?month=2026-04`);
    await check(page, 'month');
    expect(await page.locator('td[data-date="2026-04-01"] li').allInnerTexts()).toEqual(['16:00 Console meetup']);
  });

  it('refuses an edit made while another tab changed the event, and says so', async () => {
    const path = `${base}/console/c/acme/events/${eventId}`;
    await page.goto(path);
    const other = await context.newPage();
    await other.goto(path);
    await other.getByLabel('Title').fill('Console meetup (moved)');
    await other.getByRole('button', { name: 'Save event' }).click();
    await other.waitForURL(path);
    expect(await notice(other)).toBe('Event “Console meetup (moved)” saved.');
    await other.close();

    await page.getByLabel('Location').fill('The town hall');
    await page.getByRole('button', { name: 'Save event' }).click();
    expect(await page.locator('.problem').innerText()).toContain(
      'Someone changed this event after you opened it, so your edit was not saved.',
    );
    // The form now shows the event as it is.
    expect(await page.getByLabel('Title').inputValue()).toBe('Console meetup (moved)');
    expect(await page.getByLabel('Location').inputValue()).toBe('The library');
    await check(page, 'stale edit');
    const token = await t.token(acme, ['read']);
    const got = (await (await api(`/admin/v0/calendar_events/${eventId}`, token)).json()) as {
      data: Record<string, unknown>;
    };
    expect([got.data['title'], got.data['location']]).toEqual(['Console meetup (moved)', 'The library']);
  });

  it('adds a webhook and shows the delivery of a change', async () => {
    await page.goto(`${base}/console/c/acme/webhooks`);
    await check(page, 'webhooks');
    await page.getByLabel('Address (http or https)').fill(hooks.url);
    await page
      .getByLabel('Event types (comma-separated, such as calendar_event.*, member.*; empty for all)')
      .fill('member.*');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    signingSecret = await page.getByLabel('Signing secret').inputValue();
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await check(page, 'webhook added');
  });

  it('adds and deactivates a member', async () => {
    await page.goto(`${base}/console/c/acme/members`);
    await check(page, 'members');
    await page.getByLabel('E-mail', { exact: true }).fill('Lin@Example.com');
    await page.getByLabel('Full name (first and last)').fill('Lin Mae');
    await page.getByRole('button', { name: 'Add member' }).click();
    expect(await notice(page)).toBe('New member was created successfully. (Lin@Example.com)');
    await page.getByLabel('Name or e-mail').fill('lin');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await cells(page)).toEqual([['Lin@Example.com', 'Lin Mae', 'Active', 'Deactivate']]);
    t.clock.now += 1000;
    await page.getByRole('button', { name: 'Deactivate Lin@Example.com' }).click();
    expect(await notice(page)).toBe('Member was deactivated successfully. (Lin@Example.com)');
    await page.getByLabel('Name or e-mail').fill('lin');
    await page.getByRole('button', { name: 'Search' }).click();
    expect(await cells(page)).toEqual([['Lin@Example.com', 'Lin Mae', 'Deactivated', 'Reactivate']]);
    // A name that breaks the API's rule is refused with the API's words.
    await page.getByLabel('E-mail', { exact: true }).fill('solo@example.com');
    await page.getByLabel('Full name (first and last)').fill('Solo');
    await page.getByRole('button', { name: 'Add member' }).click();
    expect(await page.locator('.problem').innerText()).toContain(
      "Invalid body field 'full_name': must be a first and a last name separated by a space.",
    );
    await check(page, 'member refused');
    const audit = (await listAudit(t.testStore.store.db, acme, 10)).filter((r) => r.action.startsWith('member.'));
    expect(audit.map((r) => [r.action, r.token_id])).toEqual([
      ['member.deactivated', 'operator:ops@example.com'],
      ['member.created', 'operator:ops@example.com'],
    ]);
  });

  it('shows the webhook deliveries with status and timing, and replays one', async () => {
    const [first] = await (async () => {
      for (let i = 0; i < 200 && hooks.received.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      return hooks.received;
    })();
    expect(hooks.received).toHaveLength(2);
    const secret = await (async () => {
      await page.goto(`${base}/console/c/acme/webhooks`);
      return null;
    })();
    expect(secret).toBeNull();
    const sent = hooks.received.map((d) => JSON.parse(d.body) as { type: string; data: { email: string } });
    expect(sent.map((m) => [m.type, m.data.email])).toEqual([
      ['member.created', 'Lin@Example.com'],
      ['member.deactivated', 'Lin@Example.com'],
    ]);
    expect(first?.headers['webhook-signature']).toMatch(/^v1,/);
    // Signed with the secret the console showed once, as Standard Webhooks says.
    // (Compared, not `verify`d: the test's clock dates the messages months from the wall clock `verify` checks.)
    for (const d of hooks.received)
      expect(d.headers['webhook-signature']).toBe(
        new Webhook(signingSecret).sign(
          String(d.headers['webhook-id']),
          new Date(Number(d.headers['webhook-timestamp']) * 1000),
          d.body,
        ),
      );
    await page.getByRole('link', { name: hooks.url }).click();
    await check(page, 'deliveries');
    const rows = await cells(page);
    expect(rows.map((r) => r.slice(1, 4))).toEqual([
      ['member.deactivated', '1', '204 delivered'],
      ['member.created', '1', '204 delivered'],
    ]);
    for (const row of rows) expect([row[4], row[5]]).toEqual([expect.stringMatching(/^\d+ ms$/), 'delivered']);
    await page.getByRole('button', { name: /^Replay member.created/ }).click();
    expect(await notice(page)).toMatch(/^Message msg_[A-Za-z0-9_-]+ \(member.created\) queued to be sent again\.$/);
    for (let i = 0; i < 200 && hooks.received.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
    expect(hooks.received[2]?.body).toBe(hooks.received[0]?.body);
    expect(hooks.received[2]?.headers['webhook-id']).toBe(hooks.received[0]?.headers['webhook-id']);
  });

  it('creates a token, shown once, and revokes it: the API then answers 401', async () => {
    await page.goto(`${base}/console/c/acme/tokens`);
    await check(page, 'tokens');
    await page.getByLabel('Name', { exact: true }).fill('newsletter');
    await page.getByLabel('Expires').selectOption('30d');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^hth_[A-Za-z0-9_-]{43}$/);
    await check(page, 'token created');
    const ok = await api('/admin/v0/calendar_events', secret);
    expect(ok.status).toBe(200);
    await page.goto(`${base}/console/c/acme/tokens`);
    expect(await page.getByLabel('Secret').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke token newsletter' }).click();
    expect(await notice(page)).toBe('Token newsletter revoked: the API now refuses it.');
    const refused = await api('/admin/v0/calendar_events', secret);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('unauthorized');
  });

  it('imports a file while its phases are shown, then refuses a bad one keeping nothing', {
    timeout: 300_000,
  }, async () => {
    await page.goto(`${base}/console/c/acme/imports`);
    await check(page, 'imports');
    const statuses: { state: string; phase: string }[] = [];
    // A status answered just as the page moved on has no body left to read: that one is not counted.
    page.on('response', (response) => {
      if (!response.url().endsWith('/status')) return;
      response.json().then(
        (status) => statuses.push(status as { state: string; phase: string }),
        () => {},
      );
    });
    // From a file on disk: a buffer this size would crawl through the browser's protocol.
    const dir = mkdtempSync(join(tmpdir(), 'hearth-console-'));
    const file = join(dir, 'big.ndjson');
    writeFileSync(file, bigImport(IMPORTED));
    await page.getByLabel('File', { exact: true }).setInputFiles(file);

    await page.getByRole('button', { name: 'Import' }).click({ timeout: 120_000 });
    await page.waitForURL(/\/imports\/jobs\/[0-9a-f-]{36}$/);

    await page.locator('#job-state', { hasText: `Imported ${IMPORTED + 2} records.` }).waitFor({ timeout: 120_000 });
    rmSync(dir, { recursive: true, force: true });
    await check(page, 'import done');

    const running = statuses.filter((s) => s.state === 'running').map((s) => s.phase);
    expect(running.length).toBeGreaterThan(0);
    const order = ['starting', 'reading', 'checking', 'indexing', 'rendering', 'searching', 'committing'];
    expect(running.map((p) => order.indexOf(p))).toEqual(
      [...running.map((p) => order.indexOf(p))].sort((a, b) => a - b),
    );
    const report = await page.locator('#job-report tr').evaluateAll((rows) =>
      rows.map((row) =>
        Array.from((row as HTMLTableRowElement).cells)
          .map((c) => c.innerText.trim())
          .join(' '),
      ),
    );
    expect(report).toEqual(
      expect.arrayContaining([`records ${IMPORTED + 2}`, 'feeds 1', 'profiles 1', `posts ${IMPORTED}`, 'comments 0']),
    );

    t.clock.now += 1000;
    await page.goto(`${base}/console/c/acme/imports`);
    const bad = [
      JSON.stringify({ kind: 'feed', id: feedIds.general, label: 'Renamed' }),
      JSON.stringify({
        kind: 'post',
        id: 'badpost00001',
        title: 'No feed',
        feed_id: '0f0f0f0f-0000-4000-8000-00000000dead',
      }),
      '{not json',
    ].join('\n');
    await page
      .getByLabel('File', { exact: true })
      .setInputFiles({ name: 'bad.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(bad) });
    await page.getByRole('button', { name: 'Import' }).click();
    await page
      .locator('#job-state', { hasText: 'Refused: nothing of the file was imported.' })
      .waitFor({ timeout: 60_000 });
    const problems = await page.locator('.problems li').allInnerTexts();
    expect(problems).toEqual([
      'line 2: post: created_at is required',
      expect.stringMatching(/^line 3: not valid JSON \(/),
    ]);
    await check(page, 'import refused');
    const token = await t.token(acme, ['read']);
    const feed = (await (await api(`/admin/v0/feeds/${feedIds.general}`, token)).json()) as { data: { label: string } };
    expect(feed.data.label).toBe('General');
    await page.goto(`${base}/console/c/acme/imports`);
    const history = await cells(page);
    expect(history.map((row) => row.slice(1, 5))).toEqual([
      ['import', 'console: bad.ndjson (ops@example.com)', expect.stringMatching(/^refused: 2 problems: line 2: /), '1'],
      ['import', 'console: big.ndjson (ops@example.com)', 'completed', String(IMPORTED + 2)],
      ['import', '', 'completed', String(baseRecords.length)],
    ]);
  });

  it('browses content, searches with highlights, and shows health and the audit trail', async () => {
    await page.goto(`${base}/console/c/acme/content`);
    await check(page, 'content');
    await page.getByRole('link', { name: 'Imported' }).click();
    await check(page, 'posts');
    expect(await page.locator('.posts li').count()).toBe(20);
    await page.getByRole('link', { name: 'Next page' }).click();
    expect(page.url()).toContain('page=1');
    await page.locator('.posts a').first().click();
    await check(page, 'post');
    await page.goto(`${base}/console/c/acme/content/search?q=number+${IMPORTED - 1}&type=post`);
    await check(page, 'search');
    expect(await page.locator('.hits .highlight mark').allInnerTexts()).toEqual([
      String(IMPORTED - 1),
      'number',
      String(IMPORTED - 1),
    ]);
    await page.goto(`${base}/console/c/acme/health`);
    await check(page, 'health');
    const server = await page
      .locator('table')
      .first()
      .evaluate((table) =>
        Array.from((table as HTMLTableElement).rows).map((row) => Array.from(row.cells).map((c) => c.innerText.trim())),
      );
    expect(server[0]).toEqual(['Store', expect.stringMatching(/^(sqlite|postgres): ok \(answered in \d+\.\d ms\)$/)]);
    expect(server[1]).toEqual(['Redis', 'not configured (each process counts its own rate limits)']);
    expect(server[2]?.[1]).toMatch(/^\d+\.\d % hits \(\d+ hits, \d+ misses\)$/);
    expect(await page.locator('tbody').last().innerText()).toContain('calendar_event.updated');
    await page.goto(`${base}/console/c/acme/nothing-here`);
    await check(page, 'not found');
  });

  it('signs out', async () => {
    await page.goto(`${base}/console/c/acme/events`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/console/sign-in`);
    expect(await notice(page)).toBe('Signed out.');
    await page.goto(`${base}/console/c/acme/events`);
    expect(page.url()).toBe(`${base}/console/sign-in`);
    expect(checked.length).toBeGreaterThanOrEqual(20);
  });
});
