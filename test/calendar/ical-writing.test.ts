// The calendar's own writing (ical-feed.ts writeCalendar, foldLines) against ical-generator's `calendar.toString()`:
// the same bytes for any document, long and non-ASCII lines and every zone included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CalendarEventRow, TombstoneRow } from '../../src/calendar/calendar.reads.js';
import { calendarOf, foldLines, writeCalendar, type CalendarDocument } from '../../src/calendar/ical-feed.js';
import { toStored } from '../../src/lib/timestamps.js';

const ZONES = [
  null,
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Nowhere/Atlantis',
];
// Text with what folding must count: ASCII, 2- and 3-octet characters, surrogate pairs, lone surrogates, escapes.
const piece = fc.constantFrom(
  'a',
  'word ',
  'é',
  'ß',
  '€',
  '東京',
  '😀',
  '👩‍💻',
  '\ud800',
  '\udc00',
  ';',
  ',',
  '\\',
  '\n',
  'x@y.org ',
);
const text = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));
const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });

const event = fc.record({
  id: fc.stringMatching(/^[a-z0-9]{12}$/),
  start: instant,
  hours: fc.option(fc.integer({ min: 0, max: 72 })),
  zone: fc.constantFrom(...ZONES),
  title: text,
  description: text,
  location: fc.option(text),
  link: fc.option(fc.constant('https://example.com/e?a=1&b=two')),
  sequence: fc.integer({ min: 0, max: 99 }),
});

type DrawnEvent = typeof event extends fc.Arbitrary<infer T> ? T : never;

const rowOf = (e: DrawnEvent): CalendarEventRow =>
  ({
    id: e.id,
    sequence: e.sequence,
    start_at: toStored(e.start),
    end_at: e.hours === null ? null : toStored(e.start + e.hours * 3_600_000),
    time_zone: e.zone,
    created_at: toStored(e.start - 86_400_000),
    updated_at: toStored(e.start - 3_600_000),
    title: e.title,
    description_chat_blocks: JSON.stringify([
      {
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: e.description }] }],
      },
    ]),
    location: e.location,
    link: e.link,
  }) as unknown as CalendarEventRow;

const tombstoneOf = (e: DrawnEvent): TombstoneRow =>
  ({
    event_id: e.id,
    sequence: e.sequence + 1,
    start_at: toStored(e.start),
    end_at: null,
    time_zone: e.zone,
    title: e.title,
    removed_at: toStored(e.start),
  }) as unknown as TombstoneRow;

const document = fc.record({
  name: text,
  events: fc.array(event, { maxLength: 12 }),
  tombstones: fc.array(event, { maxLength: 4 }),
  public: fc.boolean(),
});

describe('writing a calendar', () => {
  it('writes exactly the bytes ical-generator writes, for any document', () => {
    fc.assert(
      fc.property(document, (d) => {
        const doc: CalendarDocument = {
          name: d.name,
          communityId: 'c1',
          events: d.events.map(rowOf),
          tombstones: d.tombstones.map(tombstoneOf),
          public: d.public,
        };
        expect(writeCalendar(calendarOf(doc))).toBe(calendarOf(doc).toString());
      }),
      { numRuns: 1000 },
    );
  });

  it('folds lines at 75 octets without splitting a character', () => {
    expect(foldLines(`SUMMARY:${'a'.repeat(66)}`)).toBe(`SUMMARY:${'a'.repeat(66)}`);
    expect(foldLines(`SUMMARY:${'a'.repeat(67)}`)).toBe(`SUMMARY:${'a'.repeat(66)}\r\n a`);
    // 72 octets, then a 4-octet pair that would make 76: it moves whole to the next line.
    expect(foldLines(`X:${'a'.repeat(70)}😀b`)).toBe(`X:${'a'.repeat(70)}\r\n 😀b`);
    expect(foldLines(`X:${'é'.repeat(40)}`)).toBe(`X:${'é'.repeat(36)}\r\n ${'é'.repeat(4)}`);
    expect(foldLines('A:1\r\nB:2')).toBe('A:1\r\nB:2');
    // A lone high surrogate takes the next unit with it: 6 octets, and the pair's low half left alone is 3 more.
    const odd = `X:${'a'.repeat(64)}\ud800😀`;
    expect(foldLines(odd)).toBe(`X:${'a'.repeat(64)}\ud800\ud83d\r\n \ude00`);
  });
});
