// Building blocks shared by every response and parameter schema.
import {
  Type,
  type Static,
  type TSchema,
  type TString,
  type TInteger,
  type TBoolean,
  type TNumber,
  type TUnsafe,
} from '@sinclair/typebox';
import { errorCatalog, type ErrorCode } from '../errors.js';
import { SHORT_ID_PATTERN, UUID_PATTERN } from '../lib/ids.js';

type Primitive = TString | TInteger | TBoolean | TNumber;

/** A primitive that may be null, as one JSON Schema 3.1 type list (cheap to validate and serialize). */
export function Nullable<T extends Primitive>(schema: T): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });
}

/** A string enum as one `enum` keyword: one clear validation message, a plain OpenAPI enum. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** An object schema that may be null. */
export function NullableObject<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/**
 * The option of a body schema whose unknown fields are refused (a 400 naming each, nested objects' too) rather
 * than dropped, as `additionalProperties: false` alone does for bodies (http/validators.ts); published as is.
 */
export const UNKNOWN_FIELDS_KEYWORD = 'x-unknown-fields';
export const unknownFieldsRefused = { [UNKNOWN_FIELDS_KEYWORD]: 'refused' } as const;

export const Timestamp = Type.String({
  description: 'UTC timestamp `YYYY-MM-DD HH:MM:SS.ffffff+00`',
  examples: ['2026-03-08 17:00:00.000000+00'],
});
export const Url = Type.String({ description: 'URL' });
export const Uuid = Type.String({ pattern: UUID_PATTERN, description: 'UUID' });
export const ShortId = Type.String({
  minLength: 12,
  maxLength: 12,
  pattern: SHORT_ID_PATTERN,
  description: 'Exactly 12 characters of [a-z0-9]',
});

export const PageQuery = {
  page: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Page, 0-indexed' }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'Records per page' }),
};

export function PageOf<T extends TSchema>(record: T) {
  return Type.Object({
    success: Type.Boolean(),
    data: Type.Object({
      page: Type.Integer(),
      per_page: Type.Integer(),
      count: Type.Integer(),
      total_records: Type.Integer(),
      total_pages: Type.Integer(),
      has_next: Type.Boolean(),
      records: Type.Array(record),
    }),
  });
}

export function One<T extends TSchema>(record: T) {
  return Type.Object({ success: Type.Boolean(), data: record });
}

const errorCodes = Object.keys(errorCatalog) as ErrorCode[];

/** The catalog's codes as an enum: a client can switch on them, and the document says what each means. */
const ErrorCodeSchema = StringEnum(errorCodes, {
  description: [
    'Stable code of the failure, one per kind (the `error` sentence may say more):',
    ...errorCodes.map((code) => `- \`${code}\` (${errorCatalog[code].status}): ${errorCatalog[code].message}`),
  ].join('\n'),
  // The same per code for tools that read it (Redocly shows it as a table beside the enum).
  'x-enumDescriptions': Object.fromEntries(
    errorCodes.map((code) => [code, `${errorCatalog[code].status}: ${errorCatalog[code].message}`]),
  ),
});

export const ErrorBody = Type.Object(
  {
    success: Type.Boolean(),
    error: Type.String(),
    code: ErrorCodeSchema,
    request_id: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { description: 'The error body of every failed request' },
);
