// The hosted product's names for the spec's neutral ones: in a key, each word `chat` becomes `slack` and each
// word `partner` becomes `luma` (`description_chat_blocks` -> `description_slack_blocks`, `partner_event_id`
// -> `luma_event_id`). Block contents keep their own keys: the values of these keys are never renamed inside.

const hostedWords: Record<string, string> = { chat: 'slack', partner: 'luma' };
const specWords: Record<string, string> = { slack: 'chat', luma: 'partner' };

const rename = (key: string, words: Record<string, string>): string =>
  key
    .split('_')
    .map((word) => words[word] ?? word)
    .join('_');

const hostedCache = new Map<string, string>();

/** The hosted name of a spec key (the key itself when it has neither word). Keys come from the response schemas, so the cache stays small. */
export function hostedKey(key: string): string {
  let name = hostedCache.get(key);
  if (name === undefined) {
    name = rename(key, hostedWords);
    hostedCache.set(key, name);
  }
  return name;
}

/** The spec name of a hosted key. */
export const specKey = (key: string): string => rename(key, specWords);

/** Keys whose values are block contents or a document body: passed through untouched in both directions. */
export function isOpaqueKey(key: string): boolean {
  return (
    key === 'blocks' || key === 'body_prosemirror' || key.endsWith('_chat_blocks') || key.endsWith('_slack_blocks')
  );
}

/**
 * Every key of Hearth's answers that the hosted mode renames, in spec names. The response schemas hold no
 * other key with either word (test/hosted/hosted-names.test.ts checks the document against this list).
 */
export const renamedKeys = [
  'chat_channel',
  'chat_channel_id',
  'chat_channel_name',
  'chat_channel_num_members',
  'chat_channel_purpose_chat_blocks',
  'chat_channel_purpose_chat_blocks_references',
  'chat_channel_topic_chat_blocks',
  'chat_channel_topic_chat_blocks_references',
  'chat_first_name',
  'chat_image_72',
  'chat_image_original',
  'chat_is_admin',
  'chat_is_bot',
  'chat_last_name',
  'chat_message',
  'chat_message_permalink',
  'chat_profile_id',
  'chat_user_id',
  'description_chat_blocks',
  'description_chat_blocks_references',
  'mentioned_chat_channels',
  'mentioned_chat_users',
  'parent_chat_message_id',
  'partner_event_id',
  'recap_chat_blocks',
  'recap_chat_blocks_references',
] as const;
