// Refusals the JSON schemas cannot say, in one walk of the body without recursion before validation: a body
// nesting deeper than MAX_BODY_DEPTH, and text holding a NUL character or a lone surrogate; each answers 400
// naming the field.
import type { FastifyInstance } from 'fastify';
import { unstorableIn } from '../content/storable-text.js';
import { AppError } from '../errors.js';

/**
 * How many arrays and objects a body may nest, the body itself counting as one. Serializers, the idempotency
 * fingerprint and the stores' JSON walk recursively: a 10 KB body nesting 4,500 arrays overflowed the stack
 * (a 500). Rich text nests a handful of levels; 64 leaves room to spare.
 */
export const MAX_BODY_DEPTH = 64;

// Query text is not stored: search reads NUL as a word separator, like any other character it does not
// index (DECISIONS: any q of 1 to 256 characters is answered), and every other parameter's own rule refuses it.

/** Guards every route with a schema, before validation: the body is refused whatever else it breaks. */
export function registerInputGuards(app: FastifyInstance): void {
  // A callback hook: no promise per request on the path every request takes.
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema;
    if (!schema || schema.hide) return done();
    const problem = unstorableIn(request.body, { keys: true, maxDepth: MAX_BODY_DEPTH });
    if (problem === null) return done();
    const field = problem.path || '(root)';
    done(
      new AppError('invalid_body', `Invalid body field '${field}': ${problem.rule}.`, [
        { field, message: problem.rule },
      ]),
    );
  });
}
