// The import's worker thread: receives runs of lines or blocks of the file's bytes, answers with rows ready to write (see derive-chunks.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkBuilder, type ChunkOptions } from './derive-chunks.js';
import type { WorkerRequest, WorkerReply } from './derive-thread.js';
import { bytesToMove } from '../rendering/fragment-bodies.js';

const port = parentPort;
if (!port) throw new Error('derive-worker.js runs only as a worker thread');
const builder = new ChunkBuilder(workerData as ChunkOptions);
port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    switch (request.type) {
      case 'lines':
        reply = { type: 'chunk', chunk: builder.add(request.lines, request.first) };
        break;
      case 'block':
        reply = { type: 'chunk', chunk: builder.addBlock(request.block) };
        break;
      case 'end':
        reply = { type: 'chunk', chunk: builder.endBlocks() };
        break;
      case 'finish':
        reply = { type: 'finish', finish: builder.finish() };
        break;
      case 'linesOf':
        reply = { type: 'groups', groups: builder.linesOf(request.keys) };
        break;
    }
  } catch (error) {
    reply = { type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  // A chunk's fragment bodies move to the writing thread instead of being copied.
  port.postMessage(
    reply,
    reply.type === 'chunk' && reply.chunk.rows ? bytesToMove(reply.chunk.rows.postFragments) : [],
  );
});
