// Runs the import's parsing and deriving beside the writer: a worker thread when one can start, else in this thread.
import type { Worker } from 'node:worker_threads';
import { startWorkerModule } from '../lib/worker-module.js';
import { ChunkBuilder, type ChunkOptions, type ChunkResult, type FinishResult } from './derive-chunks.js';
import type { LinkGroup } from './plan.js';

export type WorkerRequest =
  | { type: 'lines'; lines: string[]; first: number }
  | { type: 'block'; block: Uint8Array }
  | { type: 'end' }
  | { type: 'finish' }
  | { type: 'linesOf'; keys: string[] };
export type WorkerReply =
  | { type: 'chunk'; chunk: ChunkResult }
  | { type: 'finish'; finish: FinishResult }
  | { type: 'groups'; groups: LinkGroup[] }
  | { type: 'error'; message: string };

/** Parses and derives chunk by chunk; answers come back in the order the requests went. */
export interface ChunkSource {
  add(lines: string[], first: number): Promise<ChunkResult>;
  /** The lines ending in a block of the file's bytes; the block is handed over (it cannot be used after). */
  addBlock(block: Uint8Array): Promise<ChunkResult>;
  /** The last lines, after the last block. */
  endBlocks(): Promise<ChunkResult>;
  finish(): Promise<FinishResult>;
  /** After finish (and before close): the lines naming the records of `keys` (`table:id`) among those it gave as unresolved. */
  linesOf(keys: string[]): Promise<LinkGroup[]>;
  /** Lets go of the parsing (its thread and memory); may be called more than once. */
  close(): Promise<void>;
}

/**
 * The worker's young generation: most of what it allocates (lines, parsed records, rows) is garbage by the next
 * chunk, and the file's blocks it is handed are freed only when it collects. At 8 MB rather than V8's default an
 * import peaks lower, in the same time (measured: bench/analysis.md, 'Figures behind the code's choices').
 */
const WORKER_YOUNG_GENERATION_MB = 8;

const startWorker = (options: ChunkOptions): Worker =>
  startWorkerModule(import.meta.url, 'derive-worker', options, {
    maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
  });

class ThreadSource implements ChunkSource {
  private readonly waiting: { resolve(reply: WorkerReply): void; reject(error: Error): void }[] = [];
  private failure: Error | null = null;

  constructor(private readonly worker: Worker) {
    worker.on('message', (reply: WorkerReply) => this.waiting.shift()?.resolve(reply));
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The import worker stopped (exit code ${code})`)));
  }

  private ask(request: WorkerRequest, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(request, transfer);
    });
  }

  /** The worker's answer to `request`, which must be of `type`; its failure thrown. */
  private async answer<K extends Exclude<WorkerReply['type'], 'error'>>(
    type: K,
    request: WorkerRequest,
    transfer: ArrayBuffer[] = [],
  ): Promise<Extract<WorkerReply, { type: K }>> {
    const reply = await this.ask(request, transfer);
    if (reply.type === 'error') throw new Error(`The import worker failed: ${reply.message}`);
    if (reply.type !== type) throw new Error('The import worker answered out of turn');
    return reply as Extract<WorkerReply, { type: K }>;
  }

  private async chunk(request: WorkerRequest, transfer: ArrayBuffer[] = []): Promise<ChunkResult> {
    return (await this.answer('chunk', request, transfer)).chunk;
  }

  add(lines: string[], first: number): Promise<ChunkResult> {
    return this.chunk({ type: 'lines', lines, first });
  }

  // The block's memory moves to the worker instead of being copied.
  addBlock(block: Uint8Array): Promise<ChunkResult> {
    const owned =
      block.byteOffset === 0 && block.byteLength === block.buffer.byteLength && block.buffer instanceof ArrayBuffer;
    return owned
      ? this.chunk({ type: 'block', block }, [block.buffer as ArrayBuffer])
      : this.chunk({ type: 'block', block });
  }

  endBlocks(): Promise<ChunkResult> {
    return this.chunk({ type: 'end' });
  }

  async finish(): Promise<FinishResult> {
    return (await this.answer('finish', { type: 'finish' })).finish;
  }

  async linesOf(keys: string[]): Promise<LinkGroup[]> {
    return (await this.answer('groups', { type: 'linesOf', keys })).groups;
  }

  private closed: Promise<unknown> | null = null;

  /** Stops the worker, once: its memory goes with it, and any later request fails. */
  close(): Promise<void> {
    if (!this.closed) {
      this.failure ??= new Error('The import worker was closed');
      this.worker.removeAllListeners('exit');
      this.closed = this.worker.terminate();
    }
    return this.closed.then(() => undefined);
  }
}

class InlineSource implements ChunkSource {
  private readonly builder: ChunkBuilder;
  constructor(options: ChunkOptions) {
    this.builder = new ChunkBuilder(options);
  }
  async add(lines: string[], first: number): Promise<ChunkResult> {
    return this.builder.add(lines, first);
  }
  async addBlock(block: Uint8Array): Promise<ChunkResult> {
    return this.builder.addBlock(block);
  }
  async endBlocks(): Promise<ChunkResult> {
    return this.builder.endBlocks();
  }
  async finish(): Promise<FinishResult> {
    return this.builder.finish();
  }
  async linesOf(keys: string[]): Promise<LinkGroup[]> {
    return this.builder.linesOf(keys);
  }
  async close(): Promise<void> {}
}

/** A worker thread for the chunks; `inline` (small inputs, where a thread's start-up costs more than it saves) parses here. */
export function chunkSource(options: ChunkOptions, inline: boolean): ChunkSource {
  if (inline) return new InlineSource(options);
  return new ThreadSource(startWorker(options));
}
