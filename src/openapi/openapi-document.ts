// Shapes the generated OpenAPI document: each operation's bearer scope, the answers all can give (304, 500, 503), headers, tags and captured examples.
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { Type } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import { errorResponses } from '../schemas/error-responses.js';
import { nameSharedSchemas } from './openapi-components.js';
import { responseExamples, type CapturedExamples } from './examples.js';

export const adminPrefix = '/admin/v0/';

const tagDescriptions: Record<string, string> = {
  'Calendar events': 'Events of the community calendar, in their own time zone',
  Posts: 'Posts of the feeds, and of the Home feed',
  Search: 'Full-text search of posts and comments (Beta)',
  Members: 'Adding members (Alpha)',
  Feeds: "The community's feeds, as the hosted product answers them",
  Badges: 'Badges and the members holding them; assigning a badge to members',
  Groups: "Groups of members; replacing a group's members",
  'API keys': 'The calling token',
};

const NotModified = Type.Null({
  description: 'Not modified: `If-None-Match` already holds the current `ETag`; no body',
});
const IfNoneMatch = Type.Object({
  'If-None-Match': Type.Optional(
    Type.String({
      description: 'The `ETag` of an earlier answer; when still current, the answer is 304 without a body',
    }),
  ),
});

/** Per route, before fastify-swagger converts it: security with the scope from `config.scope`, the common answers. */
export const documentRoute: SwaggerTransform = ({ schema, url, route }) => {
  if (!url.startsWith(adminPrefix) || !schema || schema.hide) return { schema, url };
  const scopes: string[] = route.config?.scope ? [route.config.scope] : [];
  const isGet = route.method === 'GET';
  const needs = scopes.length > 0 ? `Needs a token with the \`${scopes.join('`, `')}\` scope.` : 'Needs a token.';
  const documented: FastifySchema & Record<string, unknown> = {
    ...schema,
    querystring: defaultsOptional(schema.querystring),
    description: [schema.description, needs].filter(Boolean).join('\n\n'),
    // OpenAPI 3.1 lets a non-OAuth requirement list the roles it needs: here the token scopes.
    security: [{ bearerAuth: scopes }],
    'x-required-scopes': scopes,
    headers: isGet && !schema.headers ? IfNoneMatch : schema.headers,
    response: {
      ...(isGet ? { 304: NotModified } : {}),
      ...errorResponses(500, 503),
      ...successDescribed(schema.response),
    },
  };
  return { schema: documented, url };
};

interface ObjectSchema {
  properties: Record<string, { default?: unknown }>;
  required?: string[];
}
const isObjectSchema = (value: unknown): value is ObjectSchema =>
  typeof value === 'object' && value !== null && 'properties' in value;

/** A query parameter with a default is optional to the caller, though the validator fills it in as required. */
function defaultsOptional(query: unknown): unknown {
  if (!isObjectSchema(query) || !query.required) return query;
  const { properties } = query;
  return { ...query, required: query.required.filter((name) => properties[name]?.default === undefined) };
}

/** Success answers without a description of their own read "Success" instead of fastify-swagger's "Default Response". */
function successDescribed(response: unknown): Record<string, unknown> {
  if (typeof response !== 'object' || response === null) return {};
  return Object.fromEntries(
    Object.entries(response).map(([status, body]: [string, unknown]) => {
      if (!status.startsWith('2') || typeof body !== 'object' || body === null || 'description' in body)
        return [status, body];
      return [status, { ...body, 'x-response-description': 'Success' }];
    }),
  );
}

/** The JSON shapes of the document this module touches. */
interface MediaObject {
  schema?: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
}
interface ResponseObject {
  description: string;
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, MediaObject>;
}
interface OperationObject {
  operationId?: string;
  parameters?: { in: string; name: string }[];
  tags?: string[];
  responses?: Record<string, ResponseObject>;
}
export interface DocumentShape {
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, OperationObject>>;
  components?: Record<string, unknown>;
}

const header = (description: string, schema: object = { type: 'string' }) => ({ description, required: true, schema });

/** Response headers, keyed by their component name, with the name they carry on the wire. */
export const responseHeaders = {
  XRequestId: header(
    'The id of this request: a sane incoming `X-Request-Id`, or a fresh one (a per-process prefix and a counter)',
  ),
  RateLimitLimit: header(
    'Requests allowed per one-second window for this token; on a 401, and on a 429 for failed authentications, the failed authentications allowed per client address',
    { type: 'integer' },
  ),
  RateLimitRemaining: header('Requests left in the current window', { type: 'integer' }),
  RateLimitReset: header('Seconds until the window resets', { type: 'integer' }),
  ETag: header('A strong validator of the body; send it back in `If-None-Match`'),
  RetryAfter: header('Seconds to wait before retrying', { type: 'integer' }),
  WWWAuthenticate: header('Always `Bearer`'),
  IdempotentReplayed: {
    description: '`true` when this is the stored answer to an earlier request with the same `Idempotency-Key` and body',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
  XIdempotentReplayed: {
    description:
      '`Idempotent-Replayed` under the name the hosted product documents, sent with it to a token in hosted field-name mode',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};
type HeaderName = keyof typeof responseHeaders;
const wireNames: Record<HeaderName, string> = {
  XRequestId: 'X-Request-Id',
  RateLimitLimit: 'RateLimit-Limit',
  RateLimitRemaining: 'RateLimit-Remaining',
  RateLimitReset: 'RateLimit-Reset',
  ETag: 'ETag',
  RetryAfter: 'Retry-After',
  WWWAuthenticate: 'WWW-Authenticate',
  IdempotentReplayed: 'Idempotent-Replayed',
  XIdempotentReplayed: 'X-Idempotent-Replayed',
};

function headersOf(method: string, status: string, operation: OperationObject): Record<string, { $ref: string }> {
  const names: HeaderName[] = ['XRequestId', 'RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset'];
  const idempotent = (operation.parameters ?? []).some(
    (p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
  );
  if (idempotent && status.startsWith('2')) names.push('IdempotentReplayed', 'XIdempotentReplayed');
  if (method === 'get' && (status.startsWith('2') || status === '304')) names.push('ETag');
  if (status === '401') names.push('WWWAuthenticate');
  if (status === '409' || status === '429' || status === '503') names.push('RetryAfter');
  return Object.fromEntries(names.map((name) => [wireNames[name], { $ref: `#/components/headers/${name}` }]));
}

/** Whole document, after conversion, in place: headers and examples on every admin answer, the tags in use. */
export function finishOpenApi(document: DocumentShape, examples: CapturedExamples): void {
  const usedTags = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(adminPrefix)) continue;
    for (const [method, operation] of Object.entries(item)) {
      for (const tag of operation.tags ?? []) usedTags.add(tag);
      const captured = operation.operationId ? (examples[operation.operationId] ?? {}) : {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = headersOf(method, status, operation);
        const media = response.content?.['application/json'];
        if (!media) continue;
        const named = captured[status];
        if (named) media.examples = named;
        else delete media.examples;
      }
    }
  }
  nameSharedSchemas(document);
  document.tags = [...usedTags]
    .sort()
    .map((name) => ({ name, ...(tagDescriptions[name] ? { description: tagDescriptions[name] } : {}) }));
  document.components = { ...document.components, headers: responseHeaders };
}

export const finishDocument: SwaggerTransformObject = (documentObject) => {
  if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
  finishOpenApi(documentObject.openapiObject as DocumentShape, responseExamples);
  return documentObject.openapiObject;
};
