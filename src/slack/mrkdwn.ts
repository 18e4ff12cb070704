// Slack's mrkdwn `text` (what bots, integrations and older messages carry instead of rich-text blocks) turned into
// one rich_text block, so that its plain text, mentions and links are read the same way as a composed message's.
import { emojiCodepoints } from './emoji-names.js';

type Leaf = Record<string, unknown>;

// `<…>` tokens: mentions, links, broadcasts and dates; everything between them is text.
const TOKEN = /<([^<>\n]+)>/g;
// `:name:` with an optional skin tone; names are lowercase letters, digits, `_`, `+`, `-` and `'`.
const EMOJI = /:([a-z0-9_+'-]+(?:::skin-tone-[2-6])?):/g;
// Bold, italic, strike and code marks around a run of text, at word edges as Slack draws them.
const MARK = /(^|[\s(])([*_~`])([^\s*_~`](?:[^\n]*?[^\s])?)\2(?=$|[\s).,!?:;'"])/g;
const STYLE: Record<string, string> = { '*': 'bold', _: 'italic', '~': 'strike', '`': 'code' };

/** `&amp;`, `&lt;` and `&gt;` are Slack's escapes; undone after the tokens are found, never before. */
const unescaped = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function tokenLeaf(token: string): Leaf {
  const bar = token.indexOf('|');
  const target = bar < 0 ? token : token.slice(0, bar);
  const label = bar < 0 ? undefined : unescaped(token.slice(bar + 1));
  if (target.startsWith('@')) return { type: 'user', user_id: target.slice(1) };
  if (target.startsWith('#')) return { type: 'channel', channel_id: target.slice(1) };
  if (target.startsWith('!')) {
    const [command = '', ...args] = target.slice(1).split('^');
    if (command === 'here' || command === 'channel' || command === 'everyone')
      return { type: 'broadcast', range: command };
    if (command === 'date') {
      const fallback = label ?? '';
      return { type: 'date', timestamp: Number(args[0]), format: args[1] ?? '', fallback };
    }
    // A user group (`<!subteam^S123|@team>`) shows its label; its members are not known here.
    return { type: 'text', text: label ?? `@${args[0] ?? command}` };
  }
  const url = unescaped(target);
  return label === undefined || label === url ? { type: 'link', url } : { type: 'link', url, text: label };
}

/** Text between tokens: styled runs and emoji as leaves of their own. */
function textLeaves(text: string, into: Leaf[]): void {
  let at = 0;
  for (const match of text.matchAll(MARK)) {
    const [whole, before = '', mark = '', inner = ''] = match;
    plainLeaves(text.slice(at, match.index) + before, into, undefined);
    plainLeaves(inner, into, STYLE[mark]);
    at = match.index + whole.length;
  }
  plainLeaves(text.slice(at), into, undefined);
}

function plainLeaves(text: string, into: Leaf[], style: string | undefined): void {
  const push = (piece: string) => {
    if (piece === '') return;
    const leaf: Leaf = { type: 'text', text: unescaped(piece) };
    if (style) leaf.style = { [style]: true };
    into.push(leaf);
  };
  if (style === 'code') {
    push(text);
    return;
  }
  let at = 0;
  for (const match of text.matchAll(EMOJI)) {
    const name = match[1] ?? '';
    push(text.slice(at, match.index));
    const unicode = emojiCodepoints(name);
    // As Slack's own rich text has it: the base name, the tone apart (`+1`, skin_tone 3).
    const [base = name, tone] = name.split('::skin-tone-');
    const leaf: Leaf = { type: 'emoji', name: base };
    if (unicode !== undefined) leaf.unicode = unicode;
    if (tone !== undefined) leaf.skin_tone = Number(tone);
    into.push(leaf);
    at = match.index + match[0].length;
  }
  push(text.slice(at));
}

/** The leaves of one mrkdwn text, in order. Code fences are dropped; their content stays as text. */
export function mrkdwnLeaves(text: string): Leaf[] {
  const leaves: Leaf[] = [];
  const source = text.replace(/```/g, '');
  let at = 0;
  for (const match of source.matchAll(TOKEN)) {
    textLeaves(source.slice(at, match.index), leaves);
    leaves.push(tokenLeaf(match[1] ?? ''));
    at = match.index + match[0].length;
  }
  textLeaves(source.slice(at), leaves);
  return leaves;
}

/** One rich_text block holding the text, or null for empty text. */
export function mrkdwnBlocks(text: string): Leaf[] | null {
  if (text.trim() === '') return null;
  return [{ type: 'rich_text', elements: [{ type: 'rich_text_section', elements: mrkdwnLeaves(text) }] }];
}
