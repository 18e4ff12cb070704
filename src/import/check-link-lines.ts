// The lines of a file that name records it does not define (yet), by record, kept in typed arrays off the
// JavaScript heap: into a populated community every comment names an author only the store holds.
import { linkKey, type Link, type LinkGroup } from './plan.js';

/** One record named: where its lines start and end in the pool, and how many it keeps. */
interface Chain {
  readonly table: Link['table'];
  readonly id: string;
  head: number;
  tail: number;
  count: number;
}

/**
 * Lines and roles of links, grouped by the record they name (`table:id`), at most `limit` lines a record (the
 * first ones). Each line is a slot of three typed arrays (line number, role, next slot of its record): 10 bytes,
 * where a line and a role in two JavaScript arrays took several times that in heap and kept the garbage collector
 * busy (measured: bench/analysis.md, 'Figures behind the code's choices').
 */
export class LinkLines {
  private lines = new Int32Array(1024);
  private roles = new Uint16Array(1024);
  private next = new Int32Array(1024);
  private used = 0;
  private readonly roleNames: string[] = [];
  private readonly roleNumbers = new Map<string, number>();
  private readonly chains = new Map<string, Chain>();

  constructor(private readonly limit = Number.POSITIVE_INFINITY) {}

  /** Notes a link under its record, unless the record keeps `limit` lines already. */
  add(link: Link): void {
    const key = linkKey(link.table, link.id);
    let chain = this.chains.get(key);
    if (!chain) {
      chain = { table: link.table, id: link.id, head: -1, tail: -1, count: 0 };
      this.chains.set(key, chain);
    }
    if (chain.count >= this.limit) return;
    const slot = this.claim();
    this.lines[slot] = link.line;
    this.roles[slot] = this.roleNumber(link.role);
    this.next[slot] = -1;
    if (chain.tail < 0) chain.head = slot;
    else this.next[chain.tail] = slot;
    chain.tail = slot;
    chain.count++;
  }

  /**
   * Forgets a record the file went on to define: its lines are never asked for. (Their slots stay used: the pool is
   * never compacted, and a slot is 10 bytes.)
   */
  forget(table: Link['table'], id: string): void {
    this.chains.delete(linkKey(table, id));
  }

  /** Every record named, with its `table:id` key. */
  *records(): IterableIterator<{ key: string; table: Link['table']; id: string }> {
    for (const [key, { table, id }] of this.chains) yield { key, table, id };
  }

  /** The records of `keys` named here, each with its lines and their roles in the order they were added. */
  groupsOf(keys: readonly string[]): LinkGroup[] {
    return keys.flatMap((key) => {
      const chain = this.chains.get(key);
      if (!chain) return [];
      const group: LinkGroup = { table: chain.table, id: chain.id, lines: [], roles: [] };
      for (let slot = chain.head; slot >= 0; slot = this.next[slot] ?? -1) {
        group.lines.push(this.lines[slot] ?? 0);
        group.roles.push(this.roleNames[this.roles[slot] ?? 0] ?? '');
      }
      return [group];
    });
  }

  private roleNumber(role: string): number {
    let number = this.roleNumbers.get(role);
    if (number === undefined) {
      number = this.roleNames.push(role) - 1;
      if (number > 0xffff) throw new Error('Too many kinds of link');
      this.roleNumbers.set(role, number);
    }
    return number;
  }

  /** A free slot, the pool doubled when full. */
  private claim(): number {
    if (this.used === this.lines.length) {
      const grow = <T extends Int32Array | Uint16Array>(from: T, to: T): T => {
        to.set(from);
        return to;
      };
      const size = this.lines.length * 2;
      this.lines = grow(this.lines, new Int32Array(size));
      this.roles = grow(this.roles, new Uint16Array(size));
      this.next = grow(this.next, new Int32Array(size));
    }
    return this.used++;
  }
}
