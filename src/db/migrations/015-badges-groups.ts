// Badges and groups of a community, and the members each holds: a badge's assignments and a group's members,
// one row per (record, profile), with the time the member got it.
import type { Kysely } from 'kysely';
import { columnType, type StoreName } from './column-types.js';

/** A kind of record with members: its table, the table of its members, and the column of its members' time. */
const kinds = [
  { table: 'badges', members: 'badge_members', key: 'badge_id', since: 'assigned_at' },
  { table: 'groups', members: 'group_members', key: 'group_id', since: 'added_at' },
] as const;

export function badgesGroupsMigration(store: StoreName) {
  const ts = columnType(store, 'timestamp');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const kind of kinds) {
        await db.schema
          .createTable(kind.table)
          .addColumn('community_id', 'text', (c) => c.notNull().references('communities.id').onDelete('cascade'))
          .addColumn('id', 'text', (c) => c.notNull())
          .addColumn('created_at', ts, (c) => c.notNull())
          .addColumn('updated_at', ts, (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text')
          .addPrimaryKeyConstraint(`${kind.table}_pk`, ['community_id', 'id'])
          .execute();

        await db.schema
          .createTable(kind.members)
          .addColumn('community_id', 'text', (c) => c.notNull())
          .addColumn(kind.key, 'text', (c) => c.notNull())
          .addColumn('profile_id', 'text', (c) => c.notNull())
          .addColumn(kind.since, ts, (c) => c.notNull())
          .addPrimaryKeyConstraint(`${kind.members}_pk`, ['community_id', kind.key, 'profile_id'])
          .addForeignKeyConstraint(
            `${kind.members}_record`,
            ['community_id', kind.key],
            kind.table,
            ['community_id', 'id'],
            (c) => c.onDelete('cascade'),
          )
          // An import may name a profile before the line that defines it: checked at commit when it asks
          // (PostgreSQL's `set constraints all deferred`), at every statement otherwise.
          .addForeignKeyConstraint(
            `${kind.members}_profile`,
            ['community_id', 'profile_id'],
            'profiles',
            ['community_id', 'id'],
            (c) => c.deferrable().initiallyImmediate(),
          )
          .execute();
        // A member's badges and groups, and the community's assignments walked by profile.
        await db.schema
          .createIndex(`${kind.members}_by_profile`)
          .on(kind.members)
          .columns(['community_id', 'profile_id'])
          .execute();
      }
    },
  };
}
