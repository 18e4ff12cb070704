// Renders records to their wire JSON with the response schemas' own serializer (fast-json-stringify, as
// Fastify uses), leaving a 0x00 byte wherever an embedded profile, feed or tag is spliced in at read time.
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import build from 'fast-json-stringify';
import { CalendarEvent, Tag } from '../schemas/event.js';
import { FeedSummary, Post } from '../schemas/post.js';
import { Profile } from '../schemas/profile.js';

/** Where a spliced fragment goes. A raw 0x00 never occurs in JSON text (strings escape it as \u0000). */
const HOLE = '\u0000';
export const HOLE_BYTE = 0;

export type EmbedKind = 'p' | 'f' | 't';
/** How an embedded key holds its fragments: one (or null), or an array of them. */
type EmbedShape = { kind: EmbedKind; many: boolean };

export interface Rendered {
  /** The record's JSON with holes. */
  text: string;
  /** `kind:id` for each hole, in order. */
  refs: string[];
}

type Segment = { fields: (record: object) => string } | { key: string; embed: EmbedShape };

/**
 * A serializer for `schema` whose embedded keys become holes. Runs of other keys are serialized by the
 * schema's own fast-json-stringify code (a Pick of those keys), so every value's bytes are exactly what the
 * response serializer writes; a test compares whole answers byte for byte.
 */
function templateOf<S extends TObject>(schema: S, embeds: Record<string, EmbedShape>) {
  const segments: Segment[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const stringify = build(Type.Pick(schema, run) as TSchema) as (value: object) => string;
    segments.push({ fields: (record) => stringify(record).slice(1, -1) });
    run = [];
  };
  for (const key of Object.keys(schema.properties)) {
    const embed = embeds[key];
    if (embed) {
      flush();
      segments.push({ key, embed });
    } else run.push(key);
  }
  flush();

  return (record: Static<S>, ids: Record<string, string | null | readonly string[]>): Rendered => {
    const refs: string[] = [];
    const part = (segment: Segment): string => {
      if ('fields' in segment) return segment.fields(record);
      const { key, embed } = segment;
      const value = ids[key];
      const hole = (id: string) => {
        refs.push(`${embed.kind}:${id}`);
        return HOLE;
      };
      if (embed.many) return `${JSON.stringify(key)}:[${(Array.isArray(value) ? value : []).map(hole).join(',')}]`;
      return `${JSON.stringify(key)}:${typeof value === 'string' ? hole(value) : 'null'}`;
    };
    // Braces and commas are pieces of one array joined once: the text comes out flat, where the braces put around
    // the joined parts made a string of three that was copied flat again to be encoded.
    const pieces = ['{'];
    for (const segment of segments) {
      if (pieces.length > 1) pieces.push(',');
      pieces.push(part(segment));
    }
    pieces.push('}');
    return { text: pieces.join(''), refs };
  };
}

const stringify = <S extends TSchema>(schema: S) => build(schema) as (value: Static<S>) => string;

export const renderProfile = stringify(Profile);
export const renderFeedSummary = stringify(FeedSummary);
export const renderTag = stringify(Tag);
export const renderPostTemplate = templateOf(Post, {
  author: { kind: 'p', many: false },
  feed: { kind: 'f', many: false },
});
export const renderEventTemplate = templateOf(CalendarEvent, {
  hosts: { kind: 'p', many: true },
  speakers: { kind: 'p', many: true },
  tags: { kind: 't', many: true },
});
