// Socket Mode against a local stand-in of Slack's sockets: apps.connections.open asked with the app-level token, each
// events_api envelope written to the inbox once (a retry is a no-op) and acknowledged by its envelope_id only after
// the write committed (held back while another writer holds the table; never sent for one that failed), a malformed one acknowledged and dropped, and a
// `disconnect` answered with a new socket that goes on; the applier then applies what came in.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteDriver } from '../../src/db/sqlite-driver.js';
import { createInboxApplier } from '../../src/slack/inbox-applier.js';
import { createSlackConnectionsService } from '../../src/slack/slack-connections.service.js';
import { feedIdOf, messageIdOf } from '../../src/slack/slack-ids.js';
import { startSocketMode, type SocketMode, type SocketModeOptions } from '../../src/slack/socket-mode.js';
import { slackApi } from '../../src/slack/web-api.js';
import { envelope } from '../helpers/slack-events.js';
import { startSocketStandIn, type SocketStandIn } from '../helpers/slack-socket-stand-in.js';
import { STAND_IN_TOKEN } from '../helpers/slack-stand-in.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const APP_TOKEN = 'xapp-1-A0HEARTH-2222-socketstandin';
const GENERAL = 'C01GENERAL';
let t: TestApp;
let slack: SocketStandIn;
let sockets: SocketMode;
let communityId: string;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  slack = await startSocketStandIn();
  communityId = await t.community('acme');
  // A community without an app-level token gets no socket.
  const plain = await t.community('plain');
  const connections = createSlackConnectionsService(t.testStore.store.db, () => t.clock.now);
  await connections.connect(communityId, { botToken: STAND_IN_TOKEN, appToken: APP_TOKEN });
  await connections.connect(plain, { botToken: STAND_IN_TOKEN });
  await t.importRecords(communityId, [
    { kind: 'feed', id: feedIdOf(GENERAL), label: 'general', chat_channel_id: GENERAL, chat_channel_name: 'general' },
  ]);
  const log = {
    info: (_: object, line: string) => void lines.push(`info ${line}`),
    warn: (_: object, line: string) => void lines.push(`warn ${line}`),
    error: (_: object, line: string) => void lines.push(`error ${line}`),
  } as unknown as SocketModeOptions['log'];
  sockets = await startSocketMode({ store: t.testStore.store, intake: t.app.slackIntake, apiUrl: slack.url, log });
  await sockets.ready;
}, 30_000);
afterAll(async () => {
  await sockets?.stop();
  await slack?.close();
  await t?.close();
});

const inbox = () =>
  t.testStore.store.db
    .selectFrom('slack_inbox')
    .select(['event_id', 'state'])
    .where('community_id', '=', communityId)
    .orderBy('id')
    .execute();

const message = (ts: string, text: string) => ({
  type: 'message',
  channel: GENERAL,
  user: 'U01ALICE',
  text,
  ts,
  event_ts: ts,
  channel_type: 'channel',
});

/** Another connection holding the inbox's table against writes until `release` (as a long writer elsewhere would). */
async function lockInbox(): Promise<{ release(): Promise<void> }> {
  const url = t.testStore.url;
  if (/^postgres(ql)?:/.test(url)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('begin');
    await client.query('lock table slack_inbox in exclusive mode');
    return {
      async release() {
        await client.query('commit');
        await client.end();
      },
    };
  }
  const other = new SqliteDriver(url);
  other.exec('begin immediate');
  return {
    async release() {
      other.exec('commit');
      other.close();
    },
  };
}

describe('Slack Socket Mode', () => {
  it('opens one socket, for the community with an app-level token, asking with that token', async () => {
    expect(sockets.count).toBe(1);
    expect(slack.opens).toEqual([APP_TOKEN]);
    expect(lines).toEqual(['info Slack Socket Mode connected']);
  });

  it('writes each envelope to the inbox once and acknowledges it after the write; a retry is a no-op', async () => {
    const ts = '1773144000.000100';
    const payload = envelope(message(ts, 'Over the socket'), 'EvSOCK1');
    slack.sendEvent('env-0001', payload);
    expect(await slack.ackOf('env-0001')).toEqual({ envelope_id: 'env-0001', socket: 1 });
    expect(await inbox()).toEqual([{ event_id: 'EvSOCK1', state: 'pending' }]);
    slack.sendEvent('env-0002', payload, 1);
    expect(await slack.ackOf('env-0002')).toEqual({ envelope_id: 'env-0002', socket: 1 });
    expect(await inbox()).toEqual([{ event_id: 'EvSOCK1', state: 'pending' }]);
    const applier = createInboxApplier({
      store: t.testStore.store,
      writes: t.app.writes,
      clock: () => t.clock.now,
      apiFor: (botToken) => slackApi({ token: botToken, apiUrl: slack.url, retries: 0 }),
    });
    expect(await applier.applyDue()).toEqual({ applied: 1, ignored: 0, retried: 0, parked: 0 });
    const post = await t.testStore.store.db
      .selectFrom('posts')
      .select('body_plaintext')
      .where('id', '=', messageIdOf(GENERAL, ts))
      .executeTakeFirst();
    expect(post).toEqual({ body_plaintext: 'Over the socket' });
  });

  it('holds the acknowledgement back while the write waits; one it could not store is left for Slack to resend', async () => {
    // Another writer holds the inbox's table. SQLite: the write gives up after the busy timeout (5 s) and the
    // envelope is never acknowledged. PostgreSQL (the test store sets no query deadline): it waits, and is
    // acknowledged once written.
    const sqlite = !/^postgres(ql)?:/.test(t.testStore.url);
    const lock = await lockInbox();
    const payload = envelope(message('1773144000.000200', 'Written late'), 'EvSOCK2');
    try {
      slack.sendEvent('env-0003', payload);
      await expect(slack.ackOf('env-0003', 6000)).rejects.toThrow('did not happen within 6000 ms');
    } finally {
      await lock.release();
    }
    if (sqlite) expect(lines.at(-1)).toBe('error Slack envelope not stored; not acknowledged');
    else expect(await slack.ackOf('env-0003')).toEqual({ envelope_id: 'env-0003', socket: 1 });
    // Slack sends it again: stored (once) and acknowledged.
    slack.sendEvent('env-0003r', payload, 1);
    expect(await slack.ackOf('env-0003r')).toEqual({ envelope_id: 'env-0003r', socket: 1 });
    expect((await inbox()).map((row) => row.event_id)).toEqual(['EvSOCK1', 'EvSOCK2']);
  }, 30_000);

  it('acknowledges and drops an envelope without an event_id, and anything that is not an event', async () => {
    slack.sendEvent('env-0004', {
      type: 'event_callback',
      team_id: 'T01ACME',
      event: message('1773144000.000250', 'x'),
    });
    slack.send({ envelope_id: 'env-0005', type: 'slash_commands', payload: { command: '/hearth' } });
    expect(await slack.ackOf('env-0004')).toEqual({ envelope_id: 'env-0004', socket: 1 });
    expect(await slack.ackOf('env-0005')).toEqual({ envelope_id: 'env-0005', socket: 1 });
    expect((await inbox()).map((row) => row.event_id)).toEqual(['EvSOCK1', 'EvSOCK2']);
    expect(lines.at(-1)).toBe(
      "warn Slack envelope refused: An event_callback needs an 'event_id' and an 'event' object.",
    );
  });

  it('drops a message the client cannot read (an events_api envelope without its event, JSON null) and goes on', async () => {
    slack.send({ envelope_id: 'env-0005b', type: 'events_api' });
    slack.sendRaw('null');
    slack.sendEvent('env-0005c', envelope(message('1773144000.000260', 'After the unreadable'), 'EvSOCK2b'));
    expect(await slack.ackOf('env-0005c')).toEqual({ envelope_id: 'env-0005c', socket: 1 });
    expect((await inbox()).map((row) => row.event_id)).toEqual(['EvSOCK1', 'EvSOCK2', 'EvSOCK2b']);
    expect(lines.filter((line) => line.includes('not an envelope'))).toEqual([
      'warn Slack Socket Mode: a message that is not an envelope was dropped',
      'warn Slack Socket Mode: a message that is not an envelope was dropped',
    ]);
  });

  it('opens a new socket after a disconnect message and goes on there', async () => {
    slack.send({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'applink-stand-in' } });
    await slack.opened(2);
    expect(slack.opens).toEqual([APP_TOKEN, APP_TOKEN]);
    slack.sendEvent('env-0006', envelope(message('1773144000.000300', 'After the refresh'), 'EvSOCK3'));
    expect(await slack.ackOf('env-0006')).toEqual({ envelope_id: 'env-0006', socket: 2 });
    expect((await inbox()).map((row) => row.event_id)).toEqual(['EvSOCK1', 'EvSOCK2', 'EvSOCK2b', 'EvSOCK3']);
  });
});
