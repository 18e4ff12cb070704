// A bulk command's heap kept near what it holds: V8 lets a heap grow to up to four times its live size after each
// full collection, and an import allocates far more than it keeps (records, rows and fragments freed chunk by chunk).
import { setFlagsFromString } from 'node:v8';

/**
 * Each full collection sets the next limit at (1 + percent/100) times the live heap (V8's `--heap-growing-percent`,
 * read again at every collection, so it applies from the next one on, to every thread's heap). For a command's own
 * process only: a server keeps V8's default.
 */
export function limitHeapGrowth(percent: number): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
