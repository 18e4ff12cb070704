// Refusals the JSON schemas cannot say, in one walk of the body without recursion before validation: a body
// nesting deeper than MAX_BODY_DEPTH, and text holding a NUL character or a lone surrogate; each answers 400
// naming the field.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * How many arrays and objects a body may nest, the body itself counting as one. Serializers, the idempotency
 * fingerprint and the stores' JSON walk recursively: a 10 KB body nesting 4,500 arrays overflowed the stack
 * (a 500). Rich text nests a handful of levels; 64 leaves room to spare.
 */
export const MAX_BODY_DEPTH = 64;

// PostgreSQL cannot store NUL in text, SQLite can: refusing it in every body gives one answer on both stores.
// Query text is not stored: search reads NUL as a word separator, like any other character it does not
// index (DECISIONS: any q of 1 to 256 characters is answered), and every other parameter's own rule refuses it.
const NUL_RULE = 'must not contain the NUL character';
// JSON may spell half of a UTF-16 pair (`"\ud800"`): SQLite stores it, PostgreSQL's jsonb refuses it (a 500).
// Refused everywhere, it gets one answer on both stores.
const SURROGATE_RULE = 'must not contain a lone surrogate (half of a UTF-16 pair)';
/** With the `u` flag a pair is one code point: only a lone half matches. */
const loneSurrogate = /\p{Surrogate}/u;
const DEPTH_RULE = `must not nest arrays and objects more than ${MAX_BODY_DEPTH} deep`;

interface BodyProblem {
  /** A dotted path (`a.b.0`), '' for the root. */
  path: string;
  rule: string;
}

/** The rule a text breaks, or null. */
function textRule(text: string): string | null {
  if (text.includes('\u0000')) return NUL_RULE;
  return loneSurrogate.test(text) ? SURROGATE_RULE : null;
}

/**
 * The first refusal in a parsed JSON body, or null. Iterative, and it stops at the depth bound: a body may nest
 * deeper than the stack. Keys are checked too, since they are stored as text as well.
 */
function bodyProblem(body: unknown): BodyProblem | null {
  // The body itself is at depth 1: a container popped at MAX_BODY_DEPTH + 1 is one level too deep.
  const pending: [unknown, string, number][] = [[body, '', 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path, depth] = next;
    if (typeof value === 'string') {
      const rule = textRule(value);
      if (rule) return { path, rule };
    } else if (typeof value === 'object' && value !== null) {
      if (depth > MAX_BODY_DEPTH) return { path, rule: DEPTH_RULE };
      for (const [key, inner] of Object.entries(value)) {
        const rule = textRule(key);
        if (rule) return { path, rule };
        pending.push([inner, path ? `${path}.${key}` : key, depth + 1]);
      }
    }
  }
  return null;
}

/** Guards every route with a schema, before validation: the body is refused whatever else it breaks. */
export function registerInputGuards(app: FastifyInstance): void {
  // A callback hook: no promise per request on the path every request takes.
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema;
    if (!schema || schema.hide) return done();
    const problem = bodyProblem(request.body);
    if (problem === null) return done();
    const field = problem.path || '(root)';
    done(
      new AppError('invalid_body', `Invalid body field '${field}': ${problem.rule}.`, [
        { field, message: problem.rule },
      ]),
    );
  });
}
