// Import records (the ones an export or a sync makes of the same Slack objects) turned into rows by the import's own
// parser, so that a live message, profile or channel is stored exactly as an imported one; mentions resolve against
// only the users and channels the record names.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { parseLine } from '../import/parse-line.js';
import { emptyPlan, type ImportPlan } from '../import/plan.js';
import type { ResolverTables } from '../references/derive.js';

/** The plan of one record, as the import would parse it at `now`; throws the import's error for a bad record. */
export function planOf(record: Record<string, unknown>, now: string): ImportPlan {
  const plan = emptyPlan();
  parseLine(plan, JSON.stringify(record), 1, now);
  return plan;
}

/** Chat user and channel ids a message's blocks name (`user_id`, `channel_id`), wherever they nest. */
export function namedIds(blocks: unknown): { users: Set<string>; channels: Set<string> } {
  const users = new Set<string>();
  const channels = new Set<string>();
  const stack: unknown[] = [blocks];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'user_id' && typeof inner === 'string') users.add(inner);
        else if (key === 'channel_id' && typeof inner === 'string') channels.add(inner);
        else if (typeof inner === 'object') stack.push(inner);
      }
    }
  }
  return { users, channels };
}

/** The resolver tables of the users and channels named, as the store holds them (the import loads them all). */
export async function resolverOf(
  db: Kysely<Database>,
  communityId: string,
  named: { users: Set<string>; channels: Set<string> },
): Promise<ResolverTables> {
  const users = named.users.size
    ? await db
        .selectFrom('profiles')
        .select(['id', 'preferred_name', 'chat_user_id'])
        .where('community_id', '=', communityId)
        .where('chat_user_id', 'in', [...named.users])
        .execute()
    : [];
  const feeds = named.channels.size
    ? await db
        .selectFrom('feeds')
        .select(['id', 'label', 'slug', 'chat_channel_id', 'chat_channel_name'])
        .where('community_id', '=', communityId)
        .where('chat_channel_id', 'in', [...named.channels])
        .execute()
    : [];
  return {
    users: new Map(users.map((p) => [p.chat_user_id ?? '', { profile_id: p.id, preferred_name: p.preferred_name }])),
    channels: new Map(
      feeds.map((f) => [
        f.chat_channel_id ?? '',
        { id: f.id, label: f.label, slug: f.slug, channel_name: f.chat_channel_name ?? f.label },
      ]),
    ),
  };
}
