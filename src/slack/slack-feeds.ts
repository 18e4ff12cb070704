// A Slack channel (channels.json, groups.json, conversations.list) as a feed import record: the channel's name is
// the feed's label and slug, its purpose and topic become rich-text blocks.
import { isRecord, nonEmptyStringOf, type JsonRecord } from '../content/loose-json.js';
import { feedIdOf } from './slack-ids.js';
import { mrkdwnBlocks } from './mrkdwn.js';
import { stampOfSeconds } from './slack-time.js';

export interface SlackChannel {
  id: string;
  name: string;
  /** From groups.json, or `is_private` in the Web API: an unlisted feed, kept out of the Home feed. */
  isPrivate: boolean;
  raw: JsonRecord;
}

/** The channel of one entry of a channel list; null when it lacks an id or a name. */
export function channelOf(raw: unknown, isPrivate: boolean): SlackChannel | null {
  if (!isRecord(raw)) return null;
  const id = nonEmptyStringOf(raw.id);
  const name = nonEmptyStringOf(raw.name);
  if (id === undefined || name === undefined) return null;
  return { id, name, isPrivate: isPrivate || raw.is_private === true, raw };
}

const textOf = (value: unknown) => (isRecord(value) ? (nonEmptyStringOf(value.value) ?? '') : '');

export function feedOfChannel(channel: SlackChannel): Record<string, unknown> {
  const { raw } = channel;
  // The export lists members; the Web API counts them.
  const members = Array.isArray(raw.members)
    ? raw.members.length
    : typeof raw.num_members === 'number'
      ? raw.num_members
      : 0;
  const line: Record<string, unknown> = {
    kind: 'feed',
    id: feedIdOf(channel.id),
    label: channel.name,
    is_archived: raw.is_archived === true,
    is_unlisted: channel.isPrivate,
    chat_channel_id: channel.id,
    chat_channel_name: channel.name,
    chat_channel_num_members: members,
    chat_channel_purpose_chat_blocks: mrkdwnBlocks(textOf(raw.purpose)),
    chat_channel_topic_chat_blocks: mrkdwnBlocks(textOf(raw.topic)),
  };
  const created = stampOfSeconds(raw.created);
  if (created !== undefined) line.created_at = created;
  return line;
}
