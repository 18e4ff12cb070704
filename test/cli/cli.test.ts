// The `hearth` command line, run in-process against a fresh store.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase } from '../helpers/test-store.js';
import { baseRecords } from '../fixtures/community.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dir = mkdtempSync(join(tmpdir(), 'hearth-cli-'));

async function run(args: string[], stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString().trimEnd()));
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) }, { DATABASE_URL: database.url, PORT: '4000' }, {
    stdin: Readable.from([stdin]),
    stdout,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('hearth', () => {
  it('creates and lists communities, refusing duplicates and bad slugs', async () => {
    expect(await run(['community', 'create', 'acme', '--name', 'Acme Makers'])).toEqual({ code: 0, out: "Created community 'acme' (Acme Makers).", err: '' });
    expect(await run(['community', 'create', 'acme'])).toEqual({ code: 1, out: '', err: "hearth: A community 'acme' already exists." });
    expect(await run(['community', 'create', 'Bad Slug'])).toEqual({ code: 1, out: '', err: "hearth: Invalid slug 'Bad Slug': use lowercase letters, digits and '-', at most 63." });
    const listed = await run(['community', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^acme\tAcme Makers\tcreated \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  });

  it('creates a token that prints alone and works, lists it without secrets, and revokes it', async () => {
    const created = await run(['token', 'create', '--community', 'acme', '--scopes', 'read,members:write', '--name', 'ci', '--expires-in', '30d']);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^hth_[A-Za-z0-9_-]{43}$/);

    const app = await buildApp(loadConfig({ DATABASE_URL: database.url }), { logger: false });
    const res = await app.inject({ method: 'GET', url: '/admin/v0/calendar_events', headers: { authorization: `Bearer ${created.out}` } });
    expect(res.statusCode).toBe(200);

    const listed = await run(['token', 'list', '--community', 'acme']);
    expect(listed.out).not.toContain(created.out);
    const [header, row] = listed.out.split('\n');
    expect(header).toBe('id\tname\tscopes\tcreated_at\texpires_at\trevoked_at\tlast_used_at');
    const [id, name, scopes, , expires, revoked, lastUsed] = (row ?? '').split('\t');
    expect([name, scopes, revoked]).toEqual(['ci', 'read,members:write', '-']);
    expect(expires).not.toBe('-');
    expect(lastUsed).not.toBe('-');

    expect(await run(['token', 'revoke', id ?? ''])).toEqual({ code: 0, out: `Revoked token ${id}.`, err: '' });
    expect(await run(['token', 'revoke', id ?? ''])).toEqual({ code: 1, out: '', err: `hearth: No active token with id '${id}'.` });
    const after = await app.inject({ method: 'GET', url: '/admin/v0/calendar_events', headers: { authorization: `Bearer ${created.out}` } });
    expect(after.statusCode).toBe(401);
    await app.close();
  });

  it('refuses unknown scopes, durations and communities', async () => {
    expect((await run(['token', 'create', '--community', 'acme', '--scopes', 'admin'])).err).toBe("hearth: Unknown scope(s) 'admin'; known: read, members:write.");
    expect((await run(['token', 'create', '--community', 'acme', '--expires-in', 'soon'])).err).toBe("hearth: Invalid duration 'soon': use a number and one of s, m, h, d, w (e.g. 30d).");
    expect((await run(['token', 'create', '--community', 'nope'])).err).toBe("hearth: No community with slug 'nope'.");
  });

  it('imports from a file and stdin, refuses a bad file naming the line, and exports', async () => {
    const file = join(dir, 'base.ndjson');
    writeFileSync(file, baseRecords.map((r) => JSON.stringify(r)).join('\n'));
    expect(await run(['import', '--community', 'acme', file])).toEqual({
      code: 0,
      out: "Imported 15 records into 'acme': 4 feeds, 2 profiles, 2 tags, 7 calendar_events.",
      err: '',
    });
    const bad = await run(['import', '--community', 'acme', '-'], '{"kind":"tag","id":"t","label":"T"}\n{"kind":"tag","id":"u"}\n');
    expect(bad).toEqual({ code: 1, out: '', err: "hearth: Import failed, nothing was kept: line 2: tag: label: Expected required property" });
    expect((await run(['import', '--community', 'acme', join(dir, 'missing.ndjson')])).err).toBe(`hearth: No such file: ${join(dir, 'missing.ndjson')}`);

    const exported = join(dir, 'export.ndjson');
    expect((await run(['export', '--community', 'acme', exported])).code).toBe(0);
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(15);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ kind: 'feed', label: 'General' });
    const toStdout = await run(['export', '--community', 'acme']);
    expect(toStdout.out.split('\n')).toHaveLength(15);
  });

  it('explains a bad configuration instead of failing obscurely', async () => {
    const code = await main(['community', 'list'], { out: () => {}, err: (s) => expect(s).toBe('Invalid configuration: PORT: Expected integer (got "http")') }, { PORT: 'http' });
    expect(code).toBe(2);
  });
});
