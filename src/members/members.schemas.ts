// Request and response schemas of adding a member (spec 4.6), and the trimming that precedes validation.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Uuid } from '../schemas/common.js';
import { Member } from '../schemas/member.js';

// Unknown fields are dropped (the body's validator removes what `additionalProperties: false` forbids),
// so they never reach the member or the idempotency hash.
export const AddMemberBody = Type.Object(
  {
    email: Type.String({
      minLength: 1,
      maxLength: 254,
      format: 'email',
      description: 'Trimmed; compared case-insensitively. An existing e-mail updates that member.',
      examples: ['ada@example.com'],
    }),
    full_name: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Trimmed; a first and a last name separated by a space (first name = first part, last name = the rest)',
      examples: ['Ada Lovelace'],
    }),
    avatar_url_original: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2048,
          format: 'uri',
          description: 'An http(s) URL. Absent keeps the current avatar of an existing member; null removes it.',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type AddMemberBody = Static<typeof AddMemberBody>;

export const MemberParams = Type.Object({ member_id: Uuid });

export const AddMemberResponse = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  data: Type.Object({ member: Member }),
});
export type AddMemberResponse = Static<typeof AddMemberResponse>;

/**
 * Runs before validation: DECISIONS trims e-mail and full name, so the schema's bounds and formats judge the
 * trimmed value. A value of another type is left for the validator to refuse.
 */
export function trimMemberBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const fields = body as Record<string, unknown>;
  for (const field of ['email', 'full_name'] as const) {
    const value = fields[field];
    if (typeof value === 'string') fields[field] = value.trim();
  }
}
