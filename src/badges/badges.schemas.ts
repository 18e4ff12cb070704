// Request and response schemas of the badge endpoints.
import { Type, type Static } from '@sinclair/typebox';
import { Badge } from '../schemas/badge.js';
import { ChatUserIds } from '../schemas/chat-users.js';
import { One, PageOf, PageQuery, unknownFieldsRefused, Uuid } from '../schemas/common.js';

export const BadgeParams = Type.Object({ badge_id: Uuid });
export const BadgeListQuery = Type.Object({ ...PageQuery });

export const AssignBadgeBody = Type.Object(
  {
    users: ChatUserIds(
      1,
      'Chat user ids of the members to give the badge to (1 to 1000; a member named twice, or holding it already, is no change)',
    ),
  },
  { additionalProperties: false, ...unknownFieldsRefused },
);
export type AssignBadgeBody = Static<typeof AssignBadgeBody>;

export const BadgeResponse = One(Badge);
export type BadgeResponse = Static<typeof BadgeResponse>;
export const BadgePageResponse = PageOf(Badge);
