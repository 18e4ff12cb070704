// GET /feeds and /feeds/{feed_id}: the 19-key feed record, order by label then id, paging and filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { baseRecords, feedIds } from '../../fixtures/community.js';
import {
  announcements,
  announcementsFeed,
  feedsInOrder,
  generalTwin,
  moreFeedIds,
  plainFeed,
} from '../../fixtures/feeds.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme', [...baseRecords, announcements, generalTwin]));
});
afterAll(() => t.close());

const list = async (query = '') => {
  const res = await t.get(`/admin/v0/feeds${query}`, token);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};
const labels = (page: { records: { id: string; label: string }[] }) =>
  page.records.map((r) => `${r.label} ${r.id.slice(-4)}`);

describe('GET /admin/v0/feeds/:feed_id', () => {
  it('answers the 19 keys of the hosted feed record, references derived from the channel purpose and topic', async () => {
    const res = await t.get(`/admin/v0/feeds/${moreFeedIds.announcements}`, token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(
      res.body.startsWith(
        `{"success":true,"data":{"id":"${moreFeedIds.announcements}","label":"announcements","slug":"news",`,
      ),
    ).toBe(true);
    expect(res.json()).toEqual({ success: true, data: announcementsFeed });
    expect(Object.keys(res.json().data)).toHaveLength(19);
  });

  it('answers the defaults for a feed imported with the spec keys only', async () => {
    expect((await t.get(`/admin/v0/feeds/${feedIds.archived}`, token)).json()).toEqual({
      success: true,
      data: plainFeed(feedIds.archived, 'Old stuff', 'old-stuff', { is_archived: true }),
    });
  });

  it('carries an ETag and answers 304 to it', async () => {
    const first = await t.get(`/admin/v0/feeds/${feedIds.general}`, token);
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await t.get(`/admin/v0/feeds/${feedIds.general}`, token, { 'if-none-match': etag });
    expect([again.statusCode, again.body]).toEqual([304, '']);
  });
});

describe('GET /admin/v0/feeds', () => {
  it('lists every feed, archived and unlisted included, by label byte by byte, then id', async () => {
    expect(await list()).toEqual({
      page: 0,
      per_page: 10,
      count: 6,
      total_records: 6,
      total_pages: 1,
      has_next: false,
      records: feedsInOrder,
    });
  });

  it('pages with the usual envelope; a page past the end is empty', async () => {
    const second = await list('?per_page=2&page=1');
    expect({ ...second, records: labels(second) }).toEqual({
      page: 1,
      per_page: 2,
      count: 2,
      total_records: 6,
      total_pages: 3,
      has_next: true,
      records: ['General 0001', 'Old stuff 0003'],
    });
    expect(labels(await list('?per_page=2&page=2'))).toEqual(['Staff 0004', 'announcements 0005']);
    expect(await list('?per_page=4&page=2')).toEqual({
      page: 2,
      per_page: 4,
      count: 0,
      total_records: 6,
      total_pages: 2,
      has_next: false,
      records: [],
    });
  });

  it('filters on is_archived and is_unlisted, alone or together', async () => {
    expect(labels(await list('?is_archived=true'))).toEqual(['Old stuff 0003']);
    expect(labels(await list('?is_unlisted=true'))).toEqual(['Staff 0004']);
    const listed = await list('?is_archived=false&is_unlisted=false');
    expect([listed.total_records, labels(listed)]).toEqual([
      4,
      ['Events & Meetups 0002', 'General 0000', 'General 0001', 'announcements 0005'],
    ]);
    expect((await list('?is_archived=true&is_unlisted=true')).total_records).toBe(0);
  });
});
