// What PostgreSQL's jsonb gives back for a JSON value, foreseen without a read: objects' keys in its order.
import type { Selectable } from 'kysely';
import type { PostsTable } from './database.js';

/** A post row as stored: posts.repository.ts's PostRow, named from its table so that db/ imports no feature. */
type PostRow = Selectable<PostsTable>;

/** Keys of printable ASCII alone, whose UTF-16 and UTF-8 orders agree (others are compared as UTF-8). */
const ASCII = /^[ -~]*$/;

/**
 * jsonb's order of two keys: the shorter (in UTF-8 bytes) first, equal lengths byte by byte; UTF-16's order
 * differs from it past U+D7FF.
 */
function jsonbKeyOrder(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length - right.length || Buffer.compare(left, right);
}

/** An object's keys as enumerated, and the same keys in jsonb's order (null: already in it). */
interface Shape {
  keys: readonly string[];
  order: readonly string[] | null;
}

/**
 * Orders found so far, by the keys joined: the objects of one kind (a rich-text element, a block) share a shape,
 * so their keys are sorted once rather than for every object. Bounded: past it, a new shape is sorted each time.
 */
const shapes = new Map<string, Shape>();
const MAX_SHAPES = 4096;

function orderOf(keys: readonly string[]): readonly string[] | null {
  const joined = keys.join('\u0000');
  const known = shapes.get(joined);
  // A key holding U+0000 could make two shapes join alike: the keys themselves are compared.
  if (known && known.keys.length === keys.length && known.keys.every((key, i) => key === keys[i])) return known.order;
  const sorted = [...keys].sort(jsonbKeyOrder);
  const order = sorted.every((key, i) => key === keys[i]) ? null : sorted;
  if (!known && shapes.size < MAX_SHAPES) shapes.set(joined, { keys, order });
  return order;
}

/**
 * A parsed JSON value as jsonb would return it: every object's keys in jsonb's order (a key given twice keeps
 * its last value, as both do). Numbers need nothing: jsonb keeps a number's exact decimal value, whose nearest
 * double is the one JSON.parse made of the text given. A value already in that order is returned as it is, not
 * copied (the import renders each post's JSON columns this way: most of their objects need no new order).
 */
export function inJsonbOrder(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const ordered = inJsonbOrder(item);
      if (copy === null && ordered !== item) copy = value.slice(0, i);
      copy?.push(ordered);
    }
    return copy ?? value;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  const order = orderOf(keys);
  const values = (order ?? keys).map((key) => inJsonbOrder(source[key]));
  if (order === null && values.every((ordered, i) => ordered === source[keys[i] as string])) return source;
  const copy: Record<string, unknown> = {};
  (order ?? keys).forEach((key, i) => {
    // `__proto__` defined as a key of its own, as JSON.parse does, not as the prototype.
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: values[i], enumerable: true, writable: true, configurable: true });
    else copy[key] = values[i];
  });
  return copy;
}

/** A JSON column's value (text as written, or a value) as PostgreSQL reads it back. */
const readBack = (stored: unknown): unknown => inJsonbOrder(typeof stored === 'string' ? JSON.parse(stored) : stored);

/** A post row as PostgreSQL reads it back once written: its JSON columns in jsonb's key order. */
export function postAsJsonb(row: PostRow): PostRow {
  return {
    ...row,
    body_prosemirror: readBack(row.body_prosemirror),
    chat_message: readBack(row.chat_message),
    references: readBack(row.references),
  };
}
