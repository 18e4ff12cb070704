// The rules of listing feeds (by label, then id; archived and unlisted filters) and retrieving one.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { StoreDialect } from '../db/dialect.js';
import { notFound } from '../errors.js';
import { offsetOf, toPage, type Page } from '../lib/pagination.js';
import type { Feed } from '../schemas/feed.js';
import { toFeed } from './feed.mapper.js';
import { countFeeds, findFeed, pageFeeds, type FeedFilters } from './feeds.repository.js';
import type { FeedListQuery } from './feeds.schemas.js';

export function createFeedsService(db: Kysely<Database>, dialect: StoreDialect) {
  return {
    async get(communityId: string, id: string): Promise<Feed> {
      const row = await findFeed(db, communityId, id);
      if (!row) throw notFound(`Feed '${id}'`);
      return toFeed(row);
    },

    async list(communityId: string, query: FeedListQuery): Promise<Page<Feed>> {
      const filters: FeedFilters = { isArchived: query.is_archived, isUnlisted: query.is_unlisted };
      const [total, rows] = await Promise.all([
        countFeeds(db, communityId, filters),
        pageFeeds(db, dialect, communityId, filters, query.per_page, offsetOf(query)),
      ]);
      return toPage(query, total, rows.map(toFeed));
    },
  };
}
export type FeedsService = ReturnType<typeof createFeedsService>;
