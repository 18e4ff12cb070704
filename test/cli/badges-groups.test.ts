// `hearth badge list|assign` and `hearth group list|members`, run in-process against a fresh store.
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeGroupRecords, badgeIds, groupIds, linusId } from '../../fixtures/badges-groups.js';
import { baseRecords, profileIds } from '../../fixtures/community.js';
import { main } from '../../src/cli/main.js';
import { createTestDatabase } from '../helpers/test-store.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;

async function run(args: string[], stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: database.url },
    { progress: new PassThrough(), stdin: Readable.from([stdin]), stdout: new PassThrough() },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const stamp = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00$/;

beforeAll(async () => {
  database = await createTestDatabase();
  expect((await run(['community', 'create', 'acme'])).code).toBe(0);
  const file = [...baseRecords, ...badgeGroupRecords].map((r) => JSON.stringify(r)).join('\n');
  expect((await run(['import', '--community', 'acme', '-'], file)).code).toBe(0);
});
afterAll(() => database.drop());

describe('hearth badge', () => {
  it('lists badges by name, tab-separated under a header, or as JSON with their members', async () => {
    expect(await run(['badge', 'list', '--community', 'acme'])).toEqual({
      code: 0,
      out: [
        'id\tname\tmembers\tupdated_at',
        `${badgeIds.mentor}\tMentor\t0\t2025-03-01 11:00:00.000000+00`,
        `${badgeIds.speaker}\tSpeaker\t1\t2025-03-02 10:00:00.000000+00`,
      ].join('\n'),
      err: '',
    });
    const json = JSON.parse((await run(['badge', 'list', '--community', 'acme', '--json'])).out);
    expect(json[1].members).toEqual([
      { profile_id: profileIds.ada, chat_user_id: 'U0ADA00001', assigned_at: '2025-03-02 10:00:00.000000+00' },
    ]);
  });

  it('assigns a badge by chat user id, says how many are new, audits it as the cli, and refuses unknown ids', async () => {
    expect(await run(['badge', 'assign', badgeIds.speaker, 'U0ADA00001', 'U0LINUS001', '--community', 'acme'])).toEqual(
      {
        code: 0,
        out: "Badge 'Speaker' has 2 members (1 new).",
        err: '',
      },
    );
    const audit = JSON.parse((await run(['audit', '--community', 'acme', '--json'])).out);
    expect(audit[0]).toEqual({
      time: expect.stringMatching(stamp),
      action: 'badge.assigned',
      subject_id: badgeIds.speaker,
      email: null,
      token_id: 'cli',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(
      await run(['badge', 'assign', badgeIds.speaker, 'U0NOBODY01', 'U0ADA00001', 'U0GHOST001', '--community', 'acme']),
    ).toEqual({
      code: 1,
      out: '',
      err: [
        'hearth: Refused:',
        "  users.0: no member with chat user id 'U0NOBODY01' in this community",
        "  users.2: no member with chat user id 'U0GHOST001' in this community",
      ].join('\n'),
    });
    const unknown = '0b4d9e00-0000-4000-8000-0000000000ff';
    expect(await run(['badge', 'assign', unknown, 'U0ADA00001', '--community', 'acme'])).toEqual({
      code: 1,
      out: '',
      err: `hearth: Badge '${unknown}' was not found.`,
    });
    expect((await run(['badge', 'list', '--community', 'nope'])).err).toBe("hearth: No community with slug 'nope'.");
  });
});

describe('hearth group', () => {
  it('lists groups, and shows or sets the members of one', async () => {
    expect((await run(['group', 'list', '--community', 'acme'])).out.split('\n')).toEqual([
      'id\tname\tmembers\tupdated_at',
      `${groupIds.organizers}\tOrganizers\t2\t2025-03-03 10:00:00.000000+00`,
      `${groupIds.volunteers}\tVolunteers\t0\t2025-03-01 12:00:00.000000+00`,
    ]);
    expect(await run(['group', 'members', groupIds.organizers, '--community', 'acme'])).toEqual({
      code: 0,
      out: [
        'profile_id\tchat_user_id\tadded_at',
        `${profileIds.ada}\tU0ADA00001\t2025-03-01 10:00:00.000000+00`,
        `${profileIds.grace}\tU0GRACE001\t2025-03-03 10:00:00.000000+00`,
      ].join('\n'),
      err: '',
    });
    const set = await run([
      'group',
      'members',
      groupIds.volunteers,
      '--community',
      'acme',
      '--set',
      'U0LINUS001, U0GRACE001',
    ]);
    expect(set.code).toBe(0);
    const [header, ...rows] = set.out.split('\n');
    expect(header).toBe('profile_id\tchat_user_id\tadded_at');
    expect(rows.map((row) => row.split('\t').slice(0, 2)).sort()).toEqual([
      [profileIds.grace, 'U0GRACE001'],
      [linusId, 'U0LINUS001'],
    ]);
    const emptied = await run(['group', 'members', groupIds.volunteers, '--community', 'acme', '--set', '', '--json']);
    expect(JSON.parse(emptied.out)).toMatchObject({ id: groupIds.volunteers, members_count: 0, members: [] });
    expect(
      (await run(['group', 'members', groupIds.volunteers, '--community', 'acme', '--set', 'U0GHOST001'])).err,
    ).toBe("hearth: Refused:\n  users.0: no member with chat user id 'U0GHOST001' in this community");
  });
});
