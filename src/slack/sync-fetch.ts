// The fetching half of `hearth slack sync`: users.list, conversations.list, then per channel
// conversations.history and conversations.replies (only where reply_count > 0), every page by cursor, each page
// kept on disk as it arrives (sync-state.ts). A channel is complete only once its last page is in; a failure
// leaves the state at the page that failed, for the next run to resume.
import { isRecord, recordsOf, type JsonRecord } from '../content/loose-json.js';
import { channelOf, type SlackChannel } from './slack-feeds.js';
import { chooseChannels } from './slack-source.js';
import { compareTs, isSlackTs } from './slack-time.js';
import { savePage, type SyncChannel, type SyncFiles, type SyncState } from './sync-state.js';
import type { SlackApi } from './web-api.js';

export interface FetchOptions {
  api: SlackApi;
  files: SyncFiles;
  /** Channels named (names or ids); null: every public channel. */
  channels: readonly string[] | null;
  pageSize: number;
  /**
   * Per channel, the `ts` only newer messages are fetched after (`--since`, or the newest held less the re-read
   * window), and the newest message held (null with `--since` or when none is).
   */
  oldestOf(channel: SlackChannel): Promise<{ oldest: string | null; held: string | null }>;
  progress(line: string): void;
}

const nextCursor = (result: JsonRecord): string => {
  const meta = isRecord(result.response_metadata) ? result.response_metadata : {};
  return typeof meta.next_cursor === 'string' ? meta.next_cursor : '';
};

async function listChannels(options: FetchOptions): Promise<JsonRecord[]> {
  const all: JsonRecord[] = [];
  let cursor = '';
  do {
    const page = await options.api('conversations.list', {
      types: 'public_channel,private_channel',
      exclude_archived: false,
      limit: options.pageSize,
      cursor: cursor || undefined,
    });
    all.push(...recordsOf(page.channels));
    cursor = nextCursor(page);
  } while (cursor !== '');
  return all;
}

/** A thread reply's place is its thread: in the channel's history it is left for conversations.replies. */
const isReply = (m: JsonRecord) => isSlackTs(m.thread_ts) && m.thread_ts !== m.ts;

/**
 * Whether a message of the channel's history is a thread parent whose replies are to be read: every one on a first
 * sync; on a later one, a parent newer than what Hearth held, or an older one (re-read in the window) whose latest
 * reply is newer than that.
 */
function hasRepliesToRead(m: JsonRecord, held: string | null): boolean {
  if (!isSlackTs(m.ts) || isReply(m) || typeof m.reply_count !== 'number' || m.reply_count <= 0) return false;
  if (held === null || compareTs(m.ts, held) > 0) return true;
  return isSlackTs(m.latest_reply) && compareTs(m.latest_reply, held) > 0;
}

export async function fetchAll(options: FetchOptions, state: SyncState): Promise<void> {
  const { api, files, progress } = options;
  while (state.phase === 'users') {
    const page = await api('users.list', {
      limit: options.pageSize,
      cursor: state.cursor || undefined,
    });
    const members = recordsOf(page.members);
    state.fetched.users += members.length;
    state.cursor = nextCursor(page);
    if (state.cursor === '') state.phase = 'channels';
    progress(`users: ${state.fetched.users} so far`);
    savePage(files, state, { users: members });
  }
  if (state.phase === 'channels') {
    const raw = await listChannels(options);
    // Every public channel by default; a private one only when named (and the bot is in it).
    const listed = raw
      .map((c) => channelOf(c, false))
      .filter((c): c is SlackChannel => c !== null)
      .map((channel) => ({ channel }));
    const chosen = options.channels
      ? chooseChannels(listed, options.channels)
      : listed.filter(({ channel }) => !channel.isPrivate);
    const channels: SyncChannel[] = [];
    for (const { channel } of chosen)
      channels.push({ id: channel.id, name: channel.name, ...(await options.oldestOf(channel)) });
    state.channels = channels;
    state.fetched.channels = channels.length;
    state.phase = 'messages';
    progress(`channels: ${channels.map((c) => `#${c.name}`).join(', ') || 'none'}`);
    savePage(files, state, { channels: chosen.map(({ channel }) => channel.raw) });
  }
  while (state.phase === 'messages') {
    const channel = state.channels[state.channel];
    if (!channel) {
      state.phase = 'fetched';
      savePage(files, state, null);
      break;
    }
    if (state.step === 'history') {
      const page = await api('conversations.history', {
        channel: channel.id,
        limit: options.pageSize,
        cursor: state.historyCursor || undefined,
        oldest: channel.oldest ?? undefined,
      });
      const messages = recordsOf(page.messages);
      for (const m of messages) if (hasRepliesToRead(m, channel.held ?? null)) state.threads.push(m.ts as string);
      state.fetched.messages += messages.length;
      state.historyCursor = nextCursor(page);
      if (state.historyCursor === '') state.step = 'replies';
      progress(`#${channel.name}: ${messages.length} messages, ${state.threads.length} threads so far`);
      savePage(files, state, { history: channel.id, messages: messages.filter((m) => !isReply(m)) });
      continue;
    }
    const thread = state.threads[state.thread];
    if (thread === undefined) {
      // Every page of the channel is in: only now is it complete.
      Object.assign(state, {
        channel: state.channel + 1,
        step: 'history',
        historyCursor: '',
        threads: [],
        thread: 0,
        threadCursor: '',
      });
      savePage(files, state, null);
      continue;
    }
    const page = await api('conversations.replies', {
      channel: channel.id,
      ts: thread,
      limit: options.pageSize,
      cursor: state.threadCursor || undefined,
    });
    const messages = recordsOf(page.messages);
    state.fetched.messages += messages.length;
    state.threadCursor = nextCursor(page);
    if (state.threadCursor === '') state.thread++;
    savePage(files, state, { replies: channel.id, messages });
  }
}
