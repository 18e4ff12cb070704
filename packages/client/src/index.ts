// The typed client of Hearth's admin API: one method per operation, HearthError on failure, and `pages.*` walking every page of a list or search.
import createClient, { type Client } from 'openapi-fetch';
import { operationMethods, pageMethods } from './operations.js';
import { narrowedSearch } from './search.js';
import type { paths } from './schema.js';

export { HearthError, type FieldProblem } from './errors.js';
export { paginate, type Page } from './paginate.js';
export type { CallOptions } from './call.js';
export type { CommentHit, PostHit, SearchHit, SearchParams, SearchResultPage, SearchType } from './search.js';
export type { components, operations, paths } from './schema.js';

export interface HearthClientOptions {
  /** Where Hearth answers, e.g. `http://127.0.0.1:3000` (the paths carry `/admin/v0`). */
  baseUrl: string;
  /** A bearer token from `hearth token create`. */
  token: string;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: (input: Request) => Promise<Response>;
}

export function createHearthClient(options: HearthClientOptions) {
  const raw: Client<paths> = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.token}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const methods = operationMethods(raw);
  const search = narrowedSearch(methods);
  /** `raw` is the underlying openapi-fetch client, for the status, headers and whole body of an answer. */
  return {
    ...methods,
    /** Search posts or comments (Beta): records are posts for `type: 'post'`, comments for `type: 'comment'`. */
    searchDocuments: search.search,
    pages: { ...pageMethods(methods), searchDocuments: search.pages },
    raw,
  };
}

export type HearthClient = ReturnType<typeof createHearthClient>;
