// Slack's mrkdwn text as rich-text leaves and plain text: tokens with and without labels, escapes undone after the
// tokens, marks at word edges only, emoji with skin tones, and the title rule.
import { describe, expect, it } from 'vitest';
import { blocksToPlaintext } from '../../src/content/rich-text.js';
import { mrkdwnBlocks, mrkdwnLeaves } from '../../src/slack/mrkdwn.js';
import { titleOf } from '../../src/slack/slack-text.js';
import { compareTs, stampOfSeconds, stampOfTs } from '../../src/slack/slack-time.js';

const names = {
  userName: (id: string) => ({ U1: 'Ann', W2: 'Grid Gus' })[id],
  channelName: (id: string) => ({ C1: 'general' })[id],
};
const plain = (text: string) => blocksToPlaintext(mrkdwnBlocks(text), names);

describe('mrkdwn', () => {
  it('turns tokens into leaves, with and without their labels', () => {
    expect(
      mrkdwnLeaves(
        '<@U1> <@W2|gus> <#C1> <#C9|old-name> <!here> <!here|here> <!channel> <!everyone> <!subteam^S1|@team> <!subteam^S2>',
      ),
    ).toEqual([
      { type: 'user', user_id: 'U1' },
      { type: 'text', text: ' ' },
      { type: 'user', user_id: 'W2' },
      { type: 'text', text: ' ' },
      { type: 'channel', channel_id: 'C1' },
      { type: 'text', text: ' ' },
      { type: 'channel', channel_id: 'C9' },
      { type: 'text', text: ' ' },
      { type: 'broadcast', range: 'here' },
      { type: 'text', text: ' ' },
      { type: 'broadcast', range: 'here' },
      { type: 'text', text: ' ' },
      { type: 'broadcast', range: 'channel' },
      { type: 'text', text: ' ' },
      { type: 'broadcast', range: 'everyone' },
      { type: 'text', text: ' ' },
      { type: 'text', text: '@team' },
      { type: 'text', text: ' ' },
      { type: 'text', text: '@S2' },
    ]);
    expect(plain('<@U1> <@W2|gus> <#C1> <#C9|old-name> <!here|here> <!subteam^S1|@team>')).toBe(
      '@Ann @Grid Gus #general #C9 @here @team',
    );
  });

  it('makes links of URLs and mail addresses, and dates of their fallback', () => {
    expect(
      mrkdwnLeaves('<https://a.example/x?y=1&amp;z=2|the docs> <https://b.example> <mailto:a@b.example|a@b.example>'),
    ).toEqual([
      { type: 'link', url: 'https://a.example/x?y=1&z=2', text: 'the docs' },
      { type: 'text', text: ' ' },
      { type: 'link', url: 'https://b.example' },
      { type: 'text', text: ' ' },
      { type: 'link', url: 'mailto:a@b.example', text: 'a@b.example' },
    ]);
    expect(plain('Due <!date^1772323200^{date_short}|Mar 1, 2026> at noon')).toBe('Due Mar 1, 2026 at noon');
  });

  it('undoes the escapes after finding the tokens, and keeps marks only at word edges', () => {
    expect(plain('1 &lt; 2 &amp;&amp; 3 &gt; 2: *bold* _it_ ~gone~ `x*y*z` snake_case_name 2*3*4')).toBe(
      '1 < 2 && 3 > 2: bold it gone x*y*z snake_case_name 2*3*4',
    );
    expect(mrkdwnLeaves('say *hi* now')).toEqual([
      { type: 'text', text: 'say ' },
      { type: 'text', text: 'hi', style: { bold: true } },
      { type: 'text', text: ' now' },
    ]);
    expect(plain('```const a = 1;```')).toBe('const a = 1;');
  });

  it('gives known emoji their characters, skin tones included; others stay by name', () => {
    expect(mrkdwnLeaves(':tada: :+1::skin-tone-3: :partyparrot: 10:30:45')).toEqual([
      { type: 'emoji', name: 'tada', unicode: '1f389' },
      { type: 'text', text: ' ' },
      { type: 'emoji', name: '+1', unicode: '1f44d-1f3fc', skin_tone: 3 },
      { type: 'text', text: ' ' },
      { type: 'emoji', name: 'partyparrot' },
      { type: 'text', text: ' 10' },
      { type: 'emoji', name: '30' },
      { type: 'text', text: '45' },
    ]);
    expect(plain(':tada: :+1::skin-tone-3: :partyparrot: 10:30:45 :constructor:')).toBe(
      '🎉 👍🏼 :partyparrot: 10:30:45 :constructor:',
    );
    expect(mrkdwnBlocks('  \n ')).toBeNull();
  });
});

describe('titles and timestamps', () => {
  it('titles a post by its first non-empty line, cut at a word boundary past 80 characters', () => {
    expect(titleOf('\n  Short line  \nsecond', [])).toBe('Short line');
    expect(titleOf(`${'word '.repeat(30)}end`, [])).toBe(`${Array(16).fill('word').join(' ')}…`);
    expect(titleOf('x'.repeat(100), [])).toBe(`${'x'.repeat(80)}…`);
    expect(titleOf(null, [{ name: 'a.pdf', title: '' }])).toBe('a.pdf');
    expect(titleOf(null, [])).toBeNull();
  });

  it('reads ts to the microsecond, epoch seconds as numbers or digit strings, and orders ts as numbers', () => {
    expect(stampOfTs('1772355600.000100')).toBe('2026-03-01 09:00:00.000100+00');
    expect(stampOfTs('1772355600.5')).toBe('2026-03-01 09:00:00.500000+00');
    expect(stampOfTs('1772355600')).toBe('2026-03-01 09:00:00.000000+00');
    expect(stampOfSeconds(1433558319)).toBe('2015-06-06 02:38:39.000000+00');
    expect(stampOfSeconds('1433558319')).toBe('2015-06-06 02:38:39.000000+00');
    expect(stampOfSeconds('soon')).toBeUndefined();
    expect(['999999999.9', '1000000000.000001', '1000000000.1', '1000000000.02'].sort(compareTs)).toEqual([
      '999999999.9',
      '1000000000.000001',
      '1000000000.02',
      '1000000000.1',
    ]);
  });
});
