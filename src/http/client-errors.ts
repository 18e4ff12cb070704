// Answers to requests that fail before Fastify sees them (an unparsable request line or header, headers
// too large, a request that never completes, an `Expect` Hearth cannot meet): still the error body with
// an X-Request-Id when the socket can carry it, else the socket is closed. No RateLimit-*: nothing is counted
// before a request exists (docs/api-behaviour.md says why).
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError, type ErrorCode } from '../errors.js';
import { newRequestId, requestIdFrom } from './request-id.js';

/** Node's own codes for a request it could not read. */
function codeOf(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  return 'bad_request';
}

function errorBody(error: AppError, requestId: string): string {
  return JSON.stringify({ success: false, error: error.message, code: error.code, request_id: requestId });
}

/** A whole response written by hand: the parser failed, so there is no ServerResponse to write through. */
function rawResponse(error: AppError, requestId: string): string {
  const body = errorBody(error, requestId);
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** The server's `clientError` listener (Fastify's `clientErrorHandler`, called with the instance as `this`). */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset socket has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError = new AppError(codeOf(error));
  const requestId = newRequestId();
  this.log.info({ request_id: requestId, code: error.code, status: appError.status }, 'unreadable request refused');
  // As Node itself does: write only when no answer to this request has begun on the socket.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(rawResponse(appError, requestId));
  socket.destroy();
}

/**
 * Node answers an `Expect` other than `100-continue` with a bare 417; with this listener it is the error
 * body. (RFC 9110 allows either 417 or ignoring it; refusing says plainly that nothing was done.)
 */
export function answerExpectations(server: Server): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const requestId = requestIdFrom(request);
    const body = errorBody(new AppError('expectation_failed'), requestId);
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      connection: 'close',
    });
    response.end(body);
  });
}
