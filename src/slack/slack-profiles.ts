// Slack users (users.json, org_users.json, users.list) and the authors only a message names (a bot without a user,
// a user of another organisation in a shared channel) as profile import records.
import { isRecord, nonEmptyStringOf, stringOf, type JsonRecord } from '../content/loose-json.js';
import { profileIdOf } from './slack-ids.js';
import { httpUrlOf } from './slack-text.js';
import { stampOfSeconds } from './slack-time.js';

export type ProfileLine = Record<string, unknown> & { kind: 'profile'; profile_id: string };

const SIZES = ['1024', '512', '192', '72', '48', '32', '24'] as const;

/** What mentions of a user render as: the name people see. */
export function displayNameOf(user: JsonRecord): string | undefined {
  const profile = isRecord(user.profile) ? user.profile : {};
  return (
    nonEmptyStringOf(profile.display_name) ??
    nonEmptyStringOf(profile.real_name) ??
    nonEmptyStringOf(user.real_name) ??
    nonEmptyStringOf(user.name)
  );
}

/** A user object as Slack gives it; null when it has no id. */
export function profileOfUser(user: JsonRecord): ProfileLine | null {
  const id = nonEmptyStringOf(user.id);
  if (id === undefined) return null;
  const profile = isRecord(user.profile) ? user.profile : {};
  const image = (size: string) => httpUrlOf(profile[`image_${size}`]) ?? null;
  // image_original exists for uploaded avatars only; otherwise the largest size stands in for it.
  const original = httpUrlOf(profile.image_original) ?? SIZES.map(image).find((url) => url !== null) ?? null;
  const first = nonEmptyStringOf(profile.first_name) ?? null;
  const last = nonEmptyStringOf(profile.last_name) ?? null;
  const line: ProfileLine = {
    kind: 'profile',
    profile_id: profileIdOf(id),
    preferred_name: displayNameOf(user) ?? null,
    preferred_image_original: original,
    first_name: first,
    last_name: last,
    email: nonEmptyStringOf(profile.email) ?? null,
    chat_user_id: id,
    chat_is_admin: user.is_admin === true || user.is_owner === true || user.is_primary_owner === true,
    chat_is_bot: user.is_bot === true || id === 'USLACKBOT',
    chat_first_name: first,
    chat_last_name: last,
    chat_image_72: image('72'),
    chat_image_original: original,
    is_deactivated: user.deleted === true,
  };
  for (const size of SIZES) line[`preferred_image_${size}`] = image(size);
  // The export holds no join date: Slack's `updated` stamp of the user stands for it, the same from both sources.
  const created = stampOfSeconds(user.updated);
  if (created !== undefined) line.created_at = created;
  return line;
}

/**
 * The author of a message whose user the source's user list lacks: a bot posting without a user (keyed by its
 * `B…` id), or a user of another organisation (from the message's `user_profile` snapshot). Dated by the message.
 */
export function profileOfAuthor(authorId: string, message: JsonRecord, created: string): ProfileLine {
  const snapshot = isRecord(message.user_profile) ? message.user_profile : {};
  const bot = isRecord(message.bot_profile) ? message.bot_profile : {};
  const icons = isRecord(bot.icons) ? bot.icons : isRecord(message.icons) ? message.icons : {};
  const image72 = httpUrlOf(snapshot.image_72) ?? httpUrlOf(icons.image_72) ?? null;
  const isBot = authorId.startsWith('B');
  return {
    kind: 'profile',
    profile_id: profileIdOf(authorId),
    created_at: created,
    preferred_name:
      nonEmptyStringOf(snapshot.display_name) ??
      nonEmptyStringOf(snapshot.real_name) ??
      nonEmptyStringOf(bot.name) ??
      nonEmptyStringOf(message.username) ??
      nonEmptyStringOf(snapshot.name) ??
      null,
    preferred_image_72: image72,
    chat_user_id: authorId,
    chat_is_bot: isBot,
    chat_image_72: image72,
    chat_first_name: stringOf(snapshot.first_name) ?? null,
  };
}
