// Bad input to the post endpoints gets the documented error body: 400 for malformed values, 404 for unknown ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { feedIds } from '../../fixtures/community.js';
import { postRecords } from '../../fixtures/posts.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme', postRecords));
});
afterAll(() => t.close());

const invalid = (field: string, message: string) => ({
  success: false,
  error: `Invalid parameter '${field}': ${message}.`,
  code: 'invalid_parameter',
  request_id: 'req-p1',
  details: [{ field, message }],
});

const feedPattern =
  'must match pattern "^(?:home|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$"';
const feedPosts = `/feeds/${feedIds.general}/posts`;

describe('invalid parameters', () => {
  const cases: [string, ReturnType<typeof invalid>][] = [
    ['/feeds/general/posts', invalid('feed_id', feedPattern)],
    ['/feeds/HOME/posts', invalid('feed_id', feedPattern)],
    ['/feeds/homes/posts', invalid('feed_id', feedPattern)],
    [`/feeds/${feedIds.general}0/posts`, invalid('feed_id', feedPattern)],
    [`${feedPosts}?sort=popular`, invalid('sort', 'must be one of: newest, oldest, most-recent-activity')],
    [`${feedPosts}?sort=`, invalid('sort', 'must be one of: newest, oldest, most-recent-activity')],
    ['/feeds/home/posts?sort=NEWEST', invalid('sort', 'must be one of: newest, oldest, most-recent-activity')],
    [`${feedPosts}?page=-1`, invalid('page', 'must be >= 0')],
    [`${feedPosts}?page=two`, invalid('page', 'must be integer')],
    ['/feeds/home/posts?page=0.5', invalid('page', 'must be integer')],
    [`${feedPosts}?per_page=0`, invalid('per_page', 'must be >= 1')],
    [`${feedPosts}?per_page=101`, invalid('per_page', 'must be <= 100')],
    ['/feeds/home/posts?per_page=ten', invalid('per_page', 'must be integer')],
    ['/posts/short', invalid('post_id', 'must NOT have fewer than 12 characters')],
    ['/posts/postwelcome12', invalid('post_id', 'must NOT have more than 12 characters')],
    ['/posts/POSTWELCOME1', invalid('post_id', 'must match pattern "^[a-z0-9]{12}$"')],
    ['/posts/post_welcome', invalid('post_id', 'must match pattern "^[a-z0-9]{12}$"')],
  ];
  for (const [url, body] of cases) {
    it(`answers 400 for ${url}`, async () => {
      const res = await t.get(`/admin/v0${url}`, token, { 'x-request-id': 'req-p1' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(body);
    });
  }

  it('names every bad parameter at once', async () => {
    const res = await t.get('/admin/v0/feeds/home/posts?page=-1&per_page=500&sort=best', token);
    expect(res.json().details).toEqual([
      { field: 'page', message: 'must be >= 0' },
      { field: 'per_page', message: 'must be <= 100' },
      { field: 'sort', message: 'must be one of: newest, oldest, most-recent-activity' },
    ]);
  });

  it('ignores unknown query parameters', async () => {
    const res = await t.get('/admin/v0/feeds/home/posts?colour=blue&feed_id=x', token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.total_records).toBe(6);
  });
});

describe('unknown things', () => {
  it('answers 404 for a feed that does not exist, whatever the page', async () => {
    for (const query of ['', '?page=3&sort=oldest']) {
      const res = await t.get(`/admin/v0/feeds/00000000-0000-4000-8000-000000000000/posts${query}`, token, {
        'x-request-id': 'req-p2',
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        success: false,
        error: "Feed '00000000-0000-4000-8000-000000000000' was not found.",
        code: 'not_found',
        request_id: 'req-p2',
      });
    }
  });

  it('answers 404 for a post that does not exist', async () => {
    const res = await t.get('/admin/v0/posts/zzzzzzzzzzzz', token, { 'x-request-id': 'req-p3' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      error: "Post 'zzzzzzzzzzzz' was not found.",
      code: 'not_found',
      request_id: 'req-p3',
    });
  });

  it('answers 404 for a comment id asked as a post', async () => {
    expect((await t.get('/admin/v0/posts/comment00001', token)).statusCode).toBe(404);
  });

  it('answers 405 with Allow for another method on a post path', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v0/feeds/home/posts',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD');
  });
});
