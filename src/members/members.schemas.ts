// Request and response schemas of adding a member (spec 4.6), and the normalizing that precedes validation.
import { Type, type Static } from '@sinclair/typebox';
import type { FieldProblem } from '../errors.js';
import { Nullable, Uuid } from '../schemas/common.js';
import { Member } from '../schemas/member.js';
import { invalidBody } from './member-input.js';

// Unknown fields are dropped (the shared validator removes what `additionalProperties: false` forbids),
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
 * Runs before validation. DECISIONS trims e-mail and full name, so the schema's bounds and formats
 * judge the trimmed value. The shared validator coerces types (`["x"]` and `5` would become strings),
 * so a value of the wrong type is refused here first, in the same error shape.
 */
export function normalizeMemberBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const fields = body as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  for (const field of ['email', 'full_name'] as const) {
    const value = fields[field];
    if (typeof value === 'string') fields[field] = value.trim();
    else if (value !== undefined) problems.push({ field, message: 'must be string' });
  }
  const avatar = fields['avatar_url_original'];
  if (avatar !== undefined && avatar !== null && typeof avatar !== 'string') {
    problems.push({ field: 'avatar_url_original', message: 'must be string or null' });
  }
  if (problems.length > 0) throw invalidBody(problems);
}
