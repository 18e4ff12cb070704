// Text that both stores hold alike: PostgreSQL cannot store a NUL character nor half of a UTF-16 pair (SQLite can),
// so every write and every import refuses both, naming where they hide. One iterative walk serves the API's bodies
// (keys and a nesting bound too) and the import's records.

export const NUL_RULE = 'must not contain the NUL character';
export const SURROGATE_RULE = 'must not contain a lone surrogate (half of a UTF-16 pair)';
/** With the `u` flag a pair is one code point: only a lone half matches. */
const loneSurrogate = /\p{Surrogate}/u;

/** The rule a text breaks, or null. */
export function textRule(text: string): string | null {
  if (text.includes('\u0000')) return NUL_RULE;
  return loneSurrogate.test(text) ? SURROGATE_RULE : null;
}

export const depthRule = (maxDepth: number): string => `must not nest arrays and objects more than ${maxDepth} deep`;

export interface TextProblem {
  /** A dotted path (`a.b.0`), '' for the value itself. */
  path: string;
  rule: string;
}

export interface WalkOptions {
  /** Keys are checked as text too (they are stored as text where the value is free-form JSON). */
  keys?: boolean;
  /** The value itself is at depth 1; an array or object deeper than this is refused with `depthRule`. */
  maxDepth?: number;
}

/**
 * The first refusal in a parsed JSON value, or null. Iterative, and it stops at the depth bound: a value may nest
 * deeper than the stack.
 */
export function unstorableIn(value: unknown, options: WalkOptions = {}): TextProblem | null {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const pending: [unknown, string, number][] = [[value, '', 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, path, depth] = next;
    if (typeof current === 'string') {
      const rule = textRule(current);
      if (rule) return { path, rule };
    } else if (typeof current === 'object' && current !== null) {
      if (depth > maxDepth) return { path, rule: depthRule(maxDepth) };
      for (const [key, inner] of Object.entries(current)) {
        const rule = options.keys ? textRule(key) : null;
        if (rule) return { path, rule };
        pending.push([inner, path ? `${path}.${key}` : key, depth + 1]);
      }
    }
  }
  return null;
}
