// The client's README shows every method of the client, every page walker and every helper in a TypeScript example.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createHearthClient } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const examples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((block) => block[1]).join('\n');

it('shows every member of the client in an example', () => {
  const hearth = createHearthClient({ baseUrl: 'http://127.0.0.1:9', token: 'unused' });
  const members = [
    ...Object.keys(hearth)
      .filter((name) => name !== 'pages')
      .map((name) => `hearth.${name}`),
    ...Object.keys(hearth.pages).map((name) => `hearth.pages.${name}`),
  ].sort();
  expect(members).toEqual([
    'hearth.addMember',
    'hearth.assignBadge',
    'hearth.createCalendarEvent',
    'hearth.deactivateMember',
    'hearth.deleteCalendarEvent',
    'hearth.etagOf',
    'hearth.getApiKey',
    'hearth.getBadge',
    'hearth.getCalendarEvent',
    'hearth.getFeed',
    'hearth.getGroup',
    'hearth.getPost',
    'hearth.listBadges',
    'hearth.listCalendarEventRegistrations',
    'hearth.listCalendarEvents',
    'hearth.listFeedPosts',
    'hearth.listFeeds',
    'hearth.listGroups',
    'hearth.pages.listBadges',
    'hearth.pages.listCalendarEventRegistrations',
    'hearth.pages.listCalendarEvents',
    'hearth.pages.listFeedPosts',
    'hearth.pages.listFeeds',
    'hearth.pages.listGroups',
    'hearth.pages.searchDocuments',
    'hearth.raw',
    'hearth.registerForCalendarEvent',
    'hearth.replaceGroupMembers',
    'hearth.searchDocuments',
    'hearth.unregisterFromCalendarEvent',
    'hearth.updateCalendarEvent',
  ]);
  const shown = (name: string) => new RegExp(`${name.replaceAll('.', '\\.')}(?![\\w$])`).test(examples);
  expect(members.filter((name) => !shown(name))).toEqual([]);
  expect(shown('paginate')).toBe(true);
});
