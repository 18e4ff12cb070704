// One Slack event applied inside the change that also settles its inbox row: dispatched by type to the live
// mirror's functions (messages, reactions, people and channels); any other type is ignored and counted.
import { isRecord, nonEmptyStringOf, stringOf, type JsonRecord } from '../content/loose-json.js';
import { applyReactionChange } from '../reactions/reaction-events.js';
import type { LiveContext, Outcome } from './live-context.js';
import { applyArchive, applyMembership, applyRename, applyUser } from './live-people.js';
import { applyChanged, applyDeleted, applyMessage, mirroredFeed } from './live-messages.js';
import { commentById, postById, presentReactions } from './live.repository.js';
import { messageIdOf } from './slack-ids.js';
import { isSlackTs } from './slack-time.js';

/** `reaction_added`/`removed` on a message: the set changes, then the message's reactions_count follows it. */
async function applyReaction(ctx: LiveContext, event: JsonRecord, present: boolean): Promise<Outcome> {
  const item = isRecord(event.item) ? event.item : {};
  const channelId = nonEmptyStringOf(item.channel);
  const ts = item.ts;
  const user = nonEmptyStringOf(event.user);
  const emoji = nonEmptyStringOf(event.reaction);
  const changedTs = isSlackTs(event.event_ts) ? event.event_ts : undefined;
  if (item.type !== 'message' || !channelId || !isSlackTs(ts) || !user || !emoji || !changedTs)
    return 'ignored: not a reaction on a message';
  if (!(await mirroredFeed(ctx, channelId))) return 'ignored: channel not mirrored';
  const { trx, communityId, change } = ctx;
  const changed = await applyReactionChange(trx, {
    communityId,
    channelId,
    messageTs: ts,
    emoji,
    userId: user,
    present,
    changedTs,
  });
  if (!changed) return 'ignored: nothing visible changed';
  const count = (await presentReactions(trx, communityId, channelId, ts)) ?? 0;
  const id = messageIdOf(channelId, ts);
  // A reaction on a message not held yet is kept: the message takes its count when it comes.
  if (await postById(trx, communityId, id)) {
    await trx
      .updateTable('posts')
      .set({ reactions_count: count })
      .where('community_id', '=', communityId)
      .where('id', '=', id)
      .execute();
    await change.refresh({ posts: [id] });
  } else {
    const comment = await commentById(trx, communityId, id);
    if (comment) {
      await trx
        .updateTable('comments')
        .set({ reactions_count: count })
        .where('community_id', '=', communityId)
        .where('id', '=', id)
        .execute();
      await change.refresh({ posts: [comment.post_id] });
    }
  }
  return 'applied';
}

/** Applies the envelope's event; throws NotYet to be retried later. */
export function applyEvent(ctx: LiveContext, envelope: JsonRecord): Promise<Outcome> {
  const event = isRecord(envelope.event) ? envelope.event : {};
  const type = stringOf(event.type);
  const channelId = stringOf(event.channel) ?? '';
  switch (type) {
    case 'message':
      if (event.subtype === 'message_changed') return applyChanged(ctx, channelId, event);
      if (event.subtype === 'message_deleted') return applyDeleted(ctx, channelId, event);
      return applyMessage(ctx, channelId, event);
    case 'reaction_added':
      return applyReaction(ctx, event, true);
    case 'reaction_removed':
      return applyReaction(ctx, event, false);
    case 'user_change':
    case 'team_join':
      return applyUser(ctx, event);
    case 'channel_rename':
      return applyRename(ctx, event);
    case 'channel_archive':
      return applyArchive(ctx, event, true);
    case 'channel_unarchive':
      return applyArchive(ctx, event, false);
    case 'member_joined_channel':
      return applyMembership(ctx, event, true);
    case 'member_left_channel':
      return applyMembership(ctx, event, false);
    default:
      return Promise.resolve(`ignored: ${type ?? 'no type'} is not mirrored` as Outcome);
  }
}
