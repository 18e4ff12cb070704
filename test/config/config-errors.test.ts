// A bad setting stops Hearth with a message naming the variable, the value it got (a secret by its length only)
// and what is allowed, taken from the config schema.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { main } from '../../src/cli/main.js';

const message = (env: NodeJS.ProcessEnv) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return 'no error';
};

describe('config errors', () => {
  it('a level pino does not know lists the levels', () => {
    expect(message({ LOG_LEVEL: 'verbose' })).toBe(
      "Invalid configuration: LOG_LEVEL: got 'verbose'; allowed: one of fatal, error, warn, info, debug, trace, silent",
    );
  });

  it('a log format Hearth does not write lists the three it does', () => {
    expect(message({ LOG_FORMAT: 'text' })).toBe(
      "Invalid configuration: LOG_FORMAT: got 'text'; allowed: one of auto, json, pretty",
    );
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({}).logFormat).toBe('auto');
  });

  it('a short METRICS_TOKEN gives its length, never its value', () => {
    expect(message({ METRICS_TOKEN: '0123456789' })).toBe(
      'Invalid configuration: METRICS_TOKEN: got 10 characters (not shown); allowed: 16 characters or more, or unset',
    );
  });

  it('numbers, booleans and lists say their bounds and forms; several bad settings are each named', () => {
    expect(
      message({ PORT: '70000', TRUST_PROXY: 'yes', DATABASE_POOL_SIZE: 'ten', CORS_ORIGINS: 'events.example.com/' }),
    ).toBe(
      [
        "Invalid configuration: PORT: got '70000'; allowed: a whole number from 0 to 65535",
        "DATABASE_POOL_SIZE: got 'ten'; allowed: a whole number from 1 to 1000",
        "TRUST_PROXY: got 'yes'; allowed: true or false",
        "CORS_ORIGINS: got 'events.example.com/'; allowed: * or origins such as https://events.example.com (scheme and host, no path), comma-separated",
      ].join('; '),
    );
  });

  it('the command prints the message alone and exits 2', async () => {
    const err: string[] = [];
    const code = await main(
      ['community', 'list'],
      { out: () => {}, err: (text) => err.push(text) },
      {
        LOG_LEVEL: 'verbose',
        METRICS_TOKEN: 'short-secret',
      },
    );
    expect([code, err]).toEqual([
      2,
      [
        "Invalid configuration: LOG_LEVEL: got 'verbose'; allowed: one of fatal, error, warn, info, debug, trace, silent; METRICS_TOKEN: got 12 characters (not shown); allowed: 16 characters or more, or unset",
      ],
    ]);
    expect(err.join('\n')).not.toContain('short-secret');
  });
});
