// Generates the client's sources from the OpenAPI document: src/schema.d.ts (openapi-typescript) and src/operations.ts (one method per operation).
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

interface SchemaShape {
  properties?: Record<string, SchemaShape>;
}
interface OperationShape {
  operationId?: string;
  summary?: string;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, { schema?: SchemaShape }> }>;
  'x-required-scopes'?: string[];
}
export interface DocumentShape {
  paths?: Record<string, Record<string, OperationShape>>;
}

interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  scopes: string[];
  pathParams: string[];
  hasQuery: boolean;
  /** Every parameter and body field may be left out: the method's params default to `{}`. */
  allOptional: boolean;
  hasBody: boolean;
  paginated: boolean;
  /** The options type of its second argument: `If-Match` and `Idempotency-Key` where the operation takes them. */
  options: 'CallOptions' | 'IdempotencyOptions' | 'IfMatchOptions';
}

const methods = ['get', 'put', 'post', 'delete', 'patch'];

export function operationsOf(document: DocumentShape): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!methods.includes(method) || !operation.operationId) continue;
      // An answer that is no JSON (an iCalendar feed, read by calendar apps) has no method: `call` reads JSON.
      const success = operation.responses?.['200']?.content;
      if (success && !success['application/json']) continue;
      const parameters = operation.parameters ?? [];
      const headers = parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
      const data = operation.responses?.['200']?.content?.['application/json']?.schema?.properties?.['data'];
      found.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? operation.operationId,
        scopes: operation['x-required-scopes'] ?? [],
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        hasQuery: parameters.some((p) => p.in === 'query'),
        allOptional:
          !parameters.some((p) => (p.in === 'path' || p.in === 'query') && p.required) &&
          operation.requestBody === undefined,
        hasBody: operation.requestBody !== undefined,
        paginated: data?.properties?.['has_next'] !== undefined && data.properties['records'] !== undefined,
        options: headers.includes('if-match')
          ? 'IfMatchOptions'
          : headers.includes('idempotency-key')
            ? 'IdempotencyOptions'
            : 'CallOptions',
      });
    }
  }
  return found.sort((a, b) => a.id.localeCompare(b.id));
}

function methodSource(op: Operation): string {
  const types: string[] = [];
  if (op.pathParams.length > 0) types.push(`PathParams<'${op.id}'>`);
  if (op.hasQuery) types.push(`QueryParams<'${op.id}'>`);
  if (op.hasBody) types.push(`RequestBody<'${op.id}'>`);
  const optional = op.allOptional;
  const type = types.length > 0 ? types.join(' & ') : 'Record<never, never>';
  // The answer's type is named, never inferred: a declaration file then names it too instead of spelling it out
  // under the compiler options of this build, which a project with other options would read differently.
  const head = `(params: ${type}${optional ? ' = {}' : ''}, options: ${op.options} = {}): Promise<AnswerOf<'${op.id}'>>`;
  const path = op.pathParams.length > 0 ? `{ ${op.pathParams.join(', ')} }` : null;
  const rest = op.hasQuery || op.hasBody ? (path ? 'rest' : 'params') : null;
  const fields: string[] = [];
  const paramFields: string[] = [];
  if (path) paramFields.push(`path: ${path}`);
  if (op.hasQuery && rest) paramFields.push(`query: ${rest}`);
  if (paramFields.length > 0) fields.push(`params: { ${paramFields.join(', ')} }`);
  if (op.hasBody && rest) fields.push(`body: ${rest}`);
  fields.push('...requestInit(options)');
  const destructure = path
    ? `      const { ${op.pathParams.join(', ')}${rest === 'rest' ? ', ...rest' : ''} } = params;\n`
    : '';
  const needs = op.scopes.length > 0 ? ` Needs the \`${op.scopes.join('`, `')}\` scope.` : '';
  return [
    `    /** ${op.summary}: \`${op.method} ${op.path}\`.${needs} */`,
    `    ${op.id}: async ${head} => {`,
    `${destructure}      return call(etags, api.${op.method}('${op.path}', { ${fields.join(', ')} }));`,
    '    },',
  ].join('\n');
}

/** The option types the methods name, `CallOptions` always (the page walkers take it). */
function optionTypes(ops: Operation[]): string {
  const used = new Set<string>(['CallOptions', ...ops.map((op) => op.options)]);
  return [...used]
    .sort()
    .map((name) => `type ${name}`)
    .join(', ');
}

export function operationsSource(document: DocumentShape): string {
  const ops = operationsOf(document);
  const pages = ops.filter((op) => op.paginated);
  const usedTypes = [
    'AnswerOf',
    ops.some((op) => op.pathParams.length > 0) ? 'PathParams' : '',
    ops.some((op) => op.hasQuery) ? 'QueryParams' : '',
    ops.some((op) => op.hasBody) ? 'RequestBody' : '',
  ].filter(Boolean);
  return [
    '// Generated from openapi.json by `npm run openapi` (packages/client/scripts/generate.ts); do not edit.',
    "import type { Client } from 'openapi-fetch';",
    `import { call, requestInit, ${optionTypes(ops)} } from './call.js';`,
    "import type { AnswerEtags } from './etags.js';",
    "import { paginate } from './paginate.js';",
    "import type { paths } from './schema.js';",
    `import type { ${usedTypes.join(', ')} } from './types.js';`,
    '',
    '/** One method per operation of the document; each resolves to the `data` of the success body, its ETag kept in `etags`. */',
    'export function operationMethods(api: Client<paths>, etags: AnswerEtags) {',
    '  return {',
    ...ops.map(methodSource),
    '  };',
    '}',
    '',
    'export type OperationMethods = ReturnType<typeof operationMethods>;',
    '',
    '/** Per list or search: an async iterator over every page, from `params.page` (0 when absent) on. */',
    'export function pageMethods(methods: OperationMethods) {',
    '  return {',
    ...pages.map((op) => {
      const optional = op.allOptional;
      return `    ${op.id}: (params: Parameters<OperationMethods['${op.id}']>[0]${optional ? ' = {}' : ''}, options: CallOptions = {}): AsyncGenerator<AnswerOf<'${op.id}'>, void, undefined> =>\n      paginate((page) => methods.${op.id}(page, options), params),`;
    }),
    '  };',
    '}',
    '',
  ].join('\n');
}

export async function schemaSource(document: DocumentShape): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { silent: true });
  return COMMENT_HEADER + astToString(ast);
}

/** Every generated file of the client, by its path inside packages/client. */
export async function clientSources(document: DocumentShape): Promise<Record<string, string>> {
  return { 'src/schema.d.ts': await schemaSource(document), 'src/operations.ts': operationsSource(document) };
}
