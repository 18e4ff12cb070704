// The baseline: a bare node:http server answering every request with one fixed JSON body of a settable size.
import { createServer } from 'node:http';

// `PUT /__bench/size/<bytes>` sets the body before each workload. processes.ts runs this file compiled, on bare
// node without tsx, so that its memory is a bare Node process's.

/** A JSON document of exactly `bytes` bytes (at least the empty envelope's size). */
function bodyOf(bytes: number): Buffer {
  const envelope = '{"success":true,"data":""}';
  return Buffer.from(`{"success":true,"data":"${'x'.repeat(Math.max(0, bytes - envelope.length))}"}`);
}

let body = bodyOf(0);

const server = createServer((request, response) => {
  const control = /^\/__bench\/size\/(\d+)$/.exec(request.url ?? '');
  if (request.method === 'PUT' && control) {
    body = bodyOf(Number(control[1]));
    response.writeHead(204).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});

server.keepAliveTimeout = 60_000;
// BASELINE_PORT fixes the port (bench:instructions runs it under valgrind); by default any free one.
server.listen(Number(process.env.BASELINE_PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address) process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
