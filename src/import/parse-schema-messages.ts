// Why a record breaks its schema, as a person would say it: "id must be 12 lowercase letters or digits",
// not "Expected string to match '^[a-z0-9]{12}$'".
import type { TSchema } from '@sinclair/typebox';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { SHORT_ID_PATTERN, UUID_PATTERN } from '../lib/ids.js';

interface SchemaShape {
  type?: unknown;
  const?: unknown;
  pattern?: string;
  minimum?: number;
  maxLength?: number;
  minLength?: number;
  anyOf?: SchemaShape[];
}

/** What the patterns of the import format mean. */
const patterns: Record<string, string> = {
  [SHORT_ID_PATTERN]: '12 lowercase letters or digits',
  [UUID_PATTERN]: 'a UUID (8-4-4-4-12 hexadecimal digits)',
  '^[0-9]+(\\.[0-9]+)?$': 'a decimal number',
};

/** What a schema accepts, as a phrase: "a string", "a UUID (…)", "true or false", "one of: draft, published". */
function accepted(schema: SchemaShape): string {
  if (schema.anyOf) {
    const branches = schema.anyOf;
    if (branches.every((b) => 'const' in b)) return `one of: ${branches.map((b) => String(b.const)).join(', ')}`;
    return [...new Set(branches.map(accepted))].join(' or ');
  }
  if ('const' in schema) return String(schema.const);
  switch (schema.type) {
    case 'string':
      return schema.pattern ? (patterns[schema.pattern] ?? `text matching ${schema.pattern}`) : 'a string';
    case 'integer':
      return schema.minimum === 0 ? 'a whole number (0 or more)' : 'a whole number';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    default:
      return 'a valid value';
  }
}

/** Inside a union (a value or null, an id or an object), the error of the branch that got furthest, if one got further. */
function deepest(error: ValueError): ValueError {
  let best = error;
  for (const branch of error.errors) {
    const first = branch.First();
    if (!first) continue;
    const candidate = deepest(first);
    if (candidate.path.length > best.path.length) best = candidate;
  }
  return best;
}

function reason(error: ValueError): string {
  const schema = error.schema as TSchema as SchemaShape;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be ${schema.minimum} or more`;
    default:
      return `must be ${accepted(schema)}`;
  }
}

const fieldOf = (error: ValueError) => error.path.replace(/^\//, '').replace(/\//g, '.') || 'record';

/** One sentence per field in error, in the order found, at most `limit`: "start_date is required". */
export function schemaProblems(errors: Iterable<ValueError>, limit = 5): string[] {
  const byField = new Map<string, string>();
  for (const error of errors) {
    const found = deepest(error);
    const field = fieldOf(found);
    // A union reports each branch; the first sentence for a field is the one kept.
    if ([...byField.keys()].some((known) => known === field || field.startsWith(`${known}.`))) continue;
    byField.set(field, `${field} ${reason(found)}`);
    if (byField.size >= limit) break;
  }
  return [...byField.values()];
}
