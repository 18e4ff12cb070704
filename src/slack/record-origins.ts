// Where each record a Slack export import hands to the import came from (a user, a channel, a message of a day
// file), so that a record the import refuses is named by its ZIP entry and its place there, not by its line in the
// converted stream: "general/2024-01-02.json: message 7 (ts 1704200000.000100): <problem>".
import { isRecord } from '../content/loose-json.js';
import { ImportError, type ImportProblem } from '../import/problems.js';

/** How a record of the users' or channels' lists is named: `user U…`, `channel C… (#name)`. */
export function originOfStart(record: Record<string, unknown>): string {
  return record.kind === 'feed'
    ? `channel ${String(record.chat_channel_id)} (#${String(record.label)})`
    : `user ${String(record.chat_user_id)}`;
}

export class RecordOrigins {
  /**
   * Per line (from 1): the message's position in its entry (from 1), or 0 for a line named in `named`. A typed array
   * grown by doubling, not a `number[]`: one entry per message of the export, it was the largest thing the import's
   * thread kept (11 MB of a 60 MB heap 90 s into a 1M export), and V8 lets a heap grow to a multiple of what it keeps.
   */
  private messages = new Uint32Array(1 << 16);
  /** Lines noted so far, plus one (line numbers start at 1). */
  private length = 1;
  private readonly named = new Map<number, string>();
  /**
   * The entries, each with the first line of a run of its records, as two lists (no object each): a day file is
   * entered again for each run of thread parents handed over after later files' replies (thread-hold.ts).
   */
  private readonly entries: { names: string[]; firsts: number[] } = { names: [], firsts: [] };

  /** The next line comes from the users' or channels' lists: `what` names it. */
  noteListed(what: string): void {
    this.named.set(this.length, what);
    this.push(0);
  }

  /**
   * The next line comes from the message at `position` (from 1) of `entry` (a day file, a page of the Web API),
   * entered when it is not the entry of the line before.
   */
  noteMessage(entry: string, position: number): void {
    const { names, firsts } = this.entries;
    if (names[names.length - 1] !== entry) {
      names.push(entry);
      firsts.push(this.length);
    }
    this.push(position);
  }

  private push(position: number): void {
    if (this.length === this.messages.length) {
      const grown = new Uint32Array(this.messages.length * 2);
      grown.set(this.messages);
      this.messages = grown;
    }
    this.messages[this.length++] = position;
  }

  private entryOf(line: number): string | undefined {
    const { names, firsts } = this.entries;
    let low = 0;
    let high = firsts.length - 1;
    let found: string | undefined;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const first = firsts[mid];
      if (first === undefined) break;
      if (first <= line) {
        found = names[mid];
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  }

  /**
   * The import's refusal with each problem named by where its record came from; `readEntry` reads a day file again
   * (only those named) for its messages' `ts`.
   */
  async rename(error: ImportError, readEntry: (name: string) => Promise<unknown[]>): Promise<ImportError> {
    const read = new Map<string, unknown[]>();
    const problems: ImportProblem[] = [];
    for (const problem of error.problems) {
      const origin = await this.originOf(problem.line, read, readEntry);
      problems.push(origin === null ? problem : { line: 0, reason: `${origin}: ${problem.reason}` });
    }
    return new ImportError(problems, '', error.truncated);
  }

  private async originOf(
    line: number,
    read: Map<string, unknown[]>,
    readEntry: (name: string) => Promise<unknown[]>,
  ): Promise<string | null> {
    const named = this.named.get(line);
    if (named !== undefined) return named;
    const position = line > 0 && line < this.length ? this.messages[line] : undefined;
    const entry = this.entryOf(line);
    if (position === undefined || position === 0 || entry === undefined) return null;
    let messages = read.get(entry);
    if (messages === undefined) {
      messages = await readEntry(entry);
      read.set(entry, messages);
    }
    const message = messages[position - 1];
    const ts = isRecord(message) && typeof message.ts === 'string' ? ` (ts ${message.ts})` : '';
    return `${entry}: message ${position}${ts}`;
  }
}
