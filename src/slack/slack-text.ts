// A message's text as Hearth keeps it: the rich-text blocks (a composed message's own, or one made from its mrkdwn
// `text`), their plain text with people and channels named, and a post's title.
import { blocksToPlaintext, type NameResolvers } from '../content/rich-text.js';
import { nonEmptyStringOf, recordsOf, stringOf, type JsonRecord } from '../content/loose-json.js';
import { parseHttpUrl } from '../content/urls.js';
import { mrkdwnBlocks } from './mrkdwn.js';

/** Longest title; a longer first line is cut at the last word boundary before it, and ends in '…'. */
export const TITLE_LENGTH = 80;

/** The message's rich_text blocks when it has them, else blocks made from its mrkdwn `text`, else its other blocks. */
export function blocksOfMessage(message: JsonRecord): JsonRecord[] | null {
  const blocks = recordsOf(message.blocks);
  if (blocks.some((block) => block.type === 'rich_text')) return blocks;
  const text = stringOf(message.text) ?? '';
  return mrkdwnBlocks(text) ?? (blocks.length > 0 ? blocks : null);
}

/** A value that is an absolute http(s) URL, else undefined: where the API answers a URL, nothing else gets in. */
export function httpUrlOf(value: unknown): string | undefined {
  return typeof value === 'string' && parseHttpUrl(value) !== undefined ? value : undefined;
}

/** The block_id of the block listing a message's files. */
export const FILES_BLOCK_ID = 'hearth_files';

/**
 * The block listing a message's files, after its own blocks: a bullet list of links, each to a file's permalink
 * named by its title (else its name). Files hidden by the plan's limit, or without an http(s) permalink, are not
 * listed (they are counted all the same); null when none is.
 */
export function filesBlockOf(files: readonly JsonRecord[]): JsonRecord | null {
  const items: JsonRecord[] = [];
  for (const file of files) {
    if (file.mode === 'hidden_by_limit') continue;
    const url = httpUrlOf(file.permalink);
    if (url === undefined) continue;
    const text = nonEmptyStringOf(file.title) ?? nonEmptyStringOf(file.name) ?? url;
    items.push({ type: 'rich_text_section', elements: [{ type: 'link', url, text }] });
  }
  if (items.length === 0) return null;
  return {
    type: 'rich_text',
    block_id: FILES_BLOCK_ID,
    elements: [{ type: 'rich_text_list', style: 'bullet', indent: 0, elements: items }],
  };
}

export function plaintextOf(blocks: JsonRecord[] | null, names: NameResolvers): string | null {
  if (blocks === null) return null;
  const text = blocksToPlaintext(blocks, names);
  return text === '' ? null : text;
}

/**
 * A post's title: the first non-empty line of its plain text, cut at a word boundary past TITLE_LENGTH; a message
 * with no text is titled by its first file's title or name; null when it has neither.
 */
export function titleOf(plaintext: string | null, files: JsonRecord[]): string | null {
  let line: string | undefined;
  for (const part of plaintext?.split('\n') ?? []) {
    line = part.trim();
    if (line !== '') break;
    line = undefined;
  }
  if (line === undefined) {
    const file = files[0];
    return (file && (stringOf(file.title) || stringOf(file.name))) || null;
  }
  // As many code points as UTF-16 units at most: a line no longer than the title in units needs no counting.
  if (line.length <= TITLE_LENGTH || [...line].length <= TITLE_LENGTH) return line;
  const cut = [...line].slice(0, TITLE_LENGTH).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
