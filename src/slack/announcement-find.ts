// Finds an earlier post of an announcement whose answer never came: the channel's recent history read with its
// message metadata (conversations.history, include_all_metadata), looking for Hearth's event type and the event's
// id. The window is bounded: messages since the announcement was first recorded (less a minute for clocks), at
// most `pages` pages of 200, newest first.
import { isRecord, recordsOf, stringOf } from '../content/loose-json.js';
import { ANNOUNCEMENT_EVENT_TYPE } from '../chat-announcements/announcement-message.js';
import type { ChatApi } from './chat-api.js';

export interface EarlierPost {
  communityId: string;
  eventId: string;
  channel: string;
  /** Epoch milliseconds no post of it can be older than. */
  sinceMs: number;
}

const PAGE = 200;

export async function findEarlierPost(api: ChatApi, post: EarlierPost, pages: number): Promise<string | null> {
  const oldest = `${Math.max(0, Math.floor(post.sinceMs / 1000) - 60)}.000000`;
  let cursor: string | undefined;
  for (let page = 0; page < pages; page++) {
    const result = await api('conversations.history', {
      channel: post.channel,
      oldest,
      limit: PAGE,
      include_all_metadata: true,
      cursor,
    });
    for (const message of recordsOf(result.messages)) {
      const metadata = isRecord(message.metadata) ? message.metadata : null;
      const payload = metadata && isRecord(metadata.event_payload) ? metadata.event_payload : null;
      if (
        metadata?.event_type === ANNOUNCEMENT_EVENT_TYPE &&
        payload?.event_id === post.eventId &&
        payload.community === post.communityId
      )
        return stringOf(message.ts) ?? null;
    }
    const meta = isRecord(result.response_metadata) ? result.response_metadata : {};
    cursor = stringOf(meta.next_cursor) || undefined;
    if (!cursor) break;
  }
  return null;
}
