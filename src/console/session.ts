// The console's session: its cookie (HttpOnly, SameSite=Lax, Secure over TLS, path /console), who it signs in, and
// the community a page is about. API tokens are never read here: a console request is its cookie or nothing.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { OperatorsService, SignedIn } from '../operators/operators.service.js';
import { SESSION_LIFETIME_MS } from '../operators/operators.service.js';

export const SESSION_COOKIE = 'hearth_session';
export const NOTICE_COOKIE = 'hearth_notice';
export const CONSOLE_PATH = '/console';

declare module 'fastify' {
  interface FastifyRequest {
    operator: SignedIn | null;
  }
}

/** Lax, not Strict: a link to a console page from a chat or an e-mail opens it signed in; every change is a POST with a CSRF token. */
export const cookieOptions = (request: FastifyRequest) =>
  ({
    path: CONSOLE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    // `request.protocol` reads X-Forwarded-Proto only when TRUST_PROXY is set.
    secure: request.protocol === 'https',
  }) as const;

export function startSession(request: FastifyRequest, reply: FastifyReply, secret: string): void {
  reply.setCookie(SESSION_COOKIE, secret, { ...cookieOptions(request), maxAge: SESSION_LIFETIME_MS / 1000 });
}

export function endSession(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}

/** Reads the session cookie into `request.operator` (null when there is none, or it is signed out or expired). */
export async function readSession(request: FastifyRequest, operators: OperatorsService): Promise<void> {
  const secret = request.cookies[SESSION_COOKIE];
  request.operator = secret ? await operators.signedIn(secret) : null;
}

/** The signed-in operator; pages behind the session hook always have one. */
export function operatorOf(request: FastifyRequest): SignedIn {
  if (!request.operator) throw new AppError('unauthorized', 'Sign in to the console first.');
  return request.operator;
}

/** The community a page names by slug, when the operator may manage it (another one is not found, not forbidden). */
export function communityOf(request: FastifyRequest, slug: string) {
  const community = operatorOf(request).communities.find((c) => c.slug === slug);
  if (!community) throw new AppError('not_found', `No community '${slug}' in this console.`);
  return community;
}

/** A one-line notice the next page shows ("Member added."): Post/Redirect/Get keeps it out of the address. */
export function notify(request: FastifyRequest, reply: FastifyReply, text: string): void {
  reply.setCookie(NOTICE_COOKIE, encodeURIComponent(text), { ...cookieOptions(request), maxAge: 60 });
}

/** The notice left for this page, cleared as it is shown. */
export function takeNotice(request: FastifyRequest, reply: FastifyReply): string | null {
  const value = request.cookies[NOTICE_COOKIE];
  if (value === undefined) return null;
  reply.clearCookie(NOTICE_COOKIE, cookieOptions(request));
  try {
    return decodeURIComponent(value).slice(0, 500);
  } catch {
    return null;
  }
}
