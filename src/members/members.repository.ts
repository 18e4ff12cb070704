// SQL for members: one atomic insert-or-update per e-mail, decided by the unique (community_id, email_key) index.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { ProfileRow } from '../profiles/profiles.repository.js';
import { imageSizes } from '../schemas/profile.js';

export interface MemberUpsert {
  communityId: string;
  /** Used only when the e-mail is new; an existing member keeps its id. */
  newId: string;
  email: string;
  emailKey: string;
  firstName: string;
  lastName: string;
  preferredName: string;
  /** Undefined leaves an existing member's avatar as it is. */
  avatar: string | null | undefined;
  at: string;
}

export interface UpsertedMember {
  row: ProfileRow;
  created: boolean;
}

/**
 * INSERT ... ON CONFLICT DO UPDATE ... RETURNING: PostgreSQL and SQLite both decide insert-or-update
 * atomically on the unique index, so concurrent calls with one e-mail make one row. The row was
 * inserted exactly when it carries the id proposed here, which works the same on both stores.
 */
export async function upsertMember(db: Kysely<Database>, m: MemberUpsert): Promise<UpsertedMember> {
  const avatarGiven = m.avatar !== undefined;
  // The sized variants were cut from the previous original; they are dropped when the original changes.
  const sizedImages = avatarGiven
    ? Object.fromEntries(
        imageSizes.map((size) => {
          const column = sql.ref(`preferred_image_${size}`);
          return [
            `preferred_image_${size}`,
            sql<
              string | null
            >`case when profiles.preferred_image_original = excluded.preferred_image_original then profiles.${column} else null end`,
          ];
        }),
      )
    : {};
  const row = await db
    .insertInto('profiles')
    .values({
      community_id: m.communityId,
      id: m.newId,
      created_at: m.at,
      updated_at: m.at,
      preferred_name: m.preferredName,
      preferred_image_original: m.avatar ?? null,
      first_name: m.firstName,
      last_name: m.lastName,
      email: m.email,
      email_key: m.emailKey,
      chat_is_admin: false,
      chat_is_bot: false,
    })
    .onConflict((oc) =>
      oc.columns(['community_id', 'email_key']).doUpdateSet((eb) => ({
        updated_at: eb.ref('excluded.updated_at'),
        // Adding a deactivated member again reactivates them.
        deactivated_at: null,
        preferred_name: eb.ref('excluded.preferred_name'),
        first_name: eb.ref('excluded.first_name'),
        last_name: eb.ref('excluded.last_name'),
        ...sizedImages,
        ...(avatarGiven ? { preferred_image_original: eb.ref('excluded.preferred_image_original') } : {}),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, created: row.id === m.newId };
}

/** Whether the member with this e-mail exists and is deactivated (read before an add, to say it reactivated them). */
export async function isDeactivatedEmail(
  db: Kysely<Database>,
  communityId: string,
  emailKey: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('profiles')
    .select('deactivated_at')
    .where('community_id', '=', communityId)
    .where('email_key', '=', emailKey)
    .executeTakeFirst();
  return row?.deactivated_at != null;
}

/** Marks the member deactivated (keeping the first time it was); undefined when the community has no such member. */
export async function deactivateMember(
  db: Kysely<Database>,
  communityId: string,
  id: string,
  at: string,
): Promise<{ row: ProfileRow; already: boolean } | undefined> {
  const before = await db
    .selectFrom('profiles')
    .select('deactivated_at')
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!before) return undefined;
  const row = await db
    .updateTable('profiles')
    .set({ deactivated_at: before.deactivated_at ?? at, updated_at: at })
    .where('community_id', '=', communityId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, already: before.deactivated_at !== null };
}
