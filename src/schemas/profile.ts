// The profile (spec 2.4), used for hosts, speakers and post authors.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp, Url, Uuid } from './common.js';

export const imageSizes = [1024, 512, 192, 72, 48, 32, 24] as const;

export const Profile = Type.Object({
  profile_id: Uuid,
  created_at: Timestamp,
  preferred_name: Nullable(Type.String()),
  preferred_image_original: Nullable(Url),
  preferred_image_1024: Nullable(Url),
  preferred_image_512: Nullable(Url),
  preferred_image_192: Nullable(Url),
  preferred_image_72: Nullable(Url),
  preferred_image_48: Nullable(Url),
  preferred_image_32: Nullable(Url),
  preferred_image_24: Nullable(Url),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  chat_user_id: Nullable(Type.String()),
  chat_is_admin: Type.Boolean(),
  chat_is_bot: Type.Boolean(),
  chat_first_name: Nullable(Type.String()),
  chat_last_name: Nullable(Type.String()),
  chat_image_72: Nullable(Url),
  chat_image_original: Nullable(Url),
  is_deactivated: Type.Boolean({ description: 'True once the member was deactivated; what they wrote or host stays' }),
});
export type Profile = Static<typeof Profile>;
