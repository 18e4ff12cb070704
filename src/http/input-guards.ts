// Refusals the JSON schemas cannot say: integer query values written other than in decimal digits, and
// body text holding a NUL character. Both answer 400 with `details`, the same on every store.
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { AppError, type FieldProblem } from '../errors.js';

// The validator coerces query text to numbers with `Number()`: `1e400` became Infinity and slipped past
// `maximum`, `0x10` became 16, ` 5` and `+5` became 5. An integer in a query is digits, nothing else.
const decimalDigits = /^[0-9]+$/;
const INTEGER_RULE = 'must be an integer written in decimal digits';
// PostgreSQL cannot store NUL in text, SQLite can: refusing it in every body gives one answer on both stores.
// Query text is not stored: search reads NUL as a word separator, like any other character it does not
// index (DECISIONS: any q of 1 to 256 characters is answered), and every other parameter's own rule refuses it.
const NUL_RULE = 'must not contain the NUL character';

interface SchemaShape {
  type?: unknown;
  properties?: Record<string, SchemaShape>;
}

function integerFields(schema: unknown): string[] {
  const properties = (schema as SchemaShape | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}

function integerProblems(query: unknown, integers: readonly string[]): FieldProblem[] {
  if (integers.length === 0 || typeof query !== 'object' || query === null) return [];
  const values = query as Record<string, unknown>;
  return integers
    .filter((field) =>
      (Array.isArray(values[field]) ? values[field] : [values[field]]).some(
        (v) => typeof v === 'string' && !decimalDigits.test(v),
      ),
    )
    .map((field) => ({ field, message: INTEGER_RULE }));
}

/** Where a NUL hides in a parsed JSON body, as a dotted path (`a.b.0`, '' for the root), or null. Iterative: a body may nest deeper than the stack. */
function nulPath(body: unknown): string | null {
  const pending: [unknown, string][] = [[body, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\u0000')) return path;
        pending.push([inner, path ? `${path}.${key}` : key]);
      }
    }
  }
  return null;
}

function refusal(code: 'invalid_parameter' | 'invalid_body', problems: FieldProblem[]): AppError {
  const [first] = problems;
  const what = code === 'invalid_body' ? 'body field' : 'parameter';
  return new AppError(code, first ? `Invalid ${what} '${first.field}': ${first.message}.` : undefined, problems);
}

/** The problems a request breaks before validation, or null; integer problems are kept for after it. */
function beforeValidation(
  request: FastifyRequest,
  integers: readonly string[],
  later: WeakMap<FastifyRequest, FieldProblem[]>,
): AppError | null {
  const body = nulPath(request.body);
  if (body !== null) return refusal('invalid_body', [{ field: body || '(root)', message: NUL_RULE }]);
  // The raw text is only visible now: validation replaces it with the number it coerced it to.
  const problems = integerProblems(request.query, integers);
  if (problems.length > 0) later.set(request, problems);
  return null;
}

/** Guards every route with a schema: NUL in bodies before validation; integers after it, so the validator's own findings come first. */
export function registerInputGuards(app: FastifyInstance): void {
  const integersBySchema = new WeakMap<object, string[]>();
  const integersOf = (schema: FastifySchema | undefined): string[] => {
    const query = schema?.querystring;
    if (typeof query !== 'object' || query === null) return [];
    let integers = integersBySchema.get(query);
    if (!integers) {
      integers = integerFields(query);
      integersBySchema.set(query, integers);
    }
    return integers;
  };
  const refusedIntegers = new WeakMap<FastifyRequest, FieldProblem[]>();
  // Callback hooks: no promise per request on the path every request takes.
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema;
    if (!schema || schema.hide) return done();
    const refused = beforeValidation(request, integersOf(schema), refusedIntegers);
    return refused ? done(refused) : done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    const problems = refusedIntegers.get(request);
    return problems ? done(refusal('invalid_parameter', problems)) : done();
  });
}
