// A profile row becomes the API's member (spec 2.10) here and nowhere else.
import type { ProfileRow } from '../profiles/profiles.repository.js';
import type { Member } from '../schemas/member.js';

/** First and last name when the profile has them; a profile imported with only a preferred name shows that. */
function fullNameOf(row: ProfileRow): string | null {
  const parts = [row.first_name, row.last_name].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(' ') : row.preferred_name;
}

export function toMember(row: ProfileRow): Member {
  return {
    id: row.id,
    email: row.email,
    full_name: fullNameOf(row),
    preferred_name: row.preferred_name,
    avatar_url_original: row.preferred_image_original,
    chat_profile_id: row.chat_user_id,
    is_deactivated: row.deactivated_at !== null,
  };
}
