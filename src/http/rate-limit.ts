// Per-token rate limits (per client address before a token is known), in memory or shared through Redis.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import { bearerHash, bearerSecret } from './auth.js';

export async function registerRateLimit(app: FastifyInstance, perSecond: number, redis: Redis | null): Promise<void> {
  await app.register(rateLimit, {
    // Not per route: the plugin's route hooks would run after authentication, so refused tokens went uncounted
    // and their answers lacked RateLimit-*. One instance hook, added below before auth, counts every request.
    global: false,
    max: perSecond,
    timeWindow: 1000,
    enableDraftSpec: true,
    // Redis being away must not take the API down with it: requests pass uncounted until it returns.
    ...(redis ? { redis, nameSpace: 'hearth:rl:', skipOnError: true } : {}),
    keyGenerator: (request) => {
      const secret = bearerSecret(request);
      return secret ? `t:${bearerHash(request, secret)}` : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Rate limit of ${context.max} requests per second exceeded; retry in ${context.after}.`),
  });
  app.addHook('onRequest', app.rateLimit());
}
