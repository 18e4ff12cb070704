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

/** The first line of `text` with something besides white space, trimmed; undefined when there is none. */
function firstLineOf(text: string): string | undefined {
  // Line by line from the start, not every line split off: most texts' first line is the one.
  let from = 0;
  for (;;) {
    const end = text.indexOf('\n', from);
    const line = (end < 0 ? text.slice(from) : text.slice(from, end)).trim();
    if (line !== '') return line;
    if (end < 0) return undefined;
    from = end + 1;
  }
}

/** Where the first `count` code points of `text` end (as `[...text]` counts them: a lone surrogate is one), or -1. */
function codePointsEnd(text: string, count: number): number {
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at >= text.length) return -1;
    const unit = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    at += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return at;
}

/**
 * A post's title: the first non-empty line of its plain text, cut at a word boundary past TITLE_LENGTH; a message
 * with no text is titled by its first file's title or name; null when it has neither.
 */
export function titleOf(plaintext: string | null, files: JsonRecord[]): string | null {
  const line = plaintext === null ? undefined : firstLineOf(plaintext);
  if (line === undefined) {
    const file = files[0];
    return (file && (stringOf(file.title) || stringOf(file.name))) || null;
  }
  // As many code points as UTF-16 units at most: a line no longer than the title in units needs no counting.
  if (line.length <= TITLE_LENGTH) return line;
  const end = codePointsEnd(line, TITLE_LENGTH);
  if (end < 0 || end === line.length) return line;
  const cut = line.slice(0, end);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
