// `hearth audit`: the audit trail of one community on the command line, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { postMember, tokenWithId } from './member-requests.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function hearth(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    argv,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: t.testStore.url },
  );
  return { code, out, err };
}

describe('hearth audit', () => {
  it('prints one tab-separated line per record, newest first, limited by --limit', async () => {
    const community = await t.community('cli-audit');
    const writer = await tokenWithId(t, community);
    const created = await postMember(
      t.app,
      writer.secret,
      { email: 'cli@example.com', full_name: 'Cli User' },
      { 'x-request-id': 'req-cli-1' },
    );
    const id: string = created.json().data.member.id;
    t.clock.now += 60_000;
    try {
      await postMember(
        t.app,
        writer.secret,
        { email: 'CLI@example.com', full_name: 'Cli Person' },
        { 'x-request-id': 'req-cli-2' },
      );
    } finally {
      t.clock.now -= 60_000;
    }

    const all = await hearth('audit', '--community', 'cli-audit');
    expect(all).toEqual({
      code: 0,
      out: [
        `2026-03-10 12:01:00.000000+00\tmember.updated\t${id}\tcli@example.com\t${writer.id}\treq-cli-2`,
        `2026-03-10 12:00:00.000000+00\tmember.created\t${id}\tcli@example.com\t${writer.id}\treq-cli-1`,
      ],
      err: [],
    });
    const newest = await hearth('audit', '--community', 'cli-audit', '--limit', '1');
    expect(newest.out).toEqual([all.out[0]]);
  });

  it('says so on stderr when there is nothing yet', async () => {
    await t.community('cli-empty');
    expect(await hearth('audit', '--community', 'cli-empty')).toEqual({
      code: 0,
      out: [],
      err: ["No audit records in 'cli-empty' yet."],
    });
  });

  it('fails with exit code 1 for an unknown community or a bad limit', async () => {
    expect(await hearth('audit', '--community', 'nope')).toEqual({
      code: 1,
      out: [],
      err: ["hearth: No community with slug 'nope'."],
    });
    expect(await hearth('audit', '--community', 'cli-empty', '--limit', '0')).toEqual({
      code: 1,
      out: [],
      err: ["hearth: Invalid limit '0': use a whole number from 1 to 10000."],
    });
  });

  it('requires --community', async () => {
    const res = await hearth('audit');
    expect(res.code).toBe(2);
    expect(res.err.join('\n')).toContain("required option '--community <slug>' not specified");
  });
});
