// Thread parents of an export held back until their last reply is read: a post handed to the import after its
// replies gets its comments_count and latest activity from the import's own tally, where one handed over before a
// reply of a later day file is counted again by the store and rendered again (measured: BENCHMARKS.md).
import { compareTs } from './slack-time.js';

/**
 * A record held, as the line handed over (one flat string: held records outlive the young generation, and a
 * string is a fraction of the object it was made from), with where it came from (its day file and its message's
 * place there) and its thread's last reply.
 */
export interface HeldRecord {
  line: string;
  entry: string;
  position: number;
  threadEnd: string;
}

/**
 * Held at most: a parent whose `latest_reply` never comes (a reply deleted, a hostile export) waits until its
 * channel ends, so the hold is bounded; past it the oldest is handed over early, and the store counts its replies.
 */
const MAX_HELD = 10_000;

export class ThreadHold {
  private held: HeldRecord[] = [];

  /** Holds a record; returns the one handed over early to keep the bound, if any. */
  hold(record: HeldRecord): HeldRecord | undefined {
    this.held.push(record);
    return this.held.length > MAX_HELD ? this.held.shift() : undefined;
  }

  /** The records whose last reply is at or before `latestTs` (the latest message read), in the order held. */
  release(latestTs: string): HeldRecord[] {
    const released: HeldRecord[] = [];
    const kept: HeldRecord[] = [];
    for (const held of this.held) (compareTs(held.threadEnd, latestTs) <= 0 ? released : kept).push(held);
    this.held = kept;
    return released;
  }

  /** Every record held (its channel ended), in the order held. */
  releaseAll(): HeldRecord[] {
    const released = this.held;
    this.held = [];
    return released;
  }
}
