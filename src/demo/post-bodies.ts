// The chat blocks of demo posts and comments, in the voice of the feed they are posted in.
import {
  broadcast,
  emoji,
  link,
  list,
  preformatted,
  quote,
  richText,
  section,
  text,
  user,
  type Container,
  type Inline,
  type RichText,
} from './blocks.js';
import { chatter, someEmoji, someLink, someone, slugOf } from './content.js';
import { CODE_SNIPPETS } from './names.js';
import type { TextGen } from './text.js';
import type { DemoFeed, DemoProfile, World } from './world.js';

function announcement(world: World, g: TextGen): Container[] {
  const r = g.random;
  return [
    section(broadcast(r.chance(0.7) ? 'here' : 'channel'), text(` ${g.sentences(2)} `), emoji('tada', '1f389')),
    list(
      'bullet',
      Array.from({ length: r.between(2, 4) }, () =>
        r.chance(0.3) ? [text(`${g.phrase()}: `), someLink(g)] : [text(g.phrase())],
      ),
    ),
    section(text('Thanks to '), user(someone(world, r).chatUserId), text(' and everyone who helped. '), someEmoji(r)),
  ];
}

function jobPost(g: TextGen, author: DemoProfile): Container[] {
  const r = g.random;
  const low = r.between(8, 16) * 10;
  const company = g.company();
  return [
    section(text(`${company} is hiring! ${g.sentence()}`)),
    list('bullet', [
      [text('Role:', { bold: true }), text(` ${g.role()}`)],
      [text('Location:', { bold: true }), text(` ${g.city()} or remote`)],
      [text('Salary:', { bold: true }), text(` $${low}k to $${low + r.between(2, 6) * 10}k`)],
      [
        text('Apply:', { bold: true }),
        text(' '),
        link(`https://jobs.example.com/${slugOf(company)}/${r.between(1000, 9999)}`),
      ],
    ]),
    section(text('DM '), user(author.chatUserId), text(' with questions.')),
  ];
}

function showAndTell(world: World, g: TextGen): Container[] {
  const r = g.random;
  const name = g.codename().toLowerCase();
  const containers: Container[] = [section(...chatter(world, g, r.between(2, 3), 0.3))];
  if (r.chance(0.6)) containers.push(preformatted(`npm install ${name}`));
  containers.push(section(text('Repo: '), link(`https://github.example.com/${name}/${name}`), text(' '), someEmoji(r)));
  return containers;
}

function conversation(world: World, g: TextGen): Container[] {
  const r = g.random;
  const containers: Container[] = [section(...chatter(world, g, r.between(2, 4), 0.3))];
  if (r.chance(0.3))
    containers.push(
      list(
        r.chance(0.7) ? 'bullet' : 'ordered',
        Array.from({ length: r.between(2, 4) }, () => [text(g.phrase())]),
      ),
    );
  if (r.chance(0.2)) containers.push(quote(text(g.sentence())));
  if (r.chance(0.15)) containers.push(preformatted(r.pick(CODE_SNIPPETS)));
  if (r.chance(0.6)) containers.push(section(...chatter(world, g, 1, 0.5)));
  return containers;
}

export function postBlocks(world: World, g: TextGen, feed: DemoFeed, author: DemoProfile): RichText[] {
  const r = g.random;
  if (!world.rich) {
    const containers: Container[] = [section(...chatter(world, g, r.between(2, 4), 0.25))];
    if (r.chance(0.1)) containers.push(list('bullet', [[text(g.phrase())], [text(g.phrase())]]));
    return [richText(...containers)];
  }
  switch (feed.kind) {
    case 'announcements':
      return [richText(...announcement(world, g))];
    case 'jobs':
      return [richText(...jobPost(g, author))];
    case 'show-and-tell':
    case 'hackathon':
      return [richText(...showAndTell(world, g))];
    default:
      return [richText(...conversation(world, g))];
  }
}

export function commentBlocks(world: World, g: TextGen, postAuthor: DemoProfile): RichText[] {
  const r = g.random;
  if (!world.rich) return [richText(section(...chatter(world, g, r.between(1, 2), 0.1)))];
  const opening: Inline[] = r.chance(0.25) ? [user(postAuthor.chatUserId), text(' ')] : [];
  const containers: Container[] = [section(...opening, ...chatter(world, g, r.between(1, 3), 0.3))];
  if (r.chance(0.1)) containers.push(quote(text(g.sentence())));
  if (r.chance(0.08)) containers.push(preformatted(r.pick(CODE_SNIPPETS)));
  if (r.chance(0.05))
    containers.push(
      section(text('Screenshot: '), link(`https://images.example.com/uploads/${r.chars('0123456789abcdef', 12)}.png`)),
    );
  return [richText(...containers)];
}
