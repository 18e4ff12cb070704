// An instant that ical-generator writes as the wall time of an IANA zone (`DTSTART;TZID=…:20260308T100000`).
//
// ical-generator formats a zoned time from a TZDate (@date-fns/tz) or a Temporal value; a plain Date it reads
// with the process's own zone. Neither TZDate nor Temporal is installed, so this is the smallest value of the
// library's `ICalTZDateStub` shape: a Date whose calendar getters answer in its zone (offsets from Intl, as the
// JSON API's `start_date` takes them, lib/time-zone.ts).
import { offsetMinutesAt } from '../lib/time-zone.js';

export class ZonedDate extends Date {
  /** Read by ical-generator to recognise the TZDate shape. */
  readonly internal: Date;
  private readonly wall: Date;

  constructor(
    epochMs: number,
    readonly timeZone: string,
  ) {
    super(epochMs);
    this.internal = new Date(epochMs);
    this.wall = new Date(epochMs + offsetMinutesAt(timeZone, epochMs) * 60_000);
  }

  withTimeZone(timeZone?: string | null): ZonedDate {
    return new ZonedDate(this.getTime(), timeZone ?? this.timeZone);
  }

  tzComponents(): { year: number; month: number; date: number; hours: number; minutes: number; seconds: number } {
    return {
      year: this.getFullYear(),
      month: this.getMonth(),
      date: this.getDate(),
      hours: this.getHours(),
      minutes: this.getMinutes(),
      seconds: this.getSeconds(),
    };
  }

  override getFullYear(): number {
    return this.wall.getUTCFullYear();
  }
  override getMonth(): number {
    return this.wall.getUTCMonth();
  }
  override getDate(): number {
    return this.wall.getUTCDate();
  }
  override getHours(): number {
    return this.wall.getUTCHours();
  }
  override getMinutes(): number {
    return this.wall.getUTCMinutes();
  }
  override getSeconds(): number {
    return this.wall.getUTCSeconds();
  }
}
