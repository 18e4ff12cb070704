// Hearth ids derived from Slack's own: the same channel, user or message always gets the same id, so an export
// imported twice, a newer export and a Web API sync of the same workspace all land on the same records.
import { hash } from 'node:crypto';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
const CODES = Array.from(alphabet, (c) => c.charCodeAt(0));
const VARIANT = '89ab';

/**
 * Ids asked for again and again (a channel's feed, an author) are remembered, by the Slack id they are made from, the
 * most recent up to this many of each kind: hashing was a tenth of the reading of a large export. A message's own
 * ids are not: each is asked for once, or twice when a reply names its parent, and remembering a new one cost more
 * than hashing it (measured: 2.6 µs against 1.3 µs a UUID).
 */
const REMEMBERED = 20_000;

function remembered(make: (slackId: string) => string): (slackId: string) => string {
  let ids = new Map<string, string>();
  return (slackId) => {
    let id = ids.get(slackId);
    if (id === undefined) {
      id = make(slackId);
      if (ids.size >= REMEMBERED) ids = new Map();
      ids.set(slackId, id);
    }
    return id;
  };
}

/**
 * A name-based UUID (RFC 9562 version 5 layout: SHA-1 of a fixed namespace and the name). The digest is taken as hex
 * and its version and variant set in the text: a Buffer digest took longer than the hashing itself.
 */
function nameUuid(name: string): string {
  const hex = hash('sha1', `hearth-slack\u0000${name}`, 'hex');
  // Byte 6's high nibble is the version (5); byte 8's two high bits the variant (10).
  const variant = VARIANT.charAt(Number.parseInt(hex.charAt(16), 16) & 3);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const digits: number[] = new Array(12).fill(0);

/**
 * The 12 last base-36 digits of the first 8 bytes of SHA-256 of the name (their value modulo 36^12), a..z then 0..9.
 * The 64-bit number is divided by 36 as four 16-bit limbs, in small integers: floating-point division of two 32-bit
 * halves took twice as long.
 */
function shortId(name: string): string {
  const hex = hash('sha256', `hearth-slack\u0000${name}`, 'hex');
  let a = Number.parseInt(hex.slice(0, 4), 16);
  let b = Number.parseInt(hex.slice(4, 8), 16);
  let c = Number.parseInt(hex.slice(8, 12), 16);
  let d = Number.parseInt(hex.slice(12, 16), 16);
  for (let i = 11; i >= 0; i--) {
    let q = (a / 36) | 0;
    let r = a - q * 36;
    a = q;
    let value = r * 65536 + b;
    q = (value / 36) | 0;
    r = value - q * 36;
    b = q;
    value = r * 65536 + c;
    q = (value / 36) | 0;
    r = value - q * 36;
    c = q;
    value = r * 65536 + d;
    q = (value / 36) | 0;
    digits[i] = CODES[value - q * 36] ?? 0;
    d = q;
  }
  return String.fromCharCode(...digits);
}

const feedIds = remembered((channelId) => nameUuid(`feed:${channelId}`));
const profileIds = remembered((userId) => nameUuid(`profile:${userId}`));

/** A feed's id, from its channel's id (`C…`, `G…`). */
export const feedIdOf = (channelId: string): string => feedIds(channelId);

/** A profile's id, from a user's id (`U…`, Grid's `W…`) or, for an integration without a user, its bot id (`B…`). */
export const profileIdOf = (userId: string): string => profileIds(userId);

/** The id of a message's `chat_message`, from its channel and `ts` (a message's key in Slack). */
export const chatMessageIdOf = (channelId: string, ts: string): string => nameUuid(`message:${channelId}:${ts}`);

/** A post's or comment's 12-character id, from its channel and `ts`. */
export const messageIdOf = (channelId: string, ts: string): string => shortId(`message:${channelId}:${ts}`);
