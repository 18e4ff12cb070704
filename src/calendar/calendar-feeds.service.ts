// Subscribe URLs of a community's calendar: created with a random secret (256 bits, shown once), listed without
// it, revoked; a request's secret is looked up by its hash.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { hashSecret } from '../lib/secret-hash.js';
import { toStored, toWire } from '../lib/timestamps.js';
import {
  findLiveCalendarFeed,
  insertCalendarFeed,
  listCalendarFeeds,
  revokeCalendarFeed,
} from './calendar-feeds.repository.js';

/** Refusals of the subscription commands (an unknown feed or subscription), said as they are. */
export class CalendarFeedError extends Error {}

const SECRET_PREFIX = 'hcal_';
/** What a secret in a subscribe URL looks like: the prefix and 32 random bytes in base64url. */
export const CALENDAR_SECRET = /^hcal_[A-Za-z0-9_-]{43}$/;

/** The path of a subscription's calendar, under the server's address. */
export const calendarPath = (secret: string): string => `/calendar/${secret}.ics`;

export interface CalendarSubscription {
  id: string;
  feed_id: string | null;
  created_at: string;
  revoked_at: string | null;
}

export function createCalendarFeedsService(db: Kysely<Database>, clock: Clock) {
  return {
    /** A new subscription of the community (of one of its feeds when `feedId` is given) and its secret. */
    async create(communityId: string, feedId: string | null): Promise<CalendarSubscription & { secret: string }> {
      if (feedId !== null) {
        const feed = await db
          .selectFrom('feeds')
          .select('id')
          .where('community_id', '=', communityId)
          .where('id', '=', feedId)
          .executeTakeFirst();
        if (!feed) throw new CalendarFeedError(`No feed '${feedId}' in this community.`);
      }
      const secret = `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
      const row = {
        id: newUuid(),
        community_id: communityId,
        feed_id: feedId,
        secret_hash: hashSecret(secret),
        created_at: toStored(clock()),
        revoked_at: null,
      };
      await insertCalendarFeed(db, row);
      return { id: row.id, feed_id: feedId, created_at: toWire(row.created_at), revoked_at: null, secret };
    },

    async list(communityId: string): Promise<CalendarSubscription[]> {
      const rows = await listCalendarFeeds(db, communityId);
      return rows.map((row) => ({
        id: row.id,
        feed_id: row.feed_id,
        created_at: toWire(row.created_at),
        revoked_at: toWire(row.revoked_at),
      }));
    },

    async revoke(communityId: string, id: string): Promise<void> {
      if (!(await revokeCalendarFeed(db, communityId, id, toStored(clock()))))
        throw new CalendarFeedError(`No live calendar subscription '${id}' in this community.`);
    },

    /** The community and feed a secret opens, or undefined (unknown, malformed or revoked). */
    async open(secret: string): Promise<{ communityId: string; feedId: string | null } | undefined> {
      if (!CALENDAR_SECRET.test(secret)) return undefined;
      const row = await findLiveCalendarFeed(db, hashSecret(secret));
      return row ? { communityId: row.community_id, feedId: row.feed_id } : undefined;
    },
  };
}
export type CalendarFeedsService = ReturnType<typeof createCalendarFeedsService>;
