// `hearth slack import`: a Slack workspace export (ZIP) into one community through the import path of `hearth
// import` — one transaction, all or nothing, the same progress and summary — read entry by entry, never whole.
import type { Store } from '../db/store.js';
import { importLines, type ImportOptions, type ImportSummary } from '../import/import.service.js';
import { ImportError } from '../import/problems.js';
import { ChannelHistory, SlackMessageError } from './channel-history.js';
import { daysOfChannel, layoutOf } from './export-layout.js';
import { readArray, readChannels, readUsers } from './export-read.js';
import { ExportArchive, SlackExportError, type ZipLimits } from './export-zip.js';
import { hasReactions } from '../reactions/chat-reactions.repository.js';
import { ReactionSpool } from './reaction-spool.js';
import { readAhead } from './read-ahead.js';
import { originOfStart, RecordOrigins } from './record-origins.js';
import { chooseChannels, startHistory } from './slack-source.js';
import { type HeldRecord, ThreadHold } from './thread-hold.js';
import type { SlackTally } from './slack-tally.js';

export interface SlackImportOptions extends Pick<ImportOptions, 'clock' | 'writes' | 'dryRun' | 'onProgress'> {
  /** Private channels (groups.json) too; public channels only by default. Direct messages never. */
  includePrivate?: boolean;
  /** Only these channels (names or ids). */
  channels?: readonly string[];
  /** The workspace's domain (`acme` for acme.slack.com), for permalinks; without it they are null. */
  domain?: string | null;
  limits?: ZipLimits;
}

export interface SlackImportResult {
  imported: ImportSummary;
  slack: SlackTally;
}

export async function importSlackExport(
  store: Store,
  communityId: string,
  path: string,
  options: SlackImportOptions = {},
): Promise<SlackImportResult> {
  const replacing = await hasReactions(store.db, communityId);
  const archive = await ExportArchive.open(path, options.limits);
  const spool = new ReactionSpool(replacing);
  try {
    const layout = layoutOf(archive.names());
    const users = await readUsers(archive, layout);
    const listed = chooseChannels(
      await readChannels(archive, layout, options.includePrivate === true),
      options.channels,
    );
    const { context, lines } = startHistory(
      users,
      listed.map((l) => l.channel),
      options.domain ?? null,
    );
    if (!options.dryRun) context.reactions = spool;
    const origins = new RecordOrigins();
    /** Held records handed over, each noted with its own day file. */
    function* handOver(released: readonly HeldRecord[]): Generator<string> {
      for (const { line, entry, position } of released) {
        origins.noteMessage(entry, position);
        yield line;
      }
    }
    async function* records(): AsyncGenerator<string> {
      for (const line of lines) {
        origins.noteListed(originOfStart(line));
        yield JSON.stringify(line);
      }
      for (const { channel, root } of listed) {
        const history = new ChannelHistory(context, channel);
        const hold = new ThreadHold();
        for (const day of daysOfChannel(layout, root, channel.name)) {
          const messages = await readArray(archive, day);
          try {
            for (const record of history.records(messages)) {
              const { position, threadEnd } = history;
              if (threadEnd !== null) {
                const early = hold.hold({ line: JSON.stringify(record), entry: day, position, threadEnd });
                if (early) yield* handOver([early]);
                continue;
              }
              origins.noteMessage(day, position);
              yield JSON.stringify(record);
            }
          } catch (error) {
            if (error instanceof SlackMessageError)
              throw new SlackExportError(`entry '${day}': ${error.message}; nothing was imported.`);
            throw error;
          }
          if (history.latestTs !== null) yield* handOver(hold.release(history.latestTs));
        }
        yield* handOver(hold.releaseAll());
      }
    }
    let imported: ImportSummary;
    try {
      imported = await importLines(store, communityId, await readAhead(records()), {
        clock: options.clock,
        writes: options.writes,
        dryRun: options.dryRun,
        onProgress: options.onProgress,
        source: 'slack',
        alongside: (trx, change) => spool.write(trx, change, communityId),
      });
    } catch (error) {
      // A refused record is named by its entry and message, not by its line in the converted stream.
      if (error instanceof ImportError) throw await origins.rename(error, (name) => readArray(archive, name));
      throw error;
    }
    return { imported, slack: context.tally };
  } finally {
    spool.close();
    archive.close();
  }
}
