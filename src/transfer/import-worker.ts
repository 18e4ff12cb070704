// The import's worker thread: receives runs of lines, answers with rows ready to write (see import-chunks.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkBuilder, type ChunkOptions } from './import-chunks.js';
import type { WorkerRequest, WorkerReply } from './import-pipeline.js';

const port = parentPort;
if (!port) throw new Error('import-worker.js runs only as a worker thread');
const builder = new ChunkBuilder(workerData as ChunkOptions);
port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply =
      request.type === 'lines'
        ? { type: 'chunk', chunk: builder.add(request.lines, request.first) }
        : { type: 'finish', finish: builder.finish() };
  } catch (error) {
    reply = { type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(reply);
});
