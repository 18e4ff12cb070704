import { describe, expect, it } from 'vitest';
import {
  extractProsemirrorReferences,
  prosemirrorToPlaintext,
  type ReferenceResolver,
} from '../../src/content/rich-text.js';

const ADA = '0b7e3f6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const resolver: ReferenceResolver = {
  userByChatId: (id) => (id === 'U024BE7LH' ? { profile_id: ADA, preferred_name: 'Ada' } : undefined),
  feedByChannelId: () => undefined,
};

const text = (value: string, marks?: unknown[]) => ({ type: 'text', text: value, ...(marks ? { marks } : {}) });
const paragraph = (...content: unknown[]) => ({ type: 'paragraph', content });
const link = (href: string) => ({ type: 'link', attrs: { href, target: '_blank' } });
const listItem = (...content: unknown[]) => ({ type: 'list_item', content });
const mention = (id: string, label?: string) => ({ type: 'mention', attrs: { id, ...(label ? { label } : {}) } });
const plainUrl = (order_seen: number, url: string) => ({
  order_seen,
  is_embedded_media: false,
  is_image: false,
  is_video: false,
  url,
});

const doc = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 2 }, content: [text('Community call')] },
    paragraph(text('Hosted by '), mention('U024BE7LH', 'Ada'), text(' on Thursday.')),
    paragraph(
      text('Line one'),
      { type: 'hard_break' },
      text('line two', [{ type: 'bold' }]),
      { type: 'hardBreak' },
      text('three'),
    ),
    {
      type: 'bullet_list',
      content: [
        listItem(paragraph(text('Slides: '), text('deck', [link('https://hearth.example/deck.pdf')]))),
        {
          type: 'list_item',
          content: [
            paragraph(text('Nested')),
            { type: 'ordered_list', attrs: { order: 1 }, content: [listItem(paragraph(text('Deep')))] },
          ],
        },
      ],
    },
    { type: 'blockquote', content: [paragraph(text('Quoted https://youtu.be/abc123.'))] },
    { type: 'code_block', attrs: { language: 'sh' }, content: [text('npm test\n  --watch')] },
    { type: 'paragraph' },
    paragraph(text('End')),
  ],
};

describe('prosemirrorToPlaintext', () => {
  it('puts each block on its own line and hard breaks inside them', () => {
    expect(prosemirrorToPlaintext(doc)).toEqual(
      [
        'Community call',
        'Hosted by @Ada on Thursday.',
        'Line one\nline two\nthree',
        'Slides: deck',
        'Nested',
        'Deep',
        'Quoted https://youtu.be/abc123.',
        'npm test\n  --watch',
        '',
        'End',
      ].join('\n'),
    );
  });

  it('names mentions without a label through the resolver, else by id', () => {
    const mentions = { type: 'doc', content: [paragraph(mention('U1'), text(' '), mention('U2'))] };
    const names = { userName: (id: string) => (id === 'U1' ? 'Grace' : null) };
    expect(prosemirrorToPlaintext(mentions, names)).toEqual('@Grace @U2');
  });

  it('renders an empty document as an empty string', () => {
    expect(prosemirrorToPlaintext({ type: 'doc', content: [] })).toEqual('');
    const blankLines = { type: 'doc', content: [{ type: 'paragraph' }, { type: 'paragraph' }] };
    expect(prosemirrorToPlaintext(blankLines)).toEqual('');
  });
});

describe('extractProsemirrorReferences', () => {
  it('finds mentions, link marks and bare URLs in order, leaving out unresolved mentions', () => {
    const withMore = {
      ...doc,
      content: [
        ...doc.content,
        paragraph(mention('U0UNKNOWN'), mention('U024BE7LH')),
        paragraph(text('https://hearth.example/deck.pdf', [link('https://hearth.example/deck.pdf')])),
        paragraph(text('label only', [link('https://hearth.example/label')]), text(' http://plain.example/x')),
      ],
    };
    expect(extractProsemirrorReferences(withMore, resolver)).toEqual({
      mentioned_chat_users: [{ profile_id: ADA, preferred_name: 'Ada', chat_user_id: 'U024BE7LH' }],
      mentioned_chat_channels: [],
      custom_emojis: [],
      urls: [
        plainUrl(0, 'https://hearth.example/deck.pdf'),
        { order_seen: 1, is_embedded_media: true, is_image: false, is_video: true, url: 'https://youtu.be/abc123' },
        plainUrl(2, 'https://hearth.example/label'),
        plainUrl(3, 'http://plain.example/x'),
      ],
    });
  });
});
