// `hearth slack import`: a Slack workspace export (ZIP) into one community through the import path of `hearth
// import` — one transaction, all or nothing, the same progress and summary — read entry by entry, never whole.
import { stat } from 'node:fs/promises';
import type { Store } from '../db/store.js';
import { importLines, importStream, type ImportOptions, type ImportSummary } from '../import/import.service.js';
import { openExportRecords, type ExportReadOptions } from './export-records.js';
import { readExportInThread } from './export-thread.js';
import { readAhead } from './read-ahead.js';
import type { SlackTally } from './slack-tally.js';

export interface SlackImportOptions
  extends Pick<ImportOptions, 'clock' | 'writes' | 'dryRun' | 'onProgress'>,
    ExportReadOptions {
  /**
   * Reads the archive (inflating, parsing, converting) in a thread of its own beside the import's: by default when
   * the file is THREAD_ABOVE bytes or more, where the thread's start-up is small against what it takes off this one.
   */
  thread?: boolean;
}

/** A ZIP of at least this many bytes (about 14,000 messages as Slack writes them) is read in a thread of its own. */
export const THREAD_ABOVE = 1 << 20;

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
  const importOptions: ImportOptions = {
    clock: options.clock,
    writes: options.writes,
    dryRun: options.dryRun,
    onProgress: options.onProgress,
    source: 'slack',
  };
  if (options.thread ?? (await sizeOf(path)) >= THREAD_ABOVE) {
    const reading: ExportReadOptions = {
      includePrivate: options.includePrivate,
      channels: options.channels,
      domain: options.domain,
      limits: options.limits,
    };
    const reader = await readExportInThread(path, reading);
    try {
      const imported = await importStream(store, communityId, reader.blocks(), importOptions);
      return { imported, slack: reader.tally() };
    } finally {
      await reader.close();
    }
  }
  const source = await openExportRecords(path, options);
  try {
    async function* lines(): AsyncGenerator<string> {
      for await (const record of source.records()) yield JSON.stringify(record);
    }
    const imported = await importLines(store, communityId, await readAhead(lines()), importOptions);
    return { imported, slack: source.tally };
  } finally {
    source.close();
  }
}

/** The file's size; 0 when it cannot be read (opening it then says why). */
async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}
