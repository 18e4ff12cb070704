// Each part of a request has its own validator: a JSON body is judged as sent, text parts are coerced to their types.
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { validatorsByPart } from '../../src/http/validators.js';
import { unknownFieldsRefused } from '../../src/schemas/common.js';

const schema = Type.Object({
  page: Type.Integer({ minimum: 0 }),
  flag: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String()),
});

type Outcome = boolean | { error?: unknown; value?: unknown } | PromiseLike<unknown>;

function validate(httpPart: string, data: Record<string, unknown>): { outcome: Outcome; data: unknown } {
  const validator = validatorsByPart()({ schema, httpPart, method: 'GET', url: '/' });
  return { outcome: validator(data), data };
}

const findings = (outcome: Outcome) =>
  typeof outcome === 'object' && 'error' in outcome ? outcome.error : 'no error object';

describe('validatorsByPart', () => {
  it('judges a body as sent: text is not a number, a boolean or a one-item list of strings', () => {
    for (const body of [{ page: '5' }, { page: 0, flag: 'true' }, { page: 0, name: ['Ada'] }, { page: 0, name: 5 }]) {
      const validator = validatorsByPart()({ schema, httpPart: 'body', method: 'POST', url: '/' });
      expect([body, validator(body)]).toEqual([body, false]);
      expect(validator.errors?.map((error) => error.keyword)).toEqual(['type']);
    }
  });

  it('coerces query strings, path parameters and headers from text', () => {
    for (const part of ['querystring', 'params', 'headers']) {
      const { outcome, data } = validate(part, { page: '5', flag: 'true', name: ['Ada'] });
      expect([part, outcome]).toEqual([part, true]);
      expect(data).toEqual({ page: 5, flag: true, name: 'Ada' });
    }
  });

  it('refuses text integers written other than in decimal digits, after its own findings', () => {
    const { outcome } = validate('querystring', { page: '0x10' });
    expect(findings(outcome)).toEqual([
      {
        instancePath: '/page',
        schemaPath: '#/properties/page/type',
        keyword: 'decimalDigits',
        params: {},
        message: 'must be an integer written in decimal digits',
      },
    ]);
    const both = validate('querystring', { page: '1e1', flag: 'maybe' });
    expect((findings(both.outcome) as { message: string }[]).map((error) => error.message)).toEqual([
      'must be boolean',
    ]);
    expect(validate('querystring', { page: '007' }).outcome).toBe(true);
  });

  it('drops the unknown fields of a body unless its schema refuses them, nested ones included', () => {
    const nested = { name: Type.Optional(Type.Object({ first: Type.String() }, { additionalProperties: false })) };
    const dropping = Type.Object(nested, { additionalProperties: false });
    const refusing = Type.Object(nested, { additionalProperties: false, ...unknownFieldsRefused });
    const compile = (body: typeof dropping) =>
      validatorsByPart()({ schema: body, httpPart: 'body', method: 'POST', url: '/' });
    const dropped = { name: { first: 'Ada', last: 'L' }, nmae: 1 };
    expect([compile(dropping)(dropped), dropped]).toEqual([true, { name: { first: 'Ada' } }]);
    const validator = compile(refusing);
    const kept = { name: { first: 'Ada', last: 'L' }, nmae: 1 };
    expect([validator(kept), kept]).toEqual([false, { name: { first: 'Ada', last: 'L' }, nmae: 1 }]);
    expect(validator.errors?.map((error) => [error.instancePath, error.params])).toEqual([
      ['', { additionalProperty: 'nmae' }],
      ['/name', { additionalProperty: 'last' }],
    ]);
  });
});
