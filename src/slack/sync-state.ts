// Where an unfinished `hearth slack sync` stands, kept on disk beside the pages fetched so far (as pull-state.ts
// does for `hearth pull`): the phase, the channel, its cursor, the threads still to read. A failed run resumes at
// the page it stopped on. The token is never written here.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export class SlackSyncError extends Error {}

export interface SyncChannel {
  id: string;
  name: string;
  /** Only messages newer than this `ts` are fetched (--since, or the newest held less the re-read window); null fetches all. */
  oldest: string | null;
  /**
   * The newest message Hearth held of the channel (post or reply) when a later sync began, or null: a thread whose
   * parent is at or before it is read again only when its `latest_reply` is after it.
   */
  held?: string | null;
}

export interface SyncState {
  version: 1;
  community: string;
  /** The workspace (team id) and its domain, from auth.test. */
  team: string;
  domain: string | null;
  phase: 'users' | 'channels' | 'messages' | 'fetched';
  /** Next page of the users list. */
  cursor: string;
  channels: SyncChannel[];
  /** The channel being read, and where: its history's next page, or its threads and the next page of one. */
  channel: number;
  step: 'history' | 'replies';
  historyCursor: string;
  threads: string[];
  thread: number;
  threadCursor: string;
  spoolBytes: number;
  fetched: { users: number; channels: number; messages: number };
}

export interface SyncFiles {
  dir: string;
  state: string;
  spool: string;
}

export const syncFiles = (dir: string): SyncFiles => ({
  dir,
  state: join(dir, 'state.json'),
  spool: join(dir, 'pages.ndjson'),
});

export const freshSyncState = (community: string, team: string, domain: string | null): SyncState => ({
  version: 1,
  community,
  team,
  domain,
  phase: 'users',
  cursor: '',
  channels: [],
  channel: 0,
  step: 'history',
  historyCursor: '',
  threads: [],
  thread: 0,
  threadCursor: '',
  spoolBytes: 0,
  fetched: { users: 0, channels: 0, messages: 0 },
});

/** The saved state (its spool cut back to the last whole page), or null when none is saved. */
export function loadSyncState(files: SyncFiles): SyncState | null {
  if (!existsSync(files.state)) return null;
  let state: SyncState;
  try {
    state = JSON.parse(readFileSync(files.state, 'utf8')) as SyncState;
  } catch {
    throw new SlackSyncError(`${files.state} is not a sync state; remove ${files.dir} or pass --restart.`);
  }
  if (state.version !== 1)
    throw new SlackSyncError(`${files.state} is from another version of Hearth; pass --restart.`);
  const size = existsSync(files.spool) ? statSync(files.spool).size : 0;
  if (size < state.spoolBytes)
    throw new SlackSyncError(`${files.spool} is shorter than ${files.state} says; pass --restart.`);
  if (size > state.spoolBytes) truncateSync(files.spool, state.spoolBytes);
  return state;
}

/** Appends a page (one line), then records the new position; the state file is replaced atomically. */
export function savePage(files: SyncFiles, state: SyncState, page: object | null): void {
  mkdirSync(files.dir, { recursive: true, mode: 0o700 });
  if (page !== null) {
    const text = `${JSON.stringify(page)}\n`;
    appendFileSync(files.spool, text, { mode: 0o600 });
    state.spoolBytes += Buffer.byteLength(text);
  }
  writeFileSync(`${files.state}.tmp`, JSON.stringify(state), { mode: 0o600 });
  renameSync(`${files.state}.tmp`, files.state);
}

export function discardSync(files: SyncFiles): void {
  rmSync(files.dir, { recursive: true, force: true });
}
