// The shape of the chat product's rich-text blocks (spec 2.6): which nodes hold which, walked without trusting input.
import { isRecord, recordsOf, stringOf, type JsonRecord } from './loose-json.js';

/** Nodes whose `elements` are further nodes rather than text; everything else is a leaf. */
const CONTAINER_TYPES: ReadonlySet<string> = new Set([
  'rich_text',
  'rich_text_section',
  'rich_text_list',
  'rich_text_quote',
  'rich_text_preformatted',
]);

/** Deeper than any real message; bounding recursion keeps hostile input from overflowing the stack. */
export const MAX_DEPTH = 64;

/** The leaves under a container, in reading order (appended to `into`, one array for the whole walk). */
export function leavesOf(container: JsonRecord, depth = 0, into: JsonRecord[] = []): JsonRecord[] {
  if (depth > MAX_DEPTH) return into;
  for (const node of recordsOf(container.elements)) {
    if (typeof node.type === 'string' && CONTAINER_TYPES.has(node.type)) leavesOf(node, depth + 1, into);
    else into.push(node);
  }
  return into;
}

/** The text of a top-level `section` or `header` block (`text: {type: 'mrkdwn' | 'plain_text', text}`). */
export function topLevelText(block: JsonRecord): string | undefined {
  if (block.type !== 'section' && block.type !== 'header') return undefined;
  return isRecord(block.text) ? stringOf(block.text.text) : undefined;
}

/**
 * Every leaf of every block, in reading order. The text of section and header blocks
 * comes as a `text` leaf so that readers of leaves see it too.
 */
export function blockLeaves(blocks: unknown): JsonRecord[] {
  const leaves: JsonRecord[] = [];
  for (const block of recordsOf(blocks)) {
    if (block.type === 'rich_text') leavesOf(block, 0, leaves);
    else {
      const text = topLevelText(block);
      if (text !== undefined) leaves.push({ type: 'text', text });
    }
  }
  return leaves;
}

/**
 * Joins rendered parts with newlines, without doubling one a part already ends with:
 * the chat product often ends a section with "\n" before a list or quote.
 */
export function joinLines(parts: readonly string[]): string {
  let joined = '';
  parts.forEach((part, index) => {
    if (index > 0 && !joined.endsWith('\n')) joined += '\n';
    joined += part;
  });
  return joined;
}
