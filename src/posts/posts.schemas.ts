// Request and response schemas of the post endpoints (spec 4.3, 4.4).
import { Type, type Static } from '@sinclair/typebox';
import { UUID_PATTERN } from '../lib/ids.js';
import { One, PageOf, PageQuery, ShortId, StringEnum } from '../schemas/common.js';
import { Post } from '../schemas/post.js';
import { postSorts } from './post-sorts.js';

export const FeedPostsParams = Type.Object({
  feed_id: Type.String({
    pattern: `^(?:home|${UUID_PATTERN.slice(1, -1)})$`,
    description: "A feed's UUID, or `home`: the posts of every feed that is neither archived nor unlisted",
    examples: ['home', '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0001'],
  }),
});

export const PostListQuery = Type.Object({
  ...PageQuery,
  sort: StringEnum(postSorts, {
    default: 'newest',
    description:
      'newest: created_at descending; oldest: created_at ascending; most-recent-activity: latest_activity_at descending; ties by id in the same direction',
  }),
});
export type PostListQuery = Static<typeof PostListQuery>;

export const PostParams = Type.Object({ post_id: ShortId });

export const PostResponse = One(Post);
export const PostPageResponse = PageOf(Post);
