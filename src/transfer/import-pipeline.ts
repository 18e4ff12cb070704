// Runs the import's parsing and deriving beside the writer: a worker thread when one can start, else in this thread.
import { Worker } from 'node:worker_threads';
import { ChunkBuilder, type ChunkOptions, type ChunkResult, type FinishResult } from './import-chunks.js';

export type WorkerRequest = { type: 'lines'; lines: string[]; first: number } | { type: 'finish' };
export type WorkerReply =
  | { type: 'chunk'; chunk: ChunkResult }
  | { type: 'finish'; finish: FinishResult }
  | { type: 'error'; message: string };

/** Parses and derives chunk by chunk; answers come back in the order the requests went. */
export interface ChunkSource {
  add(lines: string[], first: number): Promise<ChunkResult>;
  finish(): Promise<FinishResult>;
  close(): Promise<void>;
}

/** The compiled worker beside this module; under a TypeScript runner (the tests) the source, loaded through tsx's loader. */
function startWorker(options: ChunkOptions): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./import-worker.js', import.meta.url), { workerData: options });
  const source = JSON.stringify(new URL('./import-worker.ts', import.meta.url).href);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); });`;
  return new Worker(boot, { eval: true, workerData: options });
}

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

  private ask(request: WorkerRequest): Promise<WorkerReply> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(request);
    });
  }

  async add(lines: string[], first: number): Promise<ChunkResult> {
    const reply = await this.ask({ type: 'lines', lines, first });
    if (reply.type === 'error') throw new Error(`The import worker failed: ${reply.message}`);
    if (reply.type !== 'chunk') throw new Error('The import worker answered out of turn');
    return reply.chunk;
  }

  async finish(): Promise<FinishResult> {
    const reply = await this.ask({ type: 'finish' });
    if (reply.type === 'error') throw new Error(`The import worker failed: ${reply.message}`);
    if (reply.type !== 'finish') throw new Error('The import worker answered out of turn');
    return reply.finish;
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
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
  async finish(): Promise<FinishResult> {
    return this.builder.finish();
  }
  async close(): Promise<void> {}
}

/** A worker thread for the chunks; `inline` (small inputs, where a thread's start-up costs more than it saves) parses here. */
export function chunkSource(options: ChunkOptions, inline: boolean): ChunkSource {
  if (inline) return new InlineSource(options);
  return new ThreadSource(startWorker(options));
}
