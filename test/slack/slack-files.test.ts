// Files on Slack messages: counted in file_attachments_count and the summary, their permalinks kept as a list of
// links after the message's own blocks (so the post's references and its plain text name them); files hidden by the
// plan's limit counted and not linked, deleted ones neither.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { general, ts, workspaceEntries } from '../helpers/slack-workspace.js';
import { writeZip } from '../helpers/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'hearth-slack-files-'));
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

const url = (path: string, image = false) => ({
  order_seen: 0,
  is_embedded_media: image,
  is_image: image,
  is_video: false,
  url: path,
});

describe('files of Slack messages', () => {
  it('keeps the permalinks of the files as links after the blocks; hidden and deleted files are not linked', async () => {
    const days = structuredClone(general);
    // A file whose permalink is no http(s) URL is counted and not linked.
    days['2026-03-03']?.push({
      type: 'message',
      user: 'U01ALICE',
      ts: ts(2 * 86_400 + 10 * 3600, 1),
      text: 'Notes attached',
      files: [{ id: 'F05ODD', name: 'odd.txt', mode: 'hosted', permalink: 'javascript:alert(1)' }],
    });
    const zip = writeZip(join(dir, 'files.zip'), workspaceEntries({ days: { general: days } }));
    const id = await t.community('files');
    const token = await t.token(id);
    const result = await run(['slack', 'import', '--community', 'files', zip, '--domain', 'acme', '--quiet']);
    expect(result.code).toBe(0);
    expect(result.out.slice(-1)).toEqual([
      "Files: 4 attached (counted, not copied), 1 of them hidden by the plan's limit.",
    ]);
    const dave = (await t.get('/admin/v0/posts/jmjhj3a6e93j', token)).json().data;
    expect([dave.title, dave.body_plaintext, dave.file_attachments_count]).toEqual([
      'Last words from Dave',
      'Last words from Dave\n- Plan',
      2,
    ]);
    expect(dave.chat_message.blocks).toEqual([
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'Last words from Dave' }] }],
      },
      {
        type: 'rich_text',
        block_id: 'hearth_files',
        elements: [
          {
            type: 'rich_text_list',
            style: 'bullet',
            indent: 0,
            elements: [
              {
                type: 'rich_text_section',
                elements: [
                  { type: 'link', url: 'https://acme.slack.com/files/U03DAVE/F01PLAN/plan.pdf', text: 'Plan' },
                ],
              },
            ],
          },
        ],
      },
    ]);
    expect(dave.references.urls).toEqual([url('https://acme.slack.com/files/U03DAVE/F01PLAN/plan.pdf')]);
    const board = (await t.get('/admin/v0/posts/3lgf0i4z7pky', token)).json().data;
    expect([board.title, board.body_plaintext, board.chat_message.markdown, board.references.urls]).toEqual([
      'Photo of the board',
      '- Photo of the board',
      '',
      [url('https://acme.slack.com/files/U02BOB/F04BOARD/board.jpg', true)],
    ]);
    const posts = (await t.get('/admin/v0/search?type=post&q=notes', token)).json().data.records;
    expect(posts.map((p: Record<string, unknown>) => [p.title, p.body_plaintext, p.file_attachments_count])).toEqual([
      ['Notes attached', 'Notes attached', 1],
    ]);
  });
});
