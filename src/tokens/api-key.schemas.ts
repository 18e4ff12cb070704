// The calling token as `GET /api_key/me` shows it: never its secret.
import { Type, type Static } from '@sinclair/typebox';
import { fieldNameModes } from './field-names.js';
import { scopes } from './scopes.js';
import { Nullable, StringEnum, Timestamp, Uuid } from '../schemas/common.js';

export const ApiKey = Type.Object({
  id: Uuid,
  name: Nullable(Type.String()),
  field_names: StringEnum(fieldNameModes, {
    description:
      "`spec`: answers use the names of this document; `hosted`: the hosted product's names and formats (see the description of the API)",
  }),
  scopes: Type.Array(StringEnum(scopes)),
  community: Type.Object({ id: Uuid, slug: Type.String(), name: Type.String() }),
  created_at: Timestamp,
  expires_at: Nullable(Timestamp),
  last_used_at: Nullable(Timestamp),
});
export type ApiKey = Static<typeof ApiKey>;
