// The catalog of every error Hearth answers with: one stable code, one status, one default sentence each.

export const errorCatalog = {
  invalid_parameter: { status: 400, message: 'A query or path parameter is invalid.' },
  invalid_body: { status: 400, message: 'The request body is invalid.' },
  bad_request: { status: 400, message: 'The request is not valid HTTP.' },
  unauthorized: { status: 401, message: 'A valid bearer token is required.' },
  invalid_signature: {
    status: 401,
    message:
      "The request's Slack signature is missing, stale or does not match a connected community's signing secret.",
  },
  insufficient_scope: { status: 403, message: 'The token lacks the scope this operation needs.' },
  csrf_refused: {
    status: 403,
    message:
      'This form was not sent from a page of this console (its CSRF token is missing or wrong); reload the page and try again.',
  },
  not_found: { status: 404, message: 'The requested resource was not found.' },
  method_not_allowed: { status: 405, message: 'This method is not allowed on this path.' },
  request_timeout: { status: 408, message: 'The request did not arrive in time.' },
  idempotency_in_flight: { status: 409, message: 'A request with this Idempotency-Key is still being processed.' },
  precondition_failed: {
    status: 412,
    message: 'The record changed since the ETag in If-Match was read; read it again and retry.',
  },
  event_not_published: {
    status: 422,
    message: 'Registrations are open only for published events; this one is a draft or awaits approval.',
  },
  registration_not_enabled: {
    status: 422,
    message: "This event does not take registrations (its 'enable_registration_button' is false).",
  },
  event_ended: { status: 422, message: 'This event has ended; it takes no more registrations.' },
  event_deleted: { status: 422, message: 'This event was deleted; it takes no registrations.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request body must be JSON (Content-Type: application/json).' },
  expectation_failed: { status: 417, message: "The only expectation served is 'Expect: 100-continue'." },
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request body.',
  },
  rate_limited: { status: 429, message: 'Too many requests; slow down.' },
  headers_too_large: { status: 431, message: 'The request headers are too large.' },
  internal: { status: 500, message: 'An internal error occurred.' },
  unavailable: { status: 503, message: 'The service is temporarily unavailable; try again shortly.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalog;

export interface FieldProblem {
  field: string;
  message: string;
}

/** An error that leaves Hearth as the documented error body. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string = errorCatalog[code].message,
    readonly details?: FieldProblem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorCatalog[code].status;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} was not found.`);
