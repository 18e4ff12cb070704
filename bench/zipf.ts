// Zipf draws for the realistic workloads: a seeded generator, ranks drawn with s ≈ 1, and the search-zipf queries.
import { TOPICS } from '../src/demo/names.js';
import { vocabulary } from '../src/demo/vocabulary.js';

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Draws ranks 0..n-1 with P(rank r) ∝ 1 / (r + 1)^s, by the inverse of the continuous approximation of the
 * cumulative sum (exact enough for a workload; for s = 1 it is n^u - 1, rounded down).
 */
export function zipf(n: number, s: number, random: () => number): () => number {
  if (n <= 1) return () => 0;
  if (Math.abs(s - 1) < 1e-9) return () => Math.min(n - 1, Math.floor((n + 1) ** random() - 1));
  const top = ((n + 1) ** (1 - s) - 1) / (1 - s);
  return () => Math.min(n - 1, Math.floor((1 + random() * top * (1 - s)) ** (1 / (1 - s)) - 1));
}

/**
 * The words a site search box receives, most asked first: the demo's words in the order its generator favours
 * them (its first nouns, verbs, adjectives and adverbs most often, the rare tails last), interleaved so that
 * every part of speech has common and rare members.
 */
export function searchVocabulary(): string[] {
  const lists = [vocabulary.nouns, vocabulary.verbs, vocabulary.adjectives, vocabulary.adverbs];
  const words: string[] = [];
  const seen = new Set<string>();
  const longest = Math.max(...lists.map((list) => list.length));
  for (let i = 0; i < longest; i++)
    for (const list of lists) {
      const word = list[i];
      if (word !== undefined && !seen.has(word)) {
        seen.add(word);
        words.push(word);
      }
    }
  return words;
}

/** The shares of search-zipf's queries by form (they add up to 1). */
export const SEARCH_ZIPF_SHARES = { oneWord: 0.45, twoWords: 0.2, threeWords: 0.1, phrase: 0.15, or: 0.1 } as const;

/**
 * `count` queries as a site's search box receives them: words drawn Zipf (s = 1) over `searchVocabulary()`;
 * 45% one word, 20% two words, 10% three words (all required), 15% quoted phrases (the demo's multi-word
 * topics, drawn Zipf too) and 10% two words joined by OR. Deterministic for a seed; repeats happen as they do.
 */
export function searchZipfQueries(count: number, seed: number): string[] {
  const random = seeded(seed);
  const words = searchVocabulary();
  const word = zipf(words.length, 1, random);
  const phrases = TOPICS.filter((topic) => topic.includes(' '));
  const phrase = zipf(phrases.length, 1, random);
  const draw = (n: number) => Array.from({ length: n }, () => words[word()] ?? '').join(' ');
  const { oneWord, twoWords, threeWords, phrase: phraseShare } = SEARCH_ZIPF_SHARES;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const u = random();
    if (u < oneWord) out.push(draw(1));
    else if (u < oneWord + twoWords) out.push(draw(2));
    else if (u < oneWord + twoWords + threeWords) out.push(draw(3));
    else if (u < oneWord + twoWords + threeWords + phraseShare) out.push(`"${phrases[phrase()] ?? ''}"`);
    else out.push(`${draw(1)} OR ${draw(1)}`);
  }
  return out;
}
