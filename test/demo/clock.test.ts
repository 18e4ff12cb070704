import { describe, expect, it } from 'vitest';
import { isoInZone, localDate, messageTs, moment, permalink, wire, zonedInstant } from '../../src/demo/clock.js';
import { Random } from '../../src/demo/random.js';
import { formatInZone } from '../../src/lib/time-zone.js';
import { toStored, toWire } from '../../src/lib/timestamps.js';

const ZONES = [
  'America/Los_Angeles',
  'America/New_York',
  'Europe/Berlin',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Asia/Kolkata',
  'UTC',
];

describe('demo clock', () => {
  it('formats wire timestamps exactly as the library does', () => {
    const random = new Random(42);
    for (let i = 0; i < 2000; i++) {
      const ms = Date.UTC(2025, 0, 1) + random.int(500 * 86_400_000);
      const micros = random.int(1000);
      expect(wire(moment(ms, micros))).toEqual(toWire(toStored(ms, micros)));
    }
    expect(wire(Date.UTC(2026, 2, 8, 10, 0, 0, 5))).toEqual('2026-03-08 10:00:00.005000+00');
  });

  it('renders event dates as the library does, across the 2026 daylight-saving changes', () => {
    for (const zone of ZONES) {
      // Every quarter hour from 2026-03-01 to 2026-04-10 covers the US, EU and Sydney transitions.
      for (let ms = Date.UTC(2026, 2, 1); ms < Date.UTC(2026, 3, 10); ms += 15 * 60_000 + 7_000) {
        expect(isoInZone(ms, zone)).toEqual(formatInZone(ms, zone));
      }
    }
    expect(isoInZone(Date.UTC(2026, 2, 8, 10), null)).toEqual('2026-03-08T10:00:00+00:00');
  });

  it('finds the instant a wall clock shows, on both sides of a change', () => {
    expect(new Date(zonedInstant('America/Los_Angeles', 2026, 3, 7, 20)).toISOString()).toEqual(
      '2026-03-08T04:00:00.000Z',
    );
    expect(new Date(zonedInstant('America/Los_Angeles', 2026, 3, 8, 6)).toISOString()).toEqual(
      '2026-03-08T13:00:00.000Z',
    );
    expect(new Date(zonedInstant('Asia/Kolkata', 2026, 3, 8, 9, 30)).toISOString()).toEqual('2026-03-08T04:00:00.000Z');
    expect(localDate('Asia/Tokyo', Date.UTC(2026, 2, 8, 20))).toEqual({ year: 2026, month: 3, day: 9 });
  });

  it('writes message timestamps and permalinks the way the chat product does', () => {
    const at = moment(Date.UTC(2026, 0, 1, 0, 0, 0, 123), 456);
    expect(messageTs(at)).toEqual(1767225600.123456);
    expect(permalink('C0ABCDEFGHI', at)).toEqual(
      'https://hearth-demo.chat.example/archives/C0ABCDEFGHI/p1767225600123456',
    );
    expect(permalink('C0ABCDEFGHI', moment(Date.UTC(2026, 0, 1, 0, 1), 0), at)).toEqual(
      'https://hearth-demo.chat.example/archives/C0ABCDEFGHI/p1767225660000000?thread_ts=1767225600.123456&cid=C0ABCDEFGHI',
    );
  });
});
