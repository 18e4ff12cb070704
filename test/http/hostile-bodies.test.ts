// Bodies built to hurt (issue 35, items 1 to 3): nesting deeper than the stack, lone surrogates, arrays far past
// their bounds. Each answers one exact 400, the same on both stores, and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords } from '../../fixtures/community.js';
import { postMember } from '../members/member-requests.js';

let t: TestApp;
let writer: string;
let members: string;

beforeAll(async () => {
  t = await createTestApp();
  const acme = await t.community('acme');
  await t.importRecords(acme, baseRecords);
  writer = await t.token(acme, ['read', 'events:write']);
  members = await t.token(acme, ['read', 'members:write']);
});
afterAll(() => t.close());

const eventsPath = '/admin/v0/calendar_events';
const send = (
  method: 'POST' | 'PATCH',
  url: string,
  token: string,
  text: string,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    payload: text,
  });

const minimal = {
  title: 'Spring meetup',
  start_date: '2026-04-01T18:00:00-07:00',
  end_date: '2026-04-01T20:00:00-07:00',
  hosts: ['ada@example.com'],
  description: { text: 'Talks and pizza' },
};

const invalidBody = (requestId: string, field: string, message: string) => ({
  success: false,
  error: `Invalid body field '${field}': ${message}.`,
  code: 'invalid_body',
  request_id: requestId,
  details: [{ field, message }],
});

const eventCount = async () =>
  Number(
    (
      await t.testStore.store.db
        .selectFrom('calendar_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('bodies nesting deeper than 64 (item 1)', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  /** A description whose first block's `elements` nests `depth` arrays (elements itself is the body's fifth level). */
  const withElements = (depth: number, rest: object = minimal) =>
    `${JSON.stringify(rest).slice(0, -1)},"description":{"blocks":[{"type":"rich_text","elements":${nested(depth)}}]}}`;
  const tooDeep = ['description', 'blocks', '0', 'elements', ...Array<string>(60).fill('0')].join('.');
  const depthRule = 'must not nest arrays and objects more than 64 deep';

  // 4,500 arrays overflowed the stack in JSON.stringify (500), with an Idempotency-Key in the fingerprint.
  it('refuses an event create nesting 4,500 arrays, with or without an Idempotency-Key, and keeps nothing', async () => {
    const before = await eventCount();
    for (const headers of [{}, { 'idempotency-key': 'deep-1' }] as Record<string, string>[]) {
      const res = await send('POST', eventsPath, writer, withElements(4500), {
        'x-request-id': 'req-deep',
        ...headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(invalidBody('req-deep', tooDeep, depthRule));
    }
    expect(await eventCount()).toBe(before);
  });

  it('refuses a change nesting 4,500 arrays', async () => {
    const created = await send('POST', eventsPath, writer, JSON.stringify(minimal));
    const id = created.json().data.id;
    const res = await send('PATCH', `${eventsPath}/${id}`, writer, withElements(4500, {}).replace('{,', '{'), {
      'x-request-id': 'req-deep',
    });
    expect(res.json()).toEqual(invalidBody('req-deep', tooDeep, depthRule));
    const stored = await t.get(`${eventsPath}/${id}`, writer);
    expect(stored.json().data.description_chat_blocks).toEqual(created.json().data.description_chat_blocks);
  });

  it('refuses a member body nesting 4,500 arrays in a field the schema would drop', async () => {
    const body = `{"email":"deep@example.com","full_name":"Deep Member","nickname":${nested(4500)}}`;
    const res = await postMember(t.app, members, body, { 'x-request-id': 'req-deep', 'idempotency-key': 'deep-2' });
    expect(res.json()).toEqual(
      invalidBody('req-deep', ['nickname', ...Array<string>(63).fill('0')].join('.'), depthRule),
    );
  });

  it('takes a body nesting exactly 64, and refuses 65', async () => {
    const ok = await send('POST', eventsPath, writer, withElements(60), { 'idempotency-key': 'deep-64' });
    expect(ok.statusCode).toBe(201);
    const refused = await send('POST', eventsPath, writer, withElements(61), { 'x-request-id': 'req-deep' });
    expect(refused.json()).toEqual(invalidBody('req-deep', tooDeep, depthRule));
  });
});
