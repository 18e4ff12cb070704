// Request loggers made on first use write exactly the lines of Fastify's own request children, at every level,
// and make no child for a request that writes nothing at the logger's level.
import Fastify, { LogController } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { requestLogger } from '../../src/http/request-logger.js';

/** One request to an app logging at `level`, with Fastify's children or the ones made on first use. */
async function logged(level: string, lazy: boolean, quiet = false) {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    genReqId: () => 'req-1',
    logController: new LogController({ disableRequestLogging: quiet }),
    ...(lazy ? { childLoggerFactory: requestLogger } : {}),
  });
  app.get('/', async (request) => {
    if (quiet) {
      request.log.info('not written at warn');
      return { level: request.log.level };
    }
    request.log.trace('trace line');
    request.log.debug({ part: 1 }, 'debug line');
    request.log.info({ part: 2 }, 'info line');
    request.log.warn('warn line %s', 'formatted');
    request.log.error({ err: new Error('boom') }, 'error line');
    request.log.child({ step: 'inner' }).fatal('child line');
    return { level: request.log.level };
  });
  await app.ready();
  const children = vi.spyOn(app.log, 'child');
  const answer = await app.inject({ method: 'GET', url: '/' });
  const made = children.mock.calls.length;
  await app.close();
  return {
    body: answer.json(),
    made,
    lines: lines.map(
      ({ time, responseTime, err, ...rest }): Record<string, unknown> => ({
        ...rest,
        timed: typeof time === 'number',
        err: err === undefined ? undefined : (err as { message: string }).message,
      }),
    ),
  };
}

describe('request loggers made on first use', () => {
  it.each(['trace', 'debug', 'info', 'warn', 'error', 'fatal'])(
    'write the same lines as Fastify at %s',
    async (level) => {
      const lazy = await logged(level, true);
      const eager = await logged(level, false);
      expect(lazy.lines).toEqual(eager.lines);
      expect(lazy.body).toEqual({ level });
      expect(lazy.lines.length).toBeGreaterThan(0);
      expect(lazy.lines.every((line) => line['reqId'] === 'req-1')).toBe(true);
    },
  );

  it('make no child for a request that writes nothing at the level', async () => {
    const lazy = await logged('warn', true, true);
    const eager = await logged('warn', false, true);
    expect([lazy.made, lazy.lines, lazy.body]).toEqual([0, [], { level: 'warn' }]);
    expect([eager.made, eager.lines]).toEqual([1, []]);
  });
});
