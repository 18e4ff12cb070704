// Names the shared shapes of the OpenAPI document: inline copies of known schemas become `$ref`s to `components.schemas`.
import type { TSchema } from '@sinclair/typebox';
import { Badge } from '../schemas/badge.js';
import { ErrorBody } from '../schemas/common.js';
import { CalendarEvent, PublishedTo, Tag } from '../schemas/event.js';
import { Group } from '../schemas/group.js';
import { Member } from '../schemas/member.js';
import { ChatMessage, Comment, FeedSummary, ParentPost, Post } from '../schemas/post.js';
import { Profile } from '../schemas/profile.js';
import { ChatBlock, References } from '../schemas/references.js';

const named: Record<string, TSchema> = {
  Error: ErrorBody,
  CalendarEvent,
  Post,
  Comment,
  Member,
  Profile,
  Tag,
  PublishedTo,
  References,
  ChatMessage,
  ChatBlock,
  FeedSummary,
  ParentPost,
  Badge,
  Group,
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key-order-independent fingerprint of a schema; its own top-level description does not count. */
function fingerprint(schema: JsonObject): string {
  const { description: _ignored, ...rest } = schema;
  const canonical = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(canonical);
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical(value[key] ?? null)]),
    );
  };
  return JSON.stringify(canonical(rest));
}

const byFingerprint = new Map<string, string>(
  Object.entries(named).map(([name, schema]) => [fingerprint(JSON.parse(JSON.stringify(schema)) as JsonObject), name]),
);

/** Replaces known schemas inside `value` by references, top down; `self` is not replaced by a reference to itself. */
function refer(value: Json, used: Set<string>, self?: string): Json {
  if (Array.isArray(value)) return value.map((item) => refer(item, used));
  if (!isObject(value)) return value;
  const name = byFingerprint.get(fingerprint(value));
  if (name && name !== self) {
    used.add(name);
    // OpenAPI 3.1 allows a description beside `$ref`: a use that says more than the shared schema keeps it.
    const own = value['description'];
    const shared = named[name]?.description;
    return {
      $ref: `#/components/schemas/${name}`,
      ...(typeof own === 'string' && own !== shared ? { description: own } : {}),
    };
  }
  // Examples are data, not schemas.
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === 'example' || key === 'examples' ? inner : refer(inner, used),
    ]),
  );
}

/** Rewrites the request and response schemas of `paths` in place and adds the schemas used to the components. */
export function nameSharedSchemas(document: { paths?: object; components?: object }): void {
  const used = new Set<string>();
  document.paths = refer(JSON.parse(JSON.stringify(document.paths ?? {})) as Json, used) as JsonObject;
  const schemas: JsonObject = {};
  // A named schema may use others (an event holds profiles): resolve until no new name appears.
  for (let size = -1; size !== used.size; ) {
    size = used.size;
    for (const name of [...used]) schemas[name] = refer(JSON.parse(JSON.stringify(named[name])) as Json, used, name);
  }
  const sorted = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((name) => [name, schemas[name] ?? null]),
  );
  const components: { schemas?: object } = document.components ?? {};
  document.components = { ...components, schemas: { ...components.schemas, ...sorted } };
}
