// The orders a feed's posts can be listed in: the query's enum and the page read's orders (posts.reads.ts).
export const postSorts = ['newest', 'oldest', 'most-recent-activity'] as const;
export type PostSort = (typeof postSorts)[number];
