// SQL for listing members (profiles with an e-mail), searched by name or e-mail, for the console's members page.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { ProfileRow } from '../profiles/profiles.repository.js';

export interface MemberListFilter {
  /** Words matched anywhere in the e-mail or the name, case-insensitively. */
  q?: string;
  state?: 'active' | 'deactivated';
  limit: number;
  offset: number;
}

/** `%` and `_` typed by someone are letters, not wildcards. */
const likeText = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function members(db: Kysely<Database>, communityId: string, filter: MemberListFilter) {
  let query = db.selectFrom('profiles').where('community_id', '=', communityId).where('email_key', 'is not', null);
  if (filter.state === 'active') query = query.where('deactivated_at', 'is', null);
  if (filter.state === 'deactivated') query = query.where('deactivated_at', 'is not', null);
  const q = filter.q?.trim();
  if (q) {
    const pattern = likeText(q);
    const name = sql<string>`lower(coalesce(preferred_name, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`;
    query = query.where(sql<boolean>`(email_key like ${pattern} escape '\\' or ${name} like ${pattern} escape '\\')`);
  }
  return query;
}

/**
 * A page of members in e-mail order, and how many match in all. The page's ids and the count come from the
 * `profiles_member_list` index alone (migration 025: filters, name and order in it), then only the page's rows are
 * read: a deep page skips index entries, not profile rows.
 */
export async function listMembers(
  db: Kysely<Database>,
  communityId: string,
  filter: MemberListFilter,
): Promise<{ rows: ProfileRow[]; total: number }> {
  const [count, ids] = await Promise.all([
    members(db, communityId, filter)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
    // `email_key` is unique in a community: the order is total without the id.
    members(db, communityId, filter)
      .select('id')
      .orderBy('email_key')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
  ]);
  if (ids.length === 0) return { rows: [], total: Number(count.n) };
  const found = await db
    .selectFrom('profiles')
    .selectAll()
    .where('community_id', '=', communityId)
    .where(
      'id',
      'in',
      ids.map((r) => r.id),
    )
    .execute();
  const byId = new Map(found.map((row) => [row.id, row]));
  const rows = ids.flatMap((r) => byId.get(r.id) ?? []);
  return { rows, total: Number(count.n) };
}

/** One member by id (a profile with an e-mail). */
export function findMember(db: Kysely<Database>, communityId: string, id: string): Promise<ProfileRow | undefined> {
  return db
    .selectFrom('profiles')
    .selectAll()
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .where('email_key', 'is not', null)
    .executeTakeFirst();
}
