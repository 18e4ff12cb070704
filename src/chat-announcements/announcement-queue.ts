// Decides, inside an event's write, what its Slack channels should show: the announcement (published, in a feed
// with a channel, the community connected with a bot token), or an edit saying it was cancelled or withdrawn.
// Rows are recorded in the write's transaction, so a change that rolls back leaves nothing to send.
import type { Kysely } from 'kysely';
import type { ChatAnnouncementWanted, Database } from '../db/database.js';
import { epochOfStored } from '../lib/timestamps.js';
import { announcementMessage, withdrawnMessage, type AnnouncedEvent } from './announcement-message.js';
import {
  announcementsOf,
  changeAnnouncement,
  channelPublications,
  eventFacts,
  hasBotConnection,
  insertAnnouncement,
} from './announcements.repository.js';

/** What the write did to the event: changed it (created or updated), or is about to delete it. */
export type EventChangeKind = 'changed' | 'deleted';

/**
 * Records the announcements the event's change calls for; returns how many rows now have something to send.
 * Called after the event's rows are written, or before they are deleted (the message needs its title and time).
 */
export async function queueEventAnnouncements(
  db: Kysely<Database>,
  communityId: string,
  eventId: string,
  kind: EventChangeKind,
  at: string,
): Promise<number> {
  if (!(await hasBotConnection(db, communityId))) return 0;
  const [facts, existing] = await Promise.all([
    eventFacts(db, communityId, eventId),
    announcementsOf(db, communityId, eventId),
  ]);
  if (!facts) return 0;
  const event: AnnouncedEvent = {
    title: facts.title,
    startMs: epochOfStored(facts.start_at),
    endMs: facts.end_at === null ? null : epochOfStored(facts.end_at),
    showEnd: Boolean(facts.show_end_date),
    timeZone: facts.time_zone,
    location: facts.location,
    link: facts.link,
  };
  const wanted = new Map<string, string | null>();
  if (kind === 'changed' && facts.status === 'published')
    for (const publication of await channelPublications(db, communityId, eventId)) {
      const channel = publication.chat_channel_id;
      if (channel === null || wanted.has(channel)) continue;
      // A link Hearth did not make (an imported event, announced by the hosted product): its message is not ours.
      if (publication.chat_message_permalink !== null && !existing.some((r) => r.chat_channel_id === channel)) continue;
      wanted.set(channel, publication.feed_id);
    }

  let queued = 0;
  const record = async (channel: string, feedId: string | null, state: ChatAnnouncementWanted, message: string) => {
    const row = existing.find((r) => r.chat_channel_id === channel);
    if (!row) {
      // Nothing was ever shown there: only an announcement needs a row.
      if (state !== 'shown') return;
      await insertAnnouncement(db, {
        community_id: communityId,
        event_id: eventId,
        chat_channel_id: channel,
        feed_id: feedId,
        wanted: state,
        message,
        version: 1,
        uncertain: false,
        state: 'pending',
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      });
    } else if (row.wanted !== state || row.message !== message || row.feed_id !== feedId) {
      await changeAnnouncement(db, row, { wanted: state, message, feed_id: feedId }, at);
    } else return;
    queued++;
  };
  const shown = JSON.stringify(announcementMessage(event));
  for (const [channel, feedId] of wanted) await record(channel, feedId, 'shown', shown);
  const reason = kind === 'deleted' ? 'cancelled' : 'removed';
  const withdrawn = JSON.stringify(withdrawnMessage(event, reason));
  for (const row of existing)
    if (!wanted.has(row.chat_channel_id)) await record(row.chat_channel_id, row.feed_id, reason, withdrawn);
  return queued;
}
