// An event without a time zone answers its times in UTC (`+00:00`), as the product decisions say, where it answered
// the offsets it was written with: those offsets are dropped, and every community holding an event that answered
// another offset has its events rendered again at the next start (pending-renders.ts). An event whose answer
// does not change keeps its fragment's version, and so its ETag.
import { sql, type Kysely } from 'kysely';

export function eventsInUtcMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`insert into pending_renders (community_id, kind)
        select distinct e.community_id, 'event' from calendar_events e
        where e.time_zone is null and (coalesce(e.start_offset, 0) <> 0 or coalesce(e.end_offset, 0) <> 0)
          and not exists (select 1 from pending_renders p where p.community_id = e.community_id and p.kind = 'event')`.execute(
        db,
      );
      // SQLite drops one column per statement.
      await db.schema.alterTable('calendar_events').dropColumn('start_offset').execute();
      await db.schema.alterTable('calendar_events').dropColumn('end_offset').execute();
    },
  };
}
