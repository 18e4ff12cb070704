// One call of an operation: its request options, and its answer unwrapped to the success body's `data` or thrown as a HearthError.
import { HearthError } from './errors.js';

export interface CallOptions {
  /** Sent as `Idempotency-Key` (operations that accept one: POST /members). */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function requestInit(options: CallOptions): { headers: Record<string, string>; signal?: AbortSignal } {
  const headers = {
    ...options.headers,
    ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
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

export async function call<Body>(pending: Promise<Answer<Body>>): Promise<DataOf<NonNullable<Body>>> {
  const answer = await pending;
  if (answer.error !== undefined || !answer.response.ok) throw HearthError.from(answer.response, answer.error);
  const body: unknown = answer.data;
  return (typeof body === 'object' && body !== null && 'data' in body ? body.data : body) as DataOf<NonNullable<Body>>;
}
