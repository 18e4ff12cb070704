// Hostile values in a Slack export: a record the import refuses is named by its ZIP entry and its place there (a day
// file's message and its ts, a user or channel of the lists), never by its line in the converted stream, and nothing
// is kept; a URL field given something else than an http(s) URL answers null.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { general, ts, users, workspaceEntries } from '../helpers/slack-workspace.js';
import { writeZip } from '../helpers/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-refused-'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    { DATABASE_URL: t.testStore.url },
    { progress: new PassThrough(), stdin: new PassThrough(), stdout: new PassThrough() },
  );
  return { code, out, err };
}

describe('a Slack export with records the import refuses', () => {
  it('names each by its entry and message (or user), and keeps nothing', async () => {
    const days = structuredClone(general);
    days['2026-03-04'] = [
      { type: 'message', user: 'U01ALICE', ts: ts(3 * 86_400, 2), text: 'Fine' },
      { type: 'message', subtype: 'channel_join', user: 'U02BOB', ts: ts(3 * 86_400, 1), text: 'joined' },
      // Out of ts order in its file: named by its place in the file all the same.
      { type: 'message', user: 'U01ALICE', ts: ts(3 * 86_400, 0), text: 'A NUL \u0000 here' },
    ];
    days['2026-03-05'] = [
      { type: 'message', user: 'U02BOB', ts: ts(4 * 86_400, 5), thread_ts: ts(3 * 86_400, 2), text: 'Half \ud800' },
    ];
    const entries = workspaceEntries({ layout: 'nested', days: { general: days } }).map((entry) =>
      entry.name.endsWith('/users.json')
        ? { ...entry, data: JSON.stringify([...users, { id: 'U66ODD', name: 'odd', real_name: 'Odd \u0000 One' }]) }
        : entry,
    );
    const zip = writeZip(join(dir, 'refused.zip'), entries);
    const id = await t.community('refused');
    const token = await t.token(id);
    const folder = 'Acme Slack export Mar 1 2026 - Mar 3 2026/general';
    expect(await run(['slack', 'import', '--community', 'refused', zip, '--quiet'])).toEqual({
      code: 1,
      out: [],
      err: [
        [
          'hearth: Import failed, nothing was kept: 3 problems:',
          'user U66ODD: profile: preferred_name must not contain the NUL character',
          `${folder}/2026-03-04.json: message 3 (ts ${ts(3 * 86_400, 0)}): post: title must not contain the NUL character`,
          `${folder}/2026-03-05.json: message 1 (ts ${ts(4 * 86_400, 5)}): comment: chat_message.markdown must not contain a lone surrogate (half of a UTF-16 pair)`,
        ].join('\n'),
      ],
    });
    expect((await (await t.get('/admin/v0/feeds', token)).json()).data.records).toEqual([]);
  });

  it('names a thread parent handed over after its replies by its own day file', async () => {
    const days = structuredClone(general);
    days['2026-03-04'] = [
      { type: 'message', user: 'U01ALICE', ts: ts(3 * 86_400, 1), text: 'Fine' },
      // Its reply sits in the next day file: it is handed to the import after that file's records.
      {
        type: 'message',
        user: 'U01ALICE',
        ts: ts(3 * 86_400, 2),
        thread_ts: ts(3 * 86_400, 2),
        reply_count: 1,
        latest_reply: ts(4 * 86_400, 1),
        text: 'A NUL \u0000 here',
      },
    ];
    days['2026-03-05'] = [
      { type: 'message', user: 'U02BOB', ts: ts(4 * 86_400, 1), thread_ts: ts(3 * 86_400, 2), text: 'A reply' },
      { type: 'message', user: 'U02BOB', ts: ts(4 * 86_400, 2), text: 'Another NUL \u0000' },
    ];
    const zip = writeZip(join(dir, 'held.zip'), workspaceEntries({ days: { general: days } }));
    await t.community('held');
    expect(await run(['slack', 'import', '--community', 'held', zip, '--quiet'])).toEqual({
      code: 1,
      out: [],
      err: [
        [
          'hearth: Import failed, nothing was kept: 2 problems:',
          `general/2026-03-05.json: message 2 (ts ${ts(4 * 86_400, 2)}): post: title must not contain the NUL character`,
          `general/2026-03-04.json: message 2 (ts ${ts(3 * 86_400, 2)}): post: title must not contain the NUL character`,
        ].join('\n'),
      ],
    });
  });

  it('keeps only http(s) URLs where the API answers a URL (icons, images)', async () => {
    const days = structuredClone(general);
    days['2026-03-04'] = [
      {
        type: 'message',
        subtype: 'bot_message',
        bot_id: 'B07ODD',
        username: 'oddbot',
        icons: { image_72: 'javascript:alert(1)' },
        ts: ts(3 * 86_400, 1),
        text: 'Odd icons here',
      },
      { type: 'message', user: 'U66ODD', ts: ts(3 * 86_400, 2), text: 'Odd images here' },
    ];
    const entries = workspaceEntries({ days: { general: days } }).map((entry) =>
      entry.name === 'users.json'
        ? {
            ...entry,
            data: JSON.stringify([
              ...users,
              {
                id: 'U66ODD',
                name: 'odd',
                profile: { image_72: 'not a url', image_512: 'https://img.example/odd.png' },
              },
            ]),
          }
        : entry,
    );
    const id = await t.community('odd-urls');
    const token = await t.token(id);
    const result = await run(['slack', 'import', '--community', 'odd-urls', writeZip(join(dir, 'odd.zip'), entries)]);
    expect(result.code).toBe(0);
    const found = (await (await t.get('/admin/v0/search?type=post&q=odd', token)).json()).data.records;
    expect(
      found.map((p: { title: string; chat_message: { icon: unknown }; author: Record<string, unknown> }) => [
        p.title,
        p.chat_message.icon,
        p.author.chat_image_72,
        p.author.chat_image_original,
      ]),
    ).toEqual([
      ['Odd images here', null, null, 'https://img.example/odd.png'],
      ['Odd icons here', null, null, null],
    ]);
  });
});
