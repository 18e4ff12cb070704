// Plain text of ProseMirror documents (a post's body_prosemirror), and a safe walk over their nodes.
import { MAX_DEPTH } from './blocks.js';
import { isRecord, nonEmptyStringOf, recordsOf, stringOf, type JsonRecord } from './loose-json.js';
import type { NameResolvers } from './names.js';

/** Nodes that flow within a line; any other node is a block and starts a new one. */
const INLINE_TYPES: ReadonlySet<string> = new Set(['text', 'hard_break', 'hardBreak', 'mention', 'emoji', 'image']);

export function prosemirrorToPlaintext(doc: unknown, names: NameResolvers = {}): string {
  return isRecord(doc) ? renderNode(doc, names, 0).trimEnd() : '';
}

/** Every node of the document, depth first in reading order, the document itself included. */
export function prosemirrorNodes(doc: unknown): JsonRecord[] {
  const nodes: JsonRecord[] = [];
  const visit = (node: JsonRecord, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    nodes.push(node);
    for (const child of recordsOf(node.content)) visit(child, depth + 1);
  };
  if (isRecord(doc)) visit(doc, 0);
  return nodes;
}

function renderNode(node: JsonRecord, names: NameResolvers, depth: number): string {
  switch (node.type) {
    case 'text':
      return stringOf(node.text) ?? '';
    case 'hard_break':
    case 'hardBreak':
      return '\n';
    case 'mention': {
      const attrs = isRecord(node.attrs) ? node.attrs : {};
      const id = nonEmptyStringOf(attrs.id);
      const resolved = id === undefined ? undefined : nonEmptyStringOf(names.userName?.(id));
      const shown = nonEmptyStringOf(attrs.label) ?? resolved ?? id;
      return shown === undefined ? '' : `@${shown}`;
    }
    default:
      return depth >= MAX_DEPTH ? '' : renderChildren(recordsOf(node.content), names, depth + 1);
  }
}

/** Runs of inline children make one line; each block child makes its own. */
function renderChildren(children: JsonRecord[], names: NameResolvers, depth: number): string {
  const parts: string[] = [];
  let line: string | undefined;
  for (const child of children) {
    const text = renderNode(child, names, depth);
    if (typeof child.type === 'string' && INLINE_TYPES.has(child.type)) {
      line = (line ?? '') + text;
    } else {
      if (line !== undefined) parts.push(line);
      line = undefined;
      parts.push(text);
    }
  }
  if (line !== undefined) parts.push(line);
  return parts.join('\n');
}
