// Hearth ids derived from Slack's own: the same channel, user or message always gets the same id, so an export
// imported twice, a newer export and a Web API sync of the same workspace all land on the same records.
import { createHash } from 'node:crypto';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SHORT_SPACE = 36n ** 12n;

/** A name-based UUID (RFC 9562 version 5 layout: SHA-1 of a fixed namespace and the name). */
function nameUuid(name: string): string {
  const hash = createHash('sha1').update('hearth-slack\u0000').update(name).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A feed's id, from its channel's id (`C…`, `G…`). */
export const feedIdOf = (channelId: string): string => nameUuid(`feed:${channelId}`);

/** A profile's id, from a user's id (`U…`, Grid's `W…`) or, for an integration without a user, its bot id (`B…`). */
export const profileIdOf = (userId: string): string => nameUuid(`profile:${userId}`);

/** The id of a message's `chat_message`, from its channel and `ts` (a message's key in Slack). */
export const chatMessageIdOf = (channelId: string, ts: string): string => nameUuid(`message:${channelId}:${ts}`);

/** A post's or comment's 12-character id, from its channel and `ts`. */
export function messageIdOf(channelId: string, ts: string): string {
  const hash = createHash('sha256').update(`hearth-slack\u0000message:${channelId}:${ts}`).digest();
  let value = hash.readBigUInt64BE(0) % SHORT_SPACE;
  let id = '';
  for (let i = 0; i < 12; i++) {
    id = (alphabet[Number(value % 36n)] ?? 'a') + id;
    value /= 36n;
  }
  return id;
}
