// `hearth demo` reuses its token; `hearth start` stops on a port in use before printing any curl line.
import { createServer, type Server } from 'node:net';
import { PassThrough } from 'node:stream';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTestDatabase, testDatabaseUrl } from '../helpers/test-store.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => progress.push(chunk.toString()));
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: database.url, PORT: '4000', LOG_LEVEL: 'silent' },
    {
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      progress: stream,
    },
  );
  return { code, out, err, progress };
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('hearth demo', () => {
  it('fills the community and prints a token, then on the next run the same token (or, without a file to keep it, how many there are)', async () => {
    const first = await run(['demo', '--quiet']);
    expect(first.code).toBe(0);
    expect(first.out[0]).toBe(
      "Demo community 'demo' ready: 6 feeds, 40 profiles, 9 tags, 30 calendar_events, 120 posts, 406 comments.",
    );
    const token = /^Token \(scopes read, members:write\): (hth_[\w-]+)$/.exec(first.out[3] ?? '')?.[1];
    expect(token).toBeDefined();
    expect(first.out[5]).toBe(
      `  curl -H "Authorization: Bearer ${token}" "http://127.0.0.1:4000/admin/v0/calendar_events?time_filter=upcoming&per_page=2"`,
    );
    expect(first.progress).toEqual([]);

    const second = await run(['demo', '--quiet']);
    expect(second.code).toBe(0);
    if (testDatabaseUrl) {
      expect(second.out.slice(3, 5)).toEqual([
        'The community already has 1 token(s); secrets are shown only once, and PostgreSQL has no file to keep one in.',
        'A new one: hearth token create --community demo --scopes read,members:write',
      ]);
    } else {
      expect(second.out[3]).toBe(`Token (scopes read, members:write; the same as last time): ${token}`);
    }
    const tokens = JSON.parse(
      (await run(['token', 'list', '--community', 'demo', '--json'])).out.join('\n'),
    ) as unknown[];
    expect(tokens).toHaveLength(1);
  }, 60_000);

  it('makes a new token when the kept one was revoked', async () => {
    if (testDatabaseUrl) return;
    const tokens = JSON.parse((await run(['token', 'list', '--community', 'demo', '--json'])).out.join('\n')) as {
      id: string;
    }[];
    expect((await run(['token', 'revoke', tokens[0]?.id ?? ''])).code).toBe(0);
    const again = await run(['demo', '--quiet']);
    expect(again.out[3]).toMatch(/^Token \(scopes read, members:write\): hth_[\w-]+$/);
  }, 60_000);

  it('refuses a bad --scale', async () => {
    expect(await run(['demo', '--scale', '0'])).toMatchObject({
      code: 1,
      out: [],
      err: ["hearth: Invalid --scale '0': a positive whole number."],
    });
    expect(await run(['demo', '--scale', '1e3'])).toMatchObject({
      code: 1,
      err: ["hearth: Invalid --scale '1e3': a positive whole number."],
    });
  });
});

describe('hearth start', () => {
  let held: Server;
  let port: number;

  beforeAll(async () => {
    held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const address = held.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

  it('stops on a port in use before printing any curl line, naming PORT and --port', async () => {
    const result = await run(['start', '--port', String(port), '--quiet']);
    expect(result.code).toBe(1);
    expect(result.out.join('\n')).not.toContain('curl');
    expect(result.out.join('\n')).not.toContain('Token');
    expect(result.err).toEqual([
      `hearth: Port ${port} on 127.0.0.1 is already in use: stop what holds it, or choose another port with PORT=… or --port ….`,
    ]);
  }, 60_000);

  it('refuses a bad --port', async () => {
    expect(await run(['start', '--port', 'http'])).toMatchObject({
      code: 1,
      err: ["hearth: Invalid --port 'http': a number from 0 to 65535."],
    });
  });
});
