// Types of an operation's inputs and answer, read from the generated schema by operationId.
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

type Responses<Id extends OperationId> = operations[Id]['responses'];
type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body of an operation's success answer (200 or 201). */
export type SuccessBody<Id extends OperationId> = JsonOf<Responses<Id>[Extract<keyof Responses<Id>, 200 | 201>]>;

/**
 * What a method resolves to: the `data` of the success body. Named by operation, never spelt out, so that a
 * project reads it from the schema under its own compiler options (`exactOptionalPropertyTypes` included).
 */
export type AnswerOf<Id extends OperationId> = SuccessBody<Id> extends { data: infer Data } ? Data : SuccessBody<Id>;
