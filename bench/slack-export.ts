// A generated Slack workspace export (ZIP) of a given number of messages, for the Slack import workload: users,
// public channels, one day file per channel and day, a third of the messages thread replies (some in later day
// files, some broadcast; each parent with its replies' count, repliers and latest_reply, as Slack exports it),
// reactions, mentions, links and emoji. Written channel by channel, never held whole; the same size and seed give
// the same bytes.
import { createWriteStream, existsSync, renameSync } from 'node:fs';
import { once } from 'node:events';
import { crc32, deflateRawSync } from 'node:zlib';
import { Random } from '../src/demo/random.js';

const USERS = 2000;
const CHANNELS = 20;
const PER_DAY = 50;
const START = Date.UTC(2024, 0, 1) / 1000;
const WORDS =
  'community meetup garden workshop schedule venue coffee volunteers agenda speaker recording slides welcome thanks question answer release deploy design review budget sponsor newsletter photos update'.split(
    ' ',
  );

interface Central {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** A ZIP written one entry at a time (deflated, UTF-8 names without the flag, as Slack writes them). */
class ZipStream {
  private readonly out;
  private readonly entries: Central[] = [];
  private offset = 0;

  constructor(path: string) {
    this.out = createWriteStream(path);
  }

  private async write(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (!this.out.write(bytes)) await once(this.out, 'drain');
  }

  async add(name: string, text: string): Promise<void> {
    const data = Buffer.from(text);
    const body = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const entry = {
      name: nameBytes,
      crc: crc32(data),
      compressed: body.length,
      size: data.length,
      offset: this.offset,
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.compressed, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    this.entries.push(entry);
    await this.write(Buffer.concat([local, nameBytes, body]));
  }

  async close(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) {
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(8, 10);
      central.writeUInt32LE(e.crc, 16);
      central.writeUInt32LE(e.compressed, 20);
      central.writeUInt32LE(e.size, 24);
      central.writeUInt16LE(e.name.length, 28);
      central.writeUInt32LE(e.offset, 42);
      await this.write(Buffer.concat([central, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    this.out.end();
    await once(this.out, 'finish');
  }
}

const userId = (i: number) => `U${String(i).padStart(8, '0')}`;
const channelId = (i: number) => `C${String(i).padStart(8, '0')}`;
const tsOf = (seconds: number, micros: number) => `${seconds}.${String(micros).padStart(6, '0')}`;

/** Writes the export of `messages` messages to `path` (kept when it exists), and returns its path. */
export async function ensureSlackExport(path: string, messages: number, seed = 1): Promise<string> {
  if (existsSync(path)) return path;
  const rng = new Random(seed);
  const random = () => rng.next();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const zip = new ZipStream(`${path}.partial`);
  const users = Array.from({ length: USERS }, (_, i) => ({
    id: userId(i),
    team_id: 'T00000001',
    name: `member${i}`,
    real_name: `Member ${i}`,
    deleted: i % 97 === 0,
    is_admin: i < 5,
    is_bot: i % 500 === 1,
    updated: START,
    profile: {
      display_name: `member${i}`,
      real_name: `Member ${i}`,
      first_name: 'Member',
      last_name: String(i),
      image_72: `https://avatars.example/${i}_72.png`,
      image_192: `https://avatars.example/${i}_192.png`,
    },
  }));
  await zip.add('users.json', JSON.stringify(users));
  const channels = Array.from({ length: CHANNELS }, (_, i) => ({
    id: channelId(i),
    name: `channel-${i}`,
    created: START,
    is_archived: false,
    members: users.slice(0, 50).map((u) => u.id),
    purpose: { value: `About ${sentence(3)}` },
    topic: { value: `Talk about ${sentence(2)} :wave:` },
  }));
  await zip.add('channels.json', JSON.stringify(channels));
  const perChannel = Math.ceil(messages / CHANNELS);
  for (let c = 0; c < CHANNELS; c++) {
    const count = Math.min(perChannel, messages - c * perChannel);
    const parents: string[] = [];
    /** The channel's day files, held until its threads are known: parents carry their replies' summary. */
    const days: { date: string; list: Record<string, unknown>[] }[] = [];
    const threads = new Map<string, { parent: Record<string, unknown>; replies: Record<string, unknown>[] }>();
    for (let day = 0, written = 0; written < count; day++) {
      const list: Record<string, unknown>[] = [];
      const base = START + day * 86_400;
      for (let m = 0; m < PER_DAY && written < count; m++, written++) {
        const ts = tsOf(base + m * 600 + c, (written % 999_999) + 1);
        const user = userId(Math.floor(random() * USERS));
        const text = `${sentence(8)} <@${userId(Math.floor(random() * USERS))}> see <https://example.com/${written}|the notes> :tada:`;
        const message: Record<string, unknown> = {
          type: 'message',
          user,
          ts,
          text,
          blocks: [
            {
              type: 'rich_text',
              elements: [
                {
                  type: 'rich_text_section',
                  elements: [
                    { type: 'text', text: `${sentence(8)} ` },
                    { type: 'user', user_id: userId(Math.floor(random() * USERS)) },
                    { type: 'text', text: ' see ' },
                    { type: 'link', url: `https://example.com/${written}`, text: 'the notes' },
                    { type: 'emoji', name: 'tada', unicode: '1f389' },
                  ],
                },
              ],
            },
          ],
        };
        if (random() < 0.3) message.reactions = [{ name: 'tada', users: [user], count: 1 }];
        // A third are replies to a recent thread (some from earlier days), a few of them broadcast.
        if (parents.length > 0 && random() < 0.33) {
          const parentTs = parents[Math.floor(random() * parents.length)] as string;
          message.thread_ts = parentTs;
          message.parent_user_id = threads.get(parentTs)?.parent.user;
          if (random() < 0.05) message.subtype = 'thread_broadcast';
          threads.get(parentTs)?.replies.push(message);
        } else {
          threads.set(ts, { parent: message, replies: [] });
          parents.push(ts);
          if (parents.length > 200) parents.shift();
        }
        list.push(message);
      }
      days.push({ date: new Date(base * 1000).toISOString().slice(0, 10), list });
    }
    // As Slack exports a thread's parent: its replies' count, repliers and the last reply's ts.
    for (const { parent, replies } of threads.values()) {
      const last = replies.at(-1);
      if (last === undefined) continue;
      const users = [...new Set(replies.map((reply) => reply.user as string))];
      Object.assign(parent, {
        thread_ts: parent.ts,
        reply_count: replies.length,
        reply_users_count: users.length,
        latest_reply: last.ts,
        reply_users: users.slice(0, 5),
      });
    }
    for (const { date, list } of days) await zip.add(`channel-${c}/${date}.json`, JSON.stringify(list));
  }
  await zip.close();
  renameSync(`${path}.partial`, path);
  return path;
}
