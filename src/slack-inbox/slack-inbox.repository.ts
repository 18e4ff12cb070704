// SQL of the Slack inbox (migration 017): envelopes written on acknowledgement, claimed for a lease by one applier
// at a time (`FOR UPDATE SKIP LOCKED` where the store has row locks; SQLite has one writer), settled as done in the
// transaction of their application, retried with backoff, parked after their last attempt.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, SlackInboxTable } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { reusedQuery } from '../db/compiled-query.js';

export type InboxRow = Selectable<SlackInboxTable>;

// Every acknowledgement runs these three: compiled once.
const signingSecretQuery = reusedQuery<[string], { community_id: string; signing_secret: string | null }>((db, $) =>
  db
    .selectFrom('communities')
    .innerJoin('slack_connections', 'slack_connections.community_id', 'communities.id')
    .select(['communities.id as community_id', 'slack_connections.signing_secret'])
    .where('communities.slug', '=', $(0)),
);
const heldQuery = reusedQuery<[string, string], { id: string }>((db, $) =>
  db.selectFrom('slack_inbox').select('id').where('community_id', '=', $(0)).where('event_id', '=', $(1)),
);
const insertQuery = reusedQuery<[string, string, string, string, string, string]>((db, $) =>
  db
    .insertInto('slack_inbox')
    .values({
      id: $(0),
      community_id: $(1),
      event_id: $(2),
      event_type: $(3),
      envelope: $(4),
      received_at: $(5),
      state: 'pending',
      attempts: 0,
      next_attempt_at: $(5),
    })
    .onConflict((oc) => oc.columns(['community_id', 'event_id']).doNothing()),
);

/** The community a request path names, with the signing secret of its Slack connection (null when none is set). */
export function signingSecretOf(
  db: Kysely<Database>,
  slug: string,
): Promise<{ community_id: string; signing_secret: string | null } | undefined> {
  return signingSecretQuery.first(db, slug);
}

export interface NewEnvelope {
  id: string;
  community_id: string;
  event_id: string;
  event_type: string;
  envelope: string;
  received_at: string;
}

/**
 * Writes an envelope unless the community holds its event_id already (a retry, a duplicate): true when written.
 * A held event_id is found by a plain read first: on PostgreSQL an INSERT … ON CONFLICT whose key matches a row that
 * an open transaction has updated waits for that transaction, and the applier updates a row in the change that
 * applies it, so a retry of an event being applied would wait on the applier. Only an event_id the read missed goes
 * to the insert, where two first deliveries racing each other wait only on each other's one-statement insert.
 */
export async function insertEnvelope(db: Kysely<Database>, row: NewEnvelope): Promise<boolean> {
  if (await heldQuery.first(db, row.community_id, row.event_id)) return false;
  const inserted = await insertQuery.affected(
    db,
    row.id,
    row.community_id,
    row.event_id,
    row.event_type,
    row.envelope,
    row.received_at,
  );
  return inserted > 0;
}

/**
 * Deletes at most `limit` rows applied (done) before `before`: how many. A done row was due before it finished, so
 * the range on (state, next_attempt_at) finds them without reading the rows kept.
 */
export async function pruneDone(db: Kysely<Database>, before: string, limit: number): Promise<number> {
  const old = db
    .selectFrom('slack_inbox')
    .select('id')
    .where('state', '=', 'done')
    .where('next_attempt_at', '<', before)
    .where('finished_at', '<', before)
    .limit(limit);
  const result = await db.deleteFrom('slack_inbox').where('id', 'in', old).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Pending rows due by `now` and not held, oldest first, now held until `claimUntil`. */
export async function claimDue(
  db: Kysely<Database>,
  dialect: StoreDialect,
  now: string,
  claimUntil: string,
  limit: number,
): Promise<InboxRow[]> {
  let due = db
    .selectFrom('slack_inbox')
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit);
  if (dialect.rowLocks) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable('slack_inbox')
    .set({ claimed_until: claimUntil })
    .where('id', 'in', due)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returningAll()
    .execute();
  // UPDATE … RETURNING keeps no order: applied in the order Slack's events were received (ids sort so).
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// Run once per applied event: compiled once.
const finishQuery = reusedQuery<[string, string, string, string]>((db, $) =>
  db
    .updateTable('slack_inbox')
    .set({
      state: 'done',
      attempts: sql<number>`attempts + 1`,
      claimed_until: null,
      error: null,
      outcome: $(0),
      finished_at: $(1),
    })
    .where('id', '=', $(2))
    .where('claimed_until', '=', $(3)),
);

/**
 * Marks a claimed row done, in the transaction that applied it: false when the claim ran out and another process
 * holds the row now (the caller then rolls its application back).
 */
export async function finishClaimed(
  db: Kysely<Database>,
  id: string,
  claim: string,
  outcome: string,
  at: string,
): Promise<boolean> {
  return (await finishQuery.affected(db, outcome, at, id, claim)) === 1;
}

/** A failed attempt: retried at `nextAttemptAt`, or parked when that is null. */
export async function failClaimed(
  db: Kysely<Database>,
  id: string,
  claim: string,
  error: string,
  nextAttemptAt: string | null,
  at: string,
): Promise<void> {
  await db
    .updateTable('slack_inbox')
    .set({
      state: nextAttemptAt === null ? 'parked' : 'pending',
      attempts: sql<number>`attempts + 1`,
      claimed_until: null,
      error,
      next_attempt_at: nextAttemptAt ?? at,
      finished_at: nextAttemptAt === null ? at : null,
    })
    .where('id', '=', id)
    .where('claimed_until', '=', claim)
    .execute();
}

/** Parked rows (of one community, or all), oldest first. */
export function parkedRows(db: Kysely<Database>, communityId: string | null) {
  let query = db
    .selectFrom('slack_inbox')
    .innerJoin('communities', 'communities.id', 'slack_inbox.community_id')
    .select([
      'slack_inbox.id',
      'communities.slug as community',
      'slack_inbox.event_id',
      'slack_inbox.event_type',
      'slack_inbox.attempts',
      'slack_inbox.error',
      'slack_inbox.received_at',
      'slack_inbox.finished_at',
    ])
    .where('slack_inbox.state', '=', 'parked');
  if (communityId !== null) query = query.where('slack_inbox.community_id', '=', communityId);
  return query.orderBy('slack_inbox.received_at').orderBy('slack_inbox.id').execute();
}

/** Parked rows back in the queue, due at `now` with their attempts counted afresh: how many. */
export async function requeueParked(
  db: Kysely<Database>,
  ids: readonly string[] | 'all',
  communityId: string | null,
  now: string,
): Promise<number> {
  let query = db
    .updateTable('slack_inbox')
    .set({ state: 'pending', attempts: 0, next_attempt_at: now, claimed_until: null, finished_at: null })
    .where('state', '=', 'parked');
  if (ids !== 'all') query = query.where('id', 'in', ids.length > 0 ? [...ids] : ['']);
  if (communityId !== null) query = query.where('community_id', '=', communityId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Parked rows given up on: settled as done with the outcome `dismissed` at `now` (their event_id held, as an applied
 * event's, until pruned a day later). How many.
 */
export async function dismissParked(
  db: Kysely<Database>,
  ids: readonly string[],
  communityId: string | null,
  now: string,
): Promise<number> {
  let query = db
    .updateTable('slack_inbox')
    .set({ state: 'done', outcome: 'dismissed', claimed_until: null, next_attempt_at: now, finished_at: now })
    .where('state', '=', 'parked')
    .where('id', 'in', ids.length > 0 ? [...ids] : ['']);
  if (communityId !== null) query = query.where('community_id', '=', communityId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Rows by state (of one community, or all): what `hearth slack events` reports. */
export async function inboxCounts(db: Kysely<Database>, communityId: string | null): Promise<Record<string, number>> {
  let query = db.selectFrom('slack_inbox').select(['state', (eb) => eb.fn.countAll<number>().as('n')]);
  if (communityId !== null) query = query.where('community_id', '=', communityId);
  const rows = await query.groupBy('state').execute();
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]));
}
