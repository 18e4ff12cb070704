// Hearth ids derived from Slack's own: the same channel, user or message always gets the same id, so an export
// imported twice, a newer export and a Web API sync of the same workspace all land on the same records.
import { hash } from 'node:crypto';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TWO_32 = 2 ** 32;

/**
 * Ids asked for again and again (a channel's feed, an author, a thread's parent) are remembered, the most recent
 * up to this many of each kind: hashing was a tenth of the reading of a large export.
 */
const REMEMBERED = 20_000;

function remembered(make: (name: string) => string): (name: string) => string {
  let ids = new Map<string, string>();
  return (name) => {
    let id = ids.get(name);
    if (id === undefined) {
      id = make(name);
      if (ids.size >= REMEMBERED) ids = new Map();
      ids.set(name, id);
    }
    return id;
  };
}

/** A name-based UUID (RFC 9562 version 5 layout: SHA-1 of a fixed namespace and the name). */
const nameUuid = remembered((name) => {
  const digest = hash('sha1', `hearth-slack\u0000${name}`, 'buffer');
  digest[6] = ((digest[6] ?? 0) & 0x0f) | 0x50;
  digest[8] = ((digest[8] ?? 0) & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
});

/** The 12 last base-36 digits of the first 8 bytes of SHA-256 of the name (their value modulo 36^12), a..z then 0..9. */
const shortId = remembered((name) => {
  const digest = hash('sha256', `hearth-slack\u0000${name}`, 'buffer');
  // The 64-bit number in two 32-bit halves, divided by 36 twelve times: each step's values stay below 2^53.
  let high = digest.readUInt32BE(0);
  let low = digest.readUInt32BE(4);
  let id = '';
  for (let i = 0; i < 12; i++) {
    const carry = high % 36;
    high = (high - carry) / 36;
    const value = carry * TWO_32 + low;
    const digit = value % 36;
    low = (value - digit) / 36;
    id = (alphabet[digit] ?? 'a') + id;
  }
  return id;
});

/** A feed's id, from its channel's id (`C…`, `G…`). */
export const feedIdOf = (channelId: string): string => nameUuid(`feed:${channelId}`);

/** A profile's id, from a user's id (`U…`, Grid's `W…`) or, for an integration without a user, its bot id (`B…`). */
export const profileIdOf = (userId: string): string => nameUuid(`profile:${userId}`);

/** The id of a message's `chat_message`, from its channel and `ts` (a message's key in Slack). */
export const chatMessageIdOf = (channelId: string, ts: string): string => nameUuid(`message:${channelId}:${ts}`);

/** A post's or comment's 12-character id, from its channel and `ts`. */
export const messageIdOf = (channelId: string, ts: string): string => shortId(`message:${channelId}:${ts}`);
