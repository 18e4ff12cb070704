// Long-form posts written on the site rather than in chat: a ProseMirror document instead of chat blocks.
import { someone, someUrl } from './content.js';
import { CODE_SNIPPETS } from './names.js';
import type { TextGen } from './text.js';
import type { World } from './world.js';

interface PmNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: PmNode[];
  text?: string;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

const textNode = (value: string, marks?: PmNode['marks']): PmNode =>
  marks ? { type: 'text', text: value, marks } : { type: 'text', text: value };
const paragraph = (...content: PmNode[]): PmNode => ({ type: 'paragraph', content });
const item = (...content: PmNode[]): PmNode => ({ type: 'list_item', content: [paragraph(...content)] });

export function articleDoc(world: World, g: TextGen): PmNode {
  const r = g.random;
  const mentioned = someone(world, r);
  const { url } = someUrl(g);
  const content: PmNode[] = [
    { type: 'heading', attrs: { level: 2 }, content: [textNode(g.phrase())] },
    paragraph(
      textNode(`${g.sentences(r.between(2, 4))} Thanks to `),
      { type: 'mention', attrs: { id: mentioned.chatUserId, label: mentioned.name } },
      textNode(' for the review.'),
    ),
    {
      type: r.chance(0.5) ? 'bullet_list' : 'ordered_list',
      content: Array.from({ length: r.between(2, 4) }, () => item(textNode(g.phrase()))),
    },
    paragraph(
      textNode(g.sentence()),
      { type: 'hard_break' },
      textNode('Details are in '),
      textNode('this guide', [{ type: 'link', attrs: { href: url } }]),
      textNode('.'),
    ),
  ];
  if (r.chance(0.4))
    content.push({ type: 'blockquote', content: [paragraph(textNode(g.sentence(), [{ type: 'italic' }]))] });
  if (r.chance(0.3))
    content.push({ type: 'code_block', attrs: { language: 'sh' }, content: [textNode(r.pick(CODE_SNIPPETS))] });
  content.push(paragraph(textNode(g.sentences(r.between(1, 3)))));
  return { type: 'doc', content };
}
