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

/** A live session and its operator. */
export function findSession(db: Kysely<Database>, idHash: string, now: string) {
  return db
    .selectFrom('operator_sessions')
    .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
    .select(['operator_sessions.id_hash', 'operator_sessions.expires_at', 'operators.id', 'operators.email'])
    .where('operator_sessions.id_hash', '=', idHash)
    .where('operator_sessions.expires_at', '>', now)
    .executeTakeFirst();
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
