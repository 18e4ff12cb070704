// A Slack export's import records, in the order they are written: its lists read and its channels chosen as it
// opens, then the profiles and feeds, then each channel's messages day file by day file, with what was read tallied.
import { ChannelHistory, SlackMessageError } from './channel-history.js';
import { daysOfChannel, layoutOf } from './export-layout.js';
import { readArray, readChannels, readUsers } from './export-read.js';
import { ExportArchive, SlackExportError, type ZipLimits } from './export-zip.js';
import { chooseChannels, startHistory } from './slack-source.js';
import type { SlackTally } from './slack-tally.js';

/** What chooses and names an export's records: the options of `hearth slack import` that reach its reading. */
export interface ExportReadOptions {
  /** Private channels (groups.json) too; public channels only by default. Direct messages never. */
  includePrivate?: boolean;
  /** Only these channels (names or ids). */
  channels?: readonly string[];
  /** The workspace's domain (`acme` for acme.slack.com), for permalinks; without it they are null. */
  domain?: string | null;
  limits?: ZipLimits;
}

export interface ExportRecords {
  /** The records, one by one; a malformed day file or message is thrown as a SlackExportError naming its entry. */
  records(): AsyncGenerator<Record<string, unknown>>;
  /** What was read so far (all of it once `records` is done). */
  tally: SlackTally;
  close(): void;
}

/** Opens the archive and reads its lists; a broken archive or an unknown channel is thrown here, before any record. */
export async function openExportRecords(path: string, options: ExportReadOptions): Promise<ExportRecords> {
  const archive = await ExportArchive.open(path, options.limits);
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
    async function* records(): AsyncGenerator<Record<string, unknown>> {
      yield* lines;
      for (const { channel, root } of listed) {
        const history = new ChannelHistory(context, channel);
        for (const day of daysOfChannel(layout, root, channel.name)) {
          const messages = await readArray(archive, day);
          try {
            yield* history.records(messages);
          } catch (error) {
            if (error instanceof SlackMessageError)
              throw new SlackExportError(`entry '${day}': ${error.message}; nothing was imported.`);
            throw error;
          }
        }
      }
    }
    return { records, tally: context.tally, close: () => archive.close() };
  } catch (error) {
    archive.close();
    throw error;
  }
}
