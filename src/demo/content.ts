// Pieces of chat content shared by posts, comments and events: mentions, channels, emoji, links and chatty sections.
import { channel, customEmoji, emoji, link, text, user, type Inline } from './blocks.js';
import { CUSTOM_EMOJI, EMOJI } from './names.js';
import type { Random } from './random.js';
import type { TextGen } from './text.js';
import type { DemoFeed, DemoProfile, World } from './world.js';

const HEX = '0123456789abcdef';
const VIDEO_ID = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export const slugOf = (words: string): string =>
  words
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A member, the active ones far more often than the quiet ones. */
export function someone(world: World, random: Random): DemoProfile {
  return random.skewed(world.members, 1.8);
}

/** A feed people still talk in. */
function liveFeed(world: World, random: Random): DemoFeed {
  const live = world.feeds.filter((feed) => !feed.archived);
  return random.pick(live.length > 0 ? live : world.feeds);
}

export function someEmoji(random: Random): Inline {
  if (random.chance(0.2)) {
    const name = random.pick(CUSTOM_EMOJI);
    return customEmoji(
      name,
      `https://emoji.example.com/${name}.${name === 'partyparrot' || name === 'catjam' ? 'gif' : 'png'}`,
    );
  }
  const [name, unicode] = random.skewed(EMOJI, 1.5);
  return emoji(name, unicode);
}

/** A URL of the kinds people paste: docs, repositories, blog posts, images and videos. */
export function someUrl(g: TextGen): { url: string; label?: string } {
  const r = g.random;
  switch (r.int(7)) {
    case 0:
      return { url: `https://docs.example.com/${slugOf(g.topic())}/${slugOf(g.noun())}`, label: 'the docs' };
    case 1: {
      const name = slugOf(g.codename());
      return { url: `https://github.example.com/${name}/${name}-${slugOf(g.noun())}` };
    }
    case 2:
      return {
        url: `https://blog.example.org/${2024 + r.int(3)}/${slugOf(`${g.adj()} ${g.nouns()}`)}`,
        label: 'this write-up',
      };
    case 3:
      return { url: `https://images.example.com/uploads/${r.chars(HEX, 12)}.png` };
    case 4:
      return { url: `https://videos.example.com/recordings/${r.chars(HEX, 10)}.mp4`, label: 'recording' };
    case 5:
      return { url: `https://youtu.be/${r.chars(VIDEO_ID, 11)}` };
    default:
      return { url: `https://${slugOf(g.company())}.example.com/${slugOf(g.nouns())}`, label: g.company() };
  }
}

export function someLink(g: TextGen): Inline {
  const { url, label } = someUrl(g);
  return label && g.random.chance(0.7) ? link(url, label) : link(url);
}

/** One inline extra: a mention, a channel, a link or an emoji, with the words around it. */
function extra(world: World, g: TextGen, out: Inline[]): void {
  const r = g.random;
  switch (r.int(5)) {
    case 0:
      out.push(text(' cc '), user(someone(world, r).chatUserId));
      break;
    case 1:
      out.push(text(' More in '), channel(liveFeed(world, r).channelId), text('.'));
      break;
    case 2:
      out.push(text(' '), someLink(g));
      break;
    case 3:
      // A bare URL in the text: references find those as well as link elements.
      out.push(text(` See ${someUrl(g).url} for details.`));
      break;
    default:
      out.push(text(' '), someEmoji(r));
  }
}

/** Sentences with a mention, channel, link or emoji now and then between them. */
export function chatter(world: World, g: TextGen, sentences: number, extrasRate: number): Inline[] {
  const out: Inline[] = [];
  let pending = '';
  for (let i = 0; i < sentences; i++) {
    pending += (i > 0 ? ' ' : '') + g.sentence();
    if (g.random.chance(extrasRate)) {
      out.push(text(pending));
      pending = '';
      extra(world, g, out);
    }
  }
  if (pending !== '') out.push(text(pending));
  return out;
}
