// Posts of one community never show to, or count for, another, even when both hold the same ids; scopes apply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { feedIds } from '../../fixtures/community.js';
import { postIds, postRecords, posts } from '../../fixtures/posts.js';

let t: TestApp;
let acmeToken: string;
let otherToken: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token: acmeToken } = await t.seed('acme', postRecords));
  // The same export imported elsewhere keeps its ids; then that community changes and grows.
  const other = await t.community('other');
  await t.importRecords(other, postRecords);
  await t.importRecords(other, [
    ...posts.map((p) => ({ ...p, title: `Other: ${p.title}`, slug: null })),
    ...Array.from({ length: 5 }, (_, i) => ({
      kind: 'post',
      id: `otheronly00${i}`,
      created_at: '2026-03-09T00:00:00Z',
      feed_id: feedIds.general,
    })),
  ]);
  otherToken = await t.token(other);
});
afterAll(() => t.close());

const data = async (path: string, token: string) => {
  const res = await t.get(`/admin/v0${path}`, token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

describe('tenancy', () => {
  it('answers each community its own post under the same id', async () => {
    expect((await data(`/posts/${postIds.welcome}`, acmeToken)).title).toBe('Welcome to Hearth: read me first!');
    expect((await data(`/posts/${postIds.welcome}`, otherToken)).title).toBe(
      'Other: Welcome to Hearth: read me first!',
    );
  });

  it("never lists or counts another community's posts, in a feed or in Home", async () => {
    const general = await data(`/feeds/${feedIds.general}/posts`, acmeToken);
    expect([general.total_records, general.records.map((r: { id: string; title: string }) => r.title)]).toEqual([
      4,
      ['Tie B', 'Tie A', 'Plain text only', 'Welcome to Hearth: read me first!'],
    ]);
    expect((await data('/feeds/home/posts', acmeToken)).total_records).toBe(6);
    const otherGeneral = await data(`/feeds/${feedIds.general}/posts?per_page=5`, otherToken);
    expect([otherGeneral.total_records, otherGeneral.records.map((r: { id: string }) => r.id)]).toEqual([
      9,
      ['otheronly004', 'otheronly003', 'otheronly002', 'otheronly001', 'otheronly000'],
    ]);
    expect((await data('/feeds/home/posts', otherToken)).total_records).toBe(11);
  });

  it("answers 404 for another community's post or feed", async () => {
    expect((await t.get('/admin/v0/posts/otheronly000', acmeToken)).statusCode).toBe(404);
    const stranger = await t.community('stranger');
    const strangerToken = await t.token(stranger);
    expect((await t.get(`/admin/v0/feeds/${feedIds.general}/posts`, strangerToken)).statusCode).toBe(404);
    expect((await t.get(`/admin/v0/posts/${postIds.welcome}`, strangerToken)).statusCode).toBe(404);
    expect(await data('/feeds/home/posts', strangerToken)).toEqual({
      page: 0,
      per_page: 10,
      count: 0,
      total_records: 0,
      total_pages: 0,
      has_next: false,
      records: [],
    });
  });

  it("resolves authors and feeds inside the post's own community", async () => {
    const post = await data(`/posts/${postIds.events}`, otherToken);
    expect(post.author.profile_id).toBe(post.author_profile_id);
    expect(post.feed).toEqual({ id: feedIds.events, label: 'Events & Meetups', slug: 'events--meetups' });
  });
});

describe('scopes', () => {
  it('answers 403 to a token without read, and 401 without a token', async () => {
    const community = await t.community('writer');
    const writeOnly = await t.token(community, ['members:write']);
    for (const path of ['/admin/v0/feeds/home/posts', `/admin/v0/posts/${postIds.welcome}`]) {
      const res = await t.get(path, writeOnly, { 'x-request-id': 'req-s1' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        success: false,
        error: "This operation needs the 'read' scope; the token has: members:write.",
        code: 'insufficient_scope',
        request_id: 'req-s1',
      });
      const anonymous = await t.app.inject({ method: 'GET', url: path });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().code).toBe('unauthorized');
    }
  });
});
