// What applying one Slack event needs: the change it is part of, the community's connection (channels mirrored,
// the Web API when a bot token is set), the receiving app's id (its own echoes are ignored) and the work left to the
// end of the change.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Change } from '../writes/write-runner.js';
import type { JsonRecord } from '../content/loose-json.js';

/**
 * What one change has read already and may take again in its later events: the feeds of channels (a change ends
 * at a rename, the one event that changes what `mirroredFeed` reads) and the profiles found held.
 */
export interface ChangeReads {
  feeds: Map<string, Promise<MirrorFeed | undefined>>;
  profiles: Set<string>;
}

/** A feed as the mirror checks it. */
export interface MirrorFeed {
  id: string;
  label: string;
  chat_channel_name: string | null;
}

export const newChangeReads = (): ChangeReads => ({ feeds: new Map(), profiles: new Set() });

export interface LiveContext {
  trx: Kysely<Database>;
  change: Change;
  communityId: string;
  /** Channel names or ids the connection mirrors; null: every channel Hearth holds a feed of. */
  channels: readonly string[] | null;
  /** Whether the connection can read threads through the Web API (a bot token is set). */
  canFetch: boolean;
  /** Threads read for this event before its change began, by `channel:thread_ts` (messages as Slack gives them). */
  threads: ReadonlyMap<string, readonly JsonRecord[]>;
  /** The workspace's domain (`acme` of acme.slack.com) the connection learned: permalinks; null leaves them null. */
  domain: string | null;
  /** The envelope's `api_app_id`: messages this app posted carry it as their `app_id`. */
  appId: string | null;
  /**
   * Work done once per key at the end of the change, after every event it applies (a feed's posts recounted once
   * for a batch of new posts, not once a post); dropped with an event rolled back.
   */
  later(key: string, work: () => Promise<void>): void;
  /** Reads kept for the rest of the change. */
  reads: ChangeReads;
}

/** What an event came to: applied, or ignored with its reason (counted in the inbox's outcome). */
export type Outcome = 'applied' | `ignored: ${string}`;

/** The event cannot be applied yet (a reply whose thread Hearth lacks): retried later, parked after the last attempt. */
export class NotYet extends Error {}

/**
 * The event needs a thread read through the Web API first: the applier reads it outside the change (a slow Slack
 * never holds a transaction, SQLite's one writer least of all) and applies the event again with it.
 */
export class NeedsThread extends Error {
  constructor(
    readonly channelId: string,
    readonly threadTs: string,
  ) {
    super(`the thread ${threadTs} of ${channelId} must be read first`);
  }
}

export const threadKey = (channelId: string, threadTs: string) => `${channelId}:${threadTs}`;
