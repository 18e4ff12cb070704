// A cache bounded in bytes that lets go first of what is cheapest to make again per byte it holds (GreedyDual-Size, Cao
// and Irani 1997): a search answer that took 40 ms to rank outlives many by-id answers spliced in 50 µs each.
//
// Each entry's priority is `floor + cost / size`, set when it is kept and again at each read; the entry of least
// priority leaves first (of equal ones, the least recently used), and the floor rises to the priority of each entry
// that leaves. So an entry not read since ages out, the costlier the slower; where every entry costs alike per byte,
// this is a least-recently-used cache. (Counting reads into the priority, as GDSF does, was tried: answers read
// thousands of times in a past burst outlived everything newer, and a bench workload of deep feed pages went from
// nearly every answer kept to almost none.) A read raises its entry's priority without touching the heap: the heap's
// keys may be stale, and an entry found below its own priority is put back rather than let go.

/** What an entry costs to make again, in any unit the caller uses throughout (the answer cache: milliseconds). */
export type Cost = number;

interface Slot<V> {
  value: V;
  /** Bytes counted against the bound. */
  size: number;
  /** Bytes the priority divides the cost by (the entry's own bytes; forms made later add to `size` only). */
  weight: number;
  cost: Cost;
  priority: number;
  /** When last set or read: of two equal priorities, the older leaves first. */
  used: number;
}

interface Queued<V> {
  slot: Slot<V>;
  key: string;
  priority: number;
  used: number;
}

const before = <V>(a: Queued<V>, b: Queued<V>): boolean =>
  a.priority < b.priority || (a.priority === b.priority && a.used < b.used);

export interface CostAwareCacheOptions<V> {
  maxSize: number;
  /** The bytes `value` holds under `key`, counted against `maxSize`. */
  sizeOf(value: V, key: string): number;
  /** The bytes the priority weighs (default: `sizeOf`). */
  weightOf?(value: V, key: string): number;
}

export class CostAwareCache<V> {
  readonly #slots = new Map<string, Slot<V>>();
  #heap: Queued<V>[] = [];
  #floor = 0;
  #bytes = 0;
  #clock = 0;
  readonly #options: CostAwareCacheOptions<V>;

  constructor(options: CostAwareCacheOptions<V>) {
    this.#options = options;
  }

  get size(): number {
    return this.#slots.size;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The value under `key`, counted as a read (its priority is set again from the floor). */
  get(key: string): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    slot.priority = this.#floor + slot.cost / slot.weight;
    slot.used = ++this.#clock;
    return slot.value;
  }

  /** The value under `key`, without counting a read. */
  peek(key: string): V | undefined {
    return this.#slots.get(key)?.value;
  }

  /**
   * Keeps `value` under `key`. `cost` is what making it again would cost; without one, a value set again under a kept
   * key keeps its cost and priority (a compressed form added to an answer), and a new one costs 0 (it leaves first).
   */
  set(key: string, value: V, cost?: Cost): void {
    const size = this.#options.sizeOf(value, key);
    const old = this.#slots.get(key);
    if (old !== undefined) this.#drop(key, old);
    if (size > this.#options.maxSize) return;
    const weight = Math.max(1, this.#options.weightOf?.(value, key) ?? size);
    const kept = cost === undefined ? (old?.cost ?? 0) : cost;
    const slot: Slot<V> = {
      value,
      size,
      weight,
      cost: kept,
      priority: cost === undefined && old !== undefined ? old.priority : this.#floor + kept / weight,
      used: ++this.#clock,
    };
    this.#slots.set(key, slot);
    this.#bytes += size;
    this.#push({ slot, key, priority: slot.priority, used: slot.used });
    while (this.#bytes > this.#options.maxSize) this.#evictOne();
    // Entries set again leave stale places in the heap: rebuilt from the kept slots when they outnumber them.
    if (this.#heap.length > 2 * this.#slots.size + 1024) this.#rebuild();
  }

  delete(key: string): void {
    const slot = this.#slots.get(key);
    if (slot !== undefined) this.#drop(key, slot);
  }

  clear(): void {
    this.#slots.clear();
    this.#heap = [];
    this.#bytes = 0;
    this.#floor = 0;
  }

  #drop(key: string, slot: Slot<V>): void {
    this.#slots.delete(key);
    this.#bytes -= slot.size;
    // A stale place in the heap may still point at the slot: it must not keep the value alive.
    slot.value = undefined as V;
  }

  #evictOne(): void {
    for (;;) {
      const top = this.#pop();
      if (top === undefined) return;
      const { slot, key } = top;
      // A place left by an entry since dropped or set again.
      if (this.#slots.get(key) !== slot) continue;
      // Read since it was queued: queued again at its own priority.
      if (slot.priority !== top.priority || slot.used !== top.used) {
        this.#push({ slot, key, priority: slot.priority, used: slot.used });
        continue;
      }
      this.#floor = Math.max(this.#floor, slot.priority);
      this.#drop(key, slot);
      return;
    }
  }

  #rebuild(): void {
    this.#heap = [];
    for (const [key, slot] of this.#slots) this.#push({ slot, key, priority: slot.priority, used: slot.used });
  }

  #push(item: Queued<V>): void {
    const heap = this.#heap;
    let i = heap.length;
    heap.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent] as Queued<V>;
      if (!before(item, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = item;
  }

  #pop(): Queued<V> | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right] as Queued<V>, heap[left] as Queued<V>) ? right : left;
      const below = heap[child] as Queued<V>;
      if (!before(below, last)) break;
      heap[i] = below;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
