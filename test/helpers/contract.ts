// The contract check: validates each answer against the app's OpenAPI document (that operation and status), recording violations and pairs covered.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

interface MediaObject {
  schema?: object;
}
interface ResponseObject {
  headers?: Record<string, { $ref?: string; required?: boolean }>;
  content?: Record<string, MediaObject>;
}
interface OperationObject {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OperationObject>>;
  components?: { headers?: Record<string, { required?: boolean }>; schemas?: Record<string, object> };
}

export interface Violation {
  operationId: string;
  status: number;
  url: string;
  problems: string[];
}

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** What the suite has exercised so far in this process, and what went against the document. */
export interface ContractLog {
  violations: Violation[];
  /** `operationId status` pairs documented by the documents seen, and those answered. */
  documented: Set<string>;
  covered: Set<string>;
}

export const newContractLog = (): ContractLog => ({ violations: [], documented: new Set(), covered: new Set() });

/** The log of every app built by `createTestApp` in this process. */
export const contractLog = newContractLog();

export class Contract {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  private readonly operations = new Map<string, OperationObject>();
  private readonly validators = new Map<string, ValidateFunction>();

  /** Every `operationId status` pair of the document. */
  readonly pairs: string[] = [];

  constructor(private readonly document: OpenApiDocument) {
    formats.default(this.ajv);
    // OpenAPI's own annotations inside Schema Objects, and the extension that describes each value of an enum.
    this.ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs', 'components', 'x-enumDescriptions']);
    for (const item of Object.values(document.paths ?? {})) {
      for (const operation of Object.values(item)) {
        if (!operation.operationId) continue;
        this.operations.set(operation.operationId, operation);
        for (const status of Object.keys(operation.responses ?? {}))
          this.pairs.push(`${operation.operationId} ${status}`);
      }
    }
  }

  /** Everything wrong with one answer of an operation, as sentences; empty when it keeps the contract. */
  check(operationId: string, answer: Answer): string[] {
    const operation = this.operations.get(operationId);
    if (!operation) return [`operation ${operationId} is not in the document`];
    const response = operation.responses?.[String(answer.status)];
    if (!response) return [`status ${answer.status} is not documented for ${operationId}`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (this.headerRequired(header) && answer.headers[name.toLowerCase()] === undefined)
        problems.push(`header ${name} is missing`);
    }
    const media = response.content?.['application/json'];
    const contentType = String(answer.headers['content-type'] ?? '');
    // A documented body of another type (an iCalendar answer) is checked by its type alone.
    const other = Object.keys(response.content ?? {}).find((type) => type !== 'application/json');
    if (!media?.schema && other !== undefined) {
      if (!contentType.startsWith(other)) problems.push(`content-type is ${contentType || 'missing'}, not ${other}`);
      return problems;
    }
    if (!media?.schema) {
      if (answer.body !== '') problems.push(`status ${answer.status} has no body in the document, but one was sent`);
      return problems;
    }
    if (!contentType.startsWith('application/json'))
      problems.push(`content-type is ${contentType || 'missing'}, not application/json`);
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [...problems, 'the body is not JSON'];
    }
    return [...problems, ...this.bodyProblems(operationId, answer.status, body)];
  }

  /** What is wrong with a parsed body for that operation and status, by the schema of the document. */
  bodyProblems(operationId: string, status: number, body: unknown): string[] {
    const schema = this.operations.get(operationId)?.responses?.[String(status)]?.content?.['application/json']?.schema;
    if (!schema) return [`${operationId} documents no JSON body for status ${status}`];
    const validate = this.validator(operationId, status, schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `body${error.instancePath} ${error.message ?? 'is invalid'}`);
  }

  private headerRequired(header: { $ref?: string; required?: boolean }): boolean {
    if (header.$ref) return this.document.components?.headers?.[header.$ref.split('/').pop() ?? '']?.required === true;
    return header.required === true;
  }

  private validator(operationId: string, status: number, schema: object): ValidateFunction {
    const key = `${operationId} ${status}`;
    const known = this.validators.get(key);
    if (known) return known;
    // The schema is compiled inside a copy of the document's components, where its `#/components/...` refs point.
    const compiled = this.ajv.compile({ ...schema, components: { schemas: this.document.components?.schemas ?? {} } });
    this.validators.set(key, compiled);
    return compiled;
  }
}

const contracts = new Map<string, Contract>();

/** One compiled contract per distinct document (every app of a test file has the same one). */
export function contractFor(document: OpenApiDocument): Contract {
  const key = JSON.stringify(document);
  let contract = contracts.get(key);
  if (!contract) {
    contract = new Contract(document);
    contracts.set(key, contract);
  }
  return contract;
}

/**
 * Adds the check to a built app (before `ready()`), as the last `onSend` hook so it sees the final status and
 * body. The app is otherwise the production one: the hook only reads.
 */
export function attachContract(app: FastifyInstance, log: ContractLog = contractLog): void {
  let contract: Contract | null = null;
  const contractOfApp = (): Contract => {
    if (!contract) {
      contract = contractFor(app.swagger() as OpenApiDocument);
      for (const pair of contract.pairs) log.documented.add(pair);
    }
    return contract;
  };
  app.addHook('onSend', async (request, reply, payload) => {
    const operationId = request.routeOptions.schema?.operationId;
    // Only documented operations; HEAD shares its GET's operationId but has no body to check. The document
    // describes the spec names: success answers in hosted field-name mode are checked by test/hosted instead.
    if (!operationId || request.method === 'HEAD') return payload;
    if (request.principal?.fieldNames === 'hosted' && reply.statusCode < 300) return payload;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    let problems: string[];
    try {
      problems = contractOfApp().check(operationId, { status: reply.statusCode, headers: reply.getHeaders(), body });
    } catch (error) {
      problems = [
        `the document could not be checked against: ${error instanceof Error ? error.message : String(error)}`,
      ];
    }
    log.covered.add(`${operationId} ${reply.statusCode}`);
    if (problems.length > 0) log.violations.push({ operationId, status: reply.statusCode, url: request.url, problems });
    return payload;
  });
}

/** The violations recorded since the last call, emptied. */
export function takeViolations(log: ContractLog = contractLog): Violation[] {
  return log.violations.splice(0);
}

export function describeViolations(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${v.operationId} answered ${v.status} to ${v.url}, against the OpenAPI document:\n  - ${v.problems.join('\n  - ')}`,
    )
    .join('\n');
}
