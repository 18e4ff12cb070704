// Sends chat announcements (chat-announcements/): claims due rows like the webhook dispatcher, posts or edits the
// message in Slack, fills the event's permalink through the write runner, and retries failures with backoff until
// they are parked (`hearth slack announcements --failed`). A post whose answer never came is looked for by its
// metadata before any new post, so a retry never posts twice. Every `hearth serve` process runs one.
import type { FastifyBaseLogger } from 'fastify';
import { announcementMetadata, type ChatMessage } from '../chat-announcements/announcement-message.js';
import {
  claimDueAnnouncements,
  settleSent,
  updateClaimed,
  type AnnouncementRow,
} from '../chat-announcements/announcements.repository.js';
import { stringOf } from '../content/loose-json.js';
import type { Store } from '../db/store.js';
import { systemClock, type Clock } from '../lib/clock.js';
import { epochOfStored, toStored } from '../lib/timestamps.js';
import { sourceActor, type Actor } from '../writes/actor.js';
import { findEarlierPost } from './announcement-find.js';
import { ChatCallError, chatApi, type ChatApi } from './chat-api.js';
import { findConnection } from './slack-connections.repository.js';

const MAX_DELAY_MS = 3_600_000;

export interface AnnouncerOptions {
  store: Store;
  log: FastifyBaseLogger;
  /** Slack's Web API base URL (config SLACK_API_URL). */
  apiUrl: string;
  /** The event write that fills a publication's permalink (events/event-writes.service.ts). */
  recordPermalink(actor: Actor, eventId: string, channelId: string, permalink: string): Promise<boolean>;
  /** Subscribes to this process's commits that queued announcements, so they leave at once. */
  onAnnouncements?: (wake: () => void) => () => void;
  clock?: Clock;
  random?: () => number;
  /** How often rows other processes wrote (and retries come due) are looked for; 1 s. */
  pollMs?: number;
  /** Deadline of one Web API call; 10 s. */
  timeoutMs?: number;
  /** First retry delay, doubling (with jitter, at most an hour); 10 s. */
  retryBaseMs?: number;
  /** Failed attempts (a 429 not counted) after which an announcement is parked; 8. */
  maxAttempts?: number;
  /** Announcements in flight at once; 4. */
  concurrency?: number;
  /** Pages of 200 messages read when looking for an earlier post; 3. */
  searchPages?: number;
}

/** base × 2^(attempts − 1), at most an hour, half fixed and half random. */
function retryDelay(baseMs: number, attempts: number, random: () => number): number {
  const exponential = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.min(30, attempts - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

export function startAnnouncer(options: AnnouncerOptions) {
  const { store, log } = options;
  const db = store.db;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const pollMs = options.pollMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retryBaseMs = options.retryBaseMs ?? 10_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const concurrency = options.concurrency ?? 4;
  const searchPages = options.searchPages ?? 3;
  // A claim outlasts every call one send may make (a search, a post, a permalink).
  const leaseMs = timeoutMs * (searchPages + 4) + 5000;
  const clients = new Map<string, ChatApi>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let claiming: Promise<void> | null = null;
  let again = false;

  const clientOf = (token: string): ChatApi => {
    let client = clients.get(token);
    if (!client) {
      client = chatApi({ token, apiUrl: options.apiUrl, timeoutMs });
      clients.set(token, client);
    }
    return client;
  };

  /** Makes Slack show the row's message; returns what was done. */
  async function send(row: AnnouncementRow, claim: string): Promise<'posted' | 'edited' | 'found' | 'nothing'> {
    const connection = await findConnection(db, row.community_id);
    if (!connection) throw new Error('the community has no Slack connection any more');
    const api = clientOf(connection.bot_token);
    const message = JSON.parse(row.message) as ChatMessage;
    const channel = row.chat_channel_id;
    let ts = row.message_ts;
    let done: 'posted' | 'edited' | 'found' | 'nothing' = 'edited';
    if (ts === null && row.uncertain) {
      ts = await findEarlierPost(
        api,
        { communityId: row.community_id, eventId: row.event_id, channel, sinceMs: epochOfStored(row.created_at) },
        searchPages,
      );
      await updateClaimed(db, row, claim, { message_ts: ts, uncertain: false });
      if (ts !== null) done = 'found';
    }
    if (ts === null) {
      // Never shown there: a withdrawal has nothing to edit.
      if (row.wanted !== 'shown') return 'nothing';
      // Marked first: from here until the answer, a post may exist that only its metadata can find.
      await updateClaimed(db, row, claim, { uncertain: true });
      const posted = await api('chat.postMessage', {
        channel,
        text: message.text,
        blocks: message.blocks,
        metadata: announcementMetadata(row.community_id, row.event_id),
        unfurl_links: false,
        unfurl_media: false,
      });
      ts = stringOf(posted.ts) ?? null;
      if (ts === null) throw new Error('chat.postMessage answered without a ts');
      await updateClaimed(db, row, claim, { message_ts: ts, uncertain: false });
      done = 'posted';
    } else {
      await api('chat.update', { channel, ts, text: message.text, blocks: message.blocks });
    }
    if (row.wanted === 'shown') {
      let permalink = row.permalink;
      if (permalink === null || row.message_ts !== ts) {
        const answer = await api('chat.getPermalink', { channel, message_ts: ts });
        permalink = stringOf(answer.permalink) ?? null;
        if (permalink === null) throw new Error('chat.getPermalink answered without a permalink');
        await updateClaimed(db, row, claim, { permalink });
      }
      await options.recordPermalink(sourceActor(row.community_id, 'slack'), row.event_id, channel, permalink);
    }
    return done;
  }

  async function attempt(row: AnnouncementRow, claim: string): Promise<void> {
    const line = { community_id: row.community_id, event_id: row.event_id, channel: row.chat_channel_id };
    try {
      const done = await send(row, claim);
      await settleSent(db, row, claim, row.version, toStored(clock()));
      log.info({ ...line, wanted: row.wanted, done }, 'slack announcement sent');
    } catch (error) {
      const now = clock();
      const failure = error instanceof ChatCallError ? error.failure : null;
      const counted = failure?.kind !== 'rate_limited';
      const attempts = row.attempts + (counted ? 1 : 0);
      const parked = counted && attempts >= maxAttempts;
      const next =
        failure?.kind === 'rate_limited'
          ? now + failure.retryAfterSeconds * 1000
          : now + retryDelay(retryBaseMs, attempts, random);
      const reason = error instanceof Error ? error.message : String(error);
      // A post Slack refused or rate limited was not made; one whose answer never came stays uncertain.
      const posting = error instanceof ChatCallError && error.method === 'chat.postMessage';
      await updateClaimed(db, row, claim, {
        attempts,
        state: parked ? 'failed' : 'pending',
        next_attempt_at: toStored(next),
        last_error: reason,
        claimed_until: null,
        updated_at: toStored(now),
        ...(posting && failure?.kind !== 'uncertain' ? { uncertain: false } : {}),
      });
      log.warn({ ...line, attempt: attempts, error: reason, parked }, 'slack announcement failed');
    }
  }

  async function claimAndSend(): Promise<void> {
    do {
      again = false;
      const free = concurrency - inFlight.size;
      if (stopped || free <= 0) return;
      const now = clock();
      const claim = toStored(now + leaseMs);
      let rows: AnnouncementRow[];
      try {
        rows = await claimDueAnnouncements(db, toStored(now), claim, free);
      } catch (error) {
        log.warn({ err: error }, 'slack announcer could not claim announcements; trying again at the next poll');
        return;
      }
      for (const row of rows) {
        const done: Promise<void> = attempt(row, claim)
          .catch((error: unknown) => log.error({ err: error }, 'slack announcement could not be recorded'))
          .finally(() => {
            inFlight.delete(done);
            wake();
          });
        inFlight.add(done);
      }
      if (rows.length === free) again = true;
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claimAndSend().finally(() => {
      claiming = null;
      if (again) wake();
    });
  }

  const unsubscribe = options.onAnnouncements?.(wake) ?? (() => {});
  const poll = setInterval(wake, pollMs);
  poll.unref();
  wake();

  return {
    wake,
    /** Stops claiming and waits for the sends in flight (each bounded by the call deadline). */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(poll);
      unsubscribe();
      await claiming;
      await Promise.all([...inFlight]);
    },
  };
}
export type Announcer = ReturnType<typeof startAnnouncer>;
