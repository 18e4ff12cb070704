// The Slack message announcing a calendar event (Block Kit: title, time in the event's zone, location, link), and
// the edits that say it was cancelled or is no longer announced there. Plain data, made inside the event's write.

/** What a message is made from: the event as its write left it. */
export interface AnnouncedEvent {
  title: string | null;
  startMs: number;
  endMs: number | null;
  showEnd: boolean;
  timeZone: string | null;
  location: string | null;
  link: string | null;
}

export type ChatBlock = Record<string, unknown>;

/** A message as chat.postMessage and chat.update take it: `text` is the notification and fallback. */
export interface ChatMessage {
  text: string;
  blocks: ChatBlock[];
}

/** Slack's header block holds at most 150 characters of plain text. */
const HEADER_MAX = 150;

/** mrkdwn's three control characters, escaped as Slack asks (docs: formatting message text). */
const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const titleOf = (event: AnnouncedEvent): string => event.title?.trim() || 'Untitled event';

const formatters = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();
function formatterOf(timeZone: string) {
  let found = formatters.get(timeZone);
  if (!found) {
    found = {
      day: new Intl.DateTimeFormat('en-GB', {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
      }),
      time: new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    };
    formatters.set(timeZone, found);
  }
  return found;
}

/** `Tue, 2 Dec 2026, 18:00–20:00 (Europe/Berlin)`; an end on another day is written in full; UTC without a zone. */
export function whenText(event: AnnouncedEvent): string {
  const zone = event.timeZone ?? 'UTC';
  const { day, time } = formatterOf(zone);
  const startDay = day.format(event.startMs);
  let text = `${startDay}, ${time.format(event.startMs)}`;
  if (event.showEnd && event.endMs !== null) {
    const endDay = day.format(event.endMs);
    text += endDay === startDay ? `–${time.format(event.endMs)}` : ` – ${endDay}, ${time.format(event.endMs)}`;
  }
  return `${text} (${zone})`;
}

const section = (mrkdwn: string): ChatBlock => ({ type: 'section', text: { type: 'mrkdwn', text: mrkdwn } });

/** The announcement itself. */
export function announcementMessage(event: AnnouncedEvent): ChatMessage {
  const title = titleOf(event);
  const when = whenText(event);
  const blocks: ChatBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: title.length > HEADER_MAX ? `${title.slice(0, HEADER_MAX - 1)}…` : title,
        emoji: true,
      },
    },
    section(`*When:* ${escapeMrkdwn(when)}`),
  ];
  if (event.location?.trim()) blocks.push(section(`*Where:* ${escapeMrkdwn(event.location.trim())}`));
  if (event.link) blocks.push(section(`*Link:* <${escapeMrkdwn(event.link)}|${escapeMrkdwn(event.link)}>`));
  return { text: `${title} — ${when}`, blocks };
}

/** The edit that replaces an announcement when its event is deleted (`cancelled`) or no longer announced there. */
export function withdrawnMessage(event: AnnouncedEvent, reason: 'cancelled' | 'removed'): ChatMessage {
  const title = titleOf(event);
  const when = whenText(event);
  const said =
    reason === 'cancelled' ? 'This event has been cancelled.' : 'This event is no longer announced in this channel.';
  return {
    text: `${reason === 'cancelled' ? 'Cancelled' : 'Withdrawn'}: ${title} — ${when}`,
    blocks: [section(`~${escapeMrkdwn(title)}~\n${escapeMrkdwn(when)}`), section(`*${said}*`)],
  };
}

/** The message metadata that lets a retry find an earlier post of the same announcement. */
export const ANNOUNCEMENT_EVENT_TYPE = 'hearth_event_announced';

export const announcementMetadata = (communityId: string, eventId: string) => ({
  event_type: ANNOUNCEMENT_EVENT_TYPE,
  event_payload: { community: communityId, event_id: eventId },
});
