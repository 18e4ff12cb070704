// Hosted names accepted on import: per record kind, a table of hosted name -> spec name (with the table of
// the object or list a field holds), applied before validation, so that records fetched from the hosted API
// import as they are. A record that names one field both ways is refused; exports always use spec names.
import type { RecordKind } from './records.js';

/** Hosted name -> spec name, or [spec name, table of what the field holds]; a field whose name stays lists itself. */
interface AliasTable {
  readonly [hosted: string]: string | readonly [string, AliasTable];
}

const profile: AliasTable = {
  slack_user_id: 'chat_user_id',
  slack_is_admin: 'chat_is_admin',
  slack_is_bot: 'chat_is_bot',
  slack_first_name: 'chat_first_name',
  slack_last_name: 'chat_last_name',
  slack_image_72: 'chat_image_72',
  slack_image_original: 'chat_image_original',
};

const references: AliasTable = {
  mentioned_slack_users: ['mentioned_chat_users', { slack_user_id: 'chat_user_id' }],
  mentioned_slack_channels: ['mentioned_chat_channels', { slack_channel: 'chat_channel' }],
};

const chatMessage: AliasTable = { parent_slack_message_id: 'parent_chat_message_id' };

const postOrComment: AliasTable = {
  slack_message: ['chat_message', chatMessage],
  author: ['author', profile],
  references: ['references', references],
};

export const hostedAliases: Readonly<Record<RecordKind, AliasTable>> = {
  profile,
  tag: {},
  feed: {
    slack_channel_id: 'chat_channel_id',
    slack_channel_name: 'chat_channel_name',
    slack_channel_num_members: 'chat_channel_num_members',
    slack_channel_purpose_slack_blocks: 'chat_channel_purpose_chat_blocks',
    slack_channel_purpose_slack_blocks_references: ['chat_channel_purpose_chat_blocks_references', references],
    slack_channel_topic_slack_blocks: 'chat_channel_topic_chat_blocks',
    slack_channel_topic_slack_blocks_references: ['chat_channel_topic_chat_blocks_references', references],
  },
  calendar_event: {
    description_slack_blocks: 'description_chat_blocks',
    description_slack_blocks_references: ['description_chat_blocks_references', references],
    recap_slack_blocks: 'recap_chat_blocks',
    recap_slack_blocks_references: ['recap_chat_blocks_references', references],
    luma_event_id: 'partner_event_id',
    published_to: [
      'published_to',
      { slack_channel_id: 'chat_channel_id', slack_message_permalink: 'chat_message_permalink' },
    ],
    hosts: ['hosts', profile],
    speakers: ['speakers', profile],
  },
  post: postOrComment,
  comment: postOrComment,
  badge: { members: ['members', { slack_user_id: 'chat_user_id' }] },
  group: { members: ['members', { slack_user_id: 'chat_user_id' }] },
};

export class AliasError extends Error {}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function inside(value: unknown, table: AliasTable, path: string): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item, i) => {
      const renamed = inside(item, table, `${path}${i}.`);
      changed ||= renamed !== item;
      return renamed;
    });
    return changed ? items : value;
  }
  return isObject(value) ? renameKeys(value, table, path) : value;
}

/** The record with its hosted names replaced; the same object when it has none (spec records are not copied). */
function renameKeys(record: JsonObject, table: AliasTable, path: string): JsonObject {
  let out: JsonObject | null = null;
  for (const [hosted, entry] of Object.entries(table)) {
    const [spec, nested] = typeof entry === 'string' ? [entry, null] : entry;
    const hasHosted = hosted !== spec && Object.hasOwn(record, hosted);
    const hasSpec = Object.hasOwn(record, spec);
    if (hasHosted && hasSpec)
      throw new AliasError(`${path ? `${path.slice(0, -1)}: ` : ''}both '${hosted}' and '${spec}' are given; use one`);
    if (!hasHosted && !hasSpec) continue;
    const value = hasHosted ? record[hosted] : record[spec];
    const converted = nested ? inside(value, nested, `${path}${spec}.`) : value;
    if (!hasHosted && converted === value) continue;
    out ??= { ...record };
    if (hasHosted) delete out[hosted];
    out[spec] = converted;
  }
  return out ?? record;
}

/** A record of `kind` in spec names; throws an AliasError naming the field given under both names. */
export function toSpecNames(kind: RecordKind, record: JsonObject): JsonObject {
  return renameKeys(record, hostedAliases[kind], '');
}
