// The rules of a member's fields that a JSON schema cannot say well: two-part names and http(s) avatars.
import { AppError, type FieldProblem } from '../errors.js';

export interface MemberFields {
  email: string;
  full_name: string;
  avatar_url_original?: string | null;
}

export interface MemberInput {
  email: string;
  /** The e-mail as the database compares it (the unique key per community). */
  emailKey: string;
  fullName: string;
  firstName: string;
  lastName: string;
  /** Undefined when the caller left the avatar out: an existing member keeps theirs. */
  avatar: string | null | undefined;
}

const NAME_RULE = 'must be a first and a last name separated by a space';
const AVATAR_RULE = 'must be an http or https URL with a host';

/** One 400 naming every problem, worded like the schema's own validation errors. */
export function invalidBody(problems: FieldProblem[]): AppError {
  const [first] = problems;
  return new AppError(
    'invalid_body',
    first ? `Invalid body field '${first.field}': ${first.message}.` : undefined,
    problems,
  );
}

/** Splits at the first space: first name before it, last name the rest; null when either is empty. */
function splitFullName(fullName: string): { firstName: string; lastName: string } | null {
  const trimmed = fullName.trim();
  const space = trimmed.indexOf(' ');
  if (space < 0) return null;
  const firstName = trimmed.slice(0, space).trim();
  const lastName = trimmed.slice(space + 1).trim();
  return firstName && lastName ? { firstName, lastName } : null;
}

export function isHttpUrl(value: string): boolean {
  // The schema's `uri` format accepts any scheme and an empty authority (`http://`); a profile image needs a host.
  if (!/^https?:\/\/[^/?#\s]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Normalizes schema-valid fields into a member input, or throws one 400 naming every field that breaks a rule. */
export function toMemberInput(fields: MemberFields): MemberInput {
  const email = fields.email.trim();
  const fullName = fields.full_name.trim();
  const problems: FieldProblem[] = [];
  const name = splitFullName(fullName);
  if (!name) problems.push({ field: 'full_name', message: NAME_RULE });
  const avatar = fields.avatar_url_original;
  if (typeof avatar === 'string' && !isHttpUrl(avatar))
    problems.push({ field: 'avatar_url_original', message: AVATAR_RULE });
  if (problems.length > 0 || !name) throw invalidBody(problems);
  // The preferred name is the name as the response shows it: first and last parts, one space between.
  const shown = `${name.firstName} ${name.lastName}`;
  return {
    email,
    emailKey: email.toLowerCase(),
    fullName: shown,
    firstName: name.firstName,
    lastName: name.lastName,
    avatar,
  };
}
