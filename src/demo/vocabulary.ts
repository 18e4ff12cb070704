// The demo's vocabulary: every word list with its inflected forms, and where its rare words begin.
import { ADJECTIVES, ADVERBS, NOUNS, VERBS } from './words.js';

const VOWEL = /^[aeiou]/;
const SIBILANT = /(s|x|z|ch|sh)$/;
const CONSONANT_Y = /[^aeiou]y$/;

function plural(noun: string): string {
  if (SIBILANT.test(noun)) return `${noun}es`;
  if (CONSONANT_Y.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

function thirdPerson(verb: string): string {
  if (SIBILANT.test(verb) || verb.endsWith('o')) return `${verb}es`;
  if (CONSONANT_Y.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function regularPast(verb: string): string {
  if (verb.endsWith('e')) return `${verb}d`;
  if (CONSONANT_Y.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

function regularGerund(verb: string): string {
  if (verb.endsWith('e') && !verb.endsWith('ee')) return `${verb.slice(0, -1)}ing`;
  return `${verb}ing`;
}

export interface Vocabulary {
  nouns: string[];
  nounPlurals: string[];
  verbs: string[];
  verbs3rd: string[];
  verbsPast: string[];
  verbsIng: string[];
  adjectives: string[];
  adverbs: string[];
  /** Index of the first rare word in each list: the generator draws those uniformly and seldom. */
  rareFrom: { nouns: number; verbs: number; adjectives: number; adverbs: number };
}

function unique(words: string[]): string[] {
  return [...new Set(words)];
}

/** One entry per base word; a later entry that spells out irregular forms wins. */
function byBase(entries: string[]): string[] {
  const found = new Map<string, string>();
  for (const entry of entries) {
    const base = entry.split('/')[0] ?? entry;
    if (!found.has(base) || entry.includes('/')) found.set(base, entry);
  }
  return [...found.values()];
}

function build(): Vocabulary {
  const nouns: string[] = [];
  const nounPlurals: string[] = [];
  for (const entry of byBase(NOUNS)) {
    const [singular = entry, many] = entry.split('/');
    nouns.push(singular);
    nounPlurals.push(many ?? plural(singular));
  }
  const verbs: string[] = [];
  const verbs3rd: string[] = [];
  const verbsPast: string[] = [];
  const verbsIng: string[] = [];
  for (const entry of byBase(VERBS)) {
    const [base = entry, past, gerund] = entry.split('/');
    verbs.push(base);
    verbs3rd.push(thirdPerson(base));
    verbsPast.push(past ?? regularPast(base));
    verbsIng.push(gerund ?? regularGerund(base));
  }
  const adjectives = unique(ADJECTIVES);
  const adverbs = unique(ADVERBS);
  const rareFrom = {
    nouns: firstIndex(nouns, 'palimpsest'),
    verbs: firstIndex(verbs, 'extrapolate'),
    adjectives: firstIndex(adjectives, 'ephemeral'),
    adverbs: firstIndex(adverbs, 'inexorably'),
  };
  return { nouns, nounPlurals, verbs, verbs3rd, verbsPast, verbsIng, adjectives, adverbs, rareFrom };
}

function firstIndex(words: string[], marker: string): number {
  const index = words.indexOf(marker);
  if (index < 0) throw new Error(`vocabulary marker '${marker}' is missing`);
  return index;
}

export const vocabulary: Vocabulary = build();

export const article = (word: string): string => (VOWEL.test(word) ? 'an' : 'a');
