// The typed client of Hearth's admin API: one method per operation, HearthError on failure, `pages.*` walking every page, `etagOf` for If-Match.
import createClient, { type Client } from 'openapi-fetch';
import type { CallOptions } from './call.js';
import { AnswerEtags } from './etags.js';
import { operationMethods, pageMethods, type OperationMethods } from './operations.js';
import type { paths } from './schema.js';
import { narrowedSearch, type SearchParams, type SearchResultPage, type SearchType } from './search.js';

export { HearthError, type FieldProblem } from './errors.js';
export { paginate, type Page } from './paginate.js';
export type { CallOptions, IdempotencyOptions, IfMatchOptions } from './call.js';
export type { CommentHit, PostHit, SearchHit, SearchParams, SearchResultPage, SearchType } from './search.js';
export type { AnswerOf, OperationId, PathParams, QueryParams, RequestBody } from './types.js';
export type { components, operations, paths } from './schema.js';

export interface HearthClientOptions {
  /** Where Hearth answers, e.g. `http://127.0.0.1:3000` (the paths carry `/admin/v0`). */
  baseUrl: string;
  /** A bearer token from `hearth token create`. */
  token: string;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: (input: Request) => Promise<Response>;
}

/** `searchDocuments` typed by the `type` it is given: posts for `'post'`, comments for `'comment'`. */
type NarrowedSearch = <P extends SearchParams<SearchType>>(
  params: P,
  options?: CallOptions,
) => Promise<SearchResultPage<P['type']>>;

/** The client: every operation's method, and what walks pages, reads ETags and reaches openapi-fetch. */
export type HearthClient = Omit<OperationMethods, 'searchDocuments'> & {
  /** Search posts or comments (Beta): records are posts for `type: 'post'`, comments for `type: 'comment'`. */
  searchDocuments: NarrowedSearch;
  /** Per list or search: an async iterator over every page, one request each, from `params.page` (0 when absent) on. */
  pages: Omit<ReturnType<typeof pageMethods>, 'searchDocuments'> & {
    searchDocuments: <P extends SearchParams<SearchType>>(
      params: P,
      options?: CallOptions,
    ) => AsyncGenerator<SearchResultPage<P['type']>, void, undefined>;
  };
  /**
   * The `ETag` of the answer a value of this client came from (a record read, created or changed, or a page), for
   * `ifMatch`; throws a TypeError for any other value.
   */
  etagOf: (value: object) => string;
  /** The underlying openapi-fetch client, for the status, headers and whole body of an answer. */
  raw: Client<paths>;
};

export function createHearthClient(options: HearthClientOptions): HearthClient {
  const raw: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.token}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const etags = new AnswerEtags();
  const methods = operationMethods(raw, etags);
  const search = narrowedSearch(methods);
  return {
    ...methods,
    searchDocuments: search.search,
    pages: { ...pageMethods(methods), searchDocuments: search.pages },
    etagOf: (value) => etags.of(value),
    raw,
  };
}
