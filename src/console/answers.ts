// The API's answers as the console's pages read them: the JSON of an answer made of fragments, and the refusal of a
// write as a page shows it.
import type { StoreDialect } from '../db/dialect.js';
import { AppError } from '../errors.js';
import { toAppError } from '../http/error-handler.js';
import type { Answer } from '../fragments/splice.js';

export interface PageOfRecords<T = Record<string, unknown>> {
  page: number;
  per_page: number;
  count: number;
  total_records: number;
  total_pages: number;
  has_next: boolean;
  records: T[];
}

/** The `data` of an answer: what the API sends, read by the page that shows it. */
export const dataOf = <T>(answer: Answer): T => (JSON.parse(answer.body.toString('utf8')) as { data: T }).data;

/** A refusal a form shows above itself (a 400 with its findings, a stale edit): other failures go to the error page. */
export function refusalOf(error: unknown): {
  status: number;
  message: string;
  details: { field: string; message: string }[];
} {
  if (error instanceof AppError && error.status < 500 && error.status !== 401 && error.status !== 429)
    return { status: error.status, message: error.message, details: error.details ?? [] };
  throw error;
}

/** A form's validation failure (a route with `attachValidation`), worded as the API words it. */
export function validationRefusal(
  error: Error & { validation?: unknown },
  dialect: StoreDialect,
): { status: number; message: string; details: { field: string; message: string }[] } {
  return refusalOf(toAppError(error, dialect));
}
