// Registers the OpenAPI 3.1 document generated from the route schemas (at /admin/v0/openapi.json) and the docs page (/docs, Swagger UI from the package).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { hostedKey, renamedKeys } from '../hosted/hosted-names.js';
import { docsTheme } from './docs-theme.js';
import { documentRoute, finishDocument } from './openapi-document.js';

export const openApiPath = '/admin/v0/openapi.json';

const description = [
  'The community administration API: calendar events, feed posts, search, adding members, badges and groups.',
  '',
  'Every call needs `Authorization: Bearer <token>`. A token belongs to one community and carries scopes:',
  '`read` (every GET but the list of an event\u2019s registrations), `members:write` (adding and deactivating',
  'members, assigning badges, replacing the members of groups) and `events:write` (creating, changing and',
  'deleting calendar events, registering people for them and listing their registrations, e-mails included);',
  'each operation lists the scope it needs.',
  '',
  'Errors are `{"success": false, "error": "…", "code": "…", "request_id": "…"}`, plus `details` on validation',
  'errors. Lists take `page` (from 0) and `per_page` (1 to 100). Every answer carries `X-Request-Id` and',
  '`RateLimit-*`; every GET answer an `ETag` (send it back in `If-None-Match` for a 304).',
  '',
  '## Hosted field names',
  '',
  'This document uses the neutral names of the spec. A token created with `hearth token create --field-names hosted`',
  "gets every answer in the hosted product's names instead (`GET /admin/v0/api_key/me` shows a token's mode): in each",
  'key, never inside block contents (`blocks`, `*_chat_blocks`) or `body_prosemirror`, the word `chat` becomes `slack`',
  'and `partner` becomes `luma`. The keys renamed are ' +
    renamedKeys.map((key) => `\`${key}\` → \`${hostedKey(key)}\``).join(', ') +
    '.',
  'In that mode `message_ts` is a string with six decimals (`"1772359200.123456"`); the `created_at` and `updated_at`',
  'of calendar events and of their hosts and speakers are ISO 8601 with trailing zeros of the fraction trimmed',
  '(`2026-02-07T18:04:05.123+00:00`); every other timestamp trims them too, as PostgreSQL prints it',
  '(`2026-03-01 10:05:00.25+00`); calendar events carry `reminders_config` (`[]` when none); and the `ETag`',
  'ends in `.hosted`. Requests, errors and everything else are the same in both modes.',
].join('\n');

/** `home` is where `GET /` sends a browser: the console when it is on, else the docs page. */
export async function registerOpenApi(app: FastifyInstance, home = '/docs'): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Hearth admin API', version: 'v0', description, license: { name: 'MIT', identifier: 'MIT' } },
      servers: [{ url: '/', description: 'This Hearth server' }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'A token from `hearth token create`; its scopes are listed per operation.',
          },
        },
      },
    },
    transform: documentRoute,
    transformObject: finishDocument,
  });

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    ...docsTheme,
    uiConfig: { docExpansion: 'list', deepLinking: true, persistAuthorization: false },
    validatorUrl: false,
    // Everything the page loads comes from this server: no CDN, no outside validator, no upgrade to https.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header.replace(/ https:| validator\.swagger\.io/g, '').replace(/ ?upgrade-insecure-requests;/, ''),
  });

  app.get(openApiPath, { schema: { hide: true } }, async () => app.swagger());
  // Someone who opens the server's address in a browser lands on the console (or the docs page), not on a 404.
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(home, 302));
}
