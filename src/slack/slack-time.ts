// Slack's `ts` ("1700000000.000100": seconds and microseconds, also a message's key in its channel) and its epoch
// seconds, as timestamps the import takes.
import { toStored, toWire } from '../lib/timestamps.js';

const TS = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** Whether a value is a message `ts` Hearth can key and date a message by. */
export const isSlackTs = (value: unknown): value is string => typeof value === 'string' && TS.test(value);

/** The last day a `ts` fell on (days since the epoch) and its date as stored (`YYYY-MM-DD`). */
let lastDay = { day: Number.NaN, date: '' };
/** The last second toStored writes (9999-12-31 23:59:59); later ones it clamps. */
const LAST_SECOND = 253_402_300_799;

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * The wire timestamp of a `ts`, to the microsecond: toStored's text, its date made once per day and its time of day
 * and microseconds written from the `ts` itself. A Date per message took a sixtieth of a Slack import's reading.
 */
export function stampOfTs(ts: string): string {
  const [, seconds = '0', fraction = ''] = TS.exec(ts) ?? [];
  const micros = fraction.padEnd(6, '0');
  const epoch = Number(seconds);
  if (epoch > LAST_SECOND)
    return toWire(toStored(epoch * 1000 + Math.floor(Number(micros) / 1000), Number(micros) % 1000));
  const day = Math.floor(epoch / 86_400);
  if (day !== lastDay.day) lastDay = { day, date: toStored(day * 86_400_000).slice(0, 10) };
  const second = epoch - day * 86_400;
  const time = `${two(Math.floor(second / 3600))}:${two(Math.floor(second / 60) % 60)}:${two(second % 60)}`;
  return `${lastDay.date} ${time}.${micros}+00`;
}

/**
 * The wire timestamp of epoch seconds (a channel's `created`, a user's `updated`), or undefined without one. Older
 * exports write them as strings of digits.
 */
export function stampOfSeconds(value: unknown): string | undefined {
  const seconds = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? toWire(toStored(seconds * 1000))
    : undefined;
}

/** Orders `ts` values as numbers would, without losing their microseconds. */
export function compareTs(a: string, b: string): number {
  const [as = '0', af = ''] = a.split('.');
  const [bs = '0', bf = ''] = b.split('.');
  return Number(as) - Number(bs) || Number(af.padEnd(6, '0')) - Number(bf.padEnd(6, '0'));
}
