// HTTP route of search (spec 4.5, Beta): post pages leave as the bytes their fragments make.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendAnswer } from '../http/answer.js';
import { principalOf } from '../tokens/auth.js';
import { errorResponses } from '../schemas/error-responses.js';
import { RANK_BUDGET, TITLE_CANDIDATES } from './search-budget.js';
import { SearchPageResponse, SearchParams } from './search.schemas.js';
import type { SearchService } from './search.service.js';

const count = (n: number): string => n.toLocaleString('en-US');

export const searchRoutes: FastifyPluginAsyncTypebox<{ search: SearchService }> = async (app, { search }) => {
  app.get(
    '/search',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'searchDocuments',
        summary: 'Search posts or comments (Beta)',
        description:
          'Best match first (a title hit above a body hit, more hits above fewer), newer first on ties, then id. ' +
          `When more than ${count(RANK_BUDGET)} posts match, the ${count(TITLE_CANDIDATES)} best with a query word in their title come first, then the others, ` +
          'each run in that order. `total_records` is exact. Any `q` of 1 to 256 characters is answered; one with nothing to search ' +
          '(only punctuation or exclusions) matches nothing.',
        tags: ['Search'],
        querystring: SearchParams,
        response: { 200: SearchPageResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const result = await search.search(principalOf(request).communityId, request.query);
      return 'answer' in result ? sendAnswer(request, reply, result.answer) : { success: true, data: result.page };
    },
  );
};
