// A post record of the general feed for search tests: few distinct dates (the day folds onto three), so that ties of
// score and date are broken by id.
import { feedIds } from '../../fixtures/community.js';

export const datedPost = (id: string, title: string | null, body: string, day: number) => ({
  kind: 'post',
  id,
  created_at: `2025-02-${String((day % 3) + 1).padStart(2, '0')}T00:00:00Z`,
  feed_id: feedIds.general,
  title,
  body_plaintext: body,
});
