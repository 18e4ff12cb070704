// `hearth serve` with SLACK_SYNC_EVERY (`--slack-sync-every`): the sync of every connected community runs on its
// schedule against a local stand-in of Slack's Web API, heals a message that never came as an event, never runs
// twice at once, and stops with the server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { createSlackConnectionsService } from '../../src/slack/slack-connections.service.js';
import { STAND_IN_TOKEN, startStandIn, type StandIn } from '../helpers/slack-stand-in.js';
import { ts } from '../helpers/slack-workspace.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-schedule-'));
let t: TestApp;
let slack: StandIn;
let server: FastifyInstance | null = null;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  slack = await startStandIn();
  const acme = await t.community('acme');
  token = await t.token(acme);
  await createSlackConnectionsService(t.testStore.store.db).connect(acme, { botToken: STAND_IN_TOKEN });
  // A community without a connection is left alone.
  await t.community('quiet');
});
afterAll(async () => {
  await server?.close();
  await slack?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const homePosts = async () => {
  const res = await t.get('/admin/v0/feeds/home/posts?per_page=100', token);
  return res.statusCode === 200
    ? (res.json().data as { total_records: number; records: { body_plaintext: string }[] })
    : null;
};
const runs = () => slack.calls.filter((call) => call.method === 'auth.test').map((call) => call.at);

describe('the scheduled Slack sync', () => {
  it('runs on its schedule, heals a message that never came as an event, and stops with the server', async () => {
    const config = loadConfig(
      {},
      {
        databaseUrl: t.testStore.url,
        port: 0,
        logLevel: 'silent',
        slackApiUrl: slack.url,
        slackSyncEvery: '1s',
      },
    );
    server = await startServer(config, { slackStateDir: dir });
    // The first run (a second after the start) brings the workspace's history: general's six posts on home.
    const first = await eventually(homePosts, (posts) => posts?.total_records === 6);
    expect(first?.records.map((p) => p.body_plaintext)).not.toContain('Healed by the schedule');

    // A message Slack never delivered as an event: the next run finds it.
    slack.messages.get('C01GENERAL')?.push({
      type: 'message',
      user: 'U02BOB',
      ts: ts(5 * 86_400, 7),
      text: 'Healed by the schedule',
    });
    const healed = await eventually(homePosts, (posts) => posts?.total_records === 7);
    expect(healed?.records[0]?.body_plaintext).toBe('Healed by the schedule');
    const connection = await t.testStore.store.db
      .selectFrom('slack_connections')
      .select('synced_at')
      .executeTakeFirstOrThrow();
    expect(connection.synced_at).not.toBeNull();

    // Runs follow one another a second apart (end to start), never overlapping: each begins with auth.test
    // after the previous one's last call.
    const starts = runs();
    expect(starts.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < starts.length; i++) {
      const before = slack.calls.filter((call) => call.at < (starts[i] ?? 0)).at(-1);
      expect((starts[i] ?? 0) - (before?.at ?? 0)).toBeGreaterThanOrEqual(900);
    }

    // Stopped with the server: no call after the close.
    await server.close();
    server = null;
    const made = slack.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(slack.calls.length).toBe(made);
  });
});

describe('hearth serve --slack-sync-every', () => {
  it('refuses a duration that is not one, before listening', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const run = (args: string[], env: Record<string, string> = {}) =>
      main(
        args,
        { out: (line) => out.push(line), err: (line) => err.push(line) },
        { DATABASE_URL: t.testStore.url, ...env },
        { progress: new PassThrough(), stdin: new PassThrough(), stdout: new PassThrough() },
      );
    expect(await run(['serve', '--port', '0', '--slack-sync-every', '0h'])).toBe(1);
    expect(await run(['serve', '--port', '0'], { SLACK_SYNC_EVERY: '1.5h' })).toBe(2);
    expect({ out, err }).toEqual({
      out: [],
      err: [
        "hearth: Invalid duration '0h': use a positive whole number and one of s, m, h, d, w (e.g. 30d).",
        "Invalid configuration: SLACK_SYNC_EVERY: got '1.5h'; allowed: a duration such as 1h, 30m or 1d, or unset",
      ],
    });
  });
});
