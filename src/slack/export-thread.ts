// A Slack export read in a thread of its own: the archive's entries inflated and parsed, the messages turned into
// records and those into NDJSON beside the import, which then takes the bytes as it takes a file's. At most
// AHEAD blocks are read ahead of the import, so a large export is never held whole.
import type { Worker } from 'node:worker_threads';
import { startWorkerModule } from '../lib/worker-module.js';
import type { ExportReadOptions } from './export-records.js';
import { SlackExportError } from './export-zip.js';
import { SlackChannelsError } from './slack-source.js';
import type { SlackTally } from './slack-tally.js';

/** Bytes of NDJSON per block: about the import's own block, so that each is parsed as one chunk. */
const BLOCK_BYTES = 1 << 20;
/** Blocks the reading thread may have made that the import has not taken yet. */
const AHEAD = 2;

export interface ExportWorkerData {
  path: string;
  options: ExportReadOptions;
  blockBytes: number;
}

export type ReaderReply =
  | { type: 'ready' }
  | { type: 'block'; block: Uint8Array }
  | { type: 'end'; tally: SlackTally }
  | { type: 'error'; kind: 'export' | 'channels' | 'other'; message: string };

export interface ThreadedExport {
  /** The records as NDJSON, block by block; a failure of the reading thrown as it would be in this thread. */
  blocks(): AsyncGenerator<Uint8Array>;
  /** What was read, once every block was taken. */
  tally(): SlackTally;
  /** Stops the thread; may be called more than once. */
  close(): Promise<void>;
}

function errorOf(reply: Extract<ReaderReply, { type: 'error' }>): Error {
  if (reply.kind === 'export') return new SlackExportError(reply.message);
  if (reply.kind === 'channels') return new SlackChannelsError(reply.message);
  return new Error(`The Slack export reader failed: ${reply.message}`);
}

/** Starts reading `path` in a thread; resolves once its lists are read (a broken archive or unknown channel is thrown). */
export async function readExportInThread(path: string, options: ExportReadOptions): Promise<ThreadedExport> {
  const data: ExportWorkerData = { path, options, blockBytes: BLOCK_BYTES };
  const worker: Worker = startWorkerModule(import.meta.url, 'export-worker', data);
  const replies: ReaderReply[] = [];
  let waiter: ((reply: ReaderReply) => void) | null = null;
  const take = (reply: ReaderReply) => {
    if (waiter) {
      const wake = waiter;
      waiter = null;
      wake(reply);
    } else replies.push(reply);
  };
  const next = (): Promise<ReaderReply> => {
    const reply = replies.shift();
    return reply ? Promise.resolve(reply) : new Promise((resolve) => (waiter = resolve));
  };
  worker.on('message', take);
  worker.on('error', (error: Error) => take({ type: 'error', kind: 'other', message: error.stack ?? error.message }));
  worker.on('exit', (code) => take({ type: 'error', kind: 'other', message: `it stopped (exit code ${code})` }));
  let closed: Promise<unknown> | null = null;
  const close = async () => {
    if (!closed) {
      worker.removeAllListeners('exit');
      closed = worker.terminate();
    }
    await closed;
  };
  const first = await next();
  if (first.type !== 'ready') {
    await close();
    throw first.type === 'error' ? errorOf(first) : new Error('The Slack export reader answered out of turn');
  }
  let tally: SlackTally | null = null;
  return {
    async *blocks() {
      for (let i = 0; i < AHEAD; i++) worker.postMessage('more');
      for (;;) {
        const reply = await next();
        if (reply.type === 'end') {
          tally = reply.tally;
          return;
        }
        if (reply.type === 'error') throw errorOf(reply);
        if (reply.type !== 'block') throw new Error('The Slack export reader answered out of turn');
        // The next block is read while the import takes this one.
        worker.postMessage('more');
        yield reply.block;
      }
    },
    tally() {
      if (!tally) throw new Error('The Slack export was not read to its end');
      return tally;
    },
    close,
  };
}
