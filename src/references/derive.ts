// Fields derived from rich text when a record leaves them out (imported records, event writes): plain text, read
// time and references, with mentions resolved against the community's own profiles and feeds.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { writeJson } from '../db/json.js';
import {
  blocksToPlaintext,
  extractProsemirrorReferences,
  extractReferences,
  prosemirrorToPlaintext,
  readTimeMinutes,
  type NameResolvers,
  type ReferenceResolver,
} from '../content/rich-text.js';
import type { References } from '../schemas/references.js';

/** Who a chat user id is and which feed a chat channel id is: what mentions resolve against. */
export interface ResolverTables {
  users: Map<string, { profile_id: string; preferred_name: string | null }>;
  channels: Map<string, { id: string; label: string; slug: string; channel_name: string }>;
}

/** The community's resolver tables as the store holds them now. */
export async function loadResolverTables(db: Kysely<Database>, communityId: string): Promise<ResolverTables> {
  const [profiles, feeds] = await Promise.all([
    db
      .selectFrom('profiles')
      .select(['id', 'preferred_name', 'chat_user_id'])
      .where('community_id', '=', communityId)
      .where('chat_user_id', 'is not', null)
      .execute(),
    db
      .selectFrom('feeds')
      .select(['id', 'label', 'slug', 'chat_channel_id', 'chat_channel_name'])
      .where('community_id', '=', communityId)
      .execute(),
  ]);
  return {
    users: new Map(profiles.map((p) => [p.chat_user_id ?? '', { profile_id: p.id, preferred_name: p.preferred_name }])),
    channels: new Map(
      feeds
        .filter((f) => f.chat_channel_id)
        .map((f) => [
          f.chat_channel_id ?? '',
          { id: f.id, label: f.label, slug: f.slug, channel_name: f.chat_channel_name ?? f.label },
        ]),
    ),
  };
}

export async function createDeriver(db: Kysely<Database>, communityId: string) {
  return deriverOf(await loadResolverTables(db, communityId));
}

/** A deriver over tables the caller may keep changing (the import worker adds the file's profiles and feeds as they come). */
export function deriverOf({ users, channels }: ResolverTables) {
  const resolver: ReferenceResolver = {
    userByChatId: (id) => users.get(id),
    feedByChannelId: (id) => channels.get(id),
  };
  const referencesOf = (blocks: unknown[] | null, prosemirror: unknown): References =>
    !blocks?.length && prosemirror
      ? extractProsemirrorReferences(prosemirror, resolver)
      : extractReferences(blocks ?? [], resolver);
  const names: NameResolvers = {
    userName: (id) => users.get(id)?.preferred_name,
    channelName: (id) => channels.get(id)?.channel_name,
  };

  return {
    plaintext(blocks: unknown[] | null, prosemirror: unknown): string | null {
      if (blocks && blocks.length > 0) return blocksToPlaintext(blocks, names);
      if (prosemirror) return prosemirrorToPlaintext(prosemirror, names);
      return null;
    },
    readTime: (text: string | null): number => readTimeMinutes(text ?? ''),
    /** References as JSON text, from the blocks when there are any, else from the ProseMirror body. */
    references(blocks: unknown[] | null, prosemirror: unknown = null): string {
      return writeJson(referencesOf(blocks, prosemirror));
    },
    /** The same references as a value, for a caller that also needs it unwritten (the import renders it too). */
    referencesValue: (blocks: unknown[] | null, prosemirror: unknown = null): References =>
      referencesOf(blocks, prosemirror),
  };
}
export type Deriver = ReturnType<typeof deriverOf>;
