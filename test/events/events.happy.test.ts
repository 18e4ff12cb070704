// Calendar events: exact shapes, filters, order, time zones and paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ada, adaProfile, baseRecords, feedIds, profileIds } from '../../fixtures/community.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.seed('acme', baseRecords));
});
afterAll(() => t.close());

const ids = async (query: string) => {
  const res = await t.get(`/admin/v0/calendar_events${query}`, token);
  expect(res.statusCode).toBe(200);
  return (res.json().data.records as { id: string }[]).map((r) => r.id);
};

const emptyRefs = { mentioned_chat_users: [], mentioned_chat_channels: [], custom_emojis: [], urls: [] };

describe('GET /admin/v0/calendar_events/:id', () => {
  it('answers every field of the event, in its own time zone across a DST change', async () => {
    const res = await t.get('/admin/v0/calendar_events/evdstcross01', token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.startsWith('{"success":true,"data":{"id":"evdstcross01"')).toBe(true);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id: 'evdstcross01',
        created_at: '2026-01-01 00:00:00.500000+00',
        updated_at: '2026-01-01 00:00:00.500000+00',
        allow_public_guest_list: false,
        description_chat_blocks: null,
        description_chat_blocks_references: emptyRefs,
        enable_registration_button: false,
        end_date: '2026-03-09T10:00:00-07:00',
        external_speakers: null,
        is_unlisted: false,
        link: null,
        location: 'Hangar 1',
        partner_event_id: null,
        publish_to_site: true,
        triggers_webhooks: false,
        recap_chat_blocks: null,
        recap_chat_blocks_references: emptyRefs,
        recording_link: null,
        webhook_custom_metadata: null,
        show_end_date: false,
        slug: 'weekend-hack-across-dst',
        start_date: '2026-03-07T10:00:00-08:00',
        status: 'published',
        title: 'Weekend Hack: across DST!',
        use_registration_btn_as_link: false,
        attendees_count: 0,
        cover_image_url: null,
        published_to: [
          {
            chat_channel_id: 'C0EVENTS01',
            chat_message_permalink: 'https://chat.example.com/archives/C0EVENTS01/p1',
            feed_id: feedIds.events,
          },
        ],
        hosts: [adaProfile],
        speakers: [adaProfile],
        tags: [
          {
            id: 'tag-workshop',
            created_at: '2025-01-05 00:00:00.000000+00',
            tag_group_id: 'format',
            label: 'Workshop',
          },
        ],
      },
    });
  });

  it('keeps the order of hosts as imported and renders offsets of each zone', async () => {
    const ongoing = (await t.get('/admin/v0/calendar_events/evongoing001', token)).json().data;
    expect(ongoing.hosts.map((h: { profile_id: string }) => h.profile_id)).toEqual([profileIds.grace, profileIds.ada]);
    expect([ongoing.start_date, ongoing.end_date]).toEqual(['2026-03-10T10:00:00+00:00', '2026-03-10T14:00:00+00:00']);
    const winter = (await t.get('/admin/v0/calendar_events/evberlin0001', token)).json().data;
    const summer = (await t.get('/admin/v0/calendar_events/evberlin0002', token)).json().data;
    expect([winter.start_date, summer.start_date]).toEqual(['2026-03-20T19:00:00+01:00', '2026-04-02T19:00:00+02:00']);
    const noEnd = (await t.get('/admin/v0/calendar_events/evpastnoend1', token)).json().data;
    expect([noEnd.start_date, noEnd.end_date]).toEqual(['2026-03-01T09:00:00+00:00', null]);
  });

  it('answers drafts by id too', async () => {
    expect((await t.get('/admin/v0/calendar_events/evdraft00001', token)).json().data.status).toBe('draft');
  });
});

describe('GET /admin/v0/calendar_events', () => {
  it('lists published events by start ascending with the pagination envelope', async () => {
    const res = await t.get('/admin/v0/calendar_events', token);
    const { records, ...envelope } = res.json().data;
    expect(envelope).toEqual({ page: 0, per_page: 10, count: 6, total_records: 6, total_pages: 1, has_next: false });
    expect(records.map((r: { id: string }) => r.id)).toEqual([
      'evpastnoend1',
      'evdstcross01',
      'evongoing001',
      'evtokyo00001',
      'evberlin0001',
      'evberlin0002',
    ]);
  });

  it('upcoming includes ongoing events, start ascending', async () => {
    expect(await ids('?time_filter=upcoming')).toEqual([
      'evongoing001',
      'evtokyo00001',
      'evberlin0001',
      'evberlin0002',
    ]);
  });

  it('past includes ongoing events, start descending', async () => {
    expect(await ids('?time_filter=past')).toEqual(['evongoing001', 'evdstcross01', 'evpastnoend1']);
  });

  it('moves with the clock: after the ongoing event ends it is only past', async () => {
    t.clock.now = Date.parse('2026-03-10T14:00:00Z');
    try {
      expect(await ids('?time_filter=upcoming')).toEqual(['evtokyo00001', 'evberlin0001', 'evberlin0002']);
      expect(await ids('?time_filter=past')).toEqual(['evongoing001', 'evdstcross01', 'evpastnoend1']);
    } finally {
      t.clock.now = Date.parse('2026-03-10T12:00:00Z');
    }
  });

  it("date_filter takes the calendar day in the value's own offset and overrides time_filter", async () => {
    expect(await ids('?date_filter=2026-03-10')).toEqual(['evongoing001']);
    expect(await ids('?date_filter=2026-03-09&time_filter=upcoming')).toEqual(['evdstcross01']);
    // 2026-03-11 in -05:00 is [03-11T05:00Z, 03-12T05:00Z): the Tokyo event (14:30Z-16:00Z) falls inside.
    expect(await ids(`?date_filter=${encodeURIComponent('2026-03-11T20:00:00-05:00')}`)).toEqual(['evtokyo00001']);
    // 2026-03-12 in +09:00 starts 03-11T15:00Z, before the Tokyo event ends (16:00Z); in UTC it starts after.
    expect(await ids(`?date_filter=${encodeURIComponent('2026-03-12T10:00:00+09:00')}`)).toEqual(['evtokyo00001']);
    expect(await ids(`?date_filter=${encodeURIComponent('2026-03-12T10:00:00+00:00')}`)).toEqual([]);
    // An event without an end occupies its start instant only.
    expect(await ids('?date_filter=2026-03-01')).toEqual(['evpastnoend1']);
    expect(await ids('?date_filter=2026-03-02')).toEqual([]);
  });

  it('filters by status, site publication, unlisted flag and feed', async () => {
    expect(await ids('?status=draft')).toEqual(['evdraft00001']);
    expect(await ids('?status=needs_approval')).toEqual([]);
    expect(await ids('?published_to_site=true')).toEqual(['evdstcross01', 'evongoing001']);
    expect(await ids('?is_unlisted=true')).toEqual(['evberlin0001']);
    expect(await ids('?is_unlisted=false&published_to_site=false')).toEqual([
      'evpastnoend1',
      'evtokyo00001',
      'evberlin0002',
    ]);
    expect(await ids(`?feed_id=${feedIds.events}`)).toEqual(['evdstcross01']);
    expect(await ids(`?feed_id=${feedIds.general}&time_filter=upcoming`)).toEqual(['evberlin0002']);
  });

  it('answers 404 for an archived or unknown feed', async () => {
    for (const feed of [feedIds.archived, '00000000-0000-4000-8000-000000000000']) {
      const res = await t.get(`/admin/v0/calendar_events?feed_id=${feed}`, token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, code: 'not_found', error: `Feed '${feed}' was not found.` });
    }
  });

  it('walks pages returning every record exactly once', async () => {
    const seen: string[] = [];
    for (let page = 0; ; page++) {
      const data = (await t.get(`/admin/v0/calendar_events?per_page=4&page=${page}`, token)).json().data;
      expect(data.total_records).toBe(6);
      expect(data.total_pages).toBe(2);
      seen.push(...data.records.map((r: { id: string }) => r.id));
      expect(data.has_next).toBe(page === 0);
      if (!data.has_next) break;
    }
    expect(seen).toEqual([
      'evpastnoend1',
      'evdstcross01',
      'evongoing001',
      'evtokyo00001',
      'evberlin0001',
      'evberlin0002',
    ]);
  });

  it('answers an empty page past the end', async () => {
    const data = (await t.get('/admin/v0/calendar_events?per_page=5&page=7', token)).json().data;
    expect(data).toEqual({
      page: 7,
      per_page: 5,
      count: 0,
      total_records: 6,
      total_pages: 2,
      has_next: false,
      records: [],
    });
  });

  it('orders events with the same start by id', async () => {
    const community = await t.community('ties');
    const same = ['evtie0000003', 'evtie0000001', 'evtie0000002'].map((id) => ({
      kind: 'calendar_event',
      id,
      start_date: '2026-05-01T10:00:00Z',
    }));
    await t.importRecords(community, same);
    const tiesToken = await t.token(community);
    const page = (await t.get('/admin/v0/calendar_events?time_filter=past', tiesToken)).json().data;
    expect(page.records).toEqual([]);
    const all = (await t.get('/admin/v0/calendar_events', tiesToken))
      .json()
      .data.records.map((r: { id: string }) => r.id);
    expect(all).toEqual(['evtie0000001', 'evtie0000002', 'evtie0000003']);
    t.clock.now = Date.parse('2026-06-01T00:00:00Z');
    try {
      const past = (await t.get('/admin/v0/calendar_events?time_filter=past', tiesToken))
        .json()
        .data.records.map((r: { id: string }) => r.id);
      expect(past).toEqual(['evtie0000003', 'evtie0000002', 'evtie0000001']);
    } finally {
      t.clock.now = Date.parse('2026-03-10T12:00:00Z');
    }
  });

  it('shows a speaker imported as a whole object the same as a host named by id', async () => {
    const event = (await t.get('/admin/v0/calendar_events/evdstcross01', token)).json().data;
    expect(event.speakers[0]).toEqual(event.hosts[0]);
    expect(event.speakers[0].email).toBe(ada.email);
  });
});
