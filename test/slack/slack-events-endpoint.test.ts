// The Events API request URL: Slack's published signature test vector, url_verification, an event written to the
// inbox once however often Slack retries it, and every unsigned, badly signed or stale request refused with 401
// before anything is parsed or stored.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteDriver } from '../../src/db/sqlite-driver.js';
import { isSignedBySlack } from '../../src/slack-inbox/slack-signature.js';
import { createSlackConnectionsService } from '../../src/slack/slack-connections.service.js';
import { envelope, postEvent, SIGNING_SECRET, signed } from '../helpers/slack-events.js';
import { STAND_IN_TOKEN } from '../helpers/slack-stand-in.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let seconds: number;
let communityId: string;

beforeAll(async () => {
  t = await createTestApp();
  seconds = Math.floor(t.clock.now / 1000);
  communityId = await t.community('acme');
  await t.community('plain');
  const unsigned = await t.community('unsigned');
  const connections = createSlackConnectionsService(t.testStore.store.db, () => t.clock.now);
  await connections.connect(communityId, { botToken: STAND_IN_TOKEN, signingSecret: SIGNING_SECRET });
  await connections.connect(unsigned, { botToken: STAND_IN_TOKEN });
});
afterAll(async () => t?.close());

/** Another connection to the test's store with a transaction open after `statement`, as another process holds one. */
async function holdRow(statement: string): Promise<{ rollback(): Promise<void> }> {
  const url = t.testStore.url;
  if (/^postgres(ql)?:/.test(url)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('begin');
    await client.query(statement);
    return {
      async rollback() {
        await client.query('rollback');
        await client.end();
      },
    };
  }
  const other = new SqliteDriver(url);
  other.exec('begin immediate');
  other.exec(statement);
  return {
    async rollback() {
      other.exec('rollback');
      other.close();
    },
  };
}

const inbox = () =>
  t.testStore.store.db
    .selectFrom('slack_inbox')
    .select(['event_id', 'event_type', 'state', 'envelope'])
    .orderBy('received_at')
    .execute();

/** The error body, as every refusal of Hearth's is made. */
const errorBody = (code: string, error: string, requestId: unknown) => ({
  success: false,
  code,
  error,
  request_id: requestId,
});
const SIGNATURE_REFUSED =
  "The request's Slack signature is missing, stale or does not match a connected community's signing secret.";

describe('Slack request signatures', () => {
  it("accepts Slack's published test vector and refuses it changed by one byte or out of its window", () => {
    // docs.slack.dev "Verifying requests from Slack" (also bolt-js's receiver tests).
    const secret = '8f742231b10e8888abcd99yyyzzz85a5';
    const body = Buffer.from(
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
    );
    const signature = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';
    const at = 1531420618 * 1000;
    expect(isSignedBySlack(secret, '1531420618', signature, body, at)).toBe(true);
    expect(isSignedBySlack(secret, '1531420618', signature, body, at + 300_000)).toBe(true);
    expect(isSignedBySlack(secret, '1531420618', signature, body, at + 301_000)).toBe(false);
    expect(isSignedBySlack(secret, '1531420618', signature, body, at - 301_000)).toBe(false);
    expect(isSignedBySlack(secret, '1531420619', signature, body, at)).toBe(false);
    expect(isSignedBySlack(secret, '1531420618', signature.replace('a2114', 'a2115'), body, at)).toBe(false);
    expect(isSignedBySlack(secret, '1531420618', signature.replace('v0=', 'v1='), body, at)).toBe(false);
    expect(isSignedBySlack(secret, '1531420618', signature, Buffer.concat([body, Buffer.from(' ')]), at)).toBe(false);
    expect(isSignedBySlack('', '1531420618', signature, body, at)).toBe(false);
  });
});

describe('POST /slack/events/{community_slug}', () => {
  it('answers url_verification with its challenge', async () => {
    const res = await postEvent(
      t.app,
      'acme',
      { token: 'x', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' },
      { seconds },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
    expect(await inbox()).toEqual([]);
  });

  it('refuses, with 401 and nothing stored, a request unsigned, badly signed, stale, or for a community that cannot verify it', async () => {
    const body = JSON.stringify(
      envelope({ type: 'message', channel: 'C01GENERAL', user: 'U01ALICE', text: 'hi', ts: '1773144000.000100' }),
    );
    const cases = [
      { slug: 'acme', headers: { 'content-type': 'application/json' } },
      { slug: 'acme', headers: signed('00000000000000000000000000000000', seconds, body) },
      { slug: 'acme', headers: signed(SIGNING_SECRET, seconds - 301, body) },
      { slug: 'acme', headers: signed(SIGNING_SECRET, seconds + 301, body) },
      {
        slug: 'acme',
        headers: { ...signed(SIGNING_SECRET, seconds, body), 'x-slack-request-timestamp': String(seconds - 1) },
      },
      { slug: 'unsigned', headers: signed(SIGNING_SECRET, seconds, body) },
      { slug: 'plain', headers: signed(SIGNING_SECRET, seconds, body) },
      { slug: 'nobody', headers: signed(SIGNING_SECRET, seconds, body) },
    ];
    for (const { slug, headers } of cases) {
      const res = await t.app.inject({ method: 'POST', url: `/slack/events/${slug}`, headers, payload: body });
      expect({ slug, status: res.statusCode, body: res.json() }).toEqual({
        slug,
        status: 401,
        body: errorBody('invalid_signature', SIGNATURE_REFUSED, res.headers['x-request-id']),
      });
    }
    // A body changed after signing.
    const res = await t.app.inject({
      method: 'POST',
      url: '/slack/events/acme',
      headers: signed(SIGNING_SECRET, seconds, body),
      payload: body.replace('hi', 'ho'),
    });
    expect(res.statusCode).toBe(401);
    expect(await inbox()).toEqual([]);
  });

  it('refuses a signed body that is not a JSON event with 400', async () => {
    const cases: [string, string][] = [
      ['{"type":', 'The request body is not JSON.'],
      ['[1,2]', 'The request body is not a JSON object.'],
      ['{"type":"event_callback","event":{}}', "An event_callback needs an 'event_id' and an 'event' object."],
    ];
    for (const [body, message] of cases) {
      const res = await postEvent(t.app, 'acme', body, { seconds });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(errorBody('invalid_body', message, res.headers['x-request-id']));
    }
    expect(await inbox()).toEqual([]);
  });

  it('writes an event to the inbox and acknowledges at once; retries and duplicates add nothing', async () => {
    const event = { type: 'message', channel: 'C01GENERAL', user: 'U01ALICE', text: 'hello', ts: '1773144000.000200' };
    const body = envelope(event, 'Ev0ACK00001');
    const first = await postEvent(t.app, 'acme', body, { seconds });
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('');
    for (const retry of ['1', '2', '3']) {
      const again = await postEvent(t.app, 'acme', body, {
        seconds: seconds + Number(retry),
        headers: { 'x-slack-retry-num': retry, 'x-slack-retry-reason': 'http_timeout' },
      });
      expect(again.statusCode).toBe(200);
    }
    const changed = envelope(
      { type: 'message', subtype: 'message_changed', channel: 'C01GENERAL', ts: '1773144001.000000', message: event },
      'Ev0ACK00002',
    );
    expect((await postEvent(t.app, 'acme', changed, { seconds })).statusCode).toBe(200);
    expect(await inbox()).toEqual([
      { event_id: 'Ev0ACK00001', event_type: 'message', state: 'pending', envelope: JSON.stringify(body) },
      {
        event_id: 'Ev0ACK00002',
        event_type: 'message:message_changed',
        state: 'pending',
        envelope: JSON.stringify(changed),
      },
    ]);
  });

  it('acknowledges a request that carries no event (app_rate_limited) and stores nothing', async () => {
    const body = {
      token: 'x',
      type: 'app_rate_limited',
      team_id: 'T01ACME',
      minute_rate_limited: 1518467820,
      api_app_id: 'A0HEARTH',
    };
    const res = await postEvent(t.app, 'acme', body, { seconds });
    expect(res.statusCode).toBe(200);
    expect((await inbox()).map((row) => row.event_id)).toEqual(['Ev0ACK00001', 'Ev0ACK00002']);
  });

  it("acknowledges a retry of an event at once while another connection's open transaction is applying it", async () => {
    const body = envelope(
      { type: 'message', channel: 'C01GENERAL', user: 'U01ALICE', text: 'held', ts: '1773144002.000100' },
      'Ev0ACK00003',
    );
    expect((await postEvent(t.app, 'acme', body, { seconds })).statusCode).toBe(200);
    // What the applier does in the change that applies the event: the row updated, the transaction left open. On
    // PostgreSQL an INSERT … ON CONFLICT on that key would wait for this transaction to end.
    const held = await holdRow("update slack_inbox set state = 'done', attempts = 1 where event_id = 'Ev0ACK00003'");
    try {
      const started = performance.now();
      const retry = await postEvent(t.app, 'acme', body, {
        seconds: seconds + 1,
        headers: { 'x-slack-retry-num': '1' },
      });
      expect(retry.statusCode).toBe(200);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await held.rollback();
    }
    expect((await inbox()).filter((row) => row.event_id === 'Ev0ACK00003').map((row) => row.state)).toEqual([
      'pending',
    ]);
  });
});
