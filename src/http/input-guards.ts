// A refusal the JSON schemas cannot say: body text holding a NUL character answers 400 with `details`, the
// same on every store.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

// PostgreSQL cannot store NUL in text, SQLite can: refusing it in every body gives one answer on both stores.
// Query text is not stored: search reads NUL as a word separator, like any other character it does not
// index (DECISIONS: any q of 1 to 256 characters is answered), and every other parameter's own rule refuses it.
const NUL_RULE = 'must not contain the NUL character';

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

/** Guards every route with a schema, before validation: a NUL is refused whatever else the body breaks. */
export function registerInputGuards(app: FastifyInstance): void {
  // A callback hook: no promise per request on the path every request takes.
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema;
    if (!schema || schema.hide) return done();
    const path = nulPath(request.body);
    if (path === null) return done();
    const field = path || '(root)';
    done(new AppError('invalid_body', `Invalid body field '${field}': ${NUL_RULE}.`, [{ field, message: NUL_RULE }]));
  });
}
