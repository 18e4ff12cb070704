// Unknown fields of an import record, nested ones included, each with the known field it most likely meant.
import type { TSchema } from '@sinclair/typebox';
import { knownFields, recordKinds, recordSchemas, type RecordKind } from './records.js';

export interface UnknownField {
  /** Dotted path, `author.nmae` or `hosts.0.nmae`. */
  path: string;
  /** The known field at the same place that is one or two edits away, if any. */
  meant: string | null;
}

interface SchemaShape {
  type?: unknown;
  properties?: Record<string, SchemaShape>;
  additionalProperties?: unknown;
  items?: SchemaShape;
  anyOf?: SchemaShape[];
}

/** Edit distance, cut off above 2: only near misses make a suggestion. */
function nearlyEqual(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 2) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return (previous[b.length] ?? 3) <= 2;
}

const meantOf = (key: string, known: readonly string[]) =>
  known.find((name) => nearlyEqual(key.toLowerCase(), name)) ?? null;

/** The alternatives of a union, unions within it flattened (`Opt(Union([id, object]))` nests two). */
const branches = (schema: SchemaShape): SchemaShape[] => (schema.anyOf ? schema.anyOf.flatMap(branches) : [schema]);

/** Of each union, its branch for arrays and its branch for objects (found once). */
const unionBranches = new WeakMap<SchemaShape, { array?: SchemaShape; object?: SchemaShape }>();

function branchOf(schema: SchemaShape, array: boolean): SchemaShape | undefined {
  let found = unionBranches.get(schema);
  if (!found) {
    const all = branches(schema);
    found = { array: all.find((b) => b.type === 'array'), object: all.find((b) => b.type === 'object') };
    unionBranches.set(schema, found);
  }
  return array ? found.array : found.object;
}

/**
 * Walks only what can hold a field (objects and arrays); a path is spelled only for a field found unknown or a
 * value walked into, since nearly every record has none and most of its fields are scalars.
 */
function collect(schema: SchemaShape, value: object, path: string, out: UnknownField[]): void {
  if (schema.anyOf) {
    // A value or null, an id or an object: follow the branch of the value's own shape.
    const branch = branchOf(schema, Array.isArray(value));
    if (branch) collect(branch, value, path, out);
    return;
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    if (schema.type !== 'array' || !items) return;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === 'object' && item !== null) collect(items, item, `${path}.${index}`, out);
    }
    return;
  }
  // Rich-text blocks and ProseMirror documents are kept as given.
  if (schema.type !== 'object' || !schema.properties || schema.additionalProperties === true) return;
  const properties = schema.properties;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    const inner = record[key];
    if (!property) {
      out.push({ path: `${path}.${key}`, meant: meantOf(key, Object.keys(properties)) });
    } else if (typeof inner === 'object' && inner !== null) collect(property, inner, `${path}.${key}`, out);
  }
}

const knownFieldSets = {} as Record<RecordKind, ReadonlySet<string>>;
for (const kind of recordKinds) knownFieldSets[kind] = new Set(knownFields[kind]);

/** Every field of `record` that its kind does not know, in the order they appear. */
export function unknownFields(kind: RecordKind, record: Record<string, unknown>): UnknownField[] {
  const out: UnknownField[] = [];
  const schema = recordSchemas[kind] as TSchema as SchemaShape;
  const known = knownFieldSets[kind];
  for (const key in record) {
    const value = record[key];
    if (!known.has(key)) out.push({ path: key, meant: meantOf(key, knownFields[kind]) });
    else if (key !== 'kind' && typeof value === 'object' && value !== null)
      collect(schema.properties?.[key] ?? {}, value, key, out);
  }
  return out;
}

export function describeUnknown(field: UnknownField): string {
  return `unknown field '${field.path}'${field.meant ? ` (did you mean '${field.meant}'?)` : ''}`;
}
