// Search parameters outside their rules: exact 400 bodies for q's length, missing q or type, and the paging bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme'));
});
afterAll(() => t.close());

const get = (query: string) => t.get(`/admin/v0/search${query}`, token, { 'x-request-id': 'req-search-1' });

const invalid = (field: string, message: string, more: { field: string; message: string }[] = []) => ({
  success: false,
  error: `Invalid parameter '${field}': ${message}.`,
  code: 'invalid_parameter',
  request_id: 'req-search-1',
  details: [{ field, message }, ...more],
});

describe('q length', () => {
  it('answers 400 for 257 characters, with the exact body', async () => {
    const res = await get(`?type=post&q=${'a'.repeat(257)}`);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(invalid('q', 'must NOT have more than 256 characters'));
  });

  it('counts characters, not UTF-16 units: 256 emoji are answered, 257 are not', async () => {
    expect((await get(`?type=post&q=${encodeURIComponent('😀'.repeat(256))}`)).statusCode).toBe(200);
    const res = await get(`?type=post&q=${encodeURIComponent('😀'.repeat(257))}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('q', 'must NOT have more than 256 characters'));
  });

  it('answers 256 characters', async () => {
    const res = await get(`?type=comment&q=${'a'.repeat(256)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.total_records).toBe(0);
  });

  it('answers 400 for an empty q', async () => {
    const res = await get('?type=post&q=');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('q', 'must NOT have fewer than 1 characters'));
  });
});

describe('required parameters', () => {
  it('answers 400 without q', async () => {
    const res = await get('?type=post');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('q', "must have required property 'q'"));
  });

  it('answers 400 without type', async () => {
    const res = await get('?q=lighthouse');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('type', "must have required property 'type'"));
  });

  it('names both when both are missing', async () => {
    const res = await get('');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      invalid('q', "must have required property 'q'", [
        { field: 'type', message: "must have required property 'type'" },
      ]),
    );
  });
});

describe('other rules', () => {
  it.each([
    ['?q=a&type=posts', 'type', 'must be one of: post, comment'],
    ['?q=a&type=POST', 'type', 'must be one of: post, comment'],
    ['?q=a&q=b&type=post', 'q', 'must be string'],
    ['?q=a&type=post&type=comment', 'type', 'must be string'],
    ['?q=a&type=post&per_page=0', 'per_page', 'must be >= 1'],
    ['?q=a&type=post&per_page=101', 'per_page', 'must be <= 100'],
    ['?q=a&type=post&page=-1', 'page', 'must be >= 0'],
    ['?q=a&type=post&page=1.5', 'page', 'must be integer'],
    ['?q=a&type=post&highlight=yes', 'highlight', 'must be boolean'],
  ])('%s answers 400 naming %s', async (query, field, message) => {
    const res = await get(query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid(field, message));
  });

  it('ignores an unknown parameter', async () => {
    expect((await get('?q=a&type=post&sort=newest')).statusCode).toBe(200);
  });
});
