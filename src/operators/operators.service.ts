// Console operators: created on the command line, signed in by one-time links (15 minutes, single use), kept signed
// in by server-side sessions (revocable). Secrets leave once; the store keeps their SHA-256 (lib/secret-hash.ts).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { findCommunityBySlug } from '../communities/communities.repository.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { hashSecret } from '../lib/secret-hash.js';
import { toStored } from '../lib/timestamps.js';
import {
  communitiesOf,
  deleteOperator,
  deleteSession,
  deleteSessionsOf,
  findOperatorByEmail,
  findSignedIn,
  insertLink,
  insertOperator,
  insertSession,
  listOperators,
  sessionsOf,
  touchSession,
  useLink,
} from './operators.repository.js';

/** A sign-in link is good this long, once. */
export const LINK_LIFETIME_MS = 15 * 60_000;
/** A session lasts at most this long from sign-in, however active; then the operator asks for a new link. */
export const SESSION_LIFETIME_MS = 12 * 3_600_000;
/** Within that, a session left unused this long ends (each use starts the window again). */
export const SESSION_IDLE_MS = 2 * 3_600_000;
/**
 * A session's use is written at most this often: a page reads its session in one statement, and one in a minute
 * also writes. The idle window is thus kept to within this much (a session ends between 1 h 59 and 2 h unused).
 */
export const SESSION_TOUCH_MS = 60_000;

export class OperatorError extends Error {}

/** Who a console request acts for: the operator and the communities they may manage. */
export interface SignedIn {
  operatorId: string;
  email: string;
  /** The SHA-256 of the session's secret (sign-out deletes it). */
  sessionHash: string;
  communities: { id: string; slug: string; name: string }[];
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function normalEmail(email: string): string {
  const key = email.trim().toLowerCase();
  if (!emailPattern.test(key) || key.length > 254) throw new OperatorError(`Invalid e-mail '${email}'.`);
  return key;
}

const newSecret = (prefix: string) => prefix + randomBytes(32).toString('base64url');

export function createOperatorsService(db: Kysely<Database>, clock: Clock = systemClock) {
  async function operatorNamed(email: string) {
    const operator = await findOperatorByEmail(db, normalEmail(email));
    if (!operator) throw new OperatorError(`No operator with e-mail '${email.trim()}'.`);
    return operator;
  }

  async function newLink(operatorId: string): Promise<string> {
    const secret = newSecret('hsl_');
    const now = clock();
    await insertLink(db, {
      secret_hash: hashSecret(secret),
      operator_id: operatorId,
      created_at: toStored(now),
      expires_at: toStored(now + LINK_LIFETIME_MS),
    });
    return secret;
  }

  return {
    /** A new operator, and the secret of a first sign-in link. */
    async create(email: string, communitySlugs: readonly string[]): Promise<{ id: string; link: string }> {
      const key = normalEmail(email);
      if (await findOperatorByEmail(db, key)) throw new OperatorError(`An operator '${key}' already exists.`);
      const ids: string[] = [];
      for (const slug of new Set(communitySlugs)) {
        const community = await findCommunityBySlug(db, slug);
        if (!community) throw new OperatorError(`No community with slug '${slug}'.`);
        ids.push(community.id);
      }
      const id = newUuid();
      await insertOperator(db, { id, email: key, created_at: toStored(clock()) }, ids);
      return { id, link: await newLink(id) };
    },

    /** A new sign-in link for an operator (earlier unused ones stay good until they expire). */
    async link(email: string): Promise<string> {
      return newLink((await operatorNamed(email)).id);
    },

    async list() {
      const operators = await listOperators(db);
      const now = clock();
      const live = (s: { expires_at: string; last_seen_at: string }) =>
        s.expires_at > toStored(now) && s.last_seen_at > toStored(now - SESSION_IDLE_MS);
      return Promise.all(
        operators.map(async (o) => ({
          ...o,
          communities: (await communitiesOf(db, o.id)).map((c) => c.slug),
          sessions: (await sessionsOf(db, o.id)).filter(live).length,
        })),
      );
    },

    async remove(email: string): Promise<void> {
      await deleteOperator(db, (await operatorNamed(email)).id);
    },

    async sessions(email: string) {
      return sessionsOf(db, (await operatorNamed(email)).id);
    },

    /** Signs every session of the operator out; how many there were. */
    async revokeSessions(email: string): Promise<number> {
      return deleteSessionsOf(db, (await operatorNamed(email)).id);
    },

    /** Uses a sign-in link: a new session's secret, or null when the link is unknown, used or expired. */
    async redeem(linkSecret: string): Promise<string | null> {
      if (!linkSecret.startsWith('hsl_') || linkSecret.length > 100) return null;
      const now = clock();
      const operatorId = await useLink(db, hashSecret(linkSecret), toStored(now));
      if (operatorId === undefined) return null;
      const secret = newSecret('hss_');
      await insertSession(db, {
        id_hash: hashSecret(secret),
        operator_id: operatorId,
        created_at: toStored(now),
        expires_at: toStored(now + SESSION_LIFETIME_MS),
        last_seen_at: toStored(now),
      });
      return secret;
    },

    /**
     * The operator of a live session, with the communities they may manage; null when signed out, expired or idle.
     * One statement reads it all, so revoking a session (a deleted row) is seen by the next request.
     */
    async signedIn(sessionSecret: string): Promise<SignedIn | null> {
      if (!sessionSecret.startsWith('hss_') || sessionSecret.length > 100) return null;
      const sessionHash = hashSecret(sessionSecret);
      const now = clock();
      const rows = await findSignedIn(db, sessionHash, toStored(now), toStored(now - SESSION_IDLE_MS));
      const first = rows[0];
      if (!first) return null;
      if (first.last_seen_at < toStored(now - SESSION_TOUCH_MS)) await touchSession(db, sessionHash, toStored(now));
      const communities: SignedIn['communities'] = [];
      for (const row of rows)
        if (row.community_id !== null && row.slug !== null && row.name !== null)
          communities.push({ id: row.community_id, slug: row.slug, name: row.name });
      return { operatorId: first.operator_id, email: first.email, sessionHash, communities };
    },

    signOut: (sessionHash: string) => deleteSession(db, sessionHash),
  };
}
export type OperatorsService = ReturnType<typeof createOperatorsService>;
