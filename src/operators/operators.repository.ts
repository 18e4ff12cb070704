// SQL for console operators, the communities they manage, their one-time sign-in links and their sessions.
import type { Kysely, Selectable } from 'kysely';
import type { Database, OperatorSessionsTable, OperatorsTable } from '../db/database.js';

export type OperatorRow = Selectable<OperatorsTable>;
export type SessionRow = Selectable<OperatorSessionsTable>;

export async function insertOperator(
  db: Kysely<Database>,
  row: OperatorRow,
  communityIds: readonly string[],
): Promise<void> {
  await db.insertInto('operators').values(row).execute();
  if (communityIds.length > 0)
    await db
      .insertInto('operator_communities')
      .values(communityIds.map((community_id) => ({ operator_id: row.id, community_id })))
      .execute();
}

export function findOperatorByEmail(db: Kysely<Database>, email: string): Promise<OperatorRow | undefined> {
  return db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();
}

export function listOperators(db: Kysely<Database>): Promise<OperatorRow[]> {
  return db.selectFrom('operators').selectAll().orderBy('email').execute();
}

/** The slugs of the communities an operator may manage (empty: every community). */
export async function communitiesOf(db: Kysely<Database>, operatorId: string): Promise<{ id: string; slug: string }[]> {
  return db
    .selectFrom('operator_communities')
    .innerJoin('communities', 'communities.id', 'operator_communities.community_id')
    .select(['communities.id', 'communities.slug'])
    .where('operator_communities.operator_id', '=', operatorId)
    .orderBy('communities.slug')
    .execute();
}

export async function deleteOperator(db: Kysely<Database>, id: string): Promise<void> {
  // The foreign keys cascade on both stores, but SQLite enforces them only when asked: remove the rows explicitly.
  await db.deleteFrom('operator_sessions').where('operator_id', '=', id).execute();
  await db.deleteFrom('operator_links').where('operator_id', '=', id).execute();
  await db.deleteFrom('operator_communities').where('operator_id', '=', id).execute();
  await db.deleteFrom('operators').where('id', '=', id).execute();
}

export async function insertLink(
  db: Kysely<Database>,
  row: { secret_hash: string; operator_id: string; created_at: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('operator_links')
    .values({ ...row, used_at: null })
    .execute();
}

/** Marks an unused, unexpired link used, in one statement (two tabs following it: one wins); its operator's id. */
export async function useLink(db: Kysely<Database>, secretHash: string, now: string): Promise<string | undefined> {
  const row = await db
    .updateTable('operator_links')
    .set({ used_at: now })
    .where('secret_hash', '=', secretHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('operator_id')
    .executeTakeFirst();
  return row?.operator_id;
}

export async function insertSession(db: Kysely<Database>, row: SessionRow): Promise<void> {
  await db.insertInto('operator_sessions').values(row).execute();
}

/**
 * A live session, its operator and the communities they may manage (those listed for them, or every one when none
 * is), in one statement: one row per community, ordered by slug; no rows when the session is gone, past its end or
 * idle since `idleSince`. A community-less store answers one row whose community is null.
 */
export function findSignedIn(db: Kysely<Database>, idHash: string, now: string, idleSince: string) {
  return db
    .selectFrom('operator_sessions as s')
    .innerJoin('operators as o', 'o.id', 's.operator_id')
    .leftJoin('communities as c', (join) =>
      join.on((eb) =>
        eb.or([
          eb.not(
            eb.exists(
              eb
                .selectFrom('operator_communities as any_oc')
                .select('any_oc.operator_id')
                .whereRef('any_oc.operator_id', '=', 'o.id'),
            ),
          ),
          eb.exists(
            eb
              .selectFrom('operator_communities as oc')
              .select('oc.operator_id')
              .whereRef('oc.operator_id', '=', 'o.id')
              .whereRef('oc.community_id', '=', 'c.id'),
          ),
        ]),
      ),
    )
    .select(['s.last_seen_at', 'o.id as operator_id', 'o.email', 'c.id as community_id', 'c.slug', 'c.name'])
    .where('s.id_hash', '=', idHash)
    .where('s.expires_at', '>', now)
    .where('s.last_seen_at', '>', idleSince)
    .orderBy('c.slug')
    .execute();
}

/** Notes a session's use (its idle window starts again), unless it was signed out meanwhile. */
export async function touchSession(db: Kysely<Database>, idHash: string, now: string): Promise<void> {
  await db.updateTable('operator_sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
}

export function sessionsOf(db: Kysely<Database>, operatorId: string): Promise<SessionRow[]> {
  return db
    .selectFrom('operator_sessions')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .orderBy('created_at')
    .execute();
}

export async function deleteSession(db: Kysely<Database>, idHash: string): Promise<void> {
  await db.deleteFrom('operator_sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteSessionsOf(db: Kysely<Database>, operatorId: string): Promise<number> {
  const result = await db.deleteFrom('operator_sessions').where('operator_id', '=', operatorId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
