// A second SQLite reader on another thread, started at its first use: search splits a large ranking between it and
// the main thread, each walking half of the community's documents, so one search uses both cores.
import type { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { startWorkerModule } from '../lib/worker-module.js';
import type { ReaderReply, ReaderRequest } from './second-reader-worker.js';

/** Page cache of the second connection: it reads the same pages as the first, which the OS caches as well. */
const CACHE_KIB = 4 * 1024;
/** Its heap's young generation: it only passes rows on, and V8's default lets each thread's grow to 32 MB or more. */
const YOUNG_MB = 4;

export interface SecondReader {
  all<T>(query: CompiledQuery): Promise<T[]>;
  close(): Promise<void>;
}

export function createSecondReader(path: string): SecondReader {
  let worker: Worker | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve(rows: unknown[]): void; reject(error: Error): void }>();

  function failAll(error: Error): void {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
    worker = null;
  }

  function started(): Worker {
    if (worker) return worker;
    const fresh = startWorkerModule(import.meta.url, 'second-reader-worker', { path, cacheKib: CACHE_KIB }, YOUNG_MB);
    fresh.on('message', (reply: ReaderReply) => {
      const entry = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (waiting.size === 0) fresh.unref();
      if ('error' in reply) entry?.reject(new Error(reply.error));
      else entry?.resolve(reply.rows);
    });
    fresh.on('error', failAll);
    fresh.on('exit', () => failAll(new Error('The second search reader stopped')));
    worker = fresh;
    return fresh;
  }

  return {
    all<T>(query: CompiledQuery): Promise<T[]> {
      const id = next++;
      const request: ReaderRequest = { id, sql: query.sql, parameters: query.parameters };
      return new Promise<T[]>((resolve, reject) => {
        const running = started();
        // Alive while a statement is out, as an I/O would be; idle, it never keeps the process alive.
        if (waiting.size === 0) running.ref();
        waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
        running.postMessage(request);
      });
    },
    async close() {
      const running = worker;
      worker = null;
      if (running) await running.terminate();
    },
  };
}
