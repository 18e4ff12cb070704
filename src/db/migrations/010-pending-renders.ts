// The renders migrations leave for the start (see pending-renders.ts): the table, for every store, also for those
// migrated past 003 and 006 before these marked renders instead of rendering.
import type { Kysely } from 'kysely';
import { createPendingRenders } from './pending-renders.js';

export function pendingRendersMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await createPendingRenders(db);
    },
  };
}
