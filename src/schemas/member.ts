// The member (spec 2.10): the answer of adding a member, a view of the member's profile.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Url, Uuid } from './common.js';

export const Member = Type.Object({
  id: Uuid,
  email: Nullable(
    Type.String({ description: 'E-mail address as first given; members are matched by it case-insensitively' }),
  ),
  full_name: Nullable(Type.String({ description: 'First and last name' })),
  preferred_name: Nullable(Type.String()),
  avatar_url_original: Nullable(Url),
  chat_profile_id: Nullable(
    Type.String({ description: 'Chat user id; null until the member is linked to a chat account' }),
  ),
  is_deactivated: Type.Boolean({
    description: 'True once the member was deactivated; adding the member again reactivates them',
  }),
});
export type Member = Static<typeof Member>;
