import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blocksToPlaintext,
  extractProsemirrorReferences,
  extractReferences,
  prosemirrorToPlaintext,
  type ReferenceResolver,
} from '../../src/content/rich-text.js';

// Resolves everything, so that anything left out was left out for its shape, not its id.
const resolver: ReferenceResolver = {
  userByChatId: () => ({ profile_id: '0b7e3f6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b', preferred_name: null }),
  feedByChannelId: () => ({ id: '2d905b8c-3e4f-4071-8c1d-2e3f4a5b6c7d', label: 'L', slug: 'l', channel_name: null }),
};
const empty = { mentioned_chat_users: [], mentioned_chat_channels: [], custom_emojis: [], urls: [] };

const section = (...elements: unknown[]) => ({ type: 'rich_text_section', elements });
const text = (value: unknown) => ({ type: 'text', text: value });

function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = wrap(value);
  return value;
}

describe('malformed input', () => {
  it.each([undefined, null, 42, 'rich_text', true, {}, { type: 'rich_text' }, [null, 1, 'x', []]])(
    'gives nothing for %j',
    (input) => {
      expect(blocksToPlaintext(input)).toEqual('');
      expect(prosemirrorToPlaintext(input)).toEqual('');
      expect(extractReferences(input, resolver)).toEqual(empty);
      expect(extractProsemirrorReferences(input, resolver)).toEqual(empty);
    },
  );

  it('skips fields of the wrong type and keeps what is well formed', () => {
    const blocks = [
      { type: 'rich_text', elements: 'not an array' },
      { type: 'section', text: 'not an object' },
      { type: 'header', text: { type: 'plain_text', text: 7 } },
      {
        type: 'rich_text',
        elements: [
          section(text(5), { type: 'text' }, text('ok')),
          { type: 'rich_text_list', style: 'ordered', indent: 'two', offset: -3, elements: [section(text('item')), 9] },
          { type: 'rich_text_list', style: 'bullet', indent: 1e9, elements: [section(text('deep'))] },
          section(
            { type: 'user' },
            { type: 'user', user_id: 5 },
            { type: 'channel', channel_id: null },
            { type: 'emoji', unicode: 'ffffffff' },
            { type: 'emoji', name: 'x', unicode: 12 },
            { type: 'link' },
            { type: 'broadcast' },
            { type: 'date' },
          ),
          { elements: [text('untyped container')] },
        ],
      },
    ];
    expect(blocksToPlaintext(blocks)).toEqual(`ok\n1. item\n${'  '.repeat(16)}- deep\n:x:`);
    expect(extractReferences(blocks, resolver)).toEqual(empty);
  });

  it('survives nesting far deeper than any real message', () => {
    const quotes = (depth: number) =>
      nested(depth, { type: 'user', user_id: 'U1' }, (inner) => ({ type: 'rich_text_quote', elements: [inner] }));
    const lists = nested(10_000, section(text('x')), (inner) => ({ type: 'rich_text_list', elements: [inner] }));
    const deepDoc = nested(10_000, text('x'), (inner) => ({ type: 'blockquote', content: [inner] }));

    expect(blocksToPlaintext([{ type: 'rich_text', elements: [quotes(3)] }])).toEqual('> @U1');
    // The outer quote is kept; what lies beyond the depth bound is dropped.
    expect(blocksToPlaintext([{ type: 'rich_text', elements: [quotes(10_000)] }])).toEqual('>');
    expect(blocksToPlaintext([{ type: 'rich_text', elements: [lists] }])).toEqual('');
    expect(extractReferences([{ type: 'rich_text', elements: [quotes(10_000)] }], resolver)).toEqual(empty);
    expect(prosemirrorToPlaintext(deepDoc)).toEqual('');
    expect(extractProsemirrorReferences(deepDoc, resolver)).toEqual(empty);
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        blocksToPlaintext(value);
        prosemirrorToPlaintext(value);
        extractReferences(value, resolver);
        extractProsemirrorReferences(value, resolver);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on block- and node-shaped values with arbitrary fields', () => {
    const types = [
      ...['rich_text', 'rich_text_section', 'rich_text_list', 'rich_text_quote', 'rich_text_preformatted'],
      ...['text', 'link', 'user', 'channel', 'emoji', 'broadcast', 'usergroup', 'date', 'section', 'header'],
      ...['doc', 'paragraph', 'hard_break', 'mention'],
    ];
    const { node } = fc.letrec((tie) => ({
      node: fc.record(
        {
          type: fc.constantFrom(...types),
          elements: fc.oneof(fc.array(tie('node'), { maxLength: 3 }), fc.anything()),
          content: fc.oneof(fc.array(tie('node'), { maxLength: 3 }), fc.anything()),
          text: fc.oneof(fc.string(), fc.webUrl(), fc.anything()),
          url: fc.oneof(fc.webUrl(), fc.anything()),
          unicode: fc.oneof(fc.stringMatching(/^[0-9a-fA-F-]{0,24}$/), fc.anything()),
          indent: fc.oneof(fc.integer(), fc.double(), fc.anything()),
          offset: fc.oneof(fc.integer(), fc.anything()),
          marks: fc.anything(),
          attrs: fc.anything(),
        },
        { requiredKeys: ['type'] },
      ),
    }));
    fc.assert(
      fc.property(fc.array(node, { maxLength: 4 }), (blocks) => {
        blocksToPlaintext(blocks);
        extractReferences(blocks, resolver);
        prosemirrorToPlaintext({ type: 'doc', content: blocks });
        extractProsemirrorReferences({ type: 'doc', content: blocks }, resolver);
      }),
      { numRuns: 300 },
    );
  });
});

describe('oversized input', () => {
  it('renders huge lists and emoji codepoint runs without hitting argument limits', () => {
    const items = Array.from({ length: 200_000 }, () => section(text('i')));
    const blocks = [
      {
        type: 'rich_text',
        elements: [
          { type: 'rich_text_list', style: 'bullet', elements: [{ type: 'rich_text_list', elements: items }] },
          section({ type: 'emoji', name: 'long', unicode: Array.from({ length: 200_000 }, () => '61').join('-') }),
        ],
      },
    ];
    const lines = blocksToPlaintext(blocks).split('\n');
    expect(lines.length).toEqual(200_001);
    expect(lines[0]).toEqual('- i');
    expect(lines[200_000]).toEqual('a'.repeat(200_000));
  });
});
