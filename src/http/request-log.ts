// The lines Fastify writes of each request: with readable logs one line once answered (`GET /x 200 3.2 ms`), with
// JSON logs its own two (incoming, completed); the probes, asked every few seconds by machines, at debug only.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route machines ask often (health, readiness, metrics): its request lines are written at debug, not info. */
    probe?: true;
  }
}

const levelOf = (request: FastifyRequest): 'debug' | 'info' =>
  request.routeOptions.config?.probe === true ? 'debug' : 'info';

/** `GET /admin/v0/members 200 3.2 ms`: what a person reading a terminal wants of a request. */
export const requestLine = (request: FastifyRequest, reply: FastifyReply): string =>
  `${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`;

export class RequestLog extends LogController {
  readonly #oneLine: boolean;

  /** `oneLine`: one readable line per request, written when it is answered. */
  constructor(oneLine: boolean) {
    super({ requestIdLogLabel: 'request_id' });
    this.#oneLine = oneLine;
  }

  override incomingRequest(request: FastifyRequest): void {
    if (!this.#oneLine) request.log[levelOf(request)]({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.#oneLine) {
      if (error) reply.log.error({ err: error }, requestLine(request, reply));
      else reply.log[levelOf(request)](requestLine(request, reply));
    } else if (error) {
      reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    } else {
      reply.log[levelOf(request)]({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}
