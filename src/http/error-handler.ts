// The one way errors leave Hearth: every failure becomes the documented error body.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorCatalog, type ErrorCode, type FieldProblem } from '../errors.js';
import type { StoreDialect } from '../db/dialect.js';

interface ValidationIssue {
  instancePath: string;
  schemaPath?: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** `querystring` + `/per_page` -> `per_page`; a missing or unknown property names itself. */
function fieldOf(issue: ValidationIssue): string {
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const named =
    issue.keyword === 'required'
      ? issue.params['missingProperty']
      : issue.keyword === 'additionalProperties'
        ? issue.params['additionalProperty']
        : '';
  return [path, String(named ?? '')].filter(Boolean).join('.') || '(root)';
}

/** The types a `type` finding asks for: one, or a list (`["string", "null"]`); none for other keywords. */
function typesOf(issue: ValidationIssue): string[] {
  if (issue.keyword !== 'type') return [];
  const type = issue.params['type'];
  return Array.isArray(type) ? type.map(String) : [String(type)];
}

const typeMessage = (types: readonly string[]) => `must be ${types.join(' or ')}`;

function messageOf(issue: ValidationIssue): string {
  if (issue.keyword === 'type') return typeMessage(typesOf(issue));
  if (issue.keyword === 'additionalProperties') return 'is not a known field';
  if (issue.keyword === 'enum' && Array.isArray(issue.params['allowedValues'])) {
    return `must be one of: ${(issue.params['allowedValues'] as unknown[]).join(', ')}`;
  }
  return issue.message ?? 'is invalid';
}

const isUnion = (issue: ValidationIssue) => issue.keyword === 'anyOf' || issue.keyword === 'oneOf';

/**
 * The findings of a union's branches whose type the value is not, dropped when another branch got further:
 * `"hosts": [1]` against "an array or an object" says `hosts.0: must be string`, not also `hosts: must be
 * object`. When every branch failed on its type, all stay ("must be array or object").
 */
function withinMatchingBranches(issues: readonly ValidationIssue[]): readonly ValidationIssue[] {
  const settledUnions = new Set<string>();
  const wrongBranches: string[] = [];
  for (const union of issues.filter(isUnion)) {
    const base = `${union.schemaPath ?? ''}/`;
    const wrongTypeByBranch = new Map<string, boolean>();
    for (const issue of issues) {
      if (issue === union || !issue.schemaPath?.startsWith(base)) continue;
      const branch = `${base}${issue.schemaPath.slice(base.length).split('/')[0]}/`;
      const wrongType =
        issue.keyword === 'type' && issue.schemaPath === `${branch}type` && issue.instancePath === union.instancePath;
      wrongTypeByBranch.set(branch, (wrongTypeByBranch.get(branch) ?? false) || wrongType);
    }
    if (![...wrongTypeByBranch.values()].includes(false)) continue;
    settledUnions.add(union.schemaPath ?? '');
    for (const [branch, wrongType] of wrongTypeByBranch) if (wrongType) wrongBranches.push(branch);
  }
  if (settledUnions.size === 0) return issues;
  return issues.filter((issue) =>
    isUnion(issue)
      ? !settledUnions.has(issue.schemaPath ?? '')
      : !wrongBranches.some((branch) => issue.schemaPath?.startsWith(branch)),
  );
}

/** At most this many findings are listed; the sentence says how many there were in all. */
export const MAX_DETAILS = 20;

function fromValidation(error: FastifyError): AppError {
  // `if` only says that its `then` failed (validators.ts bounds arrays with it): the findings of `then` say what.
  const issues = withinMatchingBranches(
    ((error.validation ?? []) as ValidationIssue[]).filter((issue) => issue.keyword !== 'if'),
  );
  const code: ErrorCode = error.validationContext === 'body' ? 'invalid_body' : 'invalid_parameter';
  // anyOf/oneOf failures repeat the same field once per branch; keep one line per field, naming every type
  // the branches accept (an object or null: "must be object or null").
  const details: FieldProblem[] = [];
  const typesByField = new Map<string, string[]>();
  for (const issue of issues) {
    const field = fieldOf(issue);
    const types = typesByField.get(field);
    if (types === undefined) {
      typesByField.set(field, typesOf(issue));
      details.push({ field, message: messageOf(issue) });
    } else if (types.length > 0 && issue.keyword === 'type') {
      types.push(...typesOf(issue));
      const problem = details.find((detail) => detail.field === field);
      if (problem) problem.message = typeMessage(types);
    }
  }
  const first = details[0];
  const more =
    details.length > MAX_DETAILS ? ` (${details.length} problems in all; details lists the first ${MAX_DETAILS})` : '';
  const sentence = first
    ? `Invalid ${code === 'invalid_body' ? 'body field' : 'parameter'} '${first.field}': ${first.message}${more}.`
    : undefined;
  return new AppError(code, sentence, details.slice(0, MAX_DETAILS));
}

/** Fastify's own failures (parsing, limits) mapped to the catalog. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_body',
  FST_ERR_BAD_URL: 'invalid_parameter',
  // @fastify/csrf-protection's refusals of a console form (console/): one code, whether the secret or the token is missing.
  FST_CSRF_MISSING_SECRET: 'csrf_refused',
  FST_CSRF_INVALID_TOKEN: 'csrf_refused',
  FST_ERR_ASYNC_CONSTRAINT: 'invalid_parameter',
  FST_ERR_MAX_PARAM_LENGTH: 'invalid_parameter',
  HEARTH_BODY_TIMEOUT: 'request_timeout',
};

/** The sentence for a mapped Fastify failure, when the catalog's default would say too little. */
const fastifyMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_BAD_URL: 'The request path is not validly percent-encoded.',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is longer than 100 characters.',
};

/** The client went away mid-request: nothing to answer, and not a failure of Hearth's. */
function isClientAbort(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ECONNRESET' && error.message === 'aborted';
}

export function toAppError(error: unknown, dialect: StoreDialect): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError?.validation) return fromValidation(fastifyError);
  const mapped = fastifyError?.code ? fastifyCodes[fastifyError.code] : undefined;
  if (mapped === 'request_timeout')
    return new AppError(mapped, fastifyError.message, undefined, { connection: 'close' });
  if (mapped) return new AppError(mapped, fastifyMessages[fastifyError.code]);
  // Before the store's test: PostgreSQL counts ECONNRESET as the database going away.
  if (isClientAbort(error)) return new AppError('bad_request', 'The request ended before its body was complete.');
  if (dialect.isUnavailable(error))
    return new AppError('unavailable', errorCatalog.unavailable.message, undefined, { 'retry-after': '1' });
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('invalid_parameter', 'The request could not be understood.');
  }
  return new AppError('internal');
}

const hasBody = (request: FastifyRequest) =>
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0') ||
  request.headers['transfer-encoding'] !== undefined;

export function sendError(reply: FastifyReply, request: FastifyRequest, error: AppError): FastifyReply {
  // Also here: answers made before any hook ran (framework errors) carry the id too.
  reply.code(error.status).header('x-request-id', request.id).headers(error.headers);
  // Refused before its body was read (a 401 on a POST, say): Node would wait for the rest of the body to
  // reuse the connection, so a slow client would hold it on. Closing it is plainer.
  if (!request.raw.complete && hasBody(request)) reply.header('connection', 'close');
  if (error.status === 401) reply.header('www-authenticate', 'Bearer');
  return reply.send({
    success: false,
    error: error.message,
    code: error.code,
    request_id: request.id,
    ...(error.details ? { details: error.details } : {}),
  });
}

export function registerErrorHandler(app: FastifyInstance, dialect: StoreDialect): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, dialect);
    if (isClientAbort(error)) request.log.info('client went away before its request was complete');
    else if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, request, appError);
  });
}
