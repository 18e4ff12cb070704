// What an import refuses: the problems of a file, each at its line, thrown together as one ImportError.

/** One bad line (or a file-wide problem, line 0) and why. */
export interface ImportProblem {
  line: number;
  reason: string;
}

/** Every problem found in a file (up to `maxProblems`), in line order: one run shows them all. */
export class ImportError extends Error {
  readonly problems: ImportProblem[];
  constructor(
    lineOrProblems: number | ImportProblem[],
    reason = '',
    readonly truncated = false,
  ) {
    const problems = typeof lineOrProblems === 'number' ? [{ line: lineOrProblems, reason }] : lineOrProblems;
    const lines = problems.map((p) => (p.line > 0 ? `line ${p.line}: ${p.reason}` : p.reason));
    const heading = truncated
      ? `At least ${problems.length} problems (the report stops there)`
      : `${problems.length} problems`;
    super(lines.length === 1 && !truncated ? (lines[0] ?? '') : `${heading}:\n${lines.join('\n')}`);
    this.name = 'ImportError';
    this.problems = problems;
  }

  /** The first bad line. */
  get line(): number {
    return this.problems[0]?.line ?? 0;
  }
}

/** A file stops being read after this many problems: enough to fix in one go, bounded on a huge file. */
export const maxProblems = 100;
