// Request and response schemas of the group endpoints.
import { Type, type Static } from '@sinclair/typebox';
import { ChatUserIds } from '../schemas/chat-users.js';
import { One, PageOf, PageQuery, unknownFieldsRefused, Uuid } from '../schemas/common.js';
import { Group } from '../schemas/group.js';

export const GroupParams = Type.Object({ group_id: Uuid });
export const GroupListQuery = Type.Object({ ...PageQuery });

export const GroupMembersBody = Type.Object(
  {
    users: ChatUserIds(
      0,
      "Chat user ids of the group's members from now on (0 to 1000; `[]` empties the group; a member named twice counts once)",
    ),
  },
  { additionalProperties: false, ...unknownFieldsRefused },
);
export type GroupMembersBody = Static<typeof GroupMembersBody>;

export const GroupResponse = One(Group);
export const GroupPageResponse = PageOf(Group);
