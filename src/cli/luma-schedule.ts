// `hearth serve --luma-pull-every 15m`: the Luma pull repeated inside the server (lib/repeat-every.ts), the first at
// start; each run logged, a failed one logged and the next still made.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from '../lib/clock.js';
import { repeatEvery, type Repeating } from '../lib/repeat-every.js';
import { describePull, runLumaPull } from './luma.command.js';

export function startLumaSchedule(
  app: FastifyInstance,
  config: Config,
  clock: Clock,
  luma: { everyMs: number; slug: string; apiKey: string },
): Repeating {
  return repeatEvery(
    async (signal) => {
      const result = await runLumaPull(app.store, config, clock, { slug: luma.slug, apiKey: luma.apiKey, signal });
      app.log.info({ luma: result }, describePull(luma.slug, result));
    },
    {
      everyMs: luma.everyMs,
      runAtStart: true,
      onError: (error) =>
        app.log.error({ err: error }, `Luma pull into '${luma.slug}' failed; the next runs as scheduled`),
    },
  );
}
