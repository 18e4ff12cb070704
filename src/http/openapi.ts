// Registers the OpenAPI 3.1 document generated from the route schemas (at /admin/v0/openapi.json) and the docs page (/docs, Swagger UI from the package).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { documentRoute, finishDocument } from './openapi-document.js';

export const openApiPath = '/admin/v0/openapi.json';

const description = [
  'The community administration API: calendar events, feed posts, search and adding members.',
  '',
  'Every call needs `Authorization: Bearer <token>`. A token belongs to one community and carries scopes:',
  '`read` (every GET) and `members:write` (POST /members); each operation lists the scope it needs.',
  '',
  'Errors are `{"success": false, "error": "…", "code": "…", "request_id": "…"}`, plus `details` on validation',
  'errors. Lists take `page` (from 0) and `per_page` (1 to 100). Every answer carries `X-Request-Id` and',
  '`RateLimit-*`; every GET answer an `ETag` (send it back in `If-None-Match` for a 304).',
].join('\n');

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Hearth admin API', version: 'v0', description, license: { name: 'MIT', identifier: 'MIT' } },
      servers: [{ url: '/', description: 'This Hearth server' }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'A token from `hearth token create`; its scopes are listed per operation.' },
        },
      },
    },
    transform: documentRoute,
    transformObject: finishDocument,
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, persistAuthorization: false },
    validatorUrl: false,
    // Everything the page loads comes from this server: no CDN, no outside validator, no upgrade to https.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header.replace(/ https:| validator\.swagger\.io/g, '').replace(/ ?upgrade-insecure-requests;/, ''),
  });

  app.get(openApiPath, { schema: { hide: true } }, async () => app.swagger());
}
