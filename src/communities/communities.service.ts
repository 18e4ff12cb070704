// Creating and finding communities; slugs are the names operators type on the command line.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { toStored } from '../lib/timestamps.js';
import { findCommunityBySlug, insertCommunity, listCommunities, type Community } from './communities.repository.js';

class CommunityError extends Error {}

const slugPattern = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function createCommunitiesService(db: Kysely<Database>, dialect: StoreDialect, clock: Clock = systemClock) {
  return {
    list: () => listCommunities(db),

    async get(slug: string): Promise<Community> {
      const community = await findCommunityBySlug(db, slug);
      if (!community) throw new CommunityError(`No community with slug '${slug}'.`);
      return community;
    },

    async create(slug: string, name: string): Promise<Community> {
      if (!slugPattern.test(slug)) {
        throw new CommunityError(`Invalid slug '${slug}': use lowercase letters, digits and '-', at most 63.`);
      }
      const community = { id: newUuid(), slug, name: name || slug, created_at: toStored(clock()) };
      try {
        await insertCommunity(db, community);
      } catch (error) {
        if (dialect.isUniqueViolation(error)) throw new CommunityError(`A community '${slug}' already exists.`);
        throw error;
      }
      return community;
    },

    /** The community with this slug, created when missing (used by `hearth demo`). */
    async ensure(slug: string, name: string): Promise<Community> {
      return (await findCommunityBySlug(db, slug)) ?? this.create(slug, name);
    },
  };
}
