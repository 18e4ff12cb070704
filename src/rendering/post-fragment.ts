// A post row rendered as its fragment (bytes and the holes' refs) without the store: the change's refresh renders
// posts read back with it, and the import's worker the posts it is about to write.
import { renderPostTemplate } from '../fragments/fragment-templates.js';
import { toPost } from '../posts/post.mapper.js';
import type { PostRow } from '../posts/posts.repository.js';

export type RenderedFragment = { id: string; text: string; refs?: string[] };

/** A post row as the store holds it, rendered; author and feed become holes (the values passed for them are never written). */
export function renderPost(row: PostRow): RenderedFragment {
  return {
    id: row.id,
    ...renderPostTemplate(toPost(row, null, { id: row.feed_id, label: '', slug: '' }), {
      author: row.author_profile_id,
      feed: row.feed_id,
    }),
  };
}
