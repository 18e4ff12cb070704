// Cheap, varied, roughly grammatical English for demo records: sentence patterns filled from the vocabulary.
import { CITIES, codename, COMPANIES, FIRST_NAMES, LAST_NAMES, ROLES, TOOLS, TOPICS } from './names.js';
import type { Random } from './random.js';
import { article, vocabulary } from './vocabulary.js';
import { DETERMINERS, MODALS, PREPOSITIONS, PRONOUNS, TIME_WORDS } from './words.js';

// A rare word turns up in about one pick in forty: frequent enough to exist in every large demo, rare enough to search for.
const RARE_RATE = 0.025;

export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

// A local reference: the hot word pickers then read a plain object rather than an imported binding.
const v = vocabulary;

type Pattern = (g: TextGen) => string;

/** Sentence shapes; each picks its own words, so two uses of one shape rarely read alike. */
const PATTERNS: readonly Pattern[] = [
  (g) =>
    `${capitalize(g.det())} ${g.adj()} ${g.noun()} ${g.verb3()} the ${g.noun()} ${g.prep()} ${g.det()} ${g.noun()}.`,
  (g) => `We ${g.past()} ${g.a(g.adj())} ${g.noun()} for the ${g.noun()} last ${g.timeWord()}.`,
  (g) => `Has anyone ${g.past()} ${g.nouns()} with ${g.tool()}?`,
  (g) => `I ${g.adv()} ${g.verb()} ${g.nouns()} ${g.prep()} ${g.topic()}.`,
  (g) => `${g.firstName()} ${g.past()} ${g.a(g.adj())} ${g.thing()} about ${g.topic()}.`,
  (g) => `Our ${g.noun()} is ${g.ing()} ${g.prep()} the ${g.adj()} ${g.noun()}.`,
  (g) => `If you ${g.verb()} the ${g.noun()}, ${g.pronoun()} ${g.modal()} ${g.verb()} ${g.nouns()} ${g.adv()}.`,
  (g) => `Looking for ${g.nouns()} on ${g.topic()}, any ${g.adj()} ${g.nouns()} to recommend?`,
  (g) => `${capitalize(g.adv())}, the ${g.noun()} ${g.past()} ${g.prep()} the ${g.noun()}.`,
  (g) => `Thanks for ${g.ing()} the ${g.noun()}, it ${g.past()} ${g.adj()} ${g.nouns()}.`,
  (g) => `Quick question: how do you ${g.verb()} ${g.nouns()} in ${g.tool()}?`,
  (g) => `The ${g.noun()} of ${g.topic()} ${g.verb3()} ${g.adj()} ${g.nouns()} and ${g.adj()} ${g.nouns()}.`,
  (g) => `${capitalize(g.ing())} ${g.nouns()} in ${g.tool()} feels ${g.adj()} at first.`,
  (g) => `We should ${g.verb()} the ${g.thing()} before ${g.timeWord()}.`,
  (g) => `Huge shout-out to everyone who ${g.past()} the ${g.adj()} ${g.noun()}!`,
  (g) => `Next ${g.timeWord()} we will ${g.verb()} ${g.a(g.adj())} ${g.noun()} on ${g.topic()}.`,
  (g) => `Does the ${g.noun()} ${g.verb()} ${g.nouns()}, or do we ${g.verb()} them ${g.adv()}?`,
  (g) => `I found ${g.a(g.adj())} ${g.noun()} while ${g.ing()} the ${g.thing()}.`,
  (g) => `${capitalize(g.topic())} gets ${g.adj()} when the ${g.noun()} ${g.verb3()} ${g.prep()} ${g.nouns()}.`,
  (g) => `My ${g.noun()} ${g.past()} ${g.small()} ${g.nouns()} ${g.prep()} the ${g.noun()} in ${g.city()}.`,
  (g) => `Honestly, ${g.nouns()} are ${g.adv()} ${g.adj()} compared to ${g.nouns()}.`,
  (g) => `Still ${g.ing()} the ${g.adj()} ${g.noun()}; ${g.pronoun()} ${g.modal()} ${g.verb()} it by ${g.timeWord()}.`,
];

export class TextGen {
  constructor(readonly random: Random) {}

  private index(size: number, rareFrom: number): number {
    const r = this.random;
    if (r.next() < RARE_RATE) return rareFrom + r.int(size - rareFrom);
    // Zipf-like: the first words of each list (the everyday ones) come up far more often.
    const x = r.next();
    return Math.floor(rareFrom * x * x);
  }

  noun(): string {
    return v.nouns[this.index(v.nouns.length, v.rareFrom.nouns)] ?? 'thing';
  }
  nouns(): string {
    return v.nounPlurals[this.index(v.nounPlurals.length, v.rareFrom.nouns)] ?? 'things';
  }
  private verbIndex(): number {
    return this.index(v.verbs.length, v.rareFrom.verbs);
  }
  verb(): string {
    return v.verbs[this.verbIndex()] ?? 'try';
  }
  verb3(): string {
    return v.verbs3rd[this.verbIndex()] ?? 'tries';
  }
  past(): string {
    return v.verbsPast[this.verbIndex()] ?? 'tried';
  }
  ing(): string {
    return v.verbsIng[this.verbIndex()] ?? 'trying';
  }
  adj(): string {
    return v.adjectives[this.index(v.adjectives.length, v.rareFrom.adjectives)] ?? 'new';
  }
  adv(): string {
    return v.adverbs[this.index(v.adverbs.length, v.rareFrom.adverbs)] ?? 'really';
  }
  /** A noun, or now and then a made-up project name: the long tail for search. */
  thing(): string {
    return this.random.chance(0.03) ? `${this.codename()} project` : this.noun();
  }
  codename(): string {
    return codename((size) => this.random.int(size), this.random.between(2, 3));
  }
  a(word: string): string {
    return `${article(word)} ${word}`;
  }
  det(): string {
    return this.random.pick(DETERMINERS);
  }
  prep(): string {
    return this.random.pick(PREPOSITIONS);
  }
  pronoun(): string {
    return this.random.pick(PRONOUNS);
  }
  modal(): string {
    return this.random.pick(MODALS);
  }
  timeWord(): string {
    return this.random.pick(TIME_WORDS);
  }
  small(): string {
    return String(this.random.between(2, 12));
  }
  topic(): string {
    return this.random.skewed(TOPICS, 1.5);
  }
  tool(): string {
    return this.random.skewed(TOOLS, 1.5);
  }
  city(): string {
    return this.random.pick(CITIES);
  }
  firstName(): string {
    return this.random.pick(FIRST_NAMES);
  }
  lastName(): string {
    return this.random.pick(LAST_NAMES);
  }
  company(): string {
    return this.random.pick(COMPANIES);
  }
  role(): string {
    return this.random.pick(ROLES);
  }

  sentence(): string {
    return this.random.pick(PATTERNS)(this);
  }

  sentences(count: number): string {
    let text = this.sentence();
    for (let i = 1; i < count; i++) text += ` ${this.sentence()}`;
    return text;
  }

  /** A short phrase for list items: no final stop, as people write bullets. */
  phrase(): string {
    const r = this.random;
    switch (r.int(4)) {
      case 0:
        return `${capitalize(this.verb())} the ${this.adj()} ${this.noun()}`;
      case 1:
        return `${capitalize(this.adj())} ${this.nouns()} for ${this.topic()}`;
      case 2:
        return `${capitalize(this.ing())} ${this.nouns()} with ${this.tool()}`;
      default:
        return `How we ${this.past()} our ${this.noun()}`;
    }
  }
}
