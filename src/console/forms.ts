// Form bodies as the console's routes validate them: TypeBox objects of strings that carry the CSRF field, and
// the actor of a change an operator makes.
import { Type, type TProperties } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../writes/actor.js';
import { operatorOf } from './session.js';

/** A form's fields plus `_csrf` (kept through validation, which drops unknown fields, for the CSRF check after it). */
export const Form = <T extends TProperties>(fields: T) =>
  Type.Object({ ...fields, _csrf: Type.Optional(Type.String({ maxLength: 200 })) });

/** An optional text field of at most `max` characters (an empty input arrives as ''). */
export const Field = (max = 500) => Type.Optional(Type.String({ maxLength: max }));

/** A checkbox: present ("on") when ticked. */
export const Checkbox = () => Type.Optional(Type.String({ maxLength: 10 }));

export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 63 }) });

/** Who the audit trail names for an operator's change: `operator:` and their e-mail, with the request's id. */
export function operatorActor(request: FastifyRequest, communityId: string): Actor {
  return { communityId, tokenId: `operator:${operatorOf(request).email}`, requestId: request.id };
}

/** A page number from the query (0 when absent). */
export const PageParams = {
  page: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
  per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
};
