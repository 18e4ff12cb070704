// A set of ids that keeps each short id (12 characters of [a-z0-9]) as two 32-bit numbers in typed arrays, outside
// the JavaScript heap: ~16 bytes an id instead of a string and a Set entry (~55). Other strings go in a plain Set.

const EMPTY = 0;
const HALF = 6;
const FIRST_CAPACITY = 1024;

/** The base-36 value of six characters of [a-z0-9] from `start`, or -1 when one is outside it or `id` is no short id. */
function half(id: string, start: number): number {
  if (id.length !== 2 * HALF) return -1;
  let value = 0;
  for (let i = start; i < start + HALF; i++) {
    const code = id.charCodeAt(i);
    let digit: number;
    if (code >= 48 && code <= 57) digit = code - 48;
    else if (code >= 97 && code <= 122) digit = code - 87;
    else return -1;
    value = value * 36 + digit;
  }
  return value;
}

const text = (value: number) => value.toString(36).padStart(HALF, '0');

export class ShortIdSet implements Iterable<string> {
  /** The first half plus one (0 marks a free slot: 36^6 is below 2^32 - 1), and the second half. */
  private high = new Uint32Array(FIRST_CAPACITY);
  private low = new Uint32Array(FIRST_CAPACITY);
  private used = 0;
  private readonly others = new Set<string>();

  get size(): number {
    return this.used + this.others.size;
  }

  add(id: string): this {
    const high = half(id, 0);
    const low = high < 0 ? -1 : half(id, HALF);
    if (low < 0) {
      this.others.add(id);
      return this;
    }
    if ((this.used + 1) * 3 > this.high.length * 2) this.grow();
    if (this.place(high + 1, low)) this.used++;
    return this;
  }

  has(id: string): boolean {
    const high = half(id, 0);
    const low = high < 0 ? -1 : half(id, HALF);
    if (low < 0) return this.others.has(id);
    return this.high[this.slot(high + 1, low)] !== EMPTY;
  }

  /** Every id, short ones in no particular order. */
  *[Symbol.iterator](): Iterator<string> {
    for (let i = 0; i < this.high.length; i++) {
      const high = this.high[i] as number;
      if (high !== EMPTY) yield text(high - 1) + text(this.low[i] as number);
    }
    yield* this.others;
  }

  /** Where the id's probe starts: both halves mixed (murmur3's finaliser), so similar ids spread. */
  private start(high: number, low: number): number {
    let h = Math.imul(high, 0x9e3779b1) ^ low;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  }

  /** The slot holding the id, or the free slot where it would go. */
  private slot(high: number, low: number): number {
    const mask = this.high.length - 1;
    for (let i = this.start(high, low) & mask; ; i = (i + 1) & mask) {
      const here = this.high[i] as number;
      if (here === EMPTY || (here === high && this.low[i] === low)) return i;
    }
  }

  /** Puts the id in its slot; false when it was there. */
  private place(high: number, low: number): boolean {
    const i = this.slot(high, low);
    if (this.high[i] !== EMPTY) return false;
    this.high[i] = high;
    this.low[i] = low;
    return true;
  }

  private grow(): void {
    const { high, low } = this;
    this.high = new Uint32Array(high.length * 2);
    this.low = new Uint32Array(low.length * 2);
    for (let i = 0; i < high.length; i++) if (high[i] !== EMPTY) this.place(high[i] as number, low[i] as number);
  }
}
