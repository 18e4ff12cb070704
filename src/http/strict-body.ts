// Type checks of a JSON body before the shared validator runs: that validator coerces (`5` would pass as
// "5", `"true"` as true), which a write must not do. Bounds, patterns, enums and required fields stay the
// validator's to report, and unknown fields are left for it to drop.
import type { TSchema } from '@sinclair/typebox';
import { AppError, type FieldProblem } from '../errors.js';

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  return (schema.anyOf ?? []).flatMap(typesOf);
}

function visit(schema: JsonSchema, value: unknown, field: string, problems: FieldProblem[]): void {
  const types = typesOf(schema);
  const actual = jsonType(value);
  if (types.length > 0 && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
    problems.push({ field: field || '(root)', message: `must be ${types.join(' or ')}` });
    return;
  }
  // The branch of an object-or-null union that holds the object's properties.
  const shape =
    schema.properties || schema.items ? schema : schema.anyOf?.find((branch) => typesOf(branch).includes(actual));
  if (actual === 'object' && shape?.properties) {
    for (const [name, child] of Object.entries(shape.properties)) {
      const inner = (value as Record<string, unknown>)[name];
      if (inner !== undefined) visit(child, inner, field ? `${field}.${name}` : name, problems);
    }
  } else if (actual === 'array' && shape?.items) {
    const items = shape.items;
    (value as unknown[]).forEach((item, i) => visit(items, item, `${field}.${i}`, problems));
  }
}

/** Throws one 400 naming every field of the wrong type, worded like the validator's errors. */
export function strictBody(schema: TSchema, body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const problems: FieldProblem[] = [];
  visit(schema as JsonSchema, body, '', problems);
  const [first] = problems;
  if (first) throw new AppError('invalid_body', `Invalid body field '${first.field}': ${first.message}.`, problems);
}
