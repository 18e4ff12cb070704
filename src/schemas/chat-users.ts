// The `users` of badge and group writes: the chat user ids (a profile's `chat_user_id`) of the community's members.
import { Type } from '@sinclair/typebox';

/** The most members one request may name: a large group is replaced in one body of about 20 KB. */
export const MAX_USERS = 1000;

export const ChatUserId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "A member's chat user id (the `chat_user_id` of their profile), matched exactly",
  examples: ['U0ADA00001'],
});

export const ChatUserIds = (minItems: number, description: string) =>
  Type.Array(ChatUserId, { minItems, maxItems: MAX_USERS, description });
