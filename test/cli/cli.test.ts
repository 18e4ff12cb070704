// The `hearth` command line, run in-process against a fresh store.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { parseDuration } from '../../src/cli/token.command.js';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase } from '../helpers/test-store.js';
import { baseRecords } from '../../fixtures/community.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dir = mkdtempSync(join(tmpdir(), 'hearth-cli-'));

async function run(args: string[], stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString().trimEnd()));
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: database.url, PORT: '4000' },
    {
      progress: new PassThrough(),
      stdin: Readable.from([stdin]),
      stdout,
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
});

describe('hearth', () => {
  it('creates and lists communities, refusing duplicates and bad slugs', async () => {
    expect(await run(['community', 'create', 'acme', '--name', 'Acme Makers'])).toEqual({
      code: 0,
      out: "Created community 'acme' (Acme Makers).",
      err: '',
    });
    expect(await run(['community', 'create', 'acme'])).toEqual({
      code: 1,
      out: '',
      err: "hearth: A community 'acme' already exists.",
    });
    expect(await run(['community', 'create', 'Bad Slug'])).toEqual({
      code: 1,
      out: '',
      err: "hearth: Invalid slug 'Bad Slug': use lowercase letters, digits and '-', at most 63.",
    });
    const listed = await run(['community', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^acme\tAcme Makers\tcreated \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  });

  it('creates a token that prints alone and works, lists it without secrets, and revokes it', async () => {
    const created = await run([
      'token',
      'create',
      '--community',
      'acme',
      '--scopes',
      'read,members:write',
      '--name',
      'ci',
      '--expires-in',
      '30d',
    ]);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^hth_[A-Za-z0-9_-]{43}$/);

    // The loop below asks as fast as it can: past the default 50 per second it would be rate limited.
    const app = await buildApp(loadConfig({ DATABASE_URL: database.url, RATE_LIMIT_PER_SECOND: '100000' }), {
      logger: false,
    });
    const res = await app.inject({
      method: 'GET',
      url: '/admin/v0/calendar_events',
      headers: { authorization: `Bearer ${created.out}` },
    });
    expect(res.statusCode).toBe(200);

    const listed = await run(['token', 'list', '--community', 'acme']);
    expect(listed.out).not.toContain(created.out);
    const [header, row] = listed.out.split('\n');
    expect(header).toBe('id\tname\tscopes\tfield_names\tcreated_at\texpires_at\trevoked_at\tlast_used_at');
    const [id, name, scopes, fieldNames, , expires, revoked, lastUsed] = (row ?? '').split('\t');
    expect([name, scopes, fieldNames, revoked]).toEqual(['ci', 'read,members:write', 'spec', '-']);
    expect(expires).not.toBe('-');
    expect(lastUsed).not.toBe('-');

    expect(await run(['token', 'revoke', id ?? ''])).toEqual({ code: 0, out: `Revoked token ${id}.`, err: '' });
    expect(await run(['token', 'revoke', id ?? ''])).toEqual({
      code: 1,
      out: '',
      err: `hearth: No active token with id '${id}'.`,
    });
    // A running server reuses a principal for at most a second: the revocation holds within it.
    const revokedAt = performance.now();
    const ask = () =>
      app.inject({
        method: 'GET',
        url: '/admin/v0/calendar_events',
        headers: { authorization: `Bearer ${created.out}` },
      });
    let after = await ask();
    // Paced under the default rate limit (50 a second), which would otherwise answer 429 first.
    while (after.statusCode === 200 && performance.now() - revokedAt < 1500) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      after = await ask();
    }
    expect(after.statusCode).toBe(401);
    await app.close();
  });

  it('creates a token in hosted field-name mode, which the list and api_key/me show', async () => {
    const created = await run(['token', 'create', '--community', 'acme', '--name', 'site', '--field-names', 'hosted']);
    expect(created.code).toBe(0);
    const rows = (await run(['token', 'list', '--community', 'acme'])).out
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'));
    expect(rows.map(([, name, scopes, fieldNames]) => [name, scopes, fieldNames])).toEqual([
      ['ci', 'read,members:write', 'spec'],
      ['site', 'read', 'hosted'],
    ]);
    const app = await buildApp(loadConfig({ DATABASE_URL: database.url }), { logger: false });
    const me = await app.inject({
      method: 'GET',
      url: '/admin/v0/api_key/me',
      headers: { authorization: `Bearer ${created.out}` },
    });
    expect([me.json().data.name, me.json().data.field_names]).toEqual(['site', 'hosted']);
    await app.close();
    // `--json` gives the token's creation time as the API does, zone included.
    const listed = JSON.parse((await run(['token', 'list', '--community', 'acme', '--json'])).out) as {
      name: string | null;
      created_at: string;
    }[];
    const cliCreated = listed.find((t) => t.name === 'site')?.created_at ?? '';
    // The command prints the spec's form; this hosted-mode token's api_key/me trims the fraction's trailing zeros,
    // as the hosted product (PostgreSQL) prints them: the same instant.
    expect(cliCreated).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00$/);
    expect(cliCreated.replace(/\.?0+\+00$/, '+00')).toBe(me.json().data.created_at);
    expect((await run(['token', 'create', '--community', 'acme', '--field-names', 'slack'])).err).toBe(
      "hearth: Unknown field names 'slack'; known: spec, hosted.",
    );
  });

  it('refuses unknown scopes, durations and communities', async () => {
    expect((await run(['token', 'create', '--community', 'acme', '--scopes', 'admin'])).err).toBe(
      "hearth: Unknown scope(s) 'admin'; known: read, members:write, events:write.",
    );
    expect((await run(['token', 'create', '--community', 'acme', '--expires-in', 'soon'])).err).toBe(
      "hearth: Invalid duration 'soon': use a positive whole number and one of s, m, h, d, w (e.g. 30d).",
    );
    expect((await run(['token', 'create', '--community', 'nope'])).err).toBe("hearth: No community with slug 'nope'.");
  });

  it('imports from a file and stdin, refuses a bad file naming the line, and exports', async () => {
    const file = join(dir, 'base.ndjson');
    writeFileSync(file, baseRecords.map((r) => JSON.stringify(r)).join('\n'));
    const imported = await run(['import', '--community', 'acme', file]);
    expect(imported).toMatchObject({ code: 0, err: '' });
    expect(imported.out).toMatch(
      /^Imported 15 records into 'acme': 4 feeds, 2 profiles, 2 tags, 7 calendar_events in \d+\.\d s \(\d+ records\/s\)\.$/,
    );
    const bad = await run(
      ['import', '--community', 'acme', '-'],
      '{"kind":"tag","id":"t","label":"T"}\n{"kind":"tag","id":"u"}\n',
    );
    expect(bad).toEqual({
      code: 1,
      out: '',
      err: 'hearth: Import failed, nothing was kept: line 2: tag: label is required',
    });
    expect(await run(['import', '--community', 'acme', join(dir, 'missing.ndjson')])).toEqual({
      code: 1,
      out: '',
      err: `hearth: Cannot import '${join(dir, 'missing.ndjson')}': no such file.`,
    });
    expect(await run(['import', '--community', 'acme', dir])).toEqual({
      code: 1,
      out: '',
      err: `hearth: Cannot import '${dir}': it is a folder; give an NDJSON file, or - for stdin.`,
    });

    const exported = join(dir, 'export.ndjson');
    expect((await run(['export', '--community', 'acme', exported])).code).toBe(0);
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(15);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ kind: 'feed', label: 'General' });
    const toStdout = await run(['export', '--community', 'acme']);
    expect(toStdout.out.split('\n')).toHaveLength(15);
  });

  it('refuses durations that are not a positive whole number with a unit', async () => {
    for (const bad of ['0s', '30', '-1d', '1.5h', '2y', '']) {
      expect(await run(['token', 'create', '--community', 'acme', '--expires-in', bad])).toEqual({
        code: 1,
        out: '',
        err: `hearth: Invalid duration '${bad}': use a positive whole number and one of s, m, h, d, w (e.g. 30d).`,
      });
    }
    expect(parseDuration('90m')).toBe(5_400_000);
    expect(parseDuration('1w')).toBe(604_800_000);
  });

  it('prints --json lists of communities, tokens and audit records', async () => {
    const communities = JSON.parse((await run(['community', 'list', '--json'])).out) as unknown[];
    expect(communities).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        slug: 'acme',
        name: 'Acme Makers',
        // With its zone, in the API's wire form.
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00$/),
      },
    ]);

    await run(['token', 'create', '--community', 'acme', '--name', 'json', '--scopes', 'read']);
    const tokens = JSON.parse((await run(['token', 'list', '--community', 'acme', '--json'])).out) as {
      name: string | null;
      scopes: string[];
    }[];
    // 'site' is the hosted-mode token an earlier test of this file made.
    expect(tokens.map((t) => [t.name, t.scopes])).toEqual([
      ['ci', ['read', 'members:write']],
      ['site', ['read']],
      ['json', ['read']],
    ]);
    expect(Object.keys(tokens[0] ?? {})).toEqual([
      'id',
      'name',
      'scopes',
      'field_names',
      'created_at',
      'expires_at',
      'revoked_at',
      'last_used_at',
    ]);
    expect((await run(['token', 'list', '--community', 'acme', '--json'])).out).not.toMatch(/hth_/);
    const json = tokens.at(-1) as Record<string, unknown>;
    expect([json['created_at'], json['expires_at'], json['revoked_at'], json['last_used_at']]).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00$/),
      null,
      null,
      null,
    ]);

    // The one import that committed (the refused one left nothing) is the trail's one record.
    const audit = await run(['audit', '--community', 'acme', '--json']);
    expect(audit).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(audit.out)).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00$/),
        action: 'import.completed',
        subject_id: (communities[0] as { id: string }).id,
        email: null,
        token_id: 'import',
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
  });

  it('answers --version and --help', async () => {
    const version = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    ).version;
    expect(await run(['--version'])).toEqual({ code: 0, out: version, err: '' });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('-V, --version');
    for (const command of ['start', 'serve', 'community', 'token', 'import', 'export', 'demo', 'audit'])
      expect(help.out).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect((await run(['token', 'list', '--help'])).out).toContain('--json');
  });

  it('explains a bad configuration instead of failing obscurely', async () => {
    const code = await main(
      ['community', 'list'],
      {
        out: () => {},
        err: (s) => expect(s).toBe("Invalid configuration: PORT: got 'http'; allowed: a whole number from 0 to 65535"),
      },
      { PORT: 'http' },
    );
    expect(code).toBe(2);
  });
});
