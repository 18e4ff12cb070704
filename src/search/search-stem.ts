// Stemming for highlighting: an approximation of the indexes' stemmers (FTS5 porter, PostgreSQL Snowball English).

/** Lowercase with diacritics removed: how both indexes compare letters. */
export const foldWord = (word: string): string => word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

function isVowelAt(w: string, i: number): boolean {
  const c = w.charAt(i);
  if ('aeiou'.includes(c)) return true;
  return c === 'y' && i > 0 && !isVowelAt(w, i - 1);
}

function measure(w: string): number {
  let m = 0;
  for (let i = 1; i < w.length; i += 1) if (!isVowelAt(w, i) && isVowelAt(w, i - 1)) m += 1;
  return m;
}

const hasVowel = (w: string): boolean => [...w].some((_, i) => isVowelAt(w, i));
const endsCvc = (w: string): boolean => {
  const n = w.length;
  return (
    n >= 3 && !isVowelAt(w, n - 3) && isVowelAt(w, n - 2) && !isVowelAt(w, n - 1) && !'wxy'.includes(w.charAt(n - 1))
  );
};

function afterSuffixRemoved(w: string): string {
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  const last = w.charAt(w.length - 1);
  if (w.length >= 2 && last === w.charAt(w.length - 2) && !isVowelAt(w, w.length - 1) && !'lsz'.includes(last)) {
    return w.slice(0, -1);
  }
  return measure(w) === 1 && endsCvc(w) ? `${w}e` : w;
}

/**
 * Folds a word and strips English inflections: Porter's step 1 (-s, -es, -ies, -ed, -ing,
 * with its doubling and -e rules, `running` → `run`, `hoping` → `hope`, -y → -i) plus -ly.
 * It approximates the index stemmers (FTS5 porter, PostgreSQL Snowball English): a word the
 * index matches by a deeper rule (`connection` for `connect`) is not highlighted.
 */
export function stem(word: string): string {
  let w = foldWord(word);
  // No English word is longer than 40 letters; the bound also keeps isVowelAt's recursion shallow.
  if (w.length <= 2 || w.length > 40 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    for (const suffix of ['ed', 'ing']) {
      const base = w.slice(0, -suffix.length);
      if (w.endsWith(suffix) && hasVowel(base)) {
        w = afterSuffixRemoved(base);
        break;
      }
    }
  }
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  const adverbBase = w.slice(0, -2);
  if (w.endsWith('li') && adverbBase.length >= 3 && measure(adverbBase) > 0) w = adverbBase;
  return w;
}
