// The share of long work done when it runs in phases of known shares of its time: the time left then counts the
// phases still to come (an import's writes after its reading), not only the one under way.

/** Phases in order, each with its share of the whole time (the shares add up to 1). */
export type Phases = readonly (readonly [phase: string, share: number])[];

/** The most of its share a phase that cannot tell its progress is assumed to have done. */
export const UNTOLD_CAP = 0.95;

/**
 * Returns the share of the whole done, given the phase under way, how much of it is done (null when it cannot
 * tell) and the seconds since the work began; null while nothing tells it. A phase that cannot tell is assumed to
 * take its share at the pace of the phases before it, and is never taken for done before the next one begins: one
 * running late stays at UNTOLD_CAP of its share, the time left a small part of the time spent.
 */
export function phasedFraction(phases: Phases): (phase: string, done: number | null, seconds: number) => number | null {
  let current = -1;
  let startedAt = 0;
  return (phase, done, seconds) => {
    const index = phases.findIndex(([name]) => name === phase);
    if (index < 0) return null;
    if (index !== current) {
      current = index;
      startedAt = seconds;
    }
    // Phases skipped count as done: they took none of the time.
    const before = phases.slice(0, index).reduce((sum, [, share]) => sum + share, 0);
    const share = phases[index]?.[1] ?? 0;
    if (done !== null) return before + share * Math.min(1, Math.max(0, done));
    if (before === 0) return null;
    const expected = (startedAt * share) / before;
    return before + share * (expected > 0 ? Math.min(UNTOLD_CAP, (seconds - startedAt) / expected) : UNTOLD_CAP);
  };
}
