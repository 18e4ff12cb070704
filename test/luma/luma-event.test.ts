// Luma's documented example payloads (its OpenAPI document's examples of `GET /v1/events/get` and of an entry of
// `GET /v1/calendars/events/list`, as published) mapped field by field: what the pull keeps of each field, and why
// each placeholder is kept or dropped.
import { describe, expect, it } from 'vitest';
import { hostsOf, mapLumaEvent } from '../../src/luma/luma-event.js';
import { lumaEvent } from '../helpers/luma-stand-in.js';

/** `GET /v1/events/get`'s documented example, every field as the document gives it. */
const documentedGet = {
  platform: 'string',
  id: 'string',
  user_id: 'string',
  calendar_id: 'string',
  start_at: '2024-01-01T00:00:00Z',
  duration_interval: 'string',
  end_at: '2024-01-01T00:00:00Z',
  created_at: '2024-01-01T00:00:00Z',
  timezone: 'string',
  name: 'string',
  description: 'string',
  description_md: 'string',
  geo_address_json: {
    address: 'string',
    city: 'string',
    region: 'string',
    country: 'string',
    city_state: 'string',
    full_address: 'string',
    google_maps_place_id: 'string',
    apple_maps_place_id: 'string',
    description: 'string',
  },
  coordinate: { longitude: 0, latitude: 0 },
  meeting_url: 'string',
  location_type: 'discord',
  location_visibility: 'public',
  cover_url: 'string',
  registration_questions: [{ id: 'string', label: 'string', required: true, question_type: 'string' }],
  url: 'string',
  visibility: 'public',
  waitlist_status: 'disabled',
  feedback_email: { enabled: true, delay: 'string' },
  hosts: [
    { id: 'string', email: 'string', name: 'string', first_name: 'string', last_name: 'string', avatar_url: 'string' },
  ],
};

/** An entry of `GET /v1/calendars/events/list`'s documented example. */
const documentedListEntry = {
  platform: 'string',
  id: 'string',
  user_id: 'string',
  calendar_id: 'string',
  start_at: '2024-01-01T00:00:00Z',
  duration_interval: 'string',
  end_at: '2024-01-01T00:00:00Z',
  created_at: '2024-01-01T00:00:00Z',
  timezone: 'string',
  name: 'string',
  description: 'string',
  description_md: 'string',
  geo_address_json: null,
  coordinate: null,
  meeting_url: null,
  location_type: 'discord',
  location_visibility: 'public',
  cover_url: 'string',
  registration_questions: [null],
  url: 'string',
  visibility: 'public',
  waitlist_status: 'disabled',
  feedback_email: { enabled: null, delay: null },
  tags: [{ id: null, name: null }],
};

describe("Luma's documented examples", () => {
  it('map /v1/events/get field by field; a start equal to the end is an event without an end', () => {
    expect(mapLumaEvent(documentedGet)).toEqual({
      lumaId: 'string',
      title: 'string',
      startAt: '2024-01-01 00:00:00.000000',
      // Equal to the start: no end, as `hearth calendar import` reads a DTEND equal to the DTSTART.
      endAt: null,
      // Not an IANA zone: the event is answered in UTC.
      timeZone: null,
      // Not http(s) URLs: no link, no cover.
      link: null,
      location: 'string',
      coverImageUrl: null,
      description: 'string',
      isUnlisted: false,
    });
    // A host is matched by e-mail: one without an e-mail address is skipped.
    expect(hostsOf(documentedGet)).toEqual([]);
  });

  it('map an entry of /v1/calendars/events/list field by field: no address and no meeting URL, no location', () => {
    const fromGet = mapLumaEvent(documentedGet);
    if (typeof fromGet === 'string') throw new Error(fromGet);
    expect(mapLumaEvent(documentedListEntry)).toEqual({ ...fromGet, location: null });
    expect(hostsOf(documentedListEntry)).toEqual([]);
  });

  it('keep each documented field a real event fills, and refuse an end before the start', () => {
    const real = lumaEvent('evt-rust0001');
    // The stand-in's event carries every field of the documented example, and the list's tags.
    expect(Object.keys(real).sort()).toEqual([...Object.keys(documentedGet), 'tags'].sort());
    expect(Object.keys(real['geo_address_json'] as object)).toEqual(Object.keys(documentedGet.geo_address_json));
    expect(mapLumaEvent(real)).toEqual({
      lumaId: 'evt-rust0001',
      title: 'Rust meetup',
      startAt: '2030-03-12 17:00:00.000000',
      endAt: '2030-03-12 19:00:00.000000',
      timeZone: 'America/Los_Angeles',
      link: 'https://luma.com/rust0001',
      location: '548 Market St, San Francisco, CA 94104, USA',
      coverImageUrl: 'https://images.lumacdn.com/event-covers/rust.png',
      description: '**Talks** and pizza.\n\n- Async Rust\n- Embedded',
      isUnlisted: false,
    });
    expect(hostsOf(real)).toEqual([
      {
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        name: 'Ada Lovelace',
        avatarUrl: 'https://images.lumacdn.com/avatars/ada.png',
      },
    ]);
    expect(mapLumaEvent({ ...real, end_at: '2030-03-12T16:59:59.000Z' })).toBe('evt-rust0001 ends before it starts');
  });
});
