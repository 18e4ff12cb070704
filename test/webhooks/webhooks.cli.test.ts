// `hearth webhook add|list|remove|deliveries|replay`, run in-process against a fresh store.
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { openStore } from '../../src/db/store.js';
import { createTestDatabase } from '../helpers/test-store.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;

async function run(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: database.url, ...env },
    {
      progress: new PassThrough(),
      stdin: Readable.from(['']),
      stdout: new PassThrough(),
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  database = await createTestDatabase();
  expect((await run(['community', 'create', 'acme', '--name', 'Acme'])).code).toBe(0);
});
afterAll(() => database.drop());

describe('hearth webhook', () => {
  it('adds, lists, shows deliveries, replays and removes', async () => {
    const refused = await run(['webhook', 'add', '--community', 'acme', 'http://127.0.0.1:9/hook']);
    expect(refused).toEqual({
      code: 1,
      out: '',
      err: "hearth: The host '127.0.0.1' resolves to an internal address (127.0.0.1); set WEBHOOK_ALLOW_PRIVATE=true to allow it.",
    });
    expect((await run(['webhook', 'add', '--community', 'acme', 'gopher://example.com/'])).err).toBe(
      "hearth: Webhook URLs must be http or https, not 'gopher:'.",
    );
    expect(
      (await run(['webhook', 'add', '--community', 'acme', 'https://example.com/', '--events', 'post.*'])).err,
    ).toMatch(/^hearth: Unknown event type\(s\) 'post\.\*'; known: calendar_event\.created, /);
    expect((await run(['webhook', 'add', '--community', 'acme', 'https://example.com/', '--secret', 'nope'])).err).toBe(
      'hearth: A webhook secret is `whsec_` and at least 16 bytes in base64.',
    );

    const added = await run(
      [
        'webhook',
        'add',
        '--community',
        'acme',
        'http://127.0.0.1:9/hook',
        '--events',
        'calendar_event.*,member.created',
      ],
      { WEBHOOK_ALLOW_PRIVATE: 'true' },
    );
    expect(added.code).toBe(0);
    const [id, secret] = added.out.split('\t');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(added.err).toBe(
      `Webhook ${id} sends calendar_event.*, member.created of 'acme' to http://127.0.0.1:9/hook; verify with the secret above.`,
    );

    const listed = await run(['webhook', 'list', '--community', 'acme']);
    expect(listed.out).toMatch(
      new RegExp(
        `^id\\turl\\tevents\\tcreated_at\\n${id}\\thttp://127.0.0.1:9/hook\\tcalendar_event\\.\\*,member\\.created\\t\\d{4}-\\d\\d-\\d\\d [\\d:.]+\\+00$`,
      ),
    );
    const json = JSON.parse((await run(['webhook', 'list', '--community', 'acme', '--json'])).out) as {
      id: string;
      event_types: string[];
    }[];
    expect(json.map((h) => [h.id, h.event_types])).toEqual([[id, ['calendar_event.*', 'member.created']]]);

    // One recorded attempt, as a dispatcher leaves it, to list and replay.
    const store = openStore(database.url, 1);
    try {
      await store.db
        .insertInto('webhook_messages')
        .values({
          id: 'msg_cli',
          webhook_id: id ?? '',
          community_id: 'x',
          event_type: 'member.created',
          payload: '{}',
          created_at: '2026-03-10 12:00:00.000000',
          state: 'failed',
          next_attempt_at: '2026-03-10 12:00:00.000000',
          retry_until: '2026-03-11 12:00:00.000000',
          claimed_until: null,
          finished_at: '2026-03-11 12:00:00.000000',
        })
        .execute();
      await store.db
        .insertInto('webhook_deliveries')
        .values({
          id: 'del_cli',
          message_id: 'msg_cli',
          webhook_id: id ?? '',
          attempt: 1,
          started_at: '2026-03-10 12:00:00.000000',
          duration_ms: 12,
          status_code: 503,
          ok: false,
          error: 'receiver answered 503',
        })
        .execute();
      expect(await run(['webhook', 'deliveries', id ?? ''])).toEqual({
        code: 0,
        out: 'del_cli\tmsg_cli\tmember.created\t1\t2026-03-10 12:00:00.000000+00\t12\t503\tfailed: receiver answered 503',
        err: '',
      });
      expect(await run(['webhook', 'replay', 'del_cli'])).toEqual({
        code: 0,
        out: 'Queued message msg_cli again.',
        err: '',
      });
      const message = await store.db
        .selectFrom('webhook_messages')
        .select(['state', 'claimed_until', 'finished_at'])
        .where('id', '=', 'msg_cli')
        .executeTakeFirstOrThrow();
      expect(message).toEqual({ state: 'pending', claimed_until: null, finished_at: null });
      expect((await run(['webhook', 'replay', 'del_nope'])).err).toBe("hearth: No delivery with id 'del_nope'.");

      expect(await run(['webhook', 'remove', id ?? ''])).toEqual({ code: 0, out: `Removed webhook ${id}.`, err: '' });
      expect(await store.db.selectFrom('webhook_messages').select('id').execute()).toEqual([]);
    } finally {
      await store.close();
    }
    expect((await run(['webhook', 'remove', id ?? ''])).err).toBe(`hearth: No webhook with id '${id}'.`);
    expect((await run(['webhook', 'deliveries', id ?? ''])).err).toBe(`hearth: No webhook with id '${id}'.`);
  });
});
