// `hearth slack sync`: a community's Slack history through the Web API with its connection's bot token, resumable
// like `hearth pull` (pages kept on disk as they arrive, sync-fetch.ts), then written in one import transaction
// through the records of an export import, so that both converge on the same ids.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Store } from '../db/store.js';
import { recordsOf, isRecord, stringOf, type JsonRecord } from '../content/loose-json.js';
import { importLines, type ImportOptions, type ImportSummary } from '../import/import.service.js';
import { ImportError } from '../import/problems.js';
import { ChannelHistory } from './channel-history.js';
import { hasReactions } from '../reactions/chat-reactions.repository.js';
import { ReactionSpool } from './reaction-spool.js';
import { readAhead } from './read-ahead.js';
import { originOfStart, RecordOrigins } from './record-origins.js';
import { channelOf, type SlackChannel } from './slack-feeds.js';
import { feedIdOf } from './slack-ids.js';
import { newestTsOfChannel } from './slack-sync.repository.js';
import { startHistory, type SlackStart } from './slack-source.js';
import type { SlackTally } from './slack-tally.js';
import { fetchAll } from './sync-fetch.js';
import {
  discardSync,
  freshSyncState,
  loadSyncState,
  SlackSyncError,
  type SyncFiles,
  type SyncState,
} from './sync-state.js';
import type { SlackApi } from './web-api.js';

export interface SyncOptions extends Pick<ImportOptions, 'clock' | 'writes' | 'onProgress' | 'signal'> {
  store: Store;
  api: SlackApi;
  files: SyncFiles;
  community: { id: string; slug: string };
  /** Channels to read (names or ids); null: every public channel. */
  channels: readonly string[] | null;
  /** Only messages after this instant (ms); otherwise after the newest message held of each channel. */
  sinceMs: number | null;
  /**
   * Without `sinceMs`: days before the newest message held from which a channel's history is read again, for the
   * threads there whose latest reply is newer than it (their replies are read again).
   */
  rereadDays: number;
  /** Discard an unfinished sync instead of resuming it. */
  restart: boolean;
  pageSize: number;
  progress(line: string): void;
}

export interface SyncResult {
  imported: ImportSummary;
  slack: SlackTally;
  fetched: SyncState['fetched'];
  resumed: boolean;
  /** The workspace's domain auth.test gave this run (null when its URL is not a slack.com one). */
  domain: string | null;
}

/** The `ts` `days` before `ts` (never before the epoch). */
function tsBefore(ts: string, days: number): string {
  const [seconds = '0', micros = '000000'] = ts.split('.');
  return `${Math.max(0, Number(seconds) - days * 86_400)}.${micros}`;
}

/** The workspace auth.test names: its team id and domain (`acme` of https://acme.slack.com/). */
export async function workspace(api: SlackApi): Promise<{ team: string; domain: string | null }> {
  const auth = await api('auth.test', {});
  const url = stringOf(auth.url) ?? '';
  return {
    team: stringOf(auth.team_id) ?? '',
    domain: /^https:\/\/([a-z0-9-]+)\.slack\.com\/?$/.exec(url)?.[1] ?? null,
  };
}

/** The spool's pages as import records: users and channels first, then each channel's history and threads. */
async function* recordsOfSpool(
  files: SyncFiles,
  state: SyncState,
  tally: { slack?: SlackTally },
  reactions: ReactionSpool,
  origins: RecordOrigins,
): AsyncGenerator<string> {
  const users: JsonRecord[] = [];
  let pageNumber = 0;
  let start: SlackStart | null = null;
  const histories = new Map<string, ChannelHistory>();
  const channels = new Map<string, SlackChannel>();
  for await (const line of createInterface({
    input: createReadStream(files.spool),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (line === '') continue;
    pageNumber++;
    const page = JSON.parse(line) as JsonRecord;
    if (Array.isArray(page.users)) users.push(...recordsOf(page.users));
    else if (Array.isArray(page.channels)) {
      for (const raw of page.channels) {
        const channel = channelOf(raw, false);
        if (channel) channels.set(channel.id, channel);
      }
      start = startHistory(users, [...channels.values()], state.domain);
      start.context.reactions = reactions;
      tally.slack = start.context.tally;
      for (const record of start.lines) {
        origins.noteListed(originOfStart(record));
        yield JSON.stringify(record);
      }
    } else if (start !== null) {
      const id = stringOf(page.history) ?? stringOf(page.replies) ?? '';
      const channel = channels.get(id);
      if (!channel) continue;
      let history = histories.get(id);
      if (!history) {
        history = new ChannelHistory(start.context, channel);
        histories.set(id, history);
      }
      // Named as `#general, conversations.history page 3`: the page is read again from the spool to name a message.
      const entry = `#${channel.name}, ${page.history ? 'conversations.history' : 'conversations.replies'} page ${pageNumber}`;
      for (const record of history.records(isRecord(page) ? (page.messages as unknown[]) : [])) {
        origins.noteMessage(entry, history.position);
        yield JSON.stringify(record);
      }
    }
  }
}

/** The messages of the spool's page that an origin names (`… page N`). */
async function pageMessages(files: SyncFiles, origin: string): Promise<unknown[]> {
  const wanted = Number(/ page (\d+)$/.exec(origin)?.[1] ?? 0);
  let number = 0;
  for await (const line of createInterface({
    input: createReadStream(files.spool),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (line === '' || ++number !== wanted) continue;
    const page = JSON.parse(line) as JsonRecord;
    return Array.isArray(page.messages) ? page.messages : [];
  }
  return [];
}

export async function syncSlack(options: SyncOptions): Promise<SyncResult> {
  const { files, api, community, progress } = options;
  if (options.restart) discardSync(files);
  let state = loadSyncState(files);
  const resumed = state !== null;
  if (state && state.community !== community.slug)
    throw new SlackSyncError(
      `${files.dir} holds an unfinished sync of '${state.community}'; pass --restart to discard it.`,
    );
  const { team, domain } = await workspace(api);
  if (state && state.team !== team)
    throw new SlackSyncError(
      `${files.dir} holds an unfinished sync of another workspace (${state.team}); pass --restart to discard it.`,
    );
  if (!state) {
    discardSync(files);
    state = freshSyncState(community.slug, team, domain);
  } else {
    progress(`Resuming the sync kept in ${files.dir}: ${state.fetched.messages} messages fetched so far.`);
  }
  const since = options.sinceMs === null ? null : `${Math.floor(options.sinceMs / 1000)}.000000`;
  await fetchAll(
    {
      api,
      files,
      channels: options.channels,
      pageSize: options.pageSize,
      oldestOf: async (channel) => {
        if (since !== null) return { oldest: since, held: null };
        const held = await newestTsOfChannel(options.store.db, community.id, feedIdOf(channel.id));
        return { oldest: held === null ? null : tsBefore(held, options.rereadDays), held };
      },
      progress,
    },
    state,
  );
  progress(`Importing what was fetched into '${community.slug}' in one transaction…`);
  const tally: { slack?: SlackTally } = {};
  const reactions = new ReactionSpool(await hasReactions(options.store.db, community.id));
  const origins = new RecordOrigins();
  let imported: ImportSummary;
  try {
    imported = await importLines(
      options.store,
      community.id,
      await readAhead(recordsOfSpool(files, state, tally, reactions, origins)),
      {
        clock: options.clock,
        writes: options.writes,
        onProgress: options.onProgress,
        signal: options.signal,
        source: 'slack',
        alongside: (trx, change) => reactions.write(trx, change, community.id),
      },
    );
  } catch (error) {
    // A refused record is named by its channel, page and message, not by its line in the converted stream.
    if (error instanceof ImportError) throw await origins.rename(error, (name) => pageMessages(files, name));
    throw error;
  } finally {
    reactions.close();
  }
  discardSync(files);
  const slack = tally.slack;
  if (!slack) throw new SlackSyncError('the sync fetched no channel list.');
  return { imported, slack, fetched: state.fetched, resumed, domain };
}
