// One record's answer read inside a transaction (a write's own view, before it commits): the bytes and ETag a
// GET of that record answers, made by the same splice as the read path, so If-Match compares like for like.
import type { Kysely } from 'kysely';
import type { Database, FragmentsTable } from '../db/database.js';
import type { FragmentRead } from './fragment-reads.js';
import { oneAnswer, type Answer, type Embedded } from './splice.js';

const embedKinds: Record<string, FragmentsTable['kind']> = { p: 'profile', f: 'feed', t: 'tag' };

export async function answerWithin(
  db: Kysely<Database>,
  kind: 'event' | 'post',
  communityId: string,
  id: string,
): Promise<Answer | null> {
  const row: FragmentRead | undefined = await db
    .selectFrom('fragments')
    .select(['id', 'version', 'refs', 'body'])
    .where('community_id', '=', communityId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const embeds = new Map<string, Embedded>();
  const refs = row.refs === '' ? [] : row.refs.split(',');
  for (const letter of new Set(refs.map((ref) => ref.slice(0, 1)))) {
    const embedKind = embedKinds[letter];
    if (!embedKind) throw new Error(`Unknown embedded fragment kind '${letter}'`);
    const ids = refs.filter((ref) => ref.startsWith(`${letter}:`)).map((ref) => ref.slice(2));
    const rows = await db
      .selectFrom('fragments')
      .select(['id', 'version', 'body'])
      .where('community_id', '=', communityId)
      .where('kind', '=', embedKind)
      .where('id', 'in', [...new Set(ids)])
      .execute();
    for (const embedded of rows)
      embeds.set(`${letter}:${embedded.id}`, { body: embedded.body, version: Number(embedded.version) });
  }
  return oneAnswer(kind.slice(0, 1), row, (ref) => {
    const found = embeds.get(ref);
    if (!found) throw new Error(`Fragment ${ref} of community '${communityId}' is referenced but missing`);
    return found;
  });
}
