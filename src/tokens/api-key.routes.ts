// HTTP route of the calling token's own description: `GET /api_key/me`.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from './auth.js';
import { errorResponses } from '../schemas/error-responses.js';
import { ApiKey } from './api-key.schemas.js';
import { One } from '../schemas/common.js';
import type { TokensService } from './tokens.service.js';

export const apiKeyRoutes: FastifyPluginAsyncTypebox<{ tokens: TokensService }> = async (app, { tokens }) => {
  app.get(
    '/api_key/me',
    {
      config: { scope: 'read' },
      schema: {
        operationId: 'getApiKey',
        summary: 'Describe the calling token',
        description: 'Its id, name, field-name mode, scopes, community and dates; never the secret.',
        tags: ['API keys'],
        response: { 200: One(ApiKey), ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await tokens.describe(principalOf(request)) }),
  );
};
