// Idempotency-Key on adding members: replay, in flight, reuse with another body, expiry, restarts, races.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { IN_FLIGHT_LEASE_MS, KEY_LIFETIME_MS, requestHash } from '../../src/idempotency/idempotency.service.js';
import { toStored } from '../../src/lib/timestamps.js';
import { attachContract } from '../helpers/contract.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { auditRows, fetchMember, listen, postMember, profileRows } from './member-requests.js';

let t: TestApp;
let acme: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ community: acme, token } = await t.seed('acme', [], ['members:write']));
});
afterAll(() => t.close());

const keyed = (key: string) => ({ 'idempotency-key': key });

async function keyRow(communityId: string, key: string) {
  return t.testStore.store.db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Closes the app and builds a new one on the same database, as a restarted server would. */
async function restart(): Promise<void> {
  await t.app.close();
  const config = loadConfig({}, { databaseUrl: t.testStore.url, rateLimitPerSecond: 10_000 });
  t.app = await buildApp(config, { store: t.testStore.store, clock: () => t.clock.now, logger: false });
  attachContract(t.app);
  await t.app.ready();
}

/** Moves the app's clock for the duration of `work`. */
async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
  t.clock.now += ms;
  try {
    return await work();
  } finally {
    t.clock.now -= ms;
  }
}

describe('replay', () => {
  it('answers a retry with the stored status and body and Idempotent-Replayed: true', async () => {
    const body = { email: 'replay@example.com', full_name: 'Re Play' };
    const first = await postMember(t.app, token, body, keyed('replay-1'));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await postMember(t.app, token, body, keyed('replay-1'));
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(retry.body).toBe(first.body);
    expect((await profileRows(t, acme)).filter((r) => r.email_key === 'replay@example.com')).toHaveLength(1);
    expect((await auditRows(t, acme)).filter((r) => r.subject_id === first.json().data.member.id)).toHaveLength(1);
    expect(await keyRow(acme, 'replay-1')).toMatchObject({
      state: 'done',
      response_status: 201,
      created_at: '2026-03-10 12:00:00.000000',
      expires_at: '2026-03-11 12:00:00.000000',
    });
  });

  it('replays the first answer even after the member changed since', async () => {
    const body = { email: 'changing@example.com', full_name: 'First Name' };
    const first = await postMember(t.app, token, body, keyed('replay-2'));
    await postMember(t.app, token, { email: 'changing@example.com', full_name: 'Second Name' });
    const retry = await postMember(t.app, token, body, keyed('replay-2'));
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
  });

  it('replays a 200 as a 200', async () => {
    const body = { email: 'changing@example.com', full_name: 'Third Name' };
    const first = await postMember(t.app, token, body, keyed('replay-3'));
    expect(first.statusCode).toBe(200);
    const retry = await postMember(t.app, token, body, keyed('replay-3'));
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
  });

  it('treats bodies that differ only in key order, spacing to trim or unknown fields as the same body', async () => {
    const first = await postMember(
      t.app,
      token,
      { email: 'same@example.com', full_name: 'Same Body' },
      keyed('replay-4'),
    );
    const retry = await postMember(
      t.app,
      token,
      { full_name: '  Same Body ', extra: 1, email: 'same@example.com' },
      keyed('replay-4'),
    );
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
  });

  it('scopes keys to the community', async () => {
    const other = await t.community('other-keys');
    const otherToken = await t.token(other, ['members:write']);
    const body = { email: 'scoped@example.com', full_name: 'Scoped Key' };
    const here = await postMember(t.app, token, body, keyed('shared-key'));
    const there = await postMember(t.app, otherToken, body, keyed('shared-key'));
    expect(here.statusCode).toBe(201);
    expect(there.statusCode).toBe(201);
    expect(there.headers['idempotent-replayed']).toBeUndefined();
    expect(there.json().data.member.id).not.toBe(here.json().data.member.id);
  });

  it('survives a restart: a new app on the same database replays', async () => {
    const body = { email: 'restart@example.com', full_name: 'Re Start' };
    const first = await postMember(t.app, token, body, keyed('restart-1'));
    expect(first.statusCode).toBe(201);
    await restart();
    const retry = await postMember(t.app, token, body, keyed('restart-1'));
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
  });
});

describe('a key used with another body', () => {
  it('answers 422 idempotency_key_reused and changes nothing', async () => {
    await postMember(t.app, token, { email: 'reuse@example.com', full_name: 'Re Use' }, keyed('reuse-1'));
    const res = await postMember(
      t.app,
      token,
      { email: 'reuse@example.com', full_name: 'Other Name' },
      { ...keyed('reuse-1'), 'x-request-id': 'req-422' },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      success: false,
      error: 'This Idempotency-Key was already used with a different request body.',
      code: 'idempotency_key_reused',
      request_id: 'req-422',
    });
    const row = (await profileRows(t, acme)).find((r) => r.email_key === 'reuse@example.com');
    expect(row?.preferred_name).toBe('Re Use');
  });

  it('counts a left-out avatar and a null avatar as different bodies', async () => {
    await postMember(t.app, token, { email: 'avatar@example.com', full_name: 'Ava Tar' }, keyed('reuse-2'));
    const res = await postMember(
      t.app,
      token,
      { email: 'avatar@example.com', full_name: 'Ava Tar', avatar_url_original: null },
      keyed('reuse-2'),
    );
    expect(res.statusCode).toBe(422);
  });
});

describe('a key in flight', () => {
  const body = { email: 'flight@example.com', full_name: 'In Flight' };

  async function claimInFlight(key: string, at: number) {
    await t.testStore.store.db
      .insertInto('idempotency_keys')
      .values({
        community_id: acme,
        key,
        request_hash: requestHash('POST /admin/v0/members', body),
        state: 'in_flight',
        response_status: null,
        response_body: null,
        created_at: toStored(at),
        expires_at: toStored(at + KEY_LIFETIME_MS),
      })
      .execute();
  }

  it('answers 409 with Retry-After while another request holds the key', async () => {
    // Another process has claimed the key and not yet answered.
    await claimInFlight('flight-1', t.clock.now);
    const res = await postMember(t.app, token, body, { ...keyed('flight-1'), 'x-request-id': 'req-409' });
    expect(res.statusCode).toBe(409);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({
      success: false,
      error: 'A request with this Idempotency-Key is still being processed.',
      code: 'idempotency_in_flight',
      request_id: 'req-409',
    });
    expect((await profileRows(t, acme)).filter((r) => r.email_key === 'flight@example.com')).toEqual([]);
  });

  it('answers 422, not 409, for another body under a key in flight', async () => {
    const res = await postMember(t.app, token, { ...body, full_name: 'Other Flight' }, keyed('flight-1'));
    expect(res.statusCode).toBe(422);
  });

  it('lets a retry take over a claim abandoned for longer than the lease', async () => {
    const still = await later(IN_FLIGHT_LEASE_MS - 1, () => postMember(t.app, token, body, keyed('flight-1')));
    expect(still.statusCode).toBe(409);
    const res = await later(IN_FLIGHT_LEASE_MS, () => postMember(t.app, token, body, keyed('flight-1')));
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('holds a claim across a restart: a key claimed before it is still in flight after it', async () => {
    await claimInFlight('flight-2', t.clock.now);
    await restart();
    expect((await postMember(t.app, token, body, keyed('flight-2'))).statusCode).toBe(409);
  });

  it('releases the claim when the request fails, so a retry can proceed', async () => {
    // A one-part name passes the schema and fails in the service, after the key was claimed.
    const failed = await postMember(
      t.app,
      token,
      { email: 'release@example.com', full_name: 'Mononym' },
      keyed('release-1'),
    );
    expect(failed.statusCode).toBe(400);
    expect(await keyRow(acme, 'release-1')).toBeUndefined();
    const retry = await postMember(
      t.app,
      token,
      { email: 'release@example.com', full_name: 'Two Names' },
      keyed('release-1'),
    );
    expect(retry.statusCode).toBe(201);
  });

  it('lets exactly one of many parallel requests with one key do the work', async () => {
    const baseUrl = await listen(t.app);
    const parallel = { email: 'parallel@example.com', full_name: 'Par Allel' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetchMember(baseUrl, token, parallel, keyed('parallel-1'))),
    );
    const originals = answers.filter((a) => a.status === 201 && a.replayed === null);
    expect(originals).toHaveLength(1);
    for (const a of answers) {
      if (a === originals[0]) continue;
      // Each other request either saw the key in flight or, once done, got the first answer again.
      if (a.status === 409) expect(a.body.code).toBe('idempotency_in_flight');
      else
        expect({ status: a.status, replayed: a.replayed, body: a.body }).toEqual({
          status: 201,
          replayed: 'true',
          body: originals[0]?.body,
        });
    }
    expect((await profileRows(t, acme)).filter((r) => r.email_key === 'parallel@example.com')).toHaveLength(1);
  });
});

describe('expiry', () => {
  it('forgets a key after 24 hours: the same key then runs the request again', async () => {
    const body = { email: 'expiry@example.com', full_name: 'Ex Piry' };
    expect((await postMember(t.app, token, body, keyed('expiry-1'))).statusCode).toBe(201);
    const justBefore = await later(KEY_LIFETIME_MS - 1, () => postMember(t.app, token, body, keyed('expiry-1')));
    expect(justBefore.headers['idempotent-replayed']).toBe('true');
    const after = await later(KEY_LIFETIME_MS, () => postMember(t.app, token, body, keyed('expiry-1')));
    expect(after.statusCode).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json().message).toBe('Member already existed and was updated successfully.');
  });

  it('accepts another body under an expired key', async () => {
    await postMember(t.app, token, { email: 'expiry2@example.com', full_name: 'Ex Piry' }, keyed('expiry-2'));
    const res = await later(KEY_LIFETIME_MS + 1, () =>
      postMember(t.app, token, { email: 'expiry2@example.com', full_name: 'New Body' }, keyed('expiry-2')),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data.member.full_name).toBe('New Body');
  });

  it('purges expired keys now and then', async () => {
    await postMember(t.app, token, { email: 'purge@example.com', full_name: 'Pur Ge' }, keyed('purge-1'));
    expect(await keyRow(acme, 'purge-1')).toBeDefined();
    await later(2 * KEY_LIFETIME_MS, () =>
      postMember(t.app, token, { email: 'purge2@example.com', full_name: 'Pur Ge' }, keyed('purge-2')),
    );
    expect(await keyRow(acme, 'purge-1')).toBeUndefined();
    expect(await keyRow(acme, 'purge-2')).toBeDefined();
  });
});

describe('the header', () => {
  const invalidKey = (message: string) => ({
    success: false,
    error: `Invalid parameter 'idempotency-key': ${message}.`,
    code: 'invalid_parameter',
    request_id: 'req-key',
    details: [{ field: 'idempotency-key', message }],
  });
  const body = { email: 'header@example.com', full_name: 'Head Er' };

  it('accepts 255 printable ASCII characters, spaces and symbols included', async () => {
    const key = `${' !~'.repeat(84)}abc`;
    expect(key).toHaveLength(255);
    const res = await postMember(t.app, token, body, keyed(key));
    expect(res.statusCode).toBe(201);
  });

  it('refuses 256 characters', async () => {
    const res = await postMember(t.app, token, body, { ...keyed('k'.repeat(256)), 'x-request-id': 'req-key' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalidKey('must NOT have more than 255 characters'));
  });

  it('refuses an empty key', async () => {
    const res = await postMember(t.app, token, body, { ...keyed(''), 'x-request-id': 'req-key' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalidKey('must NOT have fewer than 1 characters'));
  });

  it('refuses characters outside printable ASCII', async () => {
    const res = await postMember(t.app, token, body, { ...keyed('caf\u00e9'), 'x-request-id': 'req-key' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalidKey('must match pattern "^[\\x20-\\x7E]+$"'));
  });
});
