// The Slack export's reading thread: opens the archive, turns its messages into import records and hands them over
// as blocks of NDJSON bytes, one block for each one asked for (see export-thread.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { SlackChannelsError } from './slack-source.js';
import { SlackExportError } from './export-zip.js';
import { openExportRecords, type ExportRecords } from './export-records.js';
import type { ExportWorkerData, ReaderReply } from './export-thread.js';

const port = parentPort;
if (!port) throw new Error('export-worker.js runs only as a worker thread');
const { path, options, blockBytes } = workerData as ExportWorkerData;

/** Blocks asked for and not yet sent; the reading waits while there are none (bounded read-ahead). */
let credit = 0;
let wake: (() => void) | null = null;
port.on('message', () => {
  credit++;
  wake?.();
  wake = null;
});
const asked = (): Promise<void> => (credit > 0 ? Promise.resolve() : new Promise((resolve) => (wake = resolve)));

const encoder = new TextEncoder();

async function send(lines: string[]): Promise<void> {
  await asked();
  credit--;
  // Its own ArrayBuffer, whose memory then moves to the importing thread.
  const block = encoder.encode(`${lines.join('\n')}\n`);
  port?.postMessage({ type: 'block', block } satisfies ReaderReply, [block.buffer]);
}

async function read(): Promise<void> {
  let source: ExportRecords;
  try {
    source = await openExportRecords(path, options);
  } catch (error) {
    port?.postMessage(failure(error));
    return;
  }
  try {
    port?.postMessage({ type: 'ready' } satisfies ReaderReply);
    let lines: string[] = [];
    let size = 0;
    for await (const record of source.records()) {
      const line = JSON.stringify(record);
      lines.push(line);
      size += line.length + 1;
      if (size >= blockBytes) {
        await send(lines);
        lines = [];
        size = 0;
      }
    }
    if (lines.length > 0) await send(lines);
    port?.postMessage({ type: 'end', tally: source.tally } satisfies ReaderReply);
  } catch (error) {
    port?.postMessage(failure(error));
  } finally {
    source.close();
  }
}

function failure(error: unknown): ReaderReply {
  const kind =
    error instanceof SlackExportError ? 'export' : error instanceof SlackChannelsError ? 'channels' : 'other';
  const message =
    kind === 'other' && error instanceof Error ? (error.stack ?? error.message) : (error as Error).message;
  return { type: 'error', kind, message: String(message ?? error) };
}

void read();
