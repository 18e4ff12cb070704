// The badge record of `GET /badges` and `GET /badges/{badge_id}`: the badge and every member holding it.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from './common.js';

export const BadgeHolder = Type.Object({
  profile_id: Uuid,
  chat_user_id: Nullable(Type.String({ description: "The member's chat user id; null when their profile has none" })),
  assigned_at: Timestamp,
});
export type BadgeHolder = Static<typeof BadgeHolder>;

export const Badge = Type.Object({
  id: Uuid,
  name: Type.String({ examples: ['Speaker'] }),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Type.String({
    description: 'UTC timestamp `YYYY-MM-DD HH:MM:SS.ffffff+00`; an assignment moves it too',
    examples: ['2026-03-08 17:00:00.000000+00'],
  }),
  members_count: Type.Integer({ minimum: 0 }),
  members: Type.Array(BadgeHolder, {
    description: 'Every member holding the badge, by `assigned_at`, then `profile_id`',
  }),
});
export type Badge = Static<typeof Badge>;
