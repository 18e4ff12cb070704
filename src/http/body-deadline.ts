// Request bodies must arrive within a set time of the request's start, or the answer is 408 and the
// connection is closed: a body sent a byte at a time must not hold a connection and a parser forever.
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** The error the body stream fails with; the error handler turns it into 408 `request_timeout`. */
export class BodyTimeout extends Error {
  readonly code = 'HEARTH_BODY_TIMEOUT';
  readonly statusCode = 408;
}

export function registerBodyDeadline(app: FastifyInstance, timeoutMs: number): void {
  app.addHook('preParsing', (request, reply, payload, done) => {
    const headers = request.headers;
    // Only requests that announce a body are timed (a GET has none to wait for).
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined)
      return done(null, payload);
    const timed = new PassThrough();
    const timer = setTimeout(
      () => {
        payload.unpipe(timed);
        timed.destroy(new BodyTimeout(`The request body did not arrive within ${timeoutMs} ms.`));
      },
      Math.max(0, timeoutMs - reply.elapsedTime),
    );
    const clear = () => clearTimeout(timer);
    // Done with: the whole body arrived, or the request was answered without reading it (a 415, say).
    payload.once('end', clear);
    reply.raw.once('finish', clear);
    reply.raw.once('close', clear);
    // Fastify listens while it reads the body; an error after that has no one left to tell.
    timed.on('error', () => {});
    // A client going away mid-body fails the body the same way it would without this hook.
    payload.once('error', (error) => timed.destroy(error));
    payload.pipe(timed);
    done(null, timed);
  });
}
