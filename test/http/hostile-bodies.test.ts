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

describe('text with a lone surrogate (item 2)', () => {
  const surrogateRule = 'must not contain a lone surrogate (half of a UTF-16 pair)';
  const refused = (field: string) => invalidBody('req-sur', field, surrogateRule);
  // JSON.stringify escapes a lone surrogate as \ud800, as a client would send it.
  const lone = '\ud800';

  // PostgreSQL answered 500 (jsonb 22P02), SQLite stored it: now one answer on both.
  it('refuses it in every text field of an event create, and keeps nothing', async () => {
    const before = await eventCount();
    const cases: [string, object][] = [
      ['description.text', { ...minimal, description: { text: `Talks ${lone}` } }],
      ['title', { ...minimal, title: `Spring ${'\udc00'}meetup` }],
      ['hosts.0', { ...minimal, hosts: [`ada${lone}@example.com`] }],
      ['location', { ...minimal, location: lone }],
      ['webhook_custom_metadata', { ...minimal, webhook_custom_metadata: `x${lone}` }],
      [
        'description.blocks.0.elements.0.elements.0.text',
        {
          ...minimal,
          description: {
            blocks: [
              {
                type: 'rich_text',
                elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: lone }] }],
              },
            ],
          },
        },
      ],
      ['recap.text', { ...minimal, recap: { text: lone } }],
    ];
    for (const [field, body] of cases) {
      const res = await send('POST', eventsPath, writer, JSON.stringify(body), { 'x-request-id': 'req-sur' });
      expect([field, res.statusCode]).toEqual([field, 400]);
      expect(res.json()).toEqual(refused(field));
    }
    expect(await eventCount()).toBe(before);
  });

  it('refuses it in a change, and in a member', async () => {
    const created = await send('POST', eventsPath, writer, JSON.stringify(minimal));
    const id = created.json().data.id;
    const patched = await send('PATCH', `${eventsPath}/${id}`, writer, JSON.stringify({ location: `Room ${lone}` }), {
      'x-request-id': 'req-sur',
    });
    expect(patched.json()).toEqual(refused('location'));
    for (const [field, body] of [
      ['full_name', { email: 'lone@example.com', full_name: `Ada ${lone}` }],
      ['email', { email: `lone${lone}@example.com`, full_name: 'Ada Lone' }],
      ['nickname', { email: 'lone@example.com', full_name: 'Ada Lone', nickname: lone }],
    ] as const) {
      const res = await postMember(t.app, members, body, { 'x-request-id': 'req-sur' });
      expect(res.json()).toEqual(refused(field));
    }
    const stored = await t.testStore.store.db
      .selectFrom('profiles')
      .select('id')
      .where('email_key', '=', 'lone@example.com')
      .execute();
    expect(stored).toEqual([]);
  });

  it('takes a whole pair (an emoji), escaped or not', async () => {
    const escaped = JSON.stringify({ ...minimal, title: 'Party 😀' }).replace('😀', '\\ud83d\\ude00');
    const res = await send('POST', eventsPath, writer, escaped);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.title).toBe('Party 😀');
  });
});

describe('validation that cannot be amplified (item 3)', () => {
  // 31,000 hosts in a 62 KB body answered 31,000 details (1.57 MB) at 64 ms of CPU each.
  it('names an array past its bound once, without judging its elements', async () => {
    const body = JSON.stringify({ ...minimal, hosts: Array<number>(31_000).fill(1) });
    const res = await send('POST', eventsPath, writer, body, { 'x-request-id': 'req-wide' });
    expect(res.json()).toEqual(invalidBody('req-wide', 'hosts', 'must NOT have more than 5 items'));
    expect(res.body.length).toBeLessThan(300);
  });

  it('still names every bad element of an array within its bound', async () => {
    const body = JSON.stringify({ ...minimal, hosts: [1, 'ada@example.com', 2] });
    const res = await send('POST', eventsPath, writer, body, { 'x-request-id': 'req-wide' });
    expect(res.json().details).toEqual([
      { field: 'hosts.0', message: 'must be string' },
      { field: 'hosts.2', message: 'must be string' },
    ]);
  });

  it('lists the first 20 findings and says how many there were', async () => {
    const body = JSON.stringify({ ...minimal, description: { blocks: Array<number>(200).fill(1) } });
    const res = await send('POST', eventsPath, writer, body, { 'x-request-id': 'req-wide' });
    expect(res.json()).toEqual({
      success: false,
      error:
        "Invalid body field 'description.blocks.0': must be object (200 problems in all; details lists the first 20).",
      code: 'invalid_body',
      request_id: 'req-wide',
      details: Array.from({ length: 20 }, (_, i) => ({ field: `description.blocks.${i}`, message: 'must be object' })),
    });
  });

  it("counts a token's refused bodies against its limit", async () => {
    const limited = await createTestApp({ config: { rateLimitPerSecond: 3 }, manualRateWindows: true });
    try {
      const community = await limited.community('limited');
      const token = await limited.token(community, ['read', 'events:write']);
      const body = JSON.stringify({ ...minimal, hosts: Array<number>(1_000).fill(1) });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: eventsPath,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: body,
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});
