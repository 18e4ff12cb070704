// Request and response schemas of event registrations: register (POST), unregister (DELETE) and the list (GET).
import { Type, type Static } from '@sinclair/typebox';
import { PageOf, PageQuery, ShortId, Timestamp, Uuid } from '../schemas/common.js';
import { Member } from '../schemas/member.js';
import { AddMemberBody } from '../members/members.schemas.js';

/** The person registering: the add-member body's e-mail and full name (unknown fields dropped). */
export const RegisterBody = Type.Pick(AddMemberBody, ['email', 'full_name'], { additionalProperties: false });
export type RegisterBody = Static<typeof RegisterBody>;

export const RegistrationsParams = Type.Object({ calendar_event_id: ShortId });
export const RegistrationParams = Type.Object({ calendar_event_id: ShortId, member_id: Uuid });
export const RegistrationsQuery = Type.Object({ ...PageQuery });

export const Registration = Type.Object({
  event_id: ShortId,
  registered_at: Timestamp,
  member: Member,
});
export type Registration = Static<typeof Registration>;

export const RegistrationResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  data: Type.Object({ registration: Registration }),
});
export type RegistrationResponse = Static<typeof RegistrationResponse>;

export const RegistrationPageResponse = PageOf(Registration);
