import { describe, expect, it } from 'vitest';
import { blocksToPlaintext } from '../../src/content/rich-text.js';

const richText = (...elements: unknown[]) => [{ type: 'rich_text', block_id: 'Xy1', elements }];
const section = (...elements: unknown[]) => ({ type: 'rich_text_section', elements });
const text = (value: string, style?: Record<string, boolean>) => ({
  type: 'text',
  text: value,
  ...(style ? { style } : {}),
});
const list = (style: 'bullet' | 'ordered', indent: number, ...items: string[]) => ({
  type: 'rich_text_list',
  style,
  indent,
  border: 0,
  elements: items.map((item) => section(text(item))),
});

describe('blocksToPlaintext: leaves', () => {
  it('renders text, mentions and links of a real message', () => {
    const blocks = richText(
      section(
        text('Hello '),
        { type: 'user', user_id: 'U024BE7LH' },
        text(', see ', { bold: true }),
        { type: 'link', url: 'https://hearth.example/agenda', text: 'the agenda' },
        text(' in '),
        { type: 'channel', channel_id: 'C012AB3CD' },
        text(' or '),
        { type: 'link', url: 'https://example.com/raw' },
      ),
    );
    expect(blocksToPlaintext(blocks)).toEqual(
      'Hello @U024BE7LH, see the agenda in #C012AB3CD or https://example.com/raw',
    );
  });

  it('uses resolved display names for users and channels, and ids when a name is missing', () => {
    const blocks = richText(
      section(
        { type: 'user', user_id: 'U1' },
        text(' '),
        { type: 'user', user_id: 'U2' },
        text(' '),
        { type: 'channel', channel_id: 'C1' },
        text(' '),
        { type: 'channel', channel_id: 'C2' },
      ),
    );
    const names = {
      userName: (id: string) => (id === 'U1' ? 'Ada Lovelace' : null),
      channelName: (id: string) => (id === 'C1' ? 'general' : undefined),
    };
    expect(blocksToPlaintext(blocks, names)).toEqual('@Ada Lovelace @U2 #general #C2');
  });

  it('falls back to the url when a link has an empty text', () => {
    const blocks = richText(section({ type: 'link', url: 'https://a.example/', text: '' }));
    expect(blocksToPlaintext(blocks)).toEqual('https://a.example/');
  });

  it('renders emojis from unicode codepoints, flags included, and by name otherwise', () => {
    const blocks = richText(
      section(
        { type: 'emoji', name: 'thumbsup', unicode: '1f44d' },
        { type: 'emoji', name: 'flag-us', unicode: '1f1fa-1f1f8' },
        { type: 'emoji', name: '+1', unicode: '1f44d-1f3fc', skin_tone: 3 },
        text(' '),
        { type: 'emoji', name: 'partyparrot', url: 'https://emoji.slack-edge.com/T1/partyparrot/abc.gif' },
        text(' '),
        { type: 'emoji', name: 'broken', unicode: 'zz' },
      ),
    );
    expect(blocksToPlaintext(blocks)).toEqual('👍🇺🇸👍🏼 :partyparrot: :broken:');
  });

  it('renders broadcasts, user groups, dates and colors', () => {
    const blocks = richText(
      section(
        { type: 'broadcast', range: 'here' },
        text(' '),
        { type: 'broadcast', range: 'channel' },
        text(' '),
        { type: 'broadcast', range: 'everyone' },
        text(' '),
        { type: 'usergroup', usergroup_id: 'S0614TZR7' },
        text(' on '),
        { type: 'date', timestamp: 1772985600, format: '{date_long}', fallback: 'March 8th, 2026' },
        text(' in '),
        { type: 'color', value: '#FF8800' },
      ),
    );
    expect(blocksToPlaintext(blocks)).toEqual('@here @channel @everyone @S0614TZR7 on March 8th, 2026 in #FF8800');
  });

  it('leaves out unknown leaf types', () => {
    expect(blocksToPlaintext(richText(section(text('a'), { type: 'sparkle', text: 'x' }, text('b'))))).toEqual('ab');
  });
});

describe('blocksToPlaintext: containers', () => {
  it('puts each section on its own line without doubling a newline the section ends with', () => {
    const blocks = richText(section(text('Agenda:\n')), section(text('Bring snacks')), section(text('Thanks')));
    expect(blocksToPlaintext(blocks)).toEqual('Agenda:\nBring snacks\nThanks');
  });

  it('keeps blank lines the author wrote', () => {
    expect(blocksToPlaintext(richText(section(text('one\n\n')), section(text('two'))))).toEqual('one\n\ntwo');
  });

  it('renders bullet lists, nested by indent', () => {
    const blocks = richText(
      section(text('Plan:\n')),
      list('bullet', 0, 'Venue', 'Food'),
      list('bullet', 1, 'Pizza', 'Salad'),
      list('bullet', 2, 'Vegan'),
      list('bullet', 0, 'Music'),
    );
    expect(blocksToPlaintext(blocks)).toEqual('Plan:\n- Venue\n- Food\n  - Pizza\n  - Salad\n    - Vegan\n- Music');
  });

  it('numbers ordered lists and resumes numbering from offset after a nested list', () => {
    const blocks = richText(list('ordered', 0, 'Arrive', 'Eat'), list('ordered', 1, 'Starter', 'Main'), {
      ...list('ordered', 0, 'Leave'),
      offset: 2,
    });
    expect(blocksToPlaintext(blocks)).toEqual('1. Arrive\n2. Eat\n  1. Starter\n  2. Main\n3. Leave');
  });

  it('renders lists nested inside list elements and aligns continuation lines of an item', () => {
    const blocks = richText({
      type: 'rich_text_list',
      style: 'ordered',
      elements: [
        section(text('First\nsecond line')),
        { type: 'rich_text_list', style: 'bullet', indent: 1, elements: [section(text('inner'))] },
        section(text('Next')),
      ],
    });
    expect(blocksToPlaintext(blocks)).toEqual('1. First\n   second line\n  - inner\n2. Next');
  });

  it('prefixes every line of a quote', () => {
    const blocks = richText(
      section(text('She said:')),
      { type: 'rich_text_quote', elements: [text('Ship it\n\non '), { type: 'user', user_id: 'U1' }, text(' time\n')] },
      section(text('Agreed.')),
    );
    expect(blocksToPlaintext(blocks)).toEqual('She said:\n> Ship it\n>\n> on @U1 time\nAgreed.');
  });

  it('keeps preformatted text verbatim', () => {
    const blocks = richText(section(text('Run:')), {
      type: 'rich_text_preformatted',
      border: 0,
      elements: [
        text('npm run build\n  && node bin/hearth.js serve   '),
        text('\n# docs: '),
        { type: 'link', url: 'https://hearth.example/docs' },
      ],
    });
    expect(blocksToPlaintext(blocks)).toEqual(
      'Run:\nnpm run build\n  && node bin/hearth.js serve   \n# docs: https://hearth.example/docs',
    );
  });

  it('takes the text of section and header blocks and separates blocks by newlines', () => {
    const blocks = [
      { type: 'header', block_id: 'h1', text: { type: 'plain_text', text: 'Community call', emoji: true } },
      { type: 'section', block_id: 's1', text: { type: 'mrkdwn', text: '*Thursday* at 5pm' } },
      { type: 'divider', block_id: 'd1' },
      ...richText(section(text('Join us'))),
    ];
    expect(blocksToPlaintext(blocks)).toEqual('Community call\n*Thursday* at 5pm\nJoin us');
  });

  it('trims trailing whitespace of the result only', () => {
    expect(blocksToPlaintext(richText(section(text('  indented  \n\n \t'))))).toEqual('  indented');
  });

  it('renders no blocks as an empty string', () => {
    expect(blocksToPlaintext([])).toEqual('');
    expect(blocksToPlaintext(null)).toEqual('');
  });
});
