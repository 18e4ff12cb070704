// Identifier formats and generators: 12-character ids for events, posts and comments; UUIDs elsewhere.
import { randomBytes, randomUUID } from 'node:crypto';

export const SHORT_ID_PATTERN = '^[a-z0-9]{12}$';
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function newShortId(): string {
  let id = '';
  while (id.length < 12) {
    // 252 = 7 * 36: dropping bytes above it keeps every character equally likely.
    for (const b of randomBytes(16)) if (b < 252 && id.length < 12) id += alphabet[b % 36];
  }
  return id;
}

export const newUuid = (): string => randomUUID();
