// Seeded pseudo-random numbers and identifiers for the demo data: the same seed gives the same sequence everywhere.

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** FNV-1a over a label, mixed with a seed: independent streams per section keep one change from shifting all output. */
export function mixSeed(seed: number, label: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** mulberry32: tiny and fast; plenty for sample data, never for secrets. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  u32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** An integer in [0, max). */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  /** An integer in [min, max], both included. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return at(items, this.int(items.length));
  }

  /** Favours the front of the list (power > 1), the way a few words and a few people dominate real chatter. */
  skewed<T>(items: readonly T[], power = 2): T {
    return at(items, Math.floor(items.length * this.next() ** power));
  }

  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of choices) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return at(choices, choices.length - 1)[0];
  }

  chars(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet.charAt(this.int(alphabet.length));
    return out;
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const a = this.u32();
    const b = this.u32();
    const c = this.u32();
    const d = this.u32();
    return (
      `${hex4(a >>> 16)}${hex4(a & 0xffff)}-${hex4(b >>> 16)}-${hex4(0x4000 | (b & 0x0fff))}-` +
      `${hex4(0x8000 | (c >>> 18))}-${hex4(c & 0xffff)}${hex4(d >>> 16)}${hex4(d & 0xffff)}`
    );
  }

  fork(label: string): Random {
    return new Random(mixSeed(this.u32(), label));
  }
}

const HEX_BYTES = Array.from({ length: 256 }, (_, n) => n.toString(16).padStart(2, '0'));
const hex4 = (n: number): string => (HEX_BYTES[n >>> 8] ?? '00') + (HEX_BYTES[n & 0xff] ?? '00');

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`no item at ${index} of ${items.length}`);
  return item;
}

const HALF = 36 ** 3;
const SPACE = HALF * HALF;

/**
 * 12-character ids of [a-z0-9], unique by construction: six characters encode the counter through a
 * keyed Feistel permutation of [0, 36^6), interleaved with six random ones. A Set of millions of ids
 * would cost more than the records.
 */
export class ShortIds {
  private counter = 0;
  private readonly keys: number[];

  constructor(private readonly random: Random) {
    this.keys = [random.u32(), random.u32(), random.u32(), random.u32()];
  }

  /** A bijection on [0, 36^6): each round only adds a keyed hash of one half to the other. */
  private permute(n: number): number {
    let left = Math.floor(n / HALF);
    let right = n % HALF;
    for (const key of this.keys) {
      const mixed = Math.imul(right ^ key, 0x9e3779b1);
      const next = (left + ((mixed ^ (mixed >>> 15)) >>> 0)) % HALF;
      left = right;
      right = next;
    }
    return left * HALF + right;
  }

  next(): string {
    if (this.counter >= SPACE) throw new RangeError('short id space exhausted');
    let n = this.permute(this.counter++);
    let id = '';
    for (let i = 0; i < 6; i++) {
      id += LOWER_ALNUM.charAt(this.random.int(36)) + LOWER_ALNUM.charAt(n % 36);
      n = Math.floor(n / 36);
    }
    return id;
  }
}

/** Random ids with a fixed prefix, retried on the (rare) collision; for the thousands of chat users and channels. */
export class ChatIds {
  private readonly seen = new Set<string>();

  constructor(private readonly random: Random) {}

  next(prefix: string): string {
    for (;;) {
      const id = prefix + this.random.chars(UPPER_ALNUM, 9);
      if (!this.seen.has(id)) {
        this.seen.add(id);
        return id;
      }
    }
  }
}
