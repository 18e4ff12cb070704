import { describe, expect, it } from 'vitest';
import { extractReferences, type ReferenceResolver } from '../../src/content/rich-text.js';

const ADA = '0b7e3f6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const GRACE = '1c8f4a7b-2d3e-4f60-9b0c-1d2e3f4a5b6c';
const EVENTS_FEED = '2d905b8c-3e4f-4071-8c1d-2e3f4a5b6c7d';
const RANDOM_FEED = '3ea16c9d-4f50-4182-9d2e-3f4a5b6c7d8e';

const resolver: ReferenceResolver = {
  userByChatId: (id) =>
    ({
      U024BE7LH: { profile_id: ADA, preferred_name: 'Ada' },
      U0G9QF9C6: { profile_id: GRACE, preferred_name: null },
    })[id],
  feedByChannelId: (id) =>
    ({
      C012AB3CD: { id: EVENTS_FEED, label: 'Events', slug: 'events', channel_name: 'events-chat' },
      C0RANDOM1: { id: RANDOM_FEED, label: 'Random', slug: 'random', channel_name: null },
    })[id],
};

const richText = (...elements: unknown[]) => [{ type: 'rich_text', block_id: 'Xy1', elements }];
const section = (...elements: unknown[]) => ({ type: 'rich_text_section', elements });
const text = (value: string) => ({ type: 'text', text: value });
const link = (url: string, label?: string) => ({ type: 'link', url, ...(label === undefined ? {} : { text: label }) });
const noFlags = { is_embedded_media: false, is_image: false, is_video: false };

describe('extractReferences: mentions', () => {
  it('resolves users in order of first appearance, once each, and leaves out unresolved ones', () => {
    const blocks = richText(
      section({ type: 'user', user_id: 'U0G9QF9C6' }, text(' and '), { type: 'user', user_id: 'UNKNOWN01' }),
      { type: 'rich_text_list', style: 'bullet', elements: [section({ type: 'user', user_id: 'U024BE7LH' })] },
      { type: 'rich_text_quote', elements: [{ type: 'user', user_id: 'U0G9QF9C6' }] },
    );
    expect(extractReferences(blocks, resolver).mentioned_chat_users).toEqual([
      { profile_id: GRACE, preferred_name: null, chat_user_id: 'U0G9QF9C6' },
      { profile_id: ADA, preferred_name: 'Ada', chat_user_id: 'U024BE7LH' },
    ]);
  });

  it('asks the resolver about each chat user once', () => {
    const asked: string[] = [];
    const counting: ReferenceResolver = {
      ...resolver,
      userByChatId: (id) => {
        asked.push(id);
        return resolver.userByChatId(id);
      },
    };
    extractReferences(richText(section({ type: 'user', user_id: 'UX' }, { type: 'user', user_id: 'UX' })), counting);
    expect(asked).toEqual(['UX']);
  });

  it('resolves channels to feeds, naming the channel after the feed when its name is unknown', () => {
    const blocks = richText(
      section(
        { type: 'channel', channel_id: 'C0RANDOM1' },
        { type: 'channel', channel_id: 'C0NOTOURS' },
        { type: 'channel', channel_id: 'C012AB3CD' },
        { type: 'channel', channel_id: 'C0RANDOM1' },
      ),
    );
    expect(extractReferences(blocks, resolver).mentioned_chat_channels).toEqual([
      { chat_channel: { id: 'C0RANDOM1', name: 'Random' }, feed: { id: RANDOM_FEED, label: 'Random', slug: 'random' } },
      {
        chat_channel: { id: 'C012AB3CD', name: 'events-chat' },
        feed: { id: EVENTS_FEED, label: 'Events', slug: 'events' },
      },
    ]);
  });

  it('lists custom emojis (those with a url) once each by name, skipping standard ones', () => {
    const blocks = richText(
      section(
        { type: 'emoji', name: 'thumbsup', unicode: '1f44d' },
        { type: 'emoji', name: 'partyparrot', url: 'https://emoji.slack-edge.com/T1/partyparrot/abc.gif' },
        { type: 'emoji', name: 'shipit', url: 'https://emoji.slack-edge.com/T1/shipit/def.png' },
        { type: 'emoji', name: 'partyparrot', url: 'https://emoji.slack-edge.com/T1/partyparrot/abc.gif' },
        { type: 'emoji', name: 'bad', url: 'not a url' },
      ),
    );
    expect(extractReferences(blocks, resolver).custom_emojis).toEqual([
      { alias: 'partyparrot', name: 'partyparrot', url: 'https://emoji.slack-edge.com/T1/partyparrot/abc.gif' },
      { alias: 'shipit', name: 'shipit', url: 'https://emoji.slack-edge.com/T1/shipit/def.png' },
    ]);
  });
});

describe('extractReferences: urls', () => {
  it('collects links and bare URLs in order of first appearance, once each', () => {
    const blocks = richText(
      section(
        text('Slides: https://hearth.example/slides. Recording ('),
        { type: 'link', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', text: 'here' },
        text(') and https://hearth.example/slides again'),
      ),
      { type: 'rich_text_list', style: 'bullet', elements: [section(link('https://cdn.example/photo.JPG'))] },
      { type: 'rich_text_preformatted', elements: [text('curl http://localhost:3000/health')] },
    );
    expect(extractReferences(blocks, resolver).urls).toEqual([
      { order_seen: 0, ...noFlags, url: 'https://hearth.example/slides' },
      {
        order_seen: 1,
        is_embedded_media: true,
        is_image: false,
        is_video: true,
        url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      },
      { order_seen: 2, is_embedded_media: true, is_image: true, is_video: false, url: 'https://cdn.example/photo.JPG' },
      { order_seen: 3, ...noFlags, url: 'http://localhost:3000/health' },
    ]);
  });

  it('flags images and videos by extension and video hosts by domain', () => {
    const urls = [
      'https://a.example/x.png',
      'https://a.example/x.jpeg?size=2',
      'https://a.example/x.gif',
      'https://a.example/x.webp',
      'https://a.example/x.svg',
      'https://a.example/x.avif',
      'https://a.example/clip.mp4',
      'https://a.example/clip.MOV',
      'https://a.example/clip.webm',
      'https://a.example/clip.m4v',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://player.vimeo.com/video/1',
      'https://www.loom.com/share/abc',
      'https://notyoutube.com/watch',
      'https://a.example/png',
    ];
    const found = extractReferences(richText(section(text(urls.join(' ')))), resolver).urls;
    expect(found.map(({ is_image, is_video, is_embedded_media }) => [is_image, is_video, is_embedded_media])).toEqual([
      ...Array.from({ length: 6 }, () => [true, false, true]),
      ...Array.from({ length: 7 }, () => [false, true, true]),
      [false, false, false],
      [false, false, false],
    ]);
    expect(found.map((entry) => entry.url)).toEqual(urls);
  });

  it('trims sentence punctuation but keeps parentheses a URL opened', () => {
    const blocks = richText(
      section(text('See https://en.wikipedia.org/wiki/Hearth_(film), (https://a.example/b) and https://a.example/c?!')),
    );
    expect(extractReferences(blocks, resolver).urls.map((entry) => entry.url)).toEqual([
      'https://en.wikipedia.org/wiki/Hearth_(film)',
      'https://a.example/b',
      'https://a.example/c',
    ]);
  });

  it('ignores links that are not http(s) and finds URLs in section mrkdwn', () => {
    const blocks = [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: 'Mail <mailto:hi@hearth.example|us> or <https://hearth.example/help|read>' },
      },
      ...richText(section(link('mailto:hi@hearth.example', 'mail'), link('ftp://x.example/f'))),
    ];
    expect(extractReferences(blocks, resolver).urls).toEqual([
      { order_seen: 0, ...noFlags, url: 'https://hearth.example/help' },
    ]);
  });

  it('returns empty arrays for blocks without references', () => {
    expect(extractReferences(richText(section(text('just words'))), resolver)).toEqual({
      mentioned_chat_users: [],
      mentioned_chat_channels: [],
      custom_emojis: [],
      urls: [],
    });
  });
});
