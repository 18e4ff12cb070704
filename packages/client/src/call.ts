// One call of an operation: its request options, and its answer unwrapped to the success body's `data` or thrown as a HearthError.
import type { AnswerEtags } from './etags.js';
import { HearthError } from './errors.js';

/** What every method takes as its second argument. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The options of an operation that accepts `Idempotency-Key` (POST /members, POST /calendar_events). */
export interface IdempotencyOptions extends CallOptions {
  /** Sent as `Idempotency-Key`: a retry with the same key and body within 24 hours gets the first answer again. */
  idempotencyKey?: string;
}

/** The options of an operation that accepts `If-Match` (PATCH and DELETE of a calendar event). */
export interface IfMatchOptions extends CallOptions {
  /** Sent as `If-Match`: the change is made only while the record's ETag is this one, else 412 `precondition_failed`. */
  ifMatch?: string;
}

export function requestInit(options: IdempotencyOptions & IfMatchOptions): {
  headers: Record<string, string>;
  signal?: AbortSignal;
} {
  const headers = {
    ...options.headers,
    ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    ...(options.ifMatch ? { 'if-match': options.ifMatch } : {}),
  };
  return options.signal ? { headers, signal: options.signal } : { headers };
}

/** The `data` member of a success body. */
export type DataOf<Body> = Body extends { data: infer Data } ? Data : Body;

/** What openapi-fetch resolves to: `data` on success, `error` otherwise. */
interface Answer<Body> {
  data?: Body;
  error?: unknown;
  response: Response;
}

/** Resolves to the success body's `data`, its ETag remembered in `etags`. */
export async function call<Body>(
  etags: AnswerEtags,
  pending: Promise<Answer<Body>>,
): Promise<DataOf<NonNullable<Body>>> {
  const answer = await pending;
  if (answer.error !== undefined || !answer.response.ok) throw HearthError.from(answer.response, answer.error);
  const body: unknown = answer.data;
  const data = typeof body === 'object' && body !== null && 'data' in body ? body.data : body;
  etags.remember(data, answer.response);
  return data as DataOf<NonNullable<Body>>;
}
