// A test oracle: post rows assembled into API posts the way answers were before fragments (the mapper, with
// authors and feeds read in one query each), for comparing the fragments' bytes against.
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { authorsAndFeeds } from '../../src/posts/post-loaders.js';
import { toPost } from '../../src/posts/post.mapper.js';
import type { PostRow } from '../../src/posts/posts.repository.js';
import type { Post } from '../../src/schemas/post.js';

/** Post rows of one community as API posts, in the given order. */
export async function loadPosts(db: Kysely<Database>, communityId: string, rows: PostRow[]): Promise<Post[]> {
  if (rows.length === 0) return [];
  const { authorOf, feedOf } = await authorsAndFeeds(
    db,
    communityId,
    rows.map((row) => row.author_profile_id),
    rows.map((row) => row.feed_id),
  );
  return rows.map((row) => toPost(row, authorOf(row.author_profile_id), feedOf(row.feed_id)));
}
