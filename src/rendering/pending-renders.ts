// Renders what migrations marked pending (db/migrations/pending-renders.ts) with today's renderer, once the store is
// migrated: at every start and before every command, one read of an empty table when nothing is pending.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { rebuildCommunity } from './fragment-refresh.js';

/** Renders each community's pending kinds, one transaction a community; returns how many communities it rendered. */
export async function renderPending(db: Kysely<Database>): Promise<number> {
  const communities = await db
    .selectFrom('pending_renders')
    .select('community_id')
    .distinct()
    .orderBy('community_id')
    .execute();
  let rendered = 0;
  for (const { community_id: communityId } of communities) {
    await db.transaction().execute(async (trx) => {
      // Claimed by deleting them: a process starting beside this one waits on these rows, then finds them gone; a
      // render that fails rolls back and leaves them pending for the next start.
      const claimed = await trx
        .deleteFrom('pending_renders')
        .where('community_id', '=', communityId)
        .returning('kind')
        .execute();
      if (claimed.length === 0) return;
      await rebuildCommunity(
        trx,
        communityId,
        claimed.map((row) => row.kind),
      );
      rendered++;
    });
  }
  return rendered;
}
