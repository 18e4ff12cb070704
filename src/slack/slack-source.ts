// What both sources of Slack history (an export, the Web API) share once their lists are read: the channels chosen,
// the names mentions render with, and the records of users and channels, written before any message.
import type { JsonRecord } from '../content/loose-json.js';
import type { HistoryContext } from './channel-history.js';
import { feedOfChannel, type SlackChannel } from './slack-feeds.js';
import { displayNameOf, profileOfUser } from './slack-profiles.js';
import { emptyTally, type SlackTally } from './slack-tally.js';

/** A channel list option that names a channel the source does not hold. */
export class SlackChannelsError extends Error {}

/** The channels named (by name, `#name` or id), in the source's order; all of them when none is named. */
export function chooseChannels<T extends { channel: SlackChannel }>(
  listed: T[],
  wanted: readonly string[] | undefined,
): T[] {
  if (!wanted || wanted.length === 0) return listed;
  const names = new Set(wanted.map((name) => name.replace(/^#/, '')));
  const chosen = listed.filter(({ channel }) => names.has(channel.name) || names.has(channel.id));
  const found = new Set(chosen.flatMap(({ channel }) => [channel.name, channel.id]));
  const unknown = [...names].filter((name) => !found.has(name));
  if (unknown.length > 0)
    throw new SlackChannelsError(
      `no channel ${unknown.map((name) => `'${name}'`).join(', ')} in the source (private channels need --include-private).`,
    );
  return chosen;
}

export interface SlackStart {
  context: HistoryContext;
  /** Profiles, then feeds: the records written before the messages, so that mentions resolve. */
  lines: Record<string, unknown>[];
}

export function startHistory(
  users: readonly JsonRecord[],
  channels: readonly SlackChannel[],
  domain: string | null,
  tally: SlackTally = emptyTally(),
): SlackStart {
  const names = new Map<string, string>();
  const handles = new Map<string, string>();
  const lines: Record<string, unknown>[] = [];
  const authors = new Set<string>();
  for (const user of users) {
    const profile = profileOfUser(user);
    if (!profile) continue;
    const id = profile.chat_user_id as string;
    authors.add(id);
    lines.push(profile);
    const name = displayNameOf(user);
    if (name !== undefined) names.set(id, name);
    if (typeof user.name === 'string') handles.set(id, user.name);
  }
  const channelNames = new Map(channels.map((channel) => [channel.id, channel.name]));
  for (const channel of channels) lines.push(feedOfChannel(channel));
  tally.channels = channels.length;
  return {
    context: {
      names: { userName: (id) => names.get(id), channelName: (id) => channelNames.get(id) },
      handles,
      domain,
      authors,
      tally,
    },
    lines,
  };
}
