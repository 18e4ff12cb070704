// Signing in with a one-time link (`hearth operator create|link` prints it) and signing out. Following the link
// shows a button: the link is used by the POST it sends, so a mail scanner that fetches links cannot spend it.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import type { ConsoleDeps } from './console-deps.js';
import { page } from './render.js';
import { CONSOLE_PATH, endSession, notify, startSession } from './session.js';

/** Sign-in attempts per client address per minute. */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;

const SignInQuery = Type.Object({ link: Type.Optional(Type.String({ maxLength: 200 })) });
const SignInBody = Type.Object({ link: Type.String({ maxLength: 200 }), _csrf: Type.String({ maxLength: 200 }) });
const signedOut = { signedOut: true } as const;

/** The link's secret, whether the whole address was pasted or only its code. */
function linkSecretOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.includes('link=')) return trimmed;
  try {
    return new URL(trimmed, 'http://localhost').searchParams.get('link') ?? trimmed;
  } catch {
    return trimmed;
  }
}

export const signInRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operators, signInCounter }) => {
  app.get('/sign-in', { config: signedOut, schema: { hide: true, querystring: SignInQuery } }, async (request, reply) =>
    page(request, reply, 'sign-in', { title: 'Sign in', link: request.query.link ?? null }),
  );

  app.post('/sign-in', { config: signedOut, schema: { hide: true, body: SignInBody } }, async (request, reply) => {
    const count = await signInCounter.hit(`s:${request.ip}`);
    if (count.count > SIGN_IN_ATTEMPTS_PER_MINUTE) {
      const seconds = Math.max(1, Math.ceil((count.endsAt - performance.now()) / 1000));
      throw new AppError(
        'rate_limited',
        `Too many sign-in attempts from this address (at most ${SIGN_IN_ATTEMPTS_PER_MINUTE} a minute); retry in ${seconds} seconds.`,
        undefined,
        { 'retry-after': String(seconds) },
      );
    }
    const session = await operators.redeem(linkSecretOf(request.body.link));
    if (!session)
      return page(
        request,
        reply,
        'sign-in',
        {
          title: 'Sign in',
          link: null,
          problem: {
            message:
              'This sign-in link is unknown, already used or expired (links last 15 minutes and work once). Ask for a new one: hearth operator link --email you@example.com',
          },
        },
        400,
      );
    startSession(request, reply, session);
    return reply.redirect(CONSOLE_PATH, 303);
  });

  app.post('/sign-out', { schema: { hide: true } }, async (request, reply) => {
    if (request.operator) await operators.signOut(request.operator.sessionHash);
    endSession(request, reply);
    notify(request, reply, 'Signed out.');
    return reply.redirect(`${CONSOLE_PATH}/sign-in`, 303);
  });
};
