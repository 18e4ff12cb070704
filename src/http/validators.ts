// One validator per part of a request (Fastify's "validator per HTTP part"): a JSON body is judged as sent,
// while query strings, path parameters and headers, which arrive as text, are coerced to their schemas' types.
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { UNKNOWN_FIELDS_KEYWORD } from '../schemas/common.js';

type Validator = ReturnType<FastifySchemaCompiler<FastifySchema>>;

// Fastify's baseline, with every finding reported (one 400 names every field).
const baseline: Options = { useDefaults: true, removeAdditional: true, allErrors: true, addUsedSchema: false };

// Ajv coerces text with `Number()`: `1e400` became Infinity and slipped past `maximum`, `0x10` became 16,
// ` 5` and `+5` became 5. An integer written in text is decimal digits, nothing else.
const decimalDigits = /^[0-9]+$/;
const INTEGER_RULE = 'must be an integer written in decimal digits';

interface SchemaShape {
  properties?: Record<string, { type?: unknown }>;
}

function integerFields(schema: unknown): string[] {
  const properties = (schema as SchemaShape | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}

/** The integer fields spelled other than in digits, as validation errors; read before coercion replaces the text. */
function misspelledIntegers(data: unknown, integers: readonly string[]): ErrorObject[] {
  if (typeof data !== 'object' || data === null) return [];
  const values = data as Record<string, unknown>;
  return integers
    .filter((field) =>
      (Array.isArray(values[field]) ? values[field] : [values[field]]).some(
        (value) => typeof value === 'string' && !decimalDigits.test(value),
      ),
    )
    .map((field) => ({
      instancePath: `/${field}`,
      schemaPath: `#/properties/${field}/type`,
      keyword: 'decimalDigits',
      params: {},
      message: INTEGER_RULE,
    }));
}

/** The coercing validator of a text part; its integer spellings are judged after its own findings, which come first. */
function textValidator(validate: ValidateFunction, schema: unknown): Validator {
  const integers = integerFields(schema);
  if (integers.length === 0) return validate;
  return (data: unknown) => {
    const misspelled = misspelledIntegers(data, integers);
    if (!validate(data)) return { error: validate.errors ?? [] };
    return misspelled.length > 0 ? { error: misspelled } : true;
  };
}

/**
 * A copy of a body schema whose arrays judge their items only within their `maxItems`. With `allErrors` Ajv
 * checks every element even after `maxItems` failed: 31,000 bad hosts made 31,000 findings at 64 ms of CPU.
 * `if: {maxItems}` is judged without findings, so an array past its bound is named once. The published schema
 * is not changed; walking it recursively is safe, it is ours and shallow.
 */
export function boundArrays(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundArrays);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = boundArrays(value);
  const { items, maxItems } = copy;
  if (typeof maxItems === 'number' && items !== undefined && copy['if'] === undefined) {
    delete copy['items'];
    copy['if'] = { maxItems };
    copy['then'] = { items };
  }
  return copy;
}

const refusesUnknownFields = (schema: unknown) =>
  (schema as Record<string, unknown> | undefined)?.[UNKNOWN_FIELDS_KEYWORD] === 'refused';

/**
 * The validator compiler of an app: bodies without coercion, every other part with it. A body schema marked
 * `unknownFieldsRefused` keeps what `additionalProperties: false` forbids, so it fails naming the field.
 */
export function validatorsByPart(): FastifySchemaCompiler<FastifySchema> {
  const body = new Ajv({ ...baseline, coerceTypes: false });
  const strictBody = new Ajv({ ...baseline, coerceTypes: false, removeAdditional: false });
  const text = new Ajv({ ...baseline, coerceTypes: 'array' });
  for (const ajv of [body, strictBody, text]) {
    formats.default(ajv);
    ajv.addKeyword({ keyword: UNKNOWN_FIELDS_KEYWORD, schemaType: 'string' });
  }
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body') return textValidator(text.compile(schema), schema);
    return (refusesUnknownFields(schema) ? strictBody : body).compile(boundArrays(schema) as FastifySchema);
  };
}
