// What applying one Slack event needs: the change it is part of, the community's connection (channels mirrored,
// the Web API when a bot token is set) and the receiving app's id (its own echoes are ignored).
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { Change } from '../writes/write-runner.js';
import type { SlackApi } from './web-api.js';

export interface LiveContext {
  trx: Kysely<Database>;
  change: Change;
  communityId: string;
  /** Channel names or ids the connection mirrors; null: every channel Hearth holds a feed of. */
  channels: readonly string[] | null;
  /** The Web API with the connection's bot token, to fetch a thread whose parent Hearth lacks; null without one. */
  api: SlackApi | null;
  /** The envelope's `api_app_id`: messages this app posted carry it as their `app_id`. */
  appId: string | null;
}

/** What an event came to: applied, or ignored with its reason (counted in the inbox's outcome). */
export type Outcome = 'applied' | `ignored: ${string}`;

/** The event cannot be applied yet (a reply whose thread Hearth lacks): retried later, parked after the last attempt. */
export class NotYet extends Error {}
