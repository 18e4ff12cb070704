// Request and response schemas of the feed endpoints.
import { Type, type Static } from '@sinclair/typebox';
import { One, PageOf, PageQuery, Uuid } from '../schemas/common.js';
import { Feed } from '../schemas/feed.js';

export const FeedParams = Type.Object({ feed_id: Uuid });

export const FeedListQuery = Type.Object({
  ...PageQuery,
  is_archived: Type.Optional(
    Type.Boolean({ description: 'Only archived feeds (`true`) or only feeds not archived (`false`)' }),
  ),
  is_unlisted: Type.Optional(
    Type.Boolean({ description: 'Only unlisted feeds (`true`) or only listed ones (`false`)' }),
  ),
});
export type FeedListQuery = Static<typeof FeedListQuery>;

export const FeedResponse = One(Feed);
export const FeedPageResponse = PageOf(Feed);
