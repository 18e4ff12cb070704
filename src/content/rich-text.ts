// Plain text of the chat product's rich-text blocks (spec 2.6), for body_plaintext and search.
import { joinLines, leavesOf, MAX_DEPTH, topLevelText } from './blocks.js';
import { emojiFromCodepoints } from './emoji.js';
import { nonEmptyStringOf, recordsOf, stringOf, type JsonRecord } from './loose-json.js';
import type { NameResolvers } from './names.js';

// Slack caps list indentation well below this; the cap keeps a hostile indent from building a huge string.
const MAX_INDENT = 16;

export function blocksToPlaintext(blocks: unknown, names: NameResolvers = {}): string {
  const parts: string[] = [];
  for (const block of recordsOf(blocks)) {
    const text = block.type === 'rich_text' ? renderContainers(block, names, 0) : topLevelText(block);
    if (text !== undefined) parts.push(text);
  }
  return joinLines(parts).trimEnd();
}

/** Undefined when nothing inside is renderable, so an empty block adds no blank line. */
function renderContainers(parent: JsonRecord, names: NameResolvers, depth: number): string | undefined {
  const parts: string[] = [];
  for (const container of recordsOf(parent.elements)) {
    const text = renderContainer(container, names, depth + 1);
    if (text !== undefined) parts.push(text);
  }
  return parts.length > 0 ? joinLines(parts) : undefined;
}

function renderContainer(container: JsonRecord, names: NameResolvers, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  switch (container.type) {
    case 'rich_text_section':
    case 'rich_text_preformatted':
      return renderInline(container, names, depth);
    case 'rich_text_quote':
      return prefixLines(withoutFinalNewline(renderInline(container, names, depth)), '> ');
    case 'rich_text_list':
      return renderList(container, names, depth).join('\n');
    default:
      return undefined;
  }
}

function renderInline(container: JsonRecord, names: NameResolvers, depth: number): string {
  return leavesOf(container, depth)
    .map((leaf) => renderLeaf(leaf, names))
    .join('');
}

function renderList(list: JsonRecord, names: NameResolvers, depth: number): string[] {
  const indent = '  '.repeat(clampedInteger(list.indent, 0, MAX_INDENT));
  // A list interrupted by a nested one resumes its numbering through `offset`.
  let number = clampedInteger(list.offset, 0, Number.MAX_SAFE_INTEGER);
  const lines: string[] = [];
  for (const item of recordsOf(list.elements)) {
    if (item.type === 'rich_text_list') {
      // A loop, not push(...lines): spreading a huge hostile list would overflow the argument limit.
      if (depth < MAX_DEPTH) for (const line of renderList(item, names, depth + 1)) lines.push(line);
      continue;
    }
    number += 1;
    const marker = list.style === 'ordered' ? `${number}. ` : '- ';
    const text = withoutFinalNewline(renderInline(item, names, depth));
    // Continuation lines of a multi-line item align under its first character.
    const [first = '', ...rest] = text.split('\n');
    lines.push(indent + marker + first, ...rest.map((line) => indent + ' '.repeat(marker.length) + line));
  }
  return lines;
}

function renderLeaf(leaf: JsonRecord, names: NameResolvers): string {
  switch (leaf.type) {
    case 'text':
      return stringOf(leaf.text) ?? '';
    case 'link':
      return nonEmptyStringOf(leaf.text) ?? stringOf(leaf.url) ?? '';
    case 'user':
      return mention('@', stringOf(leaf.user_id), names.userName);
    case 'channel':
      return mention('#', stringOf(leaf.channel_id), names.channelName);
    case 'usergroup':
      return mention('@', stringOf(leaf.usergroup_id), undefined);
    case 'broadcast':
      return mention('@', stringOf(leaf.range), undefined);
    case 'emoji': {
      const unicode = stringOf(leaf.unicode);
      const character = unicode === undefined ? null : emojiFromCodepoints(unicode);
      if (character !== null) return character;
      const name = nonEmptyStringOf(leaf.name);
      return name === undefined ? '' : `:${name}:`;
    }
    case 'date':
      return stringOf(leaf.fallback) ?? '';
    case 'color':
      return stringOf(leaf.value) ?? '';
    default:
      return '';
  }
}

type NameOf = (id: string) => string | null | undefined;

function mention(sigil: string, id: string | undefined, resolve: NameOf | undefined): string {
  if (id === undefined || id === '') return '';
  return sigil + (nonEmptyStringOf(resolve?.(id)) ?? id);
}

function prefixLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? prefix.trimEnd() : prefix + line))
    .join('\n');
}

function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

function clampedInteger(value: unknown, min: number, max: number): number {
  return typeof value === 'number' && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : min;
}

// One import for callers deriving a post's fields, whichever body it came with.
export { prosemirrorToPlaintext } from './prosemirror.js';
export { extractReferences, extractProsemirrorReferences, type ReferenceResolver } from './references.js';
export { readTimeMinutes } from './read-time.js';
export type { NameResolvers } from './names.js';
