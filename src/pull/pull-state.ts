// Where an unfinished pull stands, kept on disk beside the records fetched so far, so that a failed run
// resumes at the page it stopped on. The token is never written.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  appendFileSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { PullError } from './remote-api.js';

export interface PullState {
  version: 1;
  /** The admin root pulled from, and the community pulled into. */
  from: string;
  community: string;
  /** The stream being read (see pull.service.ts) and its next page. */
  stream: number;
  page: number;
  /** Bytes of the spool that belong to pages already done; anything after is a half-written page. */
  spoolBytes: number;
  /** Feeds seen so far: their posts are streams of their own. */
  feeds: { id: string; label: string }[];
  /** Records fetched so far, by kind. */
  fetched: Record<string, number>;
}

export interface PullFiles {
  dir: string;
  state: string;
  spool: string;
}

export function pullFiles(dir: string): PullFiles {
  return { dir, state: join(dir, 'state.json'), spool: join(dir, 'records.ndjson') };
}

export const freshState = (from: string, community: string): PullState => ({
  version: 1,
  from,
  community,
  stream: 0,
  page: 0,
  spoolBytes: 0,
  feeds: [],
  fetched: {},
});

/** The saved state (with the spool cut back to its last whole page), or null when none is saved. */
export function loadState(files: PullFiles): PullState | null {
  if (!existsSync(files.state)) return null;
  let state: PullState;
  try {
    state = JSON.parse(readFileSync(files.state, 'utf8')) as PullState;
  } catch {
    throw new PullError(`${files.state} is not a pull state; remove ${files.dir} or pass --restart.`);
  }
  if (state.version !== 1) throw new PullError(`${files.state} is from another version of Hearth; pass --restart.`);
  const size = existsSync(files.spool) ? statSync(files.spool).size : 0;
  if (size < state.spoolBytes)
    throw new PullError(`${files.spool} is shorter than ${files.state} says; pass --restart.`);
  if (size > state.spoolBytes) truncateSync(files.spool, state.spoolBytes);
  return state;
}

/** Appends one page's lines, then records the new position; the state is replaced atomically. */
export function savePage(files: PullFiles, state: PullState, lines: string[]): void {
  mkdirSync(files.dir, { recursive: true });
  const text = lines.map((line) => `${line}\n`).join('');
  appendFileSync(files.spool, text);
  state.spoolBytes += Buffer.byteLength(text);
  writeFileSync(`${files.state}.tmp`, JSON.stringify(state));
  renameSync(`${files.state}.tmp`, files.state);
}

export function discard(files: PullFiles): void {
  rmSync(files.dir, { recursive: true, force: true });
}
