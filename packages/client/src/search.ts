// Search results narrowed by `type`: `type: 'post'` answers posts (with a title), `type: 'comment'` comments.
// Hand-written because the document can say "a post or a comment" but not which one follows from the query.
import type { CallOptions } from './call.js';
import type { OperationMethods } from './operations.js';
import { paginate } from './paginate.js';
import type { components } from './schema.js';
import type { AnswerOf, QueryParams } from './types.js';

type SearchPage = AnswerOf<'searchDocuments'>;
type SearchRecord = SearchPage['records'][number];

export type SearchType = QueryParams<'searchDocuments'>['type'];
/** A post found by search, with `highlight` when it was asked for. */
export type PostHit = Extract<SearchRecord, components['schemas']['Post']>;
/** A comment found by search, with `highlight` when it was asked for. */
export type CommentHit = Exclude<SearchRecord, PostHit>;
export type SearchHit<T extends SearchType> = T extends 'post' ? PostHit : CommentHit;
/** A page of search results, all of the type asked for. */
export type SearchResultPage<T extends SearchType> = Omit<SearchPage, 'records'> & { records: SearchHit<T>[] };

export type SearchParams<T extends SearchType> = QueryParams<'searchDocuments'> & { type: T };

/** `searchDocuments` typed by the `type` it is given. */
export function narrowedSearch(methods: OperationMethods) {
  // The server answers only records of the type asked for, so the narrowing holds for every answer.
  const search = <P extends SearchParams<SearchType>>(params: P, options: CallOptions = {}) =>
    methods.searchDocuments(params, options) as Promise<SearchResultPage<P['type']>>;
  const pages = <P extends SearchParams<SearchType>>(params: P, options: CallOptions = {}) =>
    paginate((page: P) => search(page, options), params);
  return { search, pages };
}
