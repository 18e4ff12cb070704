// Durations as the command line and the config take them: `30d`, `12h`, `15m`, `1w`, `45s`.

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** What a duration looks like, for the config's schema too. */
export const DURATION_PATTERN = '^\\d{1,6}[smhdw]$';

export class DurationError extends Error {}

/**
 * `30d`, `12h`, `90m`, `1w` -> milliseconds; a positive whole number and a unit, nothing else.
 * Hand-written on purpose: `ms`, the usual library, reads `30` as 30 milliseconds and accepts `1.5h`,
 * `-1d` and `0s`, so it would still need this same pattern in front of it to refuse them.
 */
export function parseDuration(text: string): number {
  const match = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  const unit = match?.[2] ? units[match[2]] : undefined;
  const count = Number(match?.[1]);
  if (!match || unit === undefined || count === 0) {
    throw new DurationError(
      `Invalid duration '${text}': use a positive whole number and one of s, m, h, d, w (e.g. 30d).`,
    );
  }
  return count * unit;
}
