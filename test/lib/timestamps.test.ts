// The wire form's shortcut to the stored form agrees with the general parse, at every edge it checks.
import { describe, expect, it } from 'vitest';
import { parseInstant, storedFromInput, toStored } from '../../src/lib/timestamps.js';

/** The stored form through the general parse alone, as storedFromInput gave it before its shortcut. */
const general = (input: string): string | null => {
  const parsed = parseInstant(input);
  return parsed ? toStored(parsed.epochMs, parsed.extraMicros) : null;
};

describe('storedFromInput', () => {
  it('gives wire timestamps the stored form the general parse gives', () => {
    const inputs = [
      '2024-01-01 01:30:00.000010+00',
      '2024-02-29 23:59:59.999999+00',
      '2023-02-29 00:00:00.000000+00',
      '2100-02-29 00:00:00.000000+00',
      '2000-02-29 12:00:00.123456+00',
      '2024-04-31 00:00:00.000000+00',
      '2024-13-01 00:00:00.000000+00',
      '2024-00-10 00:00:00.000000+00',
      '2024-01-00 00:00:00.000000+00',
      '2024-01-01 24:00:00.000000+00',
      '2024-01-01 00:60:00.000000+00',
      '2024-01-01 00:00:60.000000+00',
      '0999-06-01 00:00:00.000000+00',
      '0050-06-01 00:00:00.000000+00',
      '0000-01-01 00:00:00.000000+00',
      '1000-01-01 00:00:00.000000+00',
      '9999-12-31 23:59:59.999999+00',
      ' 2024-01-01 01:30:00.000010+00',
      '2024-01-01 01:30:00.000010+01',
    ];
    for (const input of inputs) expect([input, storedFromInput(input)]).toEqual([input, general(input)]);
  });
});
