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

/**
 * A parsed JSON value as jsonb would return it: every object's keys in jsonb's order (a key given twice keeps
 * its last value, as both do). Numbers need nothing: jsonb keeps a number's exact decimal value, whose nearest
 * double is the one JSON.parse made of the text given.
 */
export function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  // fromEntries defines each key as its own property, `__proto__` included, as JSON.parse does.
  return Object.fromEntries(
    Object.keys(source)
      .sort(jsonbKeyOrder)
      .map((key) => [key, inJsonbOrder(source[key])]),
  );
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
