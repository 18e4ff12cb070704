// Slack's live events about people and channels: `user_change` and `team_join` (a profile written as the import
// writes it, never resetting admin or bot flags or an e-mail the event leaves out; member.* webhooks as the API's
// writes send them), `channel_rename`, `channel_archive`/`unarchive` and `member_joined_channel`/`left` (the feed).
import { isRecord, nonEmptyStringOf, stringOf, type JsonRecord } from '../content/loose-json.js';
import { toMember } from '../members/member.mapper.js';
import type { LiveContext, Outcome } from './live-context.js';
import { planOf } from './live-rows.js';
import { feedOfChannel, profileById } from './live.repository.js';
import { renameConnectedChannel } from './slack-connections.repository.js';
import { profileOfUser } from './slack-profiles.js';

/** `user_change`, `team_join`: the full user object; fields it lacks keep what Hearth holds. */
export async function applyUser(ctx: LiveContext, event: JsonRecord): Promise<Outcome> {
  const user = isRecord(event.user) ? event.user : null;
  if (!user) return 'ignored: no user';
  const record = profileOfUser(user);
  if (!record) return 'ignored: no user id';
  const { trx, communityId, change } = ctx;
  const held = await profileById(trx, communityId, record.profile_id);
  const plan = planOf(record, change.at);
  const parsed = plan.profiles.get(record.profile_id);
  if (!parsed) return 'ignored: no profile';
  const row = { ...parsed.row, community_id: communityId };
  const profile = isRecord(user.profile) ? user.profile : {};
  let action: 'member.created' | 'member.updated' = 'member.created';
  if (held) {
    action = 'member.updated';
    const keep = {
      created_at: held.created_at,
      // A partial user object (no flags, no e-mail without users:read.email) never resets what is held.
      chat_is_admin: Boolean('is_admin' in user || 'is_owner' in user ? row.chat_is_admin : held.chat_is_admin),
      chat_is_bot: Boolean('is_bot' in user ? row.chat_is_bot : held.chat_is_bot),
      email: 'email' in profile ? row.email : held.email,
      email_key: 'email' in profile ? row.email_key : held.email_key,
      deactivated_at:
        'deleted' in user ? (user.deleted === true ? (held.deactivated_at ?? change.at) : null) : held.deactivated_at,
    };
    await trx
      .updateTable('profiles')
      .set({ ...row, ...keep, updated_at: change.at })
      .where('community_id', '=', communityId)
      .where('id', '=', row.id)
      .execute();
  } else {
    await trx.insertInto('profiles').values(row).execute();
  }
  await change.refresh({ profiles: [row.id] });
  const after = await profileById(trx, communityId, row.id);
  if (after) {
    await change.audit(action, row.id, { email: after.email, source: 'slack' });
    await change.announce([{ type: action, data: toMember(after) }]);
  }
  return 'applied';
}

const channelIdOf = (event: JsonRecord): string | undefined =>
  isRecord(event.channel) ? nonEmptyStringOf(event.channel.id) : nonEmptyStringOf(event.channel);

/**
 * `channel_rename`: the feed's label and channel name; its slug (its address) stays, and a connection that named
 * the channel names it anew.
 */
export async function applyRename(ctx: LiveContext, event: JsonRecord): Promise<Outcome> {
  const channelId = channelIdOf(event);
  const name = isRecord(event.channel) ? nonEmptyStringOf(event.channel.name) : undefined;
  if (!channelId || !name) return 'ignored: no channel';
  const feed = await feedOfChannel(ctx.trx, ctx.communityId, channelId);
  if (!feed) return 'ignored: channel not mirrored';
  if (feed.label === name && feed.chat_channel_name === name) return 'ignored: nothing visible changed';
  await renameConnectedChannel(ctx.trx, ctx.communityId, feed.chat_channel_name ?? feed.label, name);
  await ctx.trx
    .updateTable('feeds')
    .set({ label: name, chat_channel_name: name })
    .where('community_id', '=', ctx.communityId)
    .where('id', '=', feed.id)
    .execute();
  await ctx.change.refresh({ feeds: [feed.id] });
  return 'applied';
}

/** `channel_archive`, `channel_unarchive`. */
export async function applyArchive(ctx: LiveContext, event: JsonRecord, archived: boolean): Promise<Outcome> {
  const channelId = channelIdOf(event);
  if (!channelId) return 'ignored: no channel';
  const feed = await feedOfChannel(ctx.trx, ctx.communityId, channelId);
  if (!feed) return 'ignored: channel not mirrored';
  if (Boolean(feed.is_archived) === archived) return 'ignored: nothing visible changed';
  await ctx.trx
    .updateTable('feeds')
    .set({ is_archived: archived })
    .where('community_id', '=', ctx.communityId)
    .where('id', '=', feed.id)
    .execute();
  await ctx.change.refresh({ feeds: [feed.id] });
  return 'applied';
}

/** `member_joined_channel`, `member_left_channel`: the feed's member count, one each (the inbox applies each once). */
export async function applyMembership(ctx: LiveContext, event: JsonRecord, joined: boolean): Promise<Outcome> {
  const channelId = stringOf(event.channel);
  if (!channelId) return 'ignored: no channel';
  const feed = await feedOfChannel(ctx.trx, ctx.communityId, channelId);
  if (!feed) return 'ignored: channel not mirrored';
  const count = Math.max(0, Number(feed.chat_channel_num_members) + (joined ? 1 : -1));
  await ctx.trx
    .updateTable('feeds')
    .set({ chat_channel_num_members: count })
    .where('community_id', '=', ctx.communityId)
    .where('id', '=', feed.id)
    .execute();
  await ctx.change.refresh({ feeds: [feed.id] });
  return 'applied';
}
