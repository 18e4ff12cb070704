// The group record of `GET /groups` and `GET /groups/{group_id}`: the group and every member in it.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Uuid } from './common.js';

export const GroupMember = Type.Object({
  profile_id: Uuid,
  chat_user_id: Nullable(Type.String({ description: "The member's chat user id; null when their profile has none" })),
  added_at: Timestamp,
});
export type GroupMember = Static<typeof GroupMember>;

export const Group = Type.Object({
  id: Uuid,
  name: Type.String({ examples: ['Organizers'] }),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Type.String({
    description: 'UTC timestamp `YYYY-MM-DD HH:MM:SS.ffffff+00`; a change of the members moves it too',
    examples: ['2026-03-08 17:00:00.000000+00'],
  }),
  members_count: Type.Integer({ minimum: 0 }),
  members: Type.Array(GroupMember, { description: 'Every member of the group, by `added_at`, then `profile_id`' }),
});
export type Group = Static<typeof Group>;
