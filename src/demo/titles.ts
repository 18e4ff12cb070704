// Post titles in the voice of each feed, filled from the vocabulary.
import { capitalize, type TextGen } from './text.js';
import type { FeedKind } from './world.js';

type Title = (g: TextGen) => string;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const TITLES: Record<FeedKind, readonly Title[]> = {
  announcements: [
    (g) => `Welcome to our ${g.small()}0 new members!`,
    (g) => `${g.random.pick(MONTHS)} community update`,
    (g) => `New: ${g.adj()} ${g.nouns()} are live`,
    () => 'Code of conduct refresh',
    (g) => `Community survey results: ${g.topic()}`,
    (g) => `Office hours are moving to ${g.timeWord()}`,
    (g) => `Heads up: ${g.adj()} maintenance on ${g.timeWord()}`,
    (g) => `Call for volunteers: ${g.topic()} track`,
  ],
  general: [
    (g) => `How do you ${g.verb()} ${g.nouns()} with ${g.tool()}?`,
    (g) => `Thoughts on ${g.topic()}?`,
    (g) => `TIL: ${g.adj()} ${g.nouns()} in ${g.tool()}`,
    (g) => `Looking for advice on ${g.topic()}`,
    (g) => `Best resources for learning ${g.topic()}?`,
    (g) => `Anyone going to the ${g.topic()} conference in ${g.city()}?`,
    () => 'Weekly wins thread',
    (g) => `Unpopular opinion: ${g.topic()} is ${g.adj()}`,
    (g) => `${capitalize(g.ing())} ${g.nouns()} at scale`,
    (g) => `What ${g.noun()} do you wish you had known about sooner?`,
  ],
  events: [
    (g) => `Recap: ${g.topic()} workshop`,
    (g) => `Who's coming to the ${g.city()} meetup?`,
    (g) => `Slides from the ${g.topic()} talk`,
    (g) => `Call for speakers: ${g.topic()} night`,
    (g) => `Photos from ${g.city()}`,
  ],
  'show-and-tell': [
    (g) => `I built ${g.a(g.adj())} ${g.noun()} for ${g.topic()}`,
    (g) => `Show & Tell: ${g.codename()}, a ${g.tool()} plugin`,
    (g) => `My first ${g.topic()} side project`,
    (g) => `Open-sourced: ${g.codename().toLowerCase()}`,
    (g) => `Feedback wanted on my ${g.noun()} redesign`,
  ],
  jobs: [
    (g) => `[Hiring] ${g.role()} at ${g.company()} (${g.city()} / remote)`,
    (g) => `[Looking] ${g.role()}, open to ${g.topic()} roles`,
    (g) => `Contract gig: ${g.topic()} help needed`,
  ],
  hackathon: [
    (g) => `Team ${g.codename()}: ${g.adj()} ${g.nouns()} for ${g.topic()}`,
    () => 'Hackathon rules and judging',
    (g) => `Looking for teammates: ${g.topic()}`,
    (g) => `Submission: ${g.codename()}`,
  ],
  help: [
    (g) => `Help: ${g.noun()} ${g.verb3()} after ${g.ing()} ${g.tool()}`,
    (g) => `Stuck on ${g.topic()}`,
    (g) => `Why does my ${g.noun()} keep ${g.ing()}?`,
  ],
  introductions: [
    (g) => `Hi from ${g.city()}!`,
    (g) => `Hello, I'm ${g.firstName()}, ${g.a(g.role())}`,
    (g) => `New here: ${g.topic()} person from ${g.city()}`,
  ],
  random: [
    () => 'What are you reading this week?',
    () => 'Pets of the community',
    (g) => `${capitalize(g.adj())} ${g.noun()} photos`,
    (g) => `Hot take: ${g.nouns()} are ${g.adj()}`,
  ],
  learning: [
    (g) => `Free course on ${g.topic()}`,
    (g) => `${g.topic()} cheat sheet`,
    (g) => `Reading list: ${g.adj()} ${g.nouns()}`,
  ],
};

export function postTitle(g: TextGen, kind: FeedKind): string {
  return g.random.pick(TITLES[kind])(g);
}
