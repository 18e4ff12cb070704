// Profile rows become the API's profile object (spec 2.4) here and nowhere else.
import { toWire } from '../lib/timestamps.js';
import type { Profile } from '../schemas/profile.js';
import type { ProfileRow } from './profiles.repository.js';

export function toProfile(row: ProfileRow): Profile {
  return {
    profile_id: row.id,
    created_at: toWire(row.created_at),
    preferred_name: row.preferred_name,
    preferred_image_original: row.preferred_image_original,
    preferred_image_1024: row.preferred_image_1024,
    preferred_image_512: row.preferred_image_512,
    preferred_image_192: row.preferred_image_192,
    preferred_image_72: row.preferred_image_72,
    preferred_image_48: row.preferred_image_48,
    preferred_image_32: row.preferred_image_32,
    preferred_image_24: row.preferred_image_24,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    chat_user_id: row.chat_user_id,
    chat_is_admin: Boolean(row.chat_is_admin),
    chat_is_bot: Boolean(row.chat_is_bot),
    chat_first_name: row.chat_first_name,
    chat_last_name: row.chat_last_name,
    chat_image_72: row.chat_image_72,
    chat_image_original: row.chat_image_original,
    is_deactivated: row.deactivated_at !== null,
  };
}
