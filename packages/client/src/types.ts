// Types of an operation's inputs, read from the generated schema by operationId.
import type { operations } from './schema.js';

export type OperationId = keyof operations;

/** The path parameters of an operation. */
export type PathParams<Id extends OperationId> = NonNullable<operations[Id]['parameters']['path']>;

/** The query parameters of an operation (all optional ones may be left out). */
export type QueryParams<Id extends OperationId> = NonNullable<operations[Id]['parameters']['query']>;

/** The JSON body of an operation that takes one. */
export type RequestBody<Id extends OperationId> = operations[Id] extends {
  requestBody: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
