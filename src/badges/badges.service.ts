// The rules of badges: listing them and one by id with their holders, and assigning one to members named by chat user
// id, which adds holders (a member holding it already is no change) through the one write runner.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { notFound } from '../errors.js';
import type { SaveResponse } from '../idempotency/save-response.js';
import { offsetOf, toPage, type Page, type PageRequest } from '../lib/pagination.js';
import { invalidBody } from '../members/member-input.js';
import { membersByChatUser } from '../profiles/chat-users.js';
import { profilesByIds } from '../profiles/profiles.repository.js';
import type { Badge } from '../schemas/badge.js';
import type { Actor } from '../writes/actor.js';
import type { Change, WriteRunner } from '../writes/write-runner.js';
import { toBadge, toBadges } from './badge.mapper.js';
import { badgeAssigned } from './badge-messages.js';
import {
  assignBadge,
  countBadges,
  findBadge,
  holdersOf,
  holding,
  lockBadge,
  pageBadges,
  type BadgeRow,
} from './badges.repository.js';

/** One `member.badge_assigned` message per member who got the badge (their profiles read only when someone listens). */
async function announceAssigned(trx: Kysely<Database>, change: Change, badge: BadgeRow, profileIds: string[]) {
  if ((await change.listeners()).length === 0) return;
  const profiles = await profilesByIds(trx, change.actor.communityId, profileIds);
  await change.announce(
    profileIds.flatMap((id) => {
      const profile = profiles.get(id);
      return profile ? [badgeAssigned(badge, profile, change.at)] : [];
    }),
  );
}

export function createBadgesService(db: Kysely<Database>, dialect: StoreDialect, writes: WriteRunner) {
  const withHolders = async (trx: Kysely<Database>, communityId: string, row: BadgeRow): Promise<Badge> =>
    toBadge(row, await holdersOf(trx, communityId, [row.id]));

  return {
    async get(communityId: string, id: string): Promise<Badge> {
      const row = await findBadge(db, communityId, id);
      if (!row) throw notFound(`Badge '${id}'`);
      return withHolders(db, communityId, row);
    },

    async list(communityId: string, query: PageRequest): Promise<Page<Badge>> {
      const [total, rows] = await Promise.all([
        countBadges(db, communityId),
        pageBadges(db, dialect, communityId, query.per_page, offsetOf(query)),
      ]);
      const holders = await holdersOf(
        db,
        communityId,
        rows.map((row) => row.id),
      );
      return toPage(query, total, toBadges(rows, holders));
    },

    /**
     * Gives the badge to the members with these chat user ids; those holding it already keep their `assigned_at`.
     * An unknown badge is 404, an unknown chat user id 400 naming it; nothing new to give commits no change.
     */
    assign(
      actor: Actor,
      badgeId: string,
      users: readonly string[],
      saveResponse?: SaveResponse<Badge>,
    ): Promise<Badge> {
      return writes.run(actor, async (trx, change) => {
        const communityId = actor.communityId;
        const badge = await lockBadge(trx, dialect, communityId, badgeId);
        if (!badge) throw notFound(`Badge '${badgeId}'`);
        const named = await membersByChatUser(trx, communityId, users, 'users');
        if (named.problems.length > 0) throw invalidBody(named.problems);
        const held = await holding(trx, communityId, badgeId, named.profileIds);
        const added = named.profileIds.filter((id) => !held.has(id));
        if (added.length === 0) change.unchanged();
        else {
          await assignBadge(trx, communityId, badgeId, added, change.at);
          await change.audit('badge.assigned', badgeId, { name: badge.name, profile_ids: added });
          await announceAssigned(trx, change, badge, added);
        }
        const answer = await withHolders(trx, communityId, (await findBadge(trx, communityId, badgeId)) ?? badge);
        if (saveResponse) await saveResponse(trx, answer);
        return answer;
      });
    },
  };
}
export type BadgesService = ReturnType<typeof createBadgesService>;
