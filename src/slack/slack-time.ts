// Slack's `ts` ("1700000000.000100": seconds and microseconds, also a message's key in its channel) and its epoch
// seconds, as timestamps the import takes.
import { toStored, toWire } from '../lib/timestamps.js';

const TS = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** Whether a value is a message `ts` Hearth can key and date a message by. */
export const isSlackTs = (value: unknown): value is string => typeof value === 'string' && TS.test(value);

/** The wire timestamp of a `ts`, to the microsecond. */
export function stampOfTs(ts: string): string {
  const [, seconds = '0', fraction = ''] = TS.exec(ts) ?? [];
  const micros = Number(fraction.padEnd(6, '0'));
  return toWire(toStored(Number(seconds) * 1000 + Math.floor(micros / 1000), micros % 1000));
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
