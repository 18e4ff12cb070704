// The error every failed call raises: the HTTP status and the fields of Hearth's error body.
export interface FieldProblem {
  field: string;
  message: string;
}

export class HearthError extends Error {
  constructor(
    readonly status: number,
    /** The stable code of the error body (`not_found`, `invalid_parameter`…), or `http_error` without one. */
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details: FieldProblem[],
    /** The body as received, parsed when it was JSON. */
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'HearthError';
  }

  /** Reads the error body of a failed answer; anything not shaped like Hearth's body still gives status and text. */
  static from(response: Response, body: unknown): HearthError {
    const fields: Record<string, unknown> = typeof body === 'object' && body !== null ? { ...body } : {};
    const text = (key: string): string | null => {
      const value = fields[key];
      return typeof value === 'string' ? value : null;
    };
    const listed = fields['details'];
    const details = Array.isArray(listed) ? listed.filter(isFieldProblem) : [];
    return new HearthError(
      response.status,
      text('code') ?? 'http_error',
      text('error') ?? `HTTP ${response.status} ${response.statusText}`.trim(),
      text('request_id') ?? response.headers.get('x-request-id'),
      details,
      body,
    );
  }
}

function isFieldProblem(value: unknown): value is FieldProblem {
  return (
    typeof value === 'object' &&
    value !== null &&
    'field' in value &&
    'message' in value &&
    typeof value.field === 'string' &&
    typeof value.message === 'string'
  );
}
